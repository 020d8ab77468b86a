"""One instrumentation of a turn's shape on the OpenTelemetry API, named by the GenAI semantic conventions.

Spans: `invoke_agent {persona}` per turn, resume and undo (its trace id is the request's trace id, the one error
bodies and logs carry); `chat {model}` per model call; `execute_tool {router__action}` per tool run; an
`await_person {tool}` span for a confirmation or pick that waited, in the resuming turn's trace and linked to
the turn that suspended; `compaction`, `knowledge_selection`, `ambient_context` and `replay_repair` as child
steps; a nutrition run's agents as `invoke_agent {AGENT}` spans of one trace per run version. Every span
carries the org, the conversation (or session), the persona and the role. No user, member or model text in
any attribute unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is on, and then scrubbed.

Where the spans go (agent/tracing_export.py builds the provider): OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is
set, Sentry's OTLP endpoint when SENTRY_DSN is, PostHog's LLM analytics events in production; with none of
them the tracer is OpenTelemetry's no-op one and every call here costs a function call.
"""

from __future__ import annotations

import contextvars
import hashlib
import json
import random
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import (
    Link,
    NonRecordingSpan,
    Span,
    SpanContext,
    SpanKind,
    Status,
    StatusCode,
    TraceFlags,
)

from agent.scrubbing import redact, scrub_captured

PROVIDER = "anthropic"
_FORCED: contextvars.ContextVar[tuple[int | None, int | None]] = contextvars.ContextVar("spotter_forced_ids",
                                                                                      default=(None, None))


class ForcedIds(IdGenerator):
    """Random ids, unless the span being started must carry given ones (a turn's trace is its request's trace
    id; a nutrition run version's root span has ids derived from the run, so every worker finds it)."""

    def generate_span_id(self) -> int:
        forced = _FORCED.get()[1]
        return forced if forced is not None else random.getrandbits(64) or 1

    def generate_trace_id(self) -> int:
        forced = _FORCED.get()[0]
        return forced if forced is not None else random.getrandbits(128) or 1


@contextmanager
def _forced(trace_id: int | None, span_id: int | None = None) -> Iterator[None]:
    token = _FORCED.set((trace_id, span_id))
    try:
        yield
    finally:
        _FORCED.reset(token)


_PARENT: contextvars.ContextVar[Span | None] = contextvars.ContextVar("spotter_span_parent", default=None)


@contextmanager
def parented(span: Span) -> Iterator[None]:
    """Model calls made inside (a nutrition agent's, which has no turn) nest under `span`."""
    token = _PARENT.set(span)
    try:
        yield
    finally:
        _PARENT.reset(token)


def ambient_parent() -> Span | None:
    return _PARENT.get()


def trace_id_of(hex_id: str | None) -> int | None:
    """A 32-hex-digit request trace id as an OpenTelemetry trace id (None when it is not one)."""
    try:
        value = int(hex_id or "", 16)
    except ValueError:
        return None
    return value if 0 < value < 2**128 and len(hex_id or "") == 32 else None


