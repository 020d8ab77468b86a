"""The trainer runs on the one engine (issue 23): every rule the staff copilot's engine decides holds for the
trainer too, over HTTP — a crash is reported as the staff's is, a broken history is repaired, a confirm is
refused once the daily cap is spent and waits for a busy session, a NUL the model sends is a typed tool error,
a NUL in currentWorkoutId is refused before any stream, Undo is offered by the one policy — and a trainer
turn, its confirm and an undo go through the one orchestrator, dispatcher and resumer."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from agent.composition import build_agent
from agent.threads import Opening
from agent.trainer.persona import TRAINER
from api.app import create_app
from core.tenancy import find_caller_in_org
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.fakes.sentry_transport import sentry_sink
from tests.servers import ThreadedServer
from tests.sse import sse
from tests.trainer.fixtures import scheduled_legs, trainee
from tests.trainer.scripted import SELECTOR, Trainer
from tools.registry import Inverse, ToolRouter, by_id

MARKER = "qz7-trainer-crash-marker"


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


class Events:
    """A sink keeping every observability event the app emits (name, fields)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, event: str, fields: dict[str, Any]) -> None:
        self.seen.append((event, fields))

    def named(self, name: str) -> list[dict[str, Any]]:
        return [fields for event, fields in self.seen if event == name]


@pytest.fixture
def observed(server):
    sink = Events()
    sinks = server.server.config.app.state.resources.agent.observability.sinks
    sinks.append(sink)
    yield sink
    sinks.remove(sink)


def base(t) -> str:
    return f"/organizations/{t.org.id}/trainer"




async def _scheduled_count(db, sid: str) -> int:
    async with db.owner() as session:
        return int(await session.scalar(text("SELECT count(*) FROM scheduled_workouts WHERE id = :i"), {"i": sid}))


async def test_a_trainer_turn_its_confirm_and_an_undo_go_through_the_one_engine(client, db, factory, fake_model,
                                                                               observed) -> None:
    t = await trainee(db, factory)
    scheduled = await scheduled_legs(db, t)
    Trainer(fake_model, [Reply(ToolUse("calendar__delete_scheduled_workout", {"id": scheduled}, id="del1")),
                         Reply(ToolUse("logbook__log_completed_exercise", {
                             "exercise_name": "Bench Press", "exercise_type": "strength", "sets": 3, "reps": 8,
                             "load": 40, "muscles": ["Chest"], "goals": ["Strength"]}, id="log1")),
                         Reply(ToolUse("coach__idle", {}, id="i1"))])
    first = await sse(client, f"{base(t)}/messages", json_body={"message": "cancel Thursday"}, headers=t.user.headers)
    sid = first.one("done")["sessionId"]
    confirmed = await sse(client, f"{base(t)}/sessions/{sid}/confirm/del1", json_body={"approved": True},
                          headers=t.user.headers)
    assert [c["action"] for c in confirmed.of("tool_completed")] == [
        "delete_scheduled_workout", "log_completed_exercise", "idle"]
    assert confirmed.one("done")["sessionId"] == sid and confirmed.one("done")["iterations"] == 2
    undone = await client.post(f"{base(t)}/sessions/{sid}/undo/log1", headers=t.user.headers)
    assert undone.status_code == 200 and undone.json()["inverse"]["action"] == "undo_logged_exercise"

    finished = [f for f in observed.named("agent.turn.completed") if f.get("org_id") == str(t.org.id)]
    assert [(f["persona"], f["endpoint"]) for f in finished] == [("trainer", "trainer_send"),
                                                                  ("trainer", "trainer_confirm")]
    assert all("roundTrips" in f for f in finished)  # the one engine's finalize, for staff and trainer alike
    runs = [(f["router"], f["action"]) for f in observed.named("agent.tool.executed")
            if f.get("org_id") == str(t.org.id)]
    assert runs == [("calendar", "delete_scheduled_workout"), ("logbook", "log_completed_exercise"),
                    ("coach", "idle"), ("logbook", "undo_logged_exercise")]  # the one dispatcher ran them all


