"""Agent events to structured logs and, when configured, Sentry and PostHog; always scrubbed first.

Every event goes through `scrub()` once, then fans out: a structlog JSON line (always), a Sentry
breadcrumb (when `SENTRY_DSN` is set), a PostHog capture (production with `POSTHOG_API_KEY`). User text
and secrets never leave the process; token counts, costs and durations do.

Event fields (`trace_id` and `org_id` on every agent.turn.* / agent.tool.* / agent.replay.* event):

| event                              | fields                                                              |
|------------------------------------|---------------------------------------------------------------------|
| agent.turn.started                 | endpoint, promptLength, conversation_id                             |
| agent.turn.completed               | endpoint, inputTokens, outputTokens, cacheReadTokens,               |
|                                    | cacheCreationTokens, costUsdMicros, cacheHitRatio, durationMs,      |
|                                    | modelCalls, suspended                                               |
| agent.turn.failed                  | the same as completed, plus errorCode                               |
| agent.tool.executed                | router, action, durationMs, outcome (succeeded|failed), errorCode   |
| agent.tool.confirmation_pending    | router, action                                                      |
| agent.tool.disambiguation_pending  | router, action                                                      |
| agent.replay.violation             | violations, reasons[], repaired, snapshot (roles + block types)     |
| agent.storage.snapshot             | tables[{table, rows, bytes, estimated}], totalBytes, durationMs     |
| agent.compaction.completed         | conversation_id, summarizedCount, keptCount, durationMs             |
| agent.compaction.failed            | conversation_id, reason (timeout or an error type)                  |

Sentry gets every event as a breadcrumb, and an event (tagged agent.trace_id, agent.org_id, agent.code,
agent.endpoint) only for `internal` failures: the crash itself via `capture_exception`, else a
`capture_message` when the turn fails `internal` without one.
"""

from __future__ import annotations

import re
import uuid
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, date, datetime
from enum import Enum
from typing import Any, cast

import structlog

from core.settings import Settings

log = structlog.get_logger("agent")

# Keys whose values are dropped, compared case-insensitively without "_", "-", "." or spaces. A key is
# dropped when it is one of these or ends with one ("toolInput", "accessToken", "db_password"); counts
# like "inputTokens" end in "tokens" and stay.
SCRUBBED_KEYS = ("content", "text", "prompt", "message", "output", "input", "token", "apikey", "secret",
                 "password", "authorization", "cookie", "email")
REDACTED = "[redacted]"
_SECRET_PATTERNS = (
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]+"),
    re.compile(r"\b(?:sk|pk|rk)[-_](?:live[-_]|test[-_]|ant[-_])?[A-Za-z0-9_-]{8,}"),
    re.compile(r"\b(?:phc|phx|ghp|gho|xox[abp])_[A-Za-z0-9_-]{8,}"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),  # JWTs
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"(?i)\b(api[_-]?key|secret|password|passwd|token)\s*[=:]\s*\S+"),
)
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")


def _normal(key: Any) -> str:
    return re.sub(r"[\s_\-.]", "", str(key)).lower()


def _dropped(key: Any) -> bool:
    normal = _normal(key)
    return any(normal == word or normal.endswith(word) for word in SCRUBBED_KEYS)


def redact(text: str) -> str:
    """`text` with anything shaped like a credential or an email address replaced."""
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(REDACTED, text)
    return _EMAIL.sub("[email]", text)


