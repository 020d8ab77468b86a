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

from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast

import structlog

from agent.scrubbing import REDACTED, SCRUBBED_KEYS, dropped, redact, scrub  # noqa: F401  (re-exported)
from agent.tracing import Tracing
from core.settings import Settings

log = structlog.get_logger("agent")

Sink = Callable[[str, dict[str, Any]], None]


class Observability:
    """Fan-out of agent events, and the service's tracing (agent/tracing.py). A sink is a callable taking
    (event_name, scrubbed_fields); it may also have `capture_exception(exc, tags)` and `close()`."""

    def __init__(self, sinks: list[Sink] | None = None, tracing: Tracing | None = None) -> None:
        self.sinks = list(sinks or [])
        self.tracing = tracing or Tracing.off()

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
        """Flush spans, then flush and close sinks (PostHog's queue, Sentry's transport); safe to call twice."""
        try:
            self.tracing.shutdown()
        except Exception:
            log.warning("observability.close_failed", sink="tracing")
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
        event["tags"] = {k: redact(str(v)) for k, v in event["tags"].items() if not dropped(k)}
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
        # The SDK types events as private TypedDicts; ours are the same dicts, scrubbed. Only the SDK's default
        # integrations (logging, excepthook, threading, ...): the auto-enabled ones (Litestar, SQLAlchemy, Redis,
        # httpx, every AI SDK found installed) reported each refused request (a ServiceError: 404, 409, 422) as an
        # unhandled error and imported some 4,000 modules at init (1.8 s of CPU). Crashes reach Sentry here:
        # a turn's from agent/turns.py, a request's from api/errors.py.
        sentry_sdk.init(dsn=dsn, environment=environment, before_send=cast(Any, sentry_before_send),
                        before_breadcrumb=cast(Any, sentry_before_breadcrumb), send_default_pii=False,
                        include_local_variables=False, max_request_body_size="never",
                        auto_enabling_integrations=False, **options)
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
            if isinstance(trace_id, str) and len(trace_id) == 32:  # the turn's trace: its spans carry this id
                span_id = fields.get("span_id") if isinstance(fields.get("span_id"), str) else trace_id[16:]
                scope.set_context("trace", {"trace_id": trace_id, "span_id": span_id, "op": "gen_ai.invoke_agent"})
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


def build_observability(settings: Settings, *, posthog_client: Any = None) -> Observability:
    """structlog always; Sentry when SENTRY_DSN is set; PostHog in production with POSTHOG_API_KEY; spans
    through agent/tracing_export.py (OTLP, Sentry's OTLP endpoint, PostHog's LLM analytics)."""
    from agent.tracing_export import build_tracing

    sinks: list[Sink] = []
    if settings.sentry_dsn:
        sinks.append(SentrySink(settings.sentry_dsn, environment=settings.app_env))
    posthog = None
    if settings.is_production and settings.posthog_api_key:
        posthog = PostHogSink(settings.posthog_api_key, host=settings.posthog_host, client=posthog_client)
        sinks.append(posthog)
    return Observability(sinks, build_tracing(settings, posthog_client=posthog.client if posthog else None))