async def test_a_trainer_crash_is_reported_as_the_staff_copilots_is(app_settings, db, factory, fake_model) -> None:
    """A turn that fails `internal`: the failed event carries errorCode (what the Sentry sink and PostHog read)
    and Sentry gets the exception, tagged with the trainer's endpoint; no member text in it."""
    t = await trainee(db, factory)
    async with db.owner() as session:
        await session.execute(text(
            "CREATE FUNCTION test_refuse_marked_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF NEW.payload::text LIKE '%{MARKER}%' THEN RAISE EXCEPTION 'refused event'; END IF; RETURN NEW; "
            "END $$"))
        await session.execute(text("CREATE TRIGGER test_refuse_marked_event BEFORE INSERT ON trainer_events "
                                   "FOR EACH ROW EXECUTE FUNCTION test_refuse_marked_event()"))
    app = create_app(app_settings)
    server = ThreadedServer(app).start()
    try:
        with sentry_sink() as (sink, transport):
            observability = app.state.resources.agent.observability
            events = Events()
            observability.sinks += [sink, events]
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                result = await sse(http, f"{base(t)}/messages", json_body={"message": f"remember {MARKER}"},
                                   headers=t.user.headers)
            sink.close()
            assert result.one("error")["code"] == "internal" and result.names[-1] == "done"
            [failed] = events.named("agent.turn.failed")
            assert (failed["errorCode"], failed["persona"], failed["endpoint"]) == ("internal", "trainer",
                                                                                    "trainer_send")
            reported = transport.events()
            assert any(e.get("exception") for e in reported)
            assert {e.get("tags", {}).get("agent.endpoint") for e in reported} == {"trainer_send"}
            assert MARKER not in transport.wire()
    finally:
        server.stop()
        async with db.owner() as session:
            await session.execute(text("DROP TRIGGER test_refuse_marked_event ON trainer_events"))
            await session.execute(text("DROP FUNCTION test_refuse_marked_event()"))


async def test_a_broken_trainer_history_is_repaired_not_refused(client, db, factory, fake_model) -> None:
    """An empty member message in the event log (a crash's leftover) makes the history invalid: the engine's
    replay guard repairs it and the turn goes on (the trainer's own loop failed replay_integrity_violation)."""
    t = await trainee(db, factory)
    Trainer(fake_model, [Reply(ToolUse("coach__idle", {}, id="i1")), Reply(ToolUse("coach__idle", {}, id="i2"))])
    first = await sse(client, f"{base(t)}/messages", json_body={"message": "hi"}, headers=t.user.headers)
    sid = first.one("done")["sessionId"]
    async with db.owner() as session:
        await session.execute(text(
            "INSERT INTO trainer_events (id, org_id, session_id, seq, type, payload) SELECT gen_random_uuid(), "
            "org_id, id, (SELECT max(seq) + 1 FROM trainer_events WHERE session_id = :s), 'tool_call', "
            "CAST(:p AS jsonb) FROM trainer_sessions WHERE id = :s"),
            {"s": sid, "p": json.dumps({"callId": "lost", "toolName": "coach__idle", "arguments": {},
                                        "text": ""})})
        await session.execute(text(
            "INSERT INTO trainer_events (id, org_id, session_id, seq, type, payload) SELECT gen_random_uuid(), "
            "org_id, id, (SELECT max(seq) + 1 FROM trainer_events WHERE session_id = :s), 'user_message', "
            "CAST(:p AS jsonb) FROM trainer_sessions WHERE id = :s"), {"s": sid, "p": json.dumps({"message": ""})})
    second = await sse(client, f"{base(t)}/messages", json_body={"message": "and now?", "sessionId": sid},
                       headers=t.user.headers)
    assert "error" not in second.names, second.events
    assert second.of("tool_completed")[-1]["action"] == "idle"


