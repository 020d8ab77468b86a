"""Traces of real turns with the real OpenTelemetry SDK (issue 28): an in-memory exporter for the spans' shape
and parenting, an OTLP/HTTP receiver on loopback for what goes over the wire, Sentry's OTLP endpoint (derived
from the DSN, served by the same receiver) with its error events on the turn's trace, PostHog's client against
a local capture endpoint; and a marker sent in every user-, member- and model-text field that appears in no
span, envelope or event unless content capture is turned on."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from api.app import create_app
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.fakes.capture_server import CaptureServer
from tests.fakes.sentry_transport import MemoryTransport
from tests.servers import ThreadedServer
from tests.sse import sse
from tests.trainer.fixtures import trainee
from tests.trainer.scripted import Trainer

MARKER = "qz7-trace-marker-5e1"
COMMON = ("spotter.org_id", "gen_ai.conversation.id", "spotter.persona", "spotter.role")


@pytest.fixture(scope="module")
def receiver() -> Iterator[CaptureServer]:
    server = CaptureServer().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def clean(fake_model, receiver):
    fake_model.reset()
    receiver.reset()
    yield
    fake_model.reset()


@contextmanager
def traced_app(app_settings, receiver: CaptureServer, **settings: Any) -> Iterator[tuple[str, InMemorySpanExporter,
                                                                                      Any]]:
    """The app exporting over OTLP to the receiver (batched every 50 ms), plus an in-memory exporter."""
    config = app_settings.model_copy(update={"otel_exporter_otlp_endpoint": receiver.url,
                                             "otel_bsp_schedule_delay": 50, **settings})
    app = create_app(config)
    server = ThreadedServer(app).start()
    memory = InMemorySpanExporter()
    try:
        observability = app.state.resources.agent.observability
        observability.tracing.provider.add_span_processor(SimpleSpanProcessor(memory))
        yield server.url, memory, observability
    finally:
        server.stop()


def _by_name(spans: list[ReadableSpan], prefix: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name.startswith(prefix)]


def _wire_spans(receiver: CaptureServer, path: str = "/v1/traces", count: int = 1) -> list[Any]:
    deadline = time.monotonic() + 10
    spans: list[Any] = []
    while time.monotonic() < deadline:
        spans = []
        for request in receiver.captured:
            if request.path == path:
                message = ExportTraceServiceRequest()
                message.ParseFromString(request.raw)
                spans += [span for rs in message.resource_spans for ss in rs.scope_spans for span in ss.spans]
        if len(spans) >= count:
            break
        time.sleep(0.05)
    return spans


async def test_a_staff_turn_is_one_trace_of_agent_model_and_tool_spans(app_settings, factory, fake_model,
                                                                       receiver) -> None:
    fake_model.queue(Reply(Text("Adding it."), ToolUse("tasks__create", {"title": "Call the plumber"}, id="t1")),
                     Reply(Text("Done.")))
    with traced_app(app_settings, receiver) as (url, memory, _):
        org = await factory.org()
        owner = await factory.user(org, "owner")
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            result = await sse(http, f"/organizations/{org.id}/agent/messages",
                               json_body={"message": "remind me to call the plumber"}, headers=owner.headers)
        spans = memory.get_finished_spans()
        wire = _wire_spans(receiver, count=len(spans))
    [agent] = _by_name(spans, "invoke_agent")
    chats, [tool] = _by_name(spans, "chat "), _by_name(spans, "execute_tool")
    assert agent.name == "invoke_agent staff_copilot" and agent.parent is None
    assert f"{agent.context.trace_id:032x}" == result.headers["x-trace-id"]  # the request's trace id
    assert len(chats) == 2 and all(s.parent.span_id == agent.context.span_id for s in [*chats, tool])
    assert {s.context.trace_id for s in spans} == {agent.context.trace_id}
    first = chats[0].attributes
    assert (first["gen_ai.operation.name"], first["gen_ai.provider.name"], first["gen_ai.request.model"]) == (
        "chat", "anthropic", app_settings.agent_model)
    assert first["gen_ai.usage.input_tokens"] >= first["gen_ai.usage.cache_read.input_tokens"] + first[
        "gen_ai.usage.cache_creation.input_tokens"]
    assert first["gen_ai.usage.output_tokens"] > 0 and first["spotter.cost_usd_micros"] > 0
    assert first["gen_ai.response.finish_reasons"] == ("tool_use",) and first["spotter.round_trip"] == 1
    assert (tool.name, tool.attributes["gen_ai.tool.name"], tool.attributes["spotter.tool.outcome"]) == (
        "execute_tool tasks__create", "tasks__create", "succeeded")
    assert tool.attributes["spotter.tool.needs_person"] is False
    for span in spans:
        assert all(span.attributes.get(key) for key in COMMON), (span.name, dict(span.attributes))
        assert span.attributes["spotter.org_id"] == str(org.id) and span.attributes["spotter.role"] == "owner"
    total = sum(c.attributes["spotter.cost_usd_micros"] for c in chats)
    assert agent.attributes["spotter.cost_usd_micros"] == total == result.one("done")["usage"]["costUsdMicros"]
    # the same spans over OTLP/HTTP, parented the same way
    names = sorted(s.name for s in wire)
    assert names == sorted(s.name for s in spans)
    root = next(s for s in wire if s.name.startswith("invoke_agent"))
    assert all(s.parent_span_id == root.span_id for s in wire if s is not root)


async def test_a_trainer_turn_traces_its_knowledge_selection_model_calls_and_tools(app_settings, db, factory,
                                                                                  fake_model, receiver) -> None:
    t = await trainee(db, factory)
    Trainer(fake_model, [Reply(ToolUse("coach__idle", {}, id="i1"))])
    with traced_app(app_settings, receiver) as (url, memory, _):
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            result = await sse(http, f"/organizations/{t.org.id}/trainer/messages", json_body={"message": "hi"},
                               headers=t.user.headers)
        spans = memory.get_finished_spans()
    assert result.names[-1] == "done"
    [agent] = _by_name(spans, "invoke_agent")
    [selection] = _by_name(spans, "knowledge_selection")
    chats = _by_name(spans, "chat ")
    assert agent.name == "invoke_agent trainer" and agent.attributes["spotter.role"] == "member"
    assert selection.parent.span_id == agent.context.span_id
    selector_calls = [c for c in chats if c.parent.span_id == selection.context.span_id]
    turn_calls = [c for c in chats if c.parent.span_id == agent.context.span_id]
    assert len(selector_calls) == 1 and len(turn_calls) == 1
    assert selector_calls[0].attributes["gen_ai.request.model"] == app_settings.summarizer_model
    assert [s.attributes["gen_ai.tool.name"] for s in _by_name(spans, "execute_tool")] == ["coach__idle"]


async def test_a_confirmation_waits_in_the_resuming_trace_linked_to_the_turn_that_suspended(
        app_settings, factory, fake_model, receiver) -> None:
    with traced_app(app_settings, receiver) as (url, memory, _):
        org = await factory.org()
        owner = await factory.user(org, "owner")
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Old"}, id="c")), Reply(Text("ok")))
            created = await sse(http, f"/organizations/{org.id}/agent/messages", json_body={"message": "add"},
                                headers=owner.headers)
            cid = created.one("conversation_started")["conversationId"]
            task_id = created.of("tool_completed")[0]["output"]["id"]
            fake_model.queue(Reply(ToolUse("tasks__delete", {"id": task_id}, id="del")))
            asked = await sse(http, f"/organizations/{org.id}/agent/messages", headers=owner.headers,
                              json_body={"message": "delete it", "conversationId": cid})
            fake_model.queue(Reply(Text("Deleted.")))
            confirmed = await sse(http, f"/organizations/{org.id}/agent/conversations/{cid}/confirm/del",
                                  json_body={"approved": True}, headers=owner.headers)
        spans = memory.get_finished_spans()
    by_trace = {s.context.trace_id: s for s in _by_name(spans, "invoke_agent")}
    suspended = by_trace[int(asked.headers["x-trace-id"], 16)]
    resumed = by_trace[int(confirmed.headers["x-trace-id"], 16)]
    assert resumed.attributes["spotter.endpoint"] == "confirm" and suspended.attributes["spotter.suspended"] is True
    [wait] = _by_name(spans, "await_person")
    assert wait.context.trace_id == resumed.context.trace_id and wait.parent.span_id == resumed.context.span_id
    assert (wait.attributes["spotter.await.kind"], wait.attributes["spotter.await.resolution"]) == (
        "confirmation", "approved")
    assert [link.context.span_id for link in wait.links] == [suspended.context.span_id]
    [deleted] = [s for s in _by_name(spans, "execute_tool") if s.attributes["gen_ai.tool.name"] == "tasks__delete"]
    assert deleted.context.trace_id == resumed.context.trace_id
    assert deleted.attributes["spotter.tool.needs_person"] is True


async def test_sentry_gets_the_spans_over_its_otlp_endpoint_and_errors_keep_their_trace(
        app_settings, factory, fake_model, receiver, db) -> None:
    from sqlalchemy import text

    from agent.observability import SentrySink

    dsn = f"http://publickey@{receiver.url.removeprefix('http://')}/42"
    transport = MemoryTransport()
    async with db.owner() as session:  # a crash: refused message rows
        await session.execute(text(
            "CREATE FUNCTION test_refuse_trace_marker() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF NEW.content::text LIKE '%{MARKER}%' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$"))
        await session.execute(text("CREATE TRIGGER test_refuse_trace_marker BEFORE INSERT ON conversation_messages "
                                   "FOR EACH ROW EXECUTE FUNCTION test_refuse_trace_marker()"))
    try:
        with traced_app(app_settings, receiver, sentry_dsn=dsn, otel_exporter_otlp_endpoint=None) as (url, _, obs):
            import sentry_sdk

            sink = SentrySink(dsn, environment="test", transport=transport)
            obs.sinks.append(sink)
            org = await factory.org()
            owner = await factory.user(org, "owner")
            async with httpx.AsyncClient(base_url=url, timeout=30) as http:
                fake_model.queue(Reply(Text("fine")))
                ok = await sse(http, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                               headers=owner.headers)
                crashed = await sse(http, f"/organizations/{org.id}/agent/messages",
                                    json_body={"message": f"keep {MARKER}"}, headers=owner.headers)
            sink.close()
            sentry_sdk.get_client().close()
        assert crashed.one("error")["code"] == "internal"
        sentry_path = "/api/42/integration/otlp/v1/traces/"
        wire = _wire_spans(receiver, sentry_path, count=2)
        assert {f"{s.trace_id.hex()}" for s in wire if s.name.startswith("invoke_agent")} >= {
            ok.headers["x-trace-id"], crashed.headers["x-trace-id"]}
        assert all("sentry_key=publickey" in r.headers.get("x-sentry-auth", "") for r in receiver.captured
                   if r.path == sentry_path)
        errors = [e for e in transport.events() if e.get("exception")]
        assert errors and errors[0]["contexts"]["trace"]["trace_id"] == crashed.headers["x-trace-id"]
        assert MARKER not in transport.wire()
        assert not any(MARKER.encode() in r.raw for r in receiver.captured)
    finally:
        async with db.owner() as session:
            await session.execute(text("DROP TRIGGER test_refuse_trace_marker ON conversation_messages"))
            await session.execute(text("DROP FUNCTION test_refuse_trace_marker()"))


async def test_posthog_gets_llm_analytics_events_by_org_without_content(app_settings, factory, fake_model,
                                                                       receiver) -> None:
    capture = CaptureServer().start()
    try:
        settings = {"app_env": "production", "posthog_api_key": "phc_spotter_test", "posthog_host": capture.url,
                    "otel_exporter_otlp_endpoint": None, "agent_rate_limit_per_minute": 0}
        with traced_app(app_settings, receiver, **settings) as (url, _, obs):
            org = await factory.org()
            owner = await factory.user(org, "owner")
            fake_model.queue(Reply(Text(f"Adding {MARKER}."), ToolUse("tasks__create", {"title": MARKER}, id="t1")),
                             Reply(Text(f"Done {MARKER}.")))
            async with httpx.AsyncClient(base_url=url, timeout=30) as http:
                result = await sse(http, f"/organizations/{org.id}/agent/messages",
                                   json_body={"message": f"task {MARKER}"}, headers=owner.headers)
        events = [e for e in capture.wait_for(10) if e["event"].startswith("$ai_")]
    finally:
        capture.stop()
    trace_id = result.headers["x-trace-id"]
    by_kind: dict[str, list[dict]] = {}
    for event in events:
        by_kind.setdefault(event["event"], []).append(event)
    assert len(by_kind["$ai_generation"]) == 2 and len(by_kind["$ai_trace"]) == 1
    assert {e["properties"]["$ai_span_name"] for e in by_kind["$ai_span"]} == {"execute_tool tasks__create",
                                                                              "ambient_context"}
    assert {e["distinct_id"] for e in events} == {str(org.id)}
    for event in events:
        props = event["properties"]
        assert props["$ai_trace_id"] == trace_id and props["$process_person_profile"] is False
        assert "$ai_input" not in props and "$ai_output_choices" not in props
    generation = by_kind["$ai_generation"][0]["properties"]
    assert (generation["$ai_model"], generation["$ai_provider"]) == (app_settings.agent_model, "anthropic")
    assert generation["$ai_output_tokens"] > 0 and generation["$ai_total_cost_usd"] > 0
    assert "$ai_cache_read_input_tokens" in generation and "$ai_cache_creation_input_tokens" in generation
    assert MARKER not in "".join(r.text for r in capture.captured)


@pytest.mark.parametrize("capture_content", [False, True])
async def test_no_text_in_any_span_unless_content_capture_is_on(app_settings, db, factory, fake_model, receiver,
                                                                capture_content) -> None:
    """The marker in the staff message, the model's text and its tool input, and a member's message: in no
    exported span (memory and wire) — and, with capture on, in the content attributes only."""
    t = await trainee(db, factory)
    with traced_app(app_settings, receiver,
                    otel_instrumentation_genai_capture_message_content=capture_content) as (url, memory, _):
        org = await factory.org()
        owner = await factory.user(org, "owner")
        fake_model.queue(Reply(Text(f"Sure {MARKER}"), ToolUse("tasks__create", {"title": f"x {MARKER}"}, id="t")),
                         Reply(Text(f"done {MARKER}")))
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            await sse(http, f"/organizations/{org.id}/agent/messages", json_body={"message": f"note {MARKER}"},
                      headers=owner.headers)
            Trainer(fake_model, [Reply(ToolUse("coach__message_notify_user", {"text": f"hey {MARKER}"}, id="n")),
                                 Reply(ToolUse("coach__idle", {}, id="i"))])
            await sse(http, f"/organizations/{t.org.id}/trainer/messages", json_body={"message": f"hi {MARKER}"},
                      headers=t.user.headers)
        spans = memory.get_finished_spans()
        wire = _wire_spans(receiver, count=len(spans))
    raw = b"".join(r.raw for r in receiver.captured)
    carrying = {key for s in spans for key, value in s.attributes.items() if MARKER in str(value)}
    if not capture_content:
        assert carrying == set() and MARKER.encode() not in raw
        assert all(MARKER not in e.name for s in spans for e in s.events)
    else:
        assert carrying and carrying <= {"gen_ai.input.messages", "gen_ai.output.messages",
                                         "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"}
    assert len(wire) >= len(spans) > 0


def test_tracing_is_off_without_a_destination(base_settings) -> None:
    from agent.observability import build_observability

    tracing = build_observability(base_settings).tracing
    assert tracing.enabled is False and tracing.provider is None
    span = tracing.agent(_who(), trace_id=uuid.uuid4().hex, endpoint="send")
    assert span.is_recording() is False


def _who():
    from agent.tracing import Who

    return Who(org_id=str(uuid.uuid4()), conversation_id=None, persona="staff_copilot", role="owner")
