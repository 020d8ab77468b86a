"""The member's app and the trainer keep one record: sets logged over the app's REST endpoints are in the
`current_workout` and `workout_history` the trainer's next turn reads, without the member telling it; the trainer
marking the exercise done afterwards keeps those sets, and its undo takes them back out of the app."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.trainer.fixtures import chest_workout, trainee
from tests.trainer.scripted import Trainer


def _knowledge(messages: list[dict]) -> dict[str, object]:
    """The data of each knowledge block the model was sent: {source: data}."""
    out = {}
    for message in messages:
        for block in message["content"] if isinstance(message["content"], list) else []:
            found = re.fullmatch(r'<knowledge source="(\w+)">\n(.*)\n</knowledge>', block.get("text", ""), re.DOTALL)
            if found:
                out[found.group(1)] = json.loads(found.group(2))
    return out


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


async def test_the_next_chat_turn_knows_what_the_app_logged(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    async with db.scope(org_id=t.org.id) as session:
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(chest_workout()),
                           now=datetime.now(UTC) - timedelta(minutes=30))
    base = f"/organizations/{t.org.id}/trainer"
    for n, (reps, load) in enumerate(((10, 14), (8, 14)), start=1):
        response = await client.post(f"{base}/workout/sets", json={"exerciseId": "ex_001", "reps": reps, "load": load,
                                                                    "rpe": 9}, headers={**t.user.headers,
                                                                                        "Idempotency-Key": f"k{n}"})
        assert response.status_code == 201
    trainer = Trainer(fake_model, [
        Reply(ToolUse("logbook__mark_exercise_complete", {"exercise_id": "ex_001"}, id="m1")),
        Reply(ToolUse("coach__message_notify_user", {"text": "Two sets in: marked."}, id="n1")),
        Reply(ToolUse("coach__idle", {}, id="i1"))],
        selection={"sources": {"current_workout": {}, "workout_history": {"days_back": 1}}})
    chat = await client.post(f"{base}/chat", json={"message": "how is my workout going?"}, headers=t.user.headers)
    assert chat.status_code == 200, chat.text
    knowledge = _knowledge(trainer.turn_requests()[0]["messages"])
    # the trainer read the two sets the app logged, set by set, without being told
    bench = knowledge["current_workout"]["exercises"][0]
    assert bench["logged"] == [{"set": 1, "reps": 10, "load": 14.0, "rpe": 9.0},
                               {"set": 2, "reps": 8, "load": 14.0, "rpe": 9.0}]
    assert bench["suggestion"]["why"]["code"] == "repeat_after_miss"
    [log] = knowledge["workout_history"]["items"]
    assert (log["name"], log["repsPerSet"], log["targetReps"]) == ("Dumbbell Floor Press", [10, 8], [10, 10, 10])
    screen = (await client.get(f"{base}/workout", headers=t.user.headers)).json()["workout"]
    bench = screen["exercises"][0]
    assert bench["done"] is True and [s["reps"] for s in bench["logged"]] == [10, 8]  # the mark kept them
