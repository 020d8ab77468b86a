"""A workout session through the trainer loop over HTTP (fake model): equipment at the current location enforced
(the model reads the typed error and fixes it), recovery warnings in the result, swap by order number, adjust by
id, adjust refusing `type`, and a one-time preference gone after the workout it shaped."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from gym.training import logs, preferences
from gym.training.logs import LoggedExercise
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import chest_workout, reps, trainee
from tests.trainer.scripted import Trainer


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


async def test_a_workout_session_through_the_loop(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    now = datetime.now(UTC)  # the loop runs on the real clock
    async with db.scope(org_id=t.org.id) as session:
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Bench Press", exercise_type="strength", sets=3, reps=8, load_kg=40, muscles=["Chest"],
            goals=["Strength"], performed_at=now - timedelta(hours=20)), now=now)
        await preferences.set_preference(session, t.org.id, t.member_id, type="workout", description="short today",
                                         guidance="under 20 minutes", now=now, delete_after_use=True)
    barbell = chest_workout()
    barbell["exercises"][0] = reps(1, "Barbell Bench Press", muscles={"Chest": 1.0}, equipment=["Barbell"], load=40)
    Trainer(fake_model, [
        Reply(ToolUse("workout__generate_workout", barbell, id="g1")),
        Reply(ToolUse("workout__generate_workout", chest_workout(), id="g2")),
        Reply(ToolUse("workout__swap_exercise", {"exercise_id": 2, "new_exercise": reps(
            2, "Dumbbell Fly", muscles={"Chest": 1.0}, equipment=["Dumbbells"], load=6)}, id="s1")),
        Reply(ToolUse("workout__adjust_exercise", {"exercise_id": "ex_001", "changes": {"rest_sec": 120}}, id="a1")),
        Reply(ToolUse("workout__adjust_exercise", {"exercise_id": "ex_003", "changes": {"type": "reps"}}, id="a2")),
        Reply(ToolUse("coach__message_notify_user", {"text": "Ready", "attachments": ["workout_1"]}, id="n1")),
        Reply(ToolUse("coach__idle", {}, id="i1"))])
    result = await sse(client, f"/organizations/{t.org.id}/trainer/messages",
                       json_body={"message": "quick chest workout"}, headers=t.user.headers)
    done = {c["toolUseId"]: c for c in result.of("tool_completed")}
    assert done["g1"]["ok"] is False and done["g1"]["error"]["code"] == "equipment_unavailable"
    assert done["g2"]["ok"] and any("Chest" in w for w in done["g2"]["output"]["warnings"])
    assert done["g2"]["output"]["consumedPreferences"]
    assert done["s1"]["output"]["exercises"][1] == "2. ex_002 Dumbbell Fly (reps)"
    assert done["a1"]["ok"] and done["a2"]["error"]["code"] == "immutable_field"
    workout = result.one("message")["attachments"][0]["workout"]
    assert workout["exercises"][0]["rest_sec"] == 120 and workout["exercises"][2]["type"] == "hold"
    async with db.owner() as session:
        left = await session.scalar(text("SELECT count(*) FROM member_preferences WHERE member_id = :m"),
                                    {"m": t.member_id})
        results = [json.loads(p) if isinstance(p, str) else p for p in (await session.execute(text(
            "SELECT payload FROM trainer_events WHERE type = 'tool_result' AND session_id = :s ORDER BY seq"),
            {"s": result.one("done")["sessionId"]})).scalars()]
    assert left == 0
    assert results[0]["isError"] is True and results[0]["result"]["code"] == "equipment_unavailable"
    assert results[-1]["result"] == "<result>ok</result>"  # compact confirmation for idle
