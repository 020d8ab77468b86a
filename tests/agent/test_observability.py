"""Observability: scrub, the real Sentry SDK and PostHog client, and the events of real turns."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from agent.observability import Observability, PostHogSink, SentrySink, build_observability, scrub
from api.app import create_app
from tests.fakes.anthropic_server import ApiError, Reply, Text, ToolUse
from tests.fakes.capture_server import CaptureServer
from tests.fakes.sentry_transport import MemoryTransport, sentry_sink
from tests.servers import ThreadedServer
from tests.sse import sse

NAME = "Saar Levi"
EMAIL = "saar.levi@example.com"
MESSAGE = "please freeze Saar's membership until June"
API_KEY = "sk-ant-api03-AbCdEfGh1234567890xyz"
BEARER_TOKEN = "q8Zr7tLmN2vX9pQw4sTk"
PASSWORD = "hunter2-correct-horse"
LEAKS = (NAME, "Saar", EMAIL, "saar.levi", MESSAGE, "freeze", API_KEY, "sk-ant", BEARER_TOKEN, PASSWORD)
TRACE, TRACE_2, ORG = "a1b2c3d4e5f60718293a4b5c6d7e8f90", "f0e1d2c3b4a5968778695a4b3c2d1e0f", "org-1234"
COUNTS = {"inputTokens": 1234, "outputTokens": 56, "cacheReadTokens": 789, "cacheCreationTokens": 10,
          "costUsdMicros": 4321, "cacheHitRatio": 0.3856, "durationMs": 987}


def _careless_events(obs: Observability) -> None:
    """Events as a careless caller might emit them: user text, member data and secrets mixed with counts."""
    obs.emit("agent.turn.started", trace_id=TRACE, org_id=ORG, endpoint="send", promptLength=len(MESSAGE),
             message=MESSAGE, prompt=MESSAGE, user={"Email": EMAIL, "apiKey": API_KEY})
    obs.emit("agent.tool.executed", trace_id=TRACE, org_id=ORG, router="members", action="search", durationMs=12,
             outcome="succeeded", errorCode=None, input={"query": NAME}, output={"members": [{"name": NAME}]},
             results=[{"content": NAME}, {"text": MESSAGE}, {"note": f"write to {EMAIL}"}])
    obs.capture_exception(RuntimeError(f"lookup of {NAME} <{EMAIL}> failed using {API_KEY}"),
                          trace_id=TRACE, org_id=ORG, endpoint="send", code="internal")
    obs.emit("agent.turn.failed", trace_id=TRACE, org_id=ORG, endpoint="send", errorCode="internal", **COUNTS,
             detail=f"upstream: Authorization: Bearer {BEARER_TOKEN}; key {API_KEY}; contact {EMAIL}",
             headers={"Authorization": f"Bearer {BEARER_TOKEN}", "X-Api-Key": API_KEY}, password=PASSWORD)
    obs.emit("agent.turn.started", trace_id=TRACE_2, org_id=ORG, endpoint="confirm", promptLength=0)
    obs.emit("agent.turn.failed", trace_id=TRACE_2, org_id=ORG, endpoint="confirm", errorCode="internal",
             **COUNTS, token=API_KEY, Secret=PASSWORD)


def _assert_no_leaks(blob: str) -> None:
    for leak in LEAKS:
        assert leak not in blob, f"{leak!r} left the process"


# ---- scrub ---------------------------------------------------------------------------------------------------


def test_scrub_drops_text_and_secret_keys_at_any_depth_and_keeps_counts() -> None:
    clean = scrub({"Content": "x", "TEXT": "x", "prompt": "x", "message": "x", "output": {"a": 1}, "input": [1],
                   "token": "x", "apiKey": "x", "API_KEY": "x", "secret": "x", "Password": "x",
                   "toolInput": "x", "accessToken": "x", "db_password": "x",
                   "nested": [{"deeper": {"message": "x", "durationMs": 5}}, [{"text": "x", "rows": 3}]],
                   **COUNTS, "promptLength": 40, "errorCode": "internal", "ok": True, "none": None})
    assert clean == {"nested": [{"deeper": {"durationMs": 5}}, [{"rows": 3}]], **COUNTS, "promptLength": 40,
                     "errorCode": "internal", "ok": True, "none": None}


def test_scrub_redacts_secret_and_email_shaped_values_anywhere() -> None:
    clean = scrub({"detail": f"Bearer {BEARER_TOKEN} then {API_KEY} for {EMAIL}",
                   "list": [f"mail {EMAIL}", "api_key=abc123456789", "plain words stay"],
                   "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyXzEyMyJ9.c2lnbmF0dXJlX2hlcmU"})
    blob = json.dumps(clean)
    _assert_no_leaks(blob)
    assert "eyJzdWIi" not in blob and "abc123456789" not in blob
    assert clean["list"][2] == "plain words stay" and "[email]" in clean["list"][0]


# ---- Sentry (real SDK, in-memory transport) ------------------------------------------------------------------


@pytest.fixture
def sentry() -> Iterator[tuple[SentrySink, MemoryTransport]]:
    with sentry_sink(default_integrations=False) as pair:
        yield pair


def test_sentry_gets_tagged_failures_with_their_own_breadcrumbs_and_no_user_text(sentry) -> None:
    sink, transport = sentry
    obs = Observability([sink])
    obs.emit("agent.turn.started", trace_id="other-trace", org_id="other-org", endpoint="send", promptLength=3)
    _careless_events(obs)
    sink.close()

    wire = transport.wire()
    _assert_no_leaks(wire)
    events = transport.events()
    assert len(events) == 2  # the exception once (not again as a message), then the message-only failure
    crash, message_only = events
    assert crash["exception"]["values"][-1]["type"] == "RuntimeError"
    assert crash["tags"] == {"agent.trace_id": TRACE, "agent.org_id": ORG, "agent.code": "internal",
                             "agent.endpoint": "send"}
    assert crash["environment"] == "test"
    crumbs = crash["breadcrumbs"]["values"]
    assert [c["message"] for c in crumbs] == ["agent.turn.started", "agent.tool.executed"]  # not other-trace's
    assert crumbs[0]["data"] == {"endpoint": "send", "promptLength": len(MESSAGE), "user": {}}  # ids are tags
    assert crumbs[1]["data"]["durationMs"] == 12 and crumbs[1]["data"]["router"] == "members"

    assert message_only["message"] == "agent.turn.failed" and message_only["level"] == "error"
    assert message_only["tags"] == {"agent.trace_id": TRACE_2, "agent.org_id": ORG, "agent.code": "internal",
                                    "agent.endpoint": "confirm"}
    failed = message_only["breadcrumbs"]["values"][-1]
    assert failed["message"] == "agent.turn.failed"
    assert failed["data"] == {"endpoint": "confirm", "errorCode": "internal", "durationMs": COUNTS["durationMs"],
                              "usage": {k: v for k, v in COUNTS.items() if k != "durationMs"}}


def test_sentry_reports_nothing_for_completed_turns(sentry) -> None:
    sink, transport = sentry
    obs = Observability([sink])
    obs.emit("agent.turn.started", trace_id=TRACE, org_id=ORG, endpoint="send", promptLength=5)
    obs.emit("agent.turn.completed", trace_id=TRACE, org_id=ORG, endpoint="send", **COUNTS)
    obs.emit("agent.turn.failed", trace_id=TRACE_2, org_id=ORG, endpoint="send", errorCode="provider_overloaded")
    sink.close()
    assert transport.events() == []


# ---- PostHog (real client, local capture server) -------------------------------------------------------------


@pytest.fixture(scope="module")
def capture() -> Iterator[CaptureServer]:
    server = CaptureServer().start()
    yield server
    server.stop()


def test_posthog_gets_every_event_by_org_with_counts_and_no_user_text(capture) -> None:
    capture.reset()
    sink = PostHogSink("phc_spotter_test_project", host=capture.url)
    _careless_events(Observability([sink]))
    sink.close()

    events = capture.wait_for(5)
    _assert_no_leaks("".join(request.text for request in capture.captured))
    assert [e["event"] for e in events] == ["agent.turn.started", "agent.tool.executed", "agent.turn.failed",
                                            "agent.turn.started", "agent.turn.failed"]
    assert {e["distinct_id"] for e in events} == {ORG}
    failed = events[2]["properties"]
    assert {k: failed[k] for k in COUNTS} == COUNTS and failed["errorCode"] == "internal"
    assert failed["$process_person_profile"] is False
    assert events[1]["properties"]["durationMs"] == 12
    assert all(r.path == "/batch/" for r in capture.captured)


def test_build_observability_adds_posthog_only_in_production_with_a_key(base_settings, capture) -> None:
    capture.reset()
    assert build_observability(base_settings).sinks == []
    development = base_settings.model_copy(update={"app_env": "development", "posthog_api_key": "phc_x",
                                                   "posthog_host": capture.url})
    assert build_observability(development).sinks == []
    production = development.model_copy(update={"app_env": "production"})
    obs = build_observability(production)
    assert [type(s) for s in obs.sinks] == [PostHogSink]
    obs.emit("agent.storage.snapshot", tables=[{"table": "users", "rows": 3, "bytes": 8192}])
    obs.close()
    assert capture.wait_for(1)[0]["properties"]["tables"] == [{"table": "users", "rows": 3, "bytes": 8192}]


# ---- the events of real turns --------------------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict]] = []

    def __call__(self, event: str, fields: dict) -> None:
        self.events.append((event, fields))

    def for_org(self, org_id) -> list[tuple[str, dict]]:
        return [(e, f) for e, f in self.events if f.get("org_id") == str(org_id)]


@pytest.fixture(scope="module")
def observed(app_settings) -> Iterator[tuple[ThreadedServer, Recorder]]:
    """The real app, with a recording sink added to the Observability it built for itself."""
    app = create_app(app_settings)
    server = ThreadedServer(app).start()
    recorder = Recorder()
    app.state.resources.agent.orchestrator.observability.sinks.append(recorder)
    yield server, recorder
    server.stop()


async def test_a_tool_turn_emits_each_event_once_with_the_documented_fields(observed, gym, fake_model) -> None:
    server, recorder = observed
    message = f"Create a task: call {NAME} at {EMAIL} about renewal"
    fake_model.queue(Reply(Text("Creating it."), ToolUse("tasks__create", {"title": f"Call {NAME}"}, id="toolu_o")),
                     Reply(Text(f"Done, {NAME} is on the list.")))
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        result = await sse(client, f"{gym.base}/messages", json_body={"message": message},
                           headers=gym.owner.headers)
    assert result.names[-1] == "done"
    trace_id = result.headers["x-trace-id"]
    events = recorder.for_org(gym.org.id)

    assert [e for e, _ in events] == ["agent.turn.started", "agent.tool.executed", "agent.turn.completed"]
    started, tool, completed = (f for _, f in events)
    assert started == {"trace_id": trace_id, "org_id": str(gym.org.id), "endpoint": "send",
                       "promptLength": len(message), "conversation_id": result.one("done")["conversationId"]}
    assert {k: tool[k] for k in ("router", "action", "outcome", "errorCode")} == {
        "router": "tasks", "action": "create", "outcome": "succeeded", "errorCode": None}
    assert isinstance(tool["durationMs"], int) and tool["trace_id"] == trace_id
    usage = result.one("done")["usage"]
    billed = fake_model.requests
    assert completed["inputTokens"] == sum(r.usage["input_tokens"] for r in billed) == usage["inputTokens"]
    assert completed["outputTokens"] == usage["outputTokens"] > 0
    assert completed["cacheReadTokens"] == sum(r.usage["cache_read_input_tokens"] for r in billed)
    assert completed["cacheCreationTokens"] == sum(r.usage["cache_creation_input_tokens"] for r in billed)
    assert completed["costUsdMicros"] == usage["costUsdMicros"] > 0
    assert 0 <= completed["cacheHitRatio"] <= 1 and completed["durationMs"] >= 0
    assert completed["modelCalls"] == 2 and completed["suspended"] is False
    _assert_no_leaks(json.dumps(events))


async def test_confirmation_and_failure_events_carry_their_fields(observed, gym, fake_model) -> None:
    server, recorder = observed
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Order chalk"}, id="toolu_c")), Reply(Text("Done.")))
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        first = await sse(client, f"{gym.base}/messages", json_body={"message": "add task order chalk"},
                          headers=gym.owner.headers)
        conversation_id = first.one("conversation_started")["conversationId"]
        task_id = first.one("tool_completed")["output"]["id"]
        fake_model.queue(Reply(ToolUse("tasks__delete", {"id": task_id}, id="toolu_d")))
        await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                  json_body={"message": "delete it", "conversationId": conversation_id})
        fake_model.queue(ApiError(500))
        failed = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                           json_body={"message": "never mind, what is on my list?", "conversationId": conversation_id})
    assert failed.one("error")["code"] == "provider_unavailable"
    names = [e for e, _ in recorder.for_org(gym.org.id)]
    assert names == ["agent.turn.started", "agent.tool.executed", "agent.turn.completed",
                     "agent.turn.started", "agent.tool.confirmation_pending", "agent.turn.completed",
                     "agent.turn.started", "agent.replay.violation", "agent.turn.failed"]
    fields = dict(recorder.for_org(gym.org.id)[4:])
    assert fields["agent.tool.confirmation_pending"]["router"] == "tasks"
    assert fields["agent.tool.confirmation_pending"]["action"] == "delete"
    assert fields["agent.turn.completed"]["suspended"] is True
    violation = fields["agent.replay.violation"]
    assert violation["violations"] >= 1 and "orphaned_tool_use" in violation["reasons"]
    assert violation["repaired"] is True and {"role", "blocks"} <= set(violation["snapshot"][0])
    assert fields["agent.turn.failed"]["errorCode"] == "provider_unavailable"
    assert fields["agent.turn.failed"]["inputTokens"] == 0


async def test_compaction_reports_under_the_turns_trace(observed, gym, fake_model, db) -> None:
    from tests.agent.test_compaction import _user, chat_pairs, seed

    server, recorder = observed
    conversation_id, _ = await seed(db, gym, [*chat_pairs(11), ("user", _user("a turn that failed"))])
    fake_model.queue(Reply(Text(f"{NAME} asked about renewals.")), Reply(Text("Sure.")))
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        result = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                           json_body={"message": "and the next one?", "conversationId": conversation_id})
    events = recorder.for_org(gym.org.id)
    assert [e for e, _ in events] == ["agent.turn.started", "agent.compaction.completed", "agent.turn.completed"]
    compacted = events[1][1]
    assert compacted["trace_id"] == result.headers["x-trace-id"] and compacted["conversation_id"] == conversation_id
    assert compacted["summarizedCount"] == 18 and compacted["keptCount"] == 6 and compacted["durationMs"] >= 0
    _assert_no_leaks(json.dumps(events))