def derived_ids(*parts: object) -> tuple[int, int]:
    """A trace id and span id every process derives alike from the same parts (a run and its version)."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:16], "big") or 1, int.from_bytes(digest[16:24], "big") or 1


def traceparent(span: Span | None) -> str | None:
    """The W3C traceparent of `span` (stored on a pending tool use, so its resolution links back)."""
    if span is None:
        return None
    ctx = span.get_span_context()
    if not ctx.is_valid:
        return None
    return f"00-{ctx.trace_id:032x}-{ctx.span_id:016x}-{int(ctx.trace_flags):02x}"


def context_of(value: str | None) -> SpanContext | None:
    """The span context a stored traceparent names, or None."""
    try:
        version, trace_hex, span_hex, flags = (value or "").split("-")
        ctx = SpanContext(int(trace_hex, 16), int(span_hex, 16), is_remote=True, trace_flags=TraceFlags(int(flags, 16)))
    except ValueError:
        return None
    return ctx if ctx.is_valid and version == "00" else None


@dataclass(frozen=True)
class Who:
    """What every span of a turn carries: its org, conversation or session, persona and role."""

    org_id: str
    conversation_id: str | None
    persona: str
    role: str

    def attributes(self) -> dict[str, Any]:
        attrs = {"spotter.org_id": self.org_id, "spotter.persona": self.persona, "spotter.role": self.role}
        if self.conversation_id:
            attrs["gen_ai.conversation.id"] = self.conversation_id
        return attrs


KNOWN_TRACES = 1024  # turns whose captured content's member words are remembered (content capture only)


class Tracing:
    """The service's tracer and the span shapes it emits."""

    def __init__(self, provider: TracerProvider | None = None, *, capture_content: bool = False,
                 capture_health_and_names: bool = False) -> None:
        self.provider = provider
        self.capture_content = capture_content
        self.capture_health_and_names = capture_health_and_names
        # what a turn's captured content said of members so far, by trace (a bounded memory: scrubbing.py)
        self._known: OrderedDict[int, set[str]] = OrderedDict()
        self.tracer = provider.get_tracer("spotter") if provider is not None else trace.NoOpTracer()
        self.enabled = provider is not None

    @classmethod
    def off(cls) -> Tracing:
        return cls(None)

    def _start(self, name: str, who: Who | None, parent: Span | None, attributes: dict[str, Any], *,
               kind: SpanKind = SpanKind.INTERNAL, links: Sequence[Link] = (), start: datetime | None = None,
               trace_id: int | None = None, span_id: int | None = None) -> Span:
        attrs = {**(who.attributes() if who else {}), **{k: v for k, v in attributes.items() if v is not None}}
        context = trace.set_span_in_context(parent) if parent is not None else trace.set_span_in_context(
            NonRecordingSpan(SpanContext(0, 0, False)))  # a root: never the caller's ambient context
        start_ns = int(start.timestamp() * 1e9) if start is not None else None
        with _forced(trace_id if parent is None else None, span_id):
            return self.tracer.start_span(name, context=context, kind=kind, attributes=attrs, links=list(links),
                                          start_time=start_ns)

    # ---- the shapes ---------------------------------------------------------------------------------

    def agent(self, who: Who, *, trace_id: str | None, endpoint: str, parent: Span | None = None) -> Span:
        """`invoke_agent {persona}`: one turn, resume or undo; a root span carrying the request's trace id."""
        return self._start(f"invoke_agent {who.persona}", who, parent, {
            "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": who.persona,
            "gen_ai.provider.name": PROVIDER, "spotter.endpoint": endpoint, "sentry.op": "gen_ai.invoke_agent",
        }, trace_id=trace_id_of(trace_id))

    def chat(self, who: Who | None, parent: Span | None, *, model: str, round_trip: int | None) -> Span:
        """`chat {model}`: one model call (its usage set by `finish_chat`)."""
        return self._start(f"chat {model}", who, parent, {
            "gen_ai.operation.name": "chat", "gen_ai.provider.name": PROVIDER, "gen_ai.request.model": model,
            "spotter.round_trip": round_trip, "sentry.op": "gen_ai.chat"}, kind=SpanKind.CLIENT)

    @staticmethod
    def finish_chat(span: Span, *, response_model: str | None, stop_reason: str | None, input_tokens: int,
                    output_tokens: int, cache_read: int, cache_write: int, cost_usd_micros: int) -> None:
        """The call's usage, Anthropic's way counted as the conventions say: input includes cache reads/writes."""
        span.set_attributes({
            "gen_ai.response.model": response_model or "", "gen_ai.usage.output_tokens": output_tokens,
            "gen_ai.usage.input_tokens": input_tokens + cache_read + cache_write,
            "gen_ai.usage.cache_read.input_tokens": cache_read,
            "gen_ai.usage.cache_creation.input_tokens": cache_write,
            "spotter.cost_usd_micros": cost_usd_micros})
        if stop_reason:
            span.set_attribute("gen_ai.response.finish_reasons", [stop_reason])

    def tool(self, who: Who, parent: Span | None, *, name: str, tool_use_id: str, needs_person: bool) -> Span:
        """`execute_tool {router__action}`: one tool run (its outcome set by `finish_tool`)."""
        return self._start(f"execute_tool {name}", who, parent, {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": tool_use_id,
            "gen_ai.tool.type": "function", "spotter.tool.needs_person": needs_person,
            "sentry.op": "gen_ai.execute_tool"})

    @staticmethod
    def finish_tool(span: Span, *, ok: bool, error_code: str | None, duration_ms: int) -> None:
        span.set_attributes({"spotter.tool.outcome": "succeeded" if ok else "failed",
                             "spotter.tool.duration_ms": duration_ms})
        if not ok:
            span.set_attribute("error.type", error_code or "tool_error")
            span.set_status(Status(StatusCode.ERROR))

    def awaited(self, who: Who, parent: Span | None, *, name: str, tool_use_id: str, kind: str, resolution: str,
                since: datetime, suspended_in: str | None) -> None:
        """The person's wait for a confirmation or pick, from the suspension to its resolution, as a span of the
        resuming trace linked to the suspended turn's span."""
        linked = context_of(suspended_in)
        span = self._start(f"await_person {name}", who, parent, {
            "gen_ai.tool.name": name, "gen_ai.tool.call.id": tool_use_id, "spotter.await.kind": kind,
            "spotter.await.resolution": resolution}, links=[Link(linked)] if linked else (), start=since)
        span.end()

    def step(self, name: str, who: Who | None, parent: Span | None, **attributes: Any) -> Span:
        """A child step of a turn: compaction, knowledge_selection, ambient_context, replay_repair."""
        return self._start(name, who, parent, {f"spotter.{k}": v for k, v in attributes.items()})

    def run_agent(self, agent: str, *, run_id: str, version: int, org_id: str, started: datetime | None = None,
                  root: bool = False) -> Span:
        """A nutrition run's agent (`invoke_agent {AGENT}`) in the trace of its run version, under the version's
        root span whose ids every worker derives from the run; `root` starts that root span itself."""
        trace_id, root_id = derived_ids("nutrition-run", run_id, version)
        who = Who(org_id=org_id, conversation_id=None, persona="nutrition_pipeline", role="worker")
        attrs = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent, "gen_ai.provider.name": PROVIDER,
                 "spotter.nutrition.run_id": run_id, "spotter.nutrition.run_version": version,
                 "sentry.op": "gen_ai.invoke_agent"}
        if root:
            return self._start(f"invoke_agent {agent}", who, None, attrs, start=started, trace_id=trace_id,
                               span_id=root_id)
        parent = NonRecordingSpan(SpanContext(trace_id, root_id, is_remote=True,
                                              trace_flags=TraceFlags(TraceFlags.SAMPLED)))
        return self._start(f"invoke_agent {agent}", who, parent, attrs, start=started)

    @staticmethod
    def failed(span: Span, code: str) -> None:
        span.set_attribute("error.type", code)
        span.set_status(Status(StatusCode.ERROR))

    def content(self, span: Span, key: str, value: Any) -> None:
        """Message content on a span, only when the operator turned content capture on; scrubbed then of secrets,
        and of members' names and health unless CAPTURE_CONTENT_HEALTH_AND_NAMES allows them (agent/scrubbing.py)."""
        if not self.capture_content:
            return
        trace_id = span.get_span_context().trace_id
        known = self._known.setdefault(trace_id, set())
        self._known.move_to_end(trace_id)
        while len(self._known) > KNOWN_TRACES:
            self._known.popitem(last=False)
        captured = scrub_captured(value, health_and_names=self.capture_health_and_names, known=known)
        span.set_attribute(key, redact(json.dumps(captured, ensure_ascii=False, default=str)))

    def shutdown(self) -> None:
        if self.provider is not None:
            self.provider.shutdown()
