"""Settings: the only place that reads the environment.

`load_settings()` reads it once at start-up; everything else receives a `Settings` instance.
Invalid values fail with a message naming the variable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class SettingsError(RuntimeError):
    """A setting is missing or invalid; the message names the variable."""


class Settings(BaseSettings):
    """Every knob of the service, read from environment variables of the same (upper-case) name."""

    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore", frozen=True)

    app_env: Literal["development", "test", "production"] = "development"
    database_url: str | None = None
    redis_url: str | None = None
    data_dir: Path = Path(".spotter")

    auth_mode: Literal["dev", "clerk"] = "dev"
    clerk_jwks_url: str | None = None
    clerk_issuer: str | None = None
    clerk_authorized_parties: Annotated[list[str], NoDecode] = Field(default_factory=list)

    agent_model_provider: Literal["anthropic", "offline"] = "anthropic"
    anthropic_api_key: str | None = None
    anthropic_base_url: str | None = None
    anthropic_max_retries: int = Field(default=2, ge=0, le=10)
    anthropic_timeout: float = Field(default=120.0, gt=0)
    # Nutrition pipeline agents: auto = model-backed when the anthropic provider has a key, else offline.
    nutrition_agents: Literal["auto", "offline"] = "auto"
    # The job-queue entrypoint nutrition runs are queued on (a separate app or worker can use its own).
    nutrition_queue: str = Field(default="nutrition_run", min_length=1, max_length=60)
    # Jobs one worker (`spotter worker`, or the one inside `spotter serve`) runs at once; the queue hands them out
    # one org's waiting job after another's (gym/job_queue.py), so a bounded worker is a fair one.
    worker_concurrency: int = Field(default=8, ge=2, le=1000)
    # New turns per user per minute; unset = 30 in production, off elsewhere (0 = off).
    agent_rate_limit_per_minute: int | None = Field(default=None, ge=0)
    agent_titles: bool | None = None  # summarizer-written titles; unset = production only
    agent_max_tokens: int = Field(default=4096, ge=256, le=64000)
    agent_model: str = "claude-sonnet-4-6"
    summarizer_model: str = "claude-haiku-4-5"
    # Extra or overriding prices: {"model-id": {"input": 3.0, "output": 15.0}} in USD per million tokens.
    model_prices: dict[str, dict[str, float]] = Field(default_factory=dict)

    voyage_api_key: str | None = None
    voyage_base_url: str | None = None
    sentry_dsn: str | None = None
    posthog_api_key: str | None = None
    posthog_host: str = "https://us.i.posthog.com"

    # Traces (OpenTelemetry GenAI conventions) exported over OTLP when an endpoint is set; the standard SDK names.
    otel_exporter_otlp_endpoint: str | None = None
    otel_exporter_otlp_traces_endpoint: str | None = None  # the full traces URL (wins over the endpoint)
    otel_exporter_otlp_protocol: Literal["http/protobuf"] = "http/protobuf"
    otel_exporter_otlp_headers: str | None = None  # "key=value,key2=value2"
    otel_service_name: str = "spotter"
    otel_bsp_schedule_delay: int = Field(default=5000, ge=0)  # ms between exports
    otel_bsp_max_queue_size: int = Field(default=2048, ge=1)
    otel_bsp_max_export_batch_size: int = Field(default=512, ge=1)
    otel_bsp_export_timeout: int = Field(default=30000, ge=1)  # ms
    # Off by default: no message, tool or model text in any span or event. On, the content rides on the model and
    # tool spans (trace endpoint, Sentry, PostHog), secrets and e-mails redacted, and members' names and health words
    # taken out (agent/scrubbing.py) unless CAPTURE_CONTENT_HEALTH_AND_NAMES also says true.
    otel_instrumentation_genai_capture_message_content: bool = False
    capture_content_health_and_names: bool = False

    pending_ttl: int = Field(default=24 * 3600, gt=0, description="seconds a pending tool execution lives")
    # The conversation's turn lock is a lease renewed while the turn runs: a crashed holder frees it this fast.
    agent_turn_lock_lease_seconds: float = Field(default=15.0, gt=0, le=300)
    # A confirm or pick on a conversation whose turn is still running waits this long for it, then 409 busy.
    agent_answer_wait_seconds: float = Field(default=5.0, ge=0, le=60)
    # Model loops one API process drives at once (0 = no limit). A turn beyond them gets its first frame and
    # waits for a slot, so a CPU-bound burst of new streams is acknowledged at once instead of every stream
    # crawling; but a slot is held while the model answers, so with a real model it caps a process's turns.
    agent_max_concurrent_turns: int = Field(default=0, ge=0, le=10000)
    # On shutdown, running turns get this long to end before they are interrupted (`error{turn_interrupted}`).
    agent_shutdown_grace_seconds: float = Field(default=25.0, ge=0, le=600)
    # A Redis command gives up after this (then the request answers 503 service_unavailable): core/redis_clients.py.
    redis_timeout_seconds: float = Field(default=2.0, gt=0, le=60)
    storage_snapshot_schedule: bool = False
    # Messages to members leave through the outbox to a sender: SMTP when SMTP_HOST is set (or MESSAGE_SENDER=smtp),
    # else a log sender that records ids and statuses only (the demo). No message text is ever logged.
    message_sender: Literal["auto", "log", "smtp"] = "auto"
    smtp_host: str | None = None
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_username: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = True  # upgrade the connection with STARTTLS (port 587); off for a local relay
    smtp_ssl: bool = False  # implicit TLS from the first byte (port 465)
    smtp_from: str = Field(default="no-reply@spotter.invalid", min_length=3, max_length=320)
    smtp_timeout: float = Field(default=20.0, gt=0, le=300)
    log_level: Literal["debug", "info", "warning", "error"] = "info"

    @field_validator("database_url")
    @classmethod
    def _asyncpg_url(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        if value.startswith("postgres://"):
            value = "postgresql://" + value.removeprefix("postgres://")
        if value.startswith("postgresql://"):
            value = "postgresql+asyncpg://" + value.removeprefix("postgresql://")
        if not value.startswith("postgresql+asyncpg://"):
            raise ValueError("must be a postgresql:// URL")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        if value is None or value == "":
            return None
        if not value.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("must be a redis://, rediss:// or unix:// URL")
        return value

    @field_validator("clerk_authorized_parties", mode="before")
    @classmethod
    def _split_parties(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @property
    def is_production(self) -> bool:
        return self.app_env == "production"

    @property
    def turn_rate_limit(self) -> int:
        if self.agent_rate_limit_per_minute is not None:
            return self.agent_rate_limit_per_minute
        return 30 if self.is_production else 0


def load_settings(**overrides: object) -> Settings:
    """Read the environment (plus explicit overrides) and validate; raise SettingsError naming the variable."""
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in exc.errors()
        )
        raise SettingsError(f"invalid settings: {problems}") from None
    if settings.auth_mode == "clerk" and not settings.clerk_jwks_url:
        raise SettingsError("invalid settings: CLERK_JWKS_URL is required when AUTH_MODE=clerk")
    if settings.auth_mode == "clerk" and not settings.clerk_issuer:
        raise SettingsError("invalid settings: CLERK_ISSUER is required when AUTH_MODE=clerk")
    return settings