def scrub(value: Any) -> Any:
    """A JSON-safe copy of `value` without user text or secrets: named keys dropped at any depth (lists
    included), secret- and email-shaped strings redacted everywhere, unknown objects reduced to their type."""
    if isinstance(value, dict):
        return {str(k): scrub(v) for k, v in value.items() if not _dropped(k)}
    if isinstance(value, list | tuple | set | frozenset):
        return [scrub(v) for v in value]
    if isinstance(value, str):
        return redact(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, Enum):
        return scrub(value.value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    return f"<{type(value).__name__}>"


Sink = Callable[[str, dict[str, Any]], None]


class Observability:
    """Fan-out of agent events. A sink is a callable taking (event_name, scrubbed_fields); it may also
    have `capture_exception(exc, tags)` and `close()`."""

    def __init__(self, sinks: list[Sink] | None = None) -> None:
        self.sinks = list(sinks or [])

    def emit(self, event: str, **fields: Any) -> None:
        if "trace_id" not in fields:  # e.g. compaction: the request's trace id, bound by the HTTP middleware
            trace_id = structlog.contextvars.get_contextvars().get("trace_id")
            if trace_id:
                fields["trace_id"] = trace_id
        clean = scrub(fields)
        log.info(event, **clean)
        for sink in self.sinks:
            try:
                sink(event, clean)
            except Exception:  # a broken sink must never break a turn
                log.warning("observability.sink_failed", sink=type(sink).__name__, event_name=event)

    def capture_exception(self, exc: BaseException, **tags: Any) -> None:
        """Report a crash (classified `internal`) to sinks that take exceptions, tagged with scrubbed `tags`."""
        clean = scrub(tags)
        for sink in self.sinks:
            capture = getattr(sink, "capture_exception", None)
            if capture is None:
                continue
            try:
                capture(exc, clean)
            except Exception:
                log.warning("observability.sink_failed", sink=type(sink).__name__, event_name="exception")

    def close(self) -> None:
        """Flush and close sinks (PostHog's queue, Sentry's transport); safe to call twice."""
        for sink in self.sinks:
            close = getattr(sink, "close", None)
            if close is None:
                continue
            try:
                close()
            except Exception:
                log.warning("observability.close_failed", sink=type(sink).__name__)


# ---- Sentry --------------------------------------------------------------------------------------------------

SENTRY_TAGS = {"trace_id": "agent.trace_id", "org_id": "agent.org_id", "errorCode": "agent.code",
               "code": "agent.code", "endpoint": "agent.endpoint"}


def sentry_before_send(event: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """Scrub a Sentry event: extras, contexts, tags, request, breadcrumbs; no user, no exception text."""
    for key in ("extra", "contexts"):
        if isinstance(event.get(key), dict):
            event[key] = scrub(event[key])
    if isinstance(event.get("tags"), dict):
        event["tags"] = {k: redact(str(v)) for k, v in event["tags"].items() if not _dropped(k)}
    event.pop("user", None)
    request = event.get("request")
    if isinstance(request, dict):
        event["request"] = scrub({k: v for k, v in request.items() if k not in ("data", "cookies", "query_string")})
    crumbs = event.get("breadcrumbs")
    if isinstance(crumbs, dict) and isinstance(crumbs.get("values"), list):
        crumbs["values"] = [sentry_before_breadcrumb(c) for c in crumbs["values"] if isinstance(c, dict)]
    for exception in (event.get("exception") or {}).get("values") or []:
        if exception.get("value"):  # exception messages can quote user input: keep the type and stack only
            exception["value"] = REDACTED
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    if isinstance(event.get("logentry"), dict):
        event["logentry"] = {k: redact(v) if isinstance(v, str) else scrub(v) for k, v in event["logentry"].items()
                             if k in ("message", "formatted")}
    if isinstance(event.get("message"), str):
        event["message"] = redact(event["message"])
    return event


def sentry_before_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any] | None = None) -> dict[str, Any]:
    crumb = dict(crumb)
    if isinstance(crumb.get("data"), dict):
        crumb["data"] = scrub(crumb["data"])
    if isinstance(crumb.get("message"), str):
        crumb["message"] = redact(crumb["message"])
    return crumb


USAGE_KEYS = ("inputTokens", "outputTokens", "cacheReadTokens", "cacheCreationTokens", "costUsdMicros",
              "cacheHitRatio")


def _crumb_data(fields: dict[str, Any]) -> dict[str, Any]:
    """Breadcrumb data within Sentry's 10-keys-per-level limit: ids become tags, usage counts nest."""
    data = {k: v for k, v in fields.items() if k not in ("trace_id", "org_id") and k not in USAGE_KEYS}
    usage = {k: fields[k] for k in USAGE_KEYS if k in fields}
    if usage:
        data["usage"] = usage
    return data


