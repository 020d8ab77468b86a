"""Where the spans of agent/tracing.py go, from settings (the standard OpenTelemetry SDK names):

- OTLP/HTTP to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, with
  `OTEL_EXPORTER_OTLP_HEADERS`, batched by `OTEL_BSP_*`, the resource named `OTEL_SERVICE_NAME`;
- Sentry's OTLP endpoint derived from `SENTRY_DSN` (the SDK's own OTel path: Sentry reads `gen_ai.*` spans into
  its AI agents views; error events carry the same trace id);
- PostHog's LLM analytics in production with `POSTHOG_API_KEY`: `$ai_trace` per `invoke_agent` span,
  `$ai_generation` per `chat` span, `$ai_span` per tool run and step; distinct id the org, never a person.

None of them configured: no provider at all (OpenTelemetry's no-op tracer).
"""

from __future__ import annotations

from typing import Any

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter
from opentelemetry.trace import StatusCode

from agent.tracing import ForcedIds, Tracing
from core.settings import Settings


def otlp_traces_url(settings: Settings) -> str | None:
    if settings.otel_exporter_otlp_traces_endpoint:
        return settings.otel_exporter_otlp_traces_endpoint
    if settings.otel_exporter_otlp_endpoint:
        return settings.otel_exporter_otlp_endpoint.rstrip("/") + "/v1/traces"
    return None


def otlp_headers(raw: str | None) -> dict[str, str]:
    """`OTEL_EXPORTER_OTLP_HEADERS`: "key=value,key2=value2" (values URL-decoded, as the SDK does)."""
    from urllib.parse import unquote

    headers: dict[str, str] = {}
    for part in (raw or "").split(","):
        key, sep, value = part.partition("=")
        if sep and key.strip():
            headers[key.strip().lower()] = unquote(value.strip())
    return headers


def sentry_otlp(dsn: str) -> tuple[str, dict[str, str]]:
    """Sentry's OTLP traces endpoint for a DSN and the auth header it wants (what the SDK's OTLP integration
    derives the same way)."""
    from sentry_sdk.consts import VERSION, EndpointType
    from sentry_sdk.utils import Dsn

    auth = Dsn(dsn).to_auth(f"sentry.python/{VERSION}")
    return auth.get_api_url(EndpointType.OTLP_TRACES), {"X-Sentry-Auth": auth.to_header()}


def _batch(exporter: SpanExporter, settings: Settings) -> BatchSpanProcessor:
    return BatchSpanProcessor(exporter, max_queue_size=settings.otel_bsp_max_queue_size,
                              schedule_delay_millis=settings.otel_bsp_schedule_delay,
                              max_export_batch_size=settings.otel_bsp_max_export_batch_size,
                              export_timeout_millis=settings.otel_bsp_export_timeout)


def _int(value: object) -> int:
    return int(value) if isinstance(value, int | float) else 0


class PostHogSpans(SpanProcessor):
    """Each finished span as PostHog's LLM analytics event: the turn as `$ai_trace`, a model call as
    `$ai_generation`, a tool run or a step as `$ai_span`, all grouped by `$ai_trace_id`."""

    def __init__(self, client: Any, *, capture_content: bool = False) -> None:
        self.client, self.capture_content = client, capture_content

    def on_end(self, span: ReadableSpan) -> None:
        attrs = dict(span.attributes or {})
        ctx = span.get_span_context()
        if ctx is None:
            return
        org = attrs.get("spotter.org_id")
        properties: dict[str, Any] = {
            "$ai_trace_id": f"{ctx.trace_id:032x}", "$ai_span_id": f"{ctx.span_id:016x}",
            "$ai_span_name": span.name, "$ai_latency": ((span.end_time or 0) - (span.start_time or 0)) / 1e9,
            "$ai_is_error": span.status.status_code == StatusCode.ERROR, "$process_person_profile": False,
            **{f"spotter_{k.removeprefix('spotter.').replace('.', '_')}": v for k, v in attrs.items()
               if k.startswith("spotter.")},
        }
        if span.parent is not None:
            properties["$ai_parent_id"] = f"{span.parent.span_id:016x}"
        if attrs.get("gen_ai.conversation.id"):
            properties["$ai_session_id"] = attrs["gen_ai.conversation.id"]
        if attrs.get("error.type"):
            properties["$ai_error"] = attrs["error.type"]
        operation = attrs.get("gen_ai.operation.name")
        if operation == "chat":
            read = _int(attrs.get("gen_ai.usage.cache_read.input_tokens"))
            write = _int(attrs.get("gen_ai.usage.cache_creation.input_tokens"))
            properties.update({
                "$ai_model": attrs.get("gen_ai.response.model") or attrs.get("gen_ai.request.model"),
                "$ai_provider": attrs.get("gen_ai.provider.name"),
                "$ai_input_tokens": _int(attrs.get("gen_ai.usage.input_tokens")) - read - write,
                "$ai_output_tokens": attrs.get("gen_ai.usage.output_tokens", 0),
                "$ai_cache_read_input_tokens": read, "$ai_cache_creation_input_tokens": write,
                "$ai_total_cost_usd": _int(attrs.get("spotter.cost_usd_micros")) / 1_000_000,
                "$ai_stream": True})
            if self.capture_content:
                for key, prop in (("gen_ai.input.messages", "$ai_input"),
                                  ("gen_ai.output.messages", "$ai_output_choices")):
                    if key in attrs:
                        properties[prop] = attrs[key]
            event = "$ai_generation"
        elif operation == "invoke_agent" and span.parent is None:
            event = "$ai_trace"
        else:
            event = "$ai_span"
        self.client.capture(event, distinct_id=org if isinstance(org, str) else "spotter-server",
                            properties=properties)

    def shutdown(self) -> None:
        return None

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True


def build_tracing(settings: Settings, *, posthog_client: Any = None,
                  extra: list[SpanProcessor] | None = None) -> Tracing:
    """The service's tracing from its settings; `extra` processors (tests: an in-memory exporter) join them."""
    processors: list[SpanProcessor] = list(extra or [])
    url = otlp_traces_url(settings)
    if url:
        processors.append(_batch(OTLPSpanExporter(endpoint=url, headers=otlp_headers(settings.otel_exporter_otlp_headers),
                                                  timeout=settings.otel_bsp_export_timeout / 1000), settings))
    if settings.sentry_dsn:
        endpoint, headers = sentry_otlp(settings.sentry_dsn)
        processors.append(_batch(OTLPSpanExporter(endpoint=endpoint, headers=headers), settings))
    if posthog_client is not None:
        processors.append(PostHogSpans(posthog_client,
                                       capture_content=settings.otel_instrumentation_genai_capture_message_content))
    if not processors:
        return Tracing.off()
    provider = TracerProvider(resource=Resource({"service.name": settings.otel_service_name}), id_generator=ForcedIds())
    for processor in processors:
        provider.add_span_processor(processor)
    return Tracing(provider, capture_content=settings.otel_instrumentation_genai_capture_message_content,
                   capture_health_and_names=settings.capture_content_health_and_names)