async def test_a_confirm_when_the_daily_cap_is_spent_runs_nothing(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    scheduled = await scheduled_legs(db, t)
    Trainer(fake_model, [Reply(ToolUse("calendar__delete_scheduled_workout", {"id": scheduled}, id="del1"))])
    first = await sse(client, f"{base(t)}/messages", json_body={"message": "cancel Thursday"}, headers=t.user.headers)
    sid = first.one("done")["sessionId"]
    async with db.owner() as session:  # the org's daily cap, spent
        await session.execute(text("INSERT INTO ai_usage_daily (org_id, user_id, day, cost_usd_micros) "
                                   "VALUES (:o, :u, :d, 100000000) ON CONFLICT (org_id, user_id, day) DO UPDATE "
                                   "SET cost_usd_micros = 100000000"),
                              {"o": t.org.id, "u": t.user.id, "d": datetime.now(UTC).date()})
    refused = await sse(client, f"{base(t)}/sessions/{sid}/confirm/del1", json_body={"approved": True},
                        headers=t.user.headers)
    assert refused.one("error")["code"] == "agent_budget_exceeded" and refused.names[-1] == "done"
    assert await _scheduled_count(db, scheduled) == 1
    async with db.owner() as session:
        status = await session.scalar(text("SELECT status FROM ai_tool_executions WHERE conversation_id = :s AND "
                                           "tool_use_id = 'del1'"), {"s": sid})
    assert status == "pending"  # answerable once the cap resets


class _HeldTurn:
    """The selector answers at once; the turn's model call waits until released."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.arrived, self._released = threading.Event(), threading.Event()

    def __call__(self, body: dict[str, Any]) -> Reply:
        if not body.get("tools"):
            return Reply(Text(json.dumps(SELECTOR)))
        self.arrived.set()
        self._released.wait(30)
        return self.reply

    def release(self) -> None:
        self._released.set()


async def test_a_confirm_on_a_busy_session_waits_for_the_turn(client, db, factory, fake_model) -> None:
    """A confirm while another turn of the session runs waits for it (the staff engine's 5 s), then resolves."""
    t = await trainee(db, factory)
    scheduled = await scheduled_legs(db, t)
    Trainer(fake_model, [Reply(ToolUse("calendar__delete_scheduled_workout", {"id": scheduled}, id="del1"))])
    first = await sse(client, f"{base(t)}/messages", json_body={"message": "cancel Thursday"}, headers=t.user.headers)
    sid = first.one("done")["sessionId"]
    held = _HeldTurn(Reply(ToolUse("coach__idle", {}, id="i2")))
    fake_model.respond_with(held)
    running = asyncio.create_task(sse(client, f"{base(t)}/messages", headers=t.user.headers,
                                      json_body={"message": "and my stats?", "sessionId": sid}))
    try:
        assert await asyncio.to_thread(held.arrived.wait, 30)  # the turn holds the session
        answer = asyncio.create_task(sse(client, f"{base(t)}/sessions/{sid}/confirm/del1",
                                         json_body={"approved": True}, headers=t.user.headers))
        await asyncio.sleep(0.3)
        assert not answer.done()  # waiting for the session, not refused at once
    finally:
        held.release()
    assert (await running).names[-1] == "done"
    resolved = await answer
    assert resolved.status == 200 and resolved.of("tool_completed")[0]["action"] == "delete_scheduled_workout"
    assert await _scheduled_count(db, scheduled) == 0


async def test_a_nul_the_model_sends_is_a_typed_tool_error_it_can_fix(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    Trainer(fake_model, [Reply(ToolUse("prefs__set_preference", {
        "type": "permanent", "description": "no bur\x00pees", "guidance": "avoid burpees"}, id="p1")),
                         Reply(ToolUse("coach__idle", {}, id="i1"))])
    result = await sse(client, f"{base(t)}/messages", json_body={"message": "never burpees"}, headers=t.user.headers)
    assert "error" not in result.names, result.events
    first = result.of("tool_completed")[0]
    assert first["ok"] is False and first["error"]["code"] == "validation_failed"
    assert result.of("tool_completed")[-1]["action"] == "idle"


async def test_a_nul_in_current_workout_id_is_400_before_any_stream(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    for path in ("messages", "chat"):
        response = await client.post(f"{base(t)}/{path}", headers=t.user.headers,
                                     json={"message": "swap it", "currentWorkoutId": "workout_1\x00"})
        assert (response.status_code, response.json()["code"]) == (400, "validation_failed"), response.text
    assert fake_model.requests == []


async def test_undo_is_offered_by_the_one_policy(app_settings, db, factory, fake_model) -> None:
    """A member tool whose inverse the member may not run: the trainer's card offers no Undo (the trainer's own
    copy offered it whenever an inverse existed)."""
    import redis.asyncio as aioredis

    router = ToolRouter("probe")

    from pydantic import BaseModel

    class NoteInput(BaseModel):
        text: str

    @router.agent_tool(action="note", summary="Write a note.", input=NoteInput, roles=frozenset({"member"}),
                       side_effects="write", inverse=Inverse("probe", "erase", by_id))
    async def note(ctx, input: NoteInput) -> dict:
        return {"id": "n1"}

    @router.agent_tool(action="erase", summary="Erase a note.", input=NoteInput, roles=frozenset({"owner"}),
                       side_effects="write")
    async def erase(ctx, input: NoteInput) -> dict:
        return {"id": "n1"}

    t = await trainee(db, factory)
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    services.registry.include(router)  # this engine's registry only (build_agent builds one per call)
    Trainer(fake_model, [Reply(ToolUse("probe__note", {"text": "hello"}, id="n")),
                         Reply(ToolUse("coach__idle", {}, id="i"))])
    async with db.scope(org_id=t.org.id) as session:
        caller, access = await find_caller_in_org(session, t.user.clerk_id, t.org.id)
    try:
        turn = await services.orchestrator.open_send(persona=TRAINER, access=access, caller=caller,
                                                     member_id=t.member_id, locale="en", trace_id=uuid.uuid4().hex,
                                                     opening=Opening("note it"), thread_id=None)
        frames = [(e.type, e.data) async for e in turn.events()]
    finally:
        await services.close()
        await redis.aclose()
    noted = next(d for kind, d in frames if kind == "tool_completed" and d["action"] == "note")
    assert noted["ok"] is True and noted["inverseAvailable"] is False