class SentrySink:
    """Breadcrumbs per agent event and tagged captures on failures.

    Breadcrumbs are kept per trace id (bounded) and replayed into a fresh scope when that turn fails, so an
    error carries its own turn's trail and never another org's, with or without Sentry's ASGI isolation.
    """

    MAX_TRACES = 500
    MAX_CRUMBS = 50

    def __init__(self, dsn: str, *, environment: str, **options: Any) -> None:
        import sentry_sdk

        self.sdk = sentry_sdk
        # The SDK types events as private TypedDicts; ours are the same dicts, scrubbed.
        sentry_sdk.init(dsn=dsn, environment=environment, before_send=cast(Any, sentry_before_send),
                        before_breadcrumb=cast(Any, sentry_before_breadcrumb), send_default_pii=False,
                        include_local_variables=False, max_request_body_size="never", **options)
        self._trails: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._captured: OrderedDict[str, None] = OrderedDict()

    def __call__(self, event: str, fields: dict[str, Any]) -> None:
        crumb = {"category": "agent", "message": event, "data": _crumb_data(fields), "timestamp": datetime.now(UTC),
                 "level": "error" if event == "agent.turn.failed" else "info"}
        trace_id = fields.get("trace_id")
        if not isinstance(trace_id, str):
            self.sdk.add_breadcrumb(crumb)
            return
        trail = self._trails.setdefault(trace_id, [])
        self._trails.move_to_end(trace_id)
        trail.append(crumb)
        del trail[:-self.MAX_CRUMBS]
        while len(self._trails) > self.MAX_TRACES:
            self._trails.popitem(last=False)
        if event in ("agent.turn.completed", "agent.turn.failed"):
            if event == "agent.turn.failed" and fields.get("errorCode") == "internal" \
                    and trace_id not in self._captured:
                self._capture(trace_id, fields, lambda scope: scope.capture_message(event, level="error"))
            self._trails.pop(trace_id, None)
            self._captured.pop(trace_id, None)

    def capture_exception(self, exc: BaseException, tags: dict[str, Any]) -> None:
        trace_id = tags.get("trace_id")
        self._capture(trace_id, tags, lambda scope: scope.capture_exception(exc))
        if isinstance(trace_id, str):
            self._captured[trace_id] = None
            while len(self._captured) > self.MAX_TRACES:
                self._captured.popitem(last=False)

    def _capture(self, trace_id: Any, fields: dict[str, Any], send: Callable[[Any], Any]) -> None:
        with self.sdk.isolation_scope() as isolation, self.sdk.new_scope() as scope:
            isolation.clear_breadcrumbs()  # forks: only this capture loses the process-wide trail
            scope.clear_breadcrumbs()
            for crumb in self._trails.get(trace_id, []) if isinstance(trace_id, str) else []:
                scope.add_breadcrumb(**crumb)
            for field, tag in SENTRY_TAGS.items():
                if fields.get(field) is not None:
                    scope.set_tag(tag, str(fields[field]))
            send(scope)

    def close(self) -> None:
        self.sdk.flush(timeout=2.0)


# ---- PostHog -------------------------------------------------------------------------------------------------


class PostHogSink:
    """Captures each agent event; distinct_id is the org id (never a person or an email)."""

    def __init__(self, api_key: str, *, host: str, client: Any = None) -> None:
        if client is None:
            from posthog import Posthog

            client = Posthog(api_key, host=host, disable_geoip=True, enable_local_evaluation=False, max_retries=2,
                             timeout=5)
        self.client = client

    def __call__(self, event: str, fields: dict[str, Any]) -> None:
        distinct_id = fields.get("org_id") if isinstance(fields.get("org_id"), str) else "spotter-server"
        self.client.capture(event, distinct_id=distinct_id,
                            properties={**fields, "$process_person_profile": False})

    def close(self) -> None:
        self.client.shutdown()  # flushes the background queue


def build_observability(settings: Settings) -> Observability:
    """structlog always; Sentry when SENTRY_DSN is set; PostHog in production with POSTHOG_API_KEY."""
    sinks: list[Sink] = []
    if settings.sentry_dsn:
        sinks.append(SentrySink(settings.sentry_dsn, environment=settings.app_env))
    if settings.is_production and settings.posthog_api_key:
        sinks.append(PostHogSink(settings.posthog_api_key, host=settings.posthog_host))
    return Observability(sinks)
