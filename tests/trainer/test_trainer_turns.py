"""The trainer over real HTTP with the fake model: the smoke test of 000 §12, ask → question, chat JSON,
member isolation, a reply without a tool."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text

from gym.training.workout import Workout
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import chest_workout, schema_part, trainee
from tests.trainer.scripted import Trainer


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


def base(t) -> str:
    return f"/organizations/{t.org.id}/trainer"


def workout_turn() -> list[Reply]:
    return [Reply(ToolUse("data__fetch_data", {"sources": {"progression": {}}}, id="toolu_1")),
            Reply(ToolUse("workout__generate_workout", chest_workout(), id="toolu_2")),
            Reply(Text("Here it is."), ToolUse("coach__message_notify_user", {
                "text": "Your quick chest workout", "attachments": ["workout_1"]}, id="toolu_3")),
            Reply(ToolUse("coach__idle", {}, id="toolu_4"))]


async def test_smoke_quick_chest_workout(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    script = Trainer(fake_model, workout_turn())
    result = await sse(client, f"{base(t)}/messages", json_body={"message": "Give me a quick chest workout"},
                       headers=t.user.headers)
    assert result.status == 200, result.events
    names = result.names
    assert names[0] == "session_started" and names[-1] == "done" and names.count("done") == 1
    done = result.one("done")
    assert 2 <= done["iterations"] <= 10
    assert {k["source"] for k in result.of("knowledge")} >= {"category_goals", "recovery_status", "progression"}
    completed = [c["action"] for c in result.of("tool_completed")]
    assert completed.index("generate_workout") < completed.index("message_notify_user")
    message = result.one("message")
    workout = message["attachments"][0]["workout"]
    assert workout["id"] == "workout_1"
    for ex in workout["exercises"]:
        assert ex["muscles"] and ex["goals"]
    Workout.model_validate({"exercises": [schema_part(e) for e in workout["exercises"]]})
    assert all("recovery" in e and "suggestion" in e for e in workout["exercises"])
    session_id = done["sessionId"]
    async with db.owner() as session:
        types = set((await session.execute(text("SELECT type FROM trainer_events WHERE session_id = :s"),
                                           {"s": session_id})).scalars())
        totals = (await session.execute(text("SELECT total_tokens, cost_usd_micros FROM trainer_sessions "
                                             "WHERE id = :s"), {"s": session_id})).one()
    assert {"user_message", "tool_call", "tool_result", "workout", "llm_request", "llm_response"} <= types
    assert totals[0] > 0 and totals[1] > 0
    async with db.owner() as session:
        daily = (await session.execute(text("SELECT sum(cost_usd_micros), sum(turns) FROM ai_usage_daily "
                                            "WHERE org_id = :o"), {"o": t.org.id})).one()
    assert daily[0] >= totals[1] and daily[1] == 1  # the org's daily cost and turn count, as staff turns
    requests = script.turn_requests()
    assert len(requests) == 4
    for body in requests:
        assert body["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
        assert {t["name"] for t in body["tools"]} >= {"coach__idle", "workout__generate_workout"}
        assert not any(t["name"].startswith(("tasks__", "read__")) for t in body["tools"])
    status = [s for s in result.of("status") if s["tool"] == "workout__generate_workout"]
    assert [s["phase"] for s in status] == ["start", "done"] and status[1]["message"] == "Workout ready"


async def test_ask_ends_the_turn_with_a_question_and_the_next_message_answers(client, db, factory,
                                                                               fake_model) -> None:
    t = await trainee(db, factory)
    script = Trainer(fake_model, [
        Reply(ToolUse("coach__message_ask_user", {"text": "Home or gym?", "options": ["Home", "Gym"]}, id="q1")),
        Reply(ToolUse("coach__idle", {}, id="i1"))])
    first = await sse(client, f"{base(t)}/messages", json_body={"message": "workout please"}, headers=t.user.headers)
    assert first.one("question") == {"type": "question", "content": "Home or gym?", "options": ["Home", "Gym"]}
    assert first.names[-1] == "done" and first.one("done")["iterations"] == 1
    session_id = first.one("done")["sessionId"]
    second = await sse(client, f"{base(t)}/messages", json_body={"message": "Home", "sessionId": session_id},
                       headers=t.user.headers)
    assert "session_started" not in second.names
    last = script.turn_requests()[-1]["messages"]
    tool_result = last[-1]["content"][0]
    assert tool_result["type"] == "tool_result" and tool_result["tool_use_id"] == "q1"
    assert any(b.get("text", "").endswith("\nHome") for b in last[-1]["content"])


async def test_chat_returns_the_turn_as_json(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    Trainer(fake_model, workout_turn())
    response = await client.post(f"{base(t)}/chat", json={"message": "Give me a quick chest workout"},
                                 headers=t.user.headers)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["messages"][0]["content"] == "Your quick chest workout"
    assert body["messages"][0]["attachments"][0]["workout"]["id"] == "workout_1"
    assert body["question"] is None and body["iterations"] == 4
    sessions = (await client.get(f"{base(t)}/sessions", headers=t.user.headers)).json()["items"]
    assert [s["id"] for s in sessions] == [body["sessionId"]]
    detail = (await client.get(f"{base(t)}/sessions/{body['sessionId']}", headers=t.user.headers)).json()
    assert detail["session"]["currentWorkoutId"] == "workout_1"
    assert "llm_request" not in {e["type"] for e in detail["events"]}


async def test_a_reply_without_a_tool_is_shown_and_logged(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    Trainer(fake_model, [Reply(Text("Just words."))])
    result = await sse(client, f"{base(t)}/messages", json_body={"message": "hi"}, headers=t.user.headers)
    assert result.one("message")["content"] == "Just words." and "error" not in result.names
    async with db.owner() as session:
        logged = (await session.execute(text("SELECT payload FROM trainer_events WHERE type = 'error' AND "
                                             "session_id = :s"), {"s": result.one("done")["sessionId"]})).scalars()
        assert [p["code"] for p in logged] == ["no_tool_use"]


async def test_member_isolation(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    other = await trainee(db, factory, "Other Member")
    Trainer(fake_model, [Reply(ToolUse("coach__idle", {}, id="i1"))])
    mine = await sse(client, f"{base(t)}/messages", json_body={"message": "hi"}, headers=t.user.headers)
    sid = mine.one("done")["sessionId"]
    # the same org: a second member linked in t's org
    from tests.trainer.members import link_member
    neighbour = await factory.user(t.org, "member")
    await link_member(db, t.org.id, neighbour.id, "Neighbour")
    for method, url in [("GET", f"{base(t)}/sessions/{sid}"), ("DELETE", f"{base(t)}/sessions/{sid}")]:
        response = await client.request(method, url, headers=neighbour.headers)
        assert response.status_code == 404 and response.json()["code"] == "session_not_found"
    sent = await client.post(f"{base(t)}/messages", json={"message": "hi", "sessionId": sid},
                             headers=neighbour.headers)
    assert sent.status_code == 404 and sent.json()["code"] == "session_not_found"
    staff = await factory.user(t.org, "coach")
    refused = await client.post(f"{base(t)}/messages", json={"message": "hi"}, headers=staff.headers)
    assert refused.status_code == 403 and refused.json()["code"] == "member_profile_required"
    staff_api = await client.post(f"/organizations/{t.org.id}/agent/messages", json={"message": "hi"},
                                  headers=t.user.headers)
    assert staff_api.status_code == 403
    assert (await client.get(f"{base(t)}/sessions/{uuid.uuid4()}", headers=t.user.headers)).status_code == 404
    assert (await client.get(f"{base(other)}/sessions", headers=t.user.headers)).status_code in (403, 404)
    closed = await client.delete(f"{base(t)}/sessions/{sid}", headers=t.user.headers)
    assert closed.status_code == 200 and closed.json()["status"] == "completed"


async def test_a_second_concurrent_send_to_a_session_is_busy(client, db, factory, app_settings) -> None:
    import redis.asyncio as aioredis

    from agent.locks import TurnLock

    t = await trainee(db, factory)
    created = await client.post(f"{base(t)}/sessions", headers=t.user.headers)
    assert created.status_code == 201 and created.json()["status"] == "active"
    sid = created.json()["id"]
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    lock = TurnLock(redis, uuid.UUID(sid), lease_seconds=30)
    try:
        assert await lock.acquire(0.0)  # a turn of this session is running
        busy = await client.post(f"{base(t)}/messages", json={"message": "hi", "sessionId": sid},
                                 headers=t.user.headers)
        assert busy.status_code == 409 and busy.json()["code"] == "conversation_busy"
    finally:
        await lock.release()
        await redis.aclose()
