"""What the member sees (issue 24 items 3 and 6): no internal id (ex_001, workout_1, tool names, row ids) in a
message, a question or a reopened session, which shows the workout cards it showed live; a workout card carries
each exercise's recovering muscles with their recovery percentage and its progression suggestion."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from agent.trainer.shown import PROGRESSION_FIELDS, RECOVERY_FIELDS, member_text
from gym.training.logs import LoggedExercise, log_exercise
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import chest_workout, trainee
from tests.trainer.scripted import Trainer

INTERNAL = re.compile(r"\bex_\d+|\bworkout_\d+|\b[a-z]+__[a-z_]+\b|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}")


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


def first(exercise: dict, fields: tuple[str, ...]):
    return next((exercise[f] for f in fields if f in exercise), None)


async def test_no_internal_id_reaches_the_member_and_a_reopened_session_shows_the_cards(client, db, factory,
                                                                                        fake_model) -> None:
    t = await trainee(db, factory)
    said = ("Here is workout_1:\n1. ex_001 Dumbbell Floor Press (reps)\n2. ex_002 Push-up (reps)\n"
            "I built it with workout__generate_workout (id 0b6f2c1e-5d3a-4c55-9a51-0e8b3f1f2a77); swap ex_002 if "
            "you like.")
    Trainer(fake_model, [
        Reply(ToolUse("workout__generate_workout", chest_workout(), id="g1")),
        Reply(ToolUse("coach__message_notify_user", {"text": said, "attachments": ["workout_1", "ex_002"]}, id="n1")),
        Reply(ToolUse("coach__message_ask_user", {"text": "Keep ex_003 in workout_1?", "options": ["Keep ex_003",
                                                                                                "No"]}, id="a1")),
    ])
    base = f"/organizations/{t.org.id}/trainer"
    result = await sse(client, f"{base}/messages", json_body={"message": "chest please"}, headers=t.user.headers)
    message, question = result.one("message"), result.one("question")
    assert not INTERNAL.search(message["content"]), message["content"]
    assert "1. Dumbbell Floor Press (reps)" in message["content"] and "swap Push-up if you like" in message["content"]
    assert "Quick chest:" in message["content"]  # the workout's title for its id
    assert (question["content"], question["options"]) == ("Keep Plank in Quick chest?", ["Keep Plank", "No"])
    kinds = [a["type"] for a in message["attachments"]]
    assert kinds == ["workout", "exercise"]

    sid = result.one("done")["sessionId"]
    detail = (await client.get(f"{base}/sessions/{sid}", headers=t.user.headers)).json()
    views = [e["payload"]["shown"] for e in detail["events"] if e["type"] == "tool_result" and "shown" in e["payload"]]
    assert [v["kind"] for v in views] == ["message", "question"]
    assert views[0]["content"] == message["content"] and views[1]["content"] == question["content"]
    card = views[0]["attachments"][0]["workout"]
    assert [e["name"] for e in card["exercises"]] == ["Dumbbell Floor Press", "Push-up", "Plank"]
    assert all(not INTERNAL.search(v["content"]) for v in views)


async def test_an_attached_workout_shows_recovery_and_progression_per_exercise(client, db, factory,
                                                                              fake_model) -> None:
    """Chest was loaded an hour ago and the bench press has history: the card says Chest's recovery in per cent
    and the next load for the bench press."""
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        for at in (now - timedelta(days=8), now - timedelta(hours=1)):
            await log_exercise(session, t.org.id, t.member_id, LoggedExercise(
                exercise_name="Dumbbell Floor Press", exercise_type="strength", sets=3, reps=10, load_kg=14, rpe=8,
                muscles=[{"name": "Chest", "share": 0.7}, {"name": "Triceps", "share": 0.3}], goals=["Strength"],
                performed_at=at), now=now)
    Trainer(fake_model, [
        Reply(ToolUse("workout__generate_workout", chest_workout(), id="g1")),
        Reply(ToolUse("coach__message_notify_user", {"text": "Here.", "attachments": ["workout_1"]}, id="n1")),
        Reply(ToolUse("coach__idle", {}, id="i1")),
    ])
    result = await sse(client, f"/organizations/{t.org.id}/trainer/messages",
                       json_body={"message": "chest again"}, headers=t.user.headers)
    bench = result.one("message")["attachments"][0]["workout"]["exercises"][0]
    recovery = first(bench, RECOVERY_FIELDS)
    chest = next(r for r in recovery if r.get("muscle", r.get("name")) == "Chest")
    percent = next(chest[k] for k in chest if "percent" in k.lower() or "pct" in k.lower())
    assert 0 <= percent <= 5, chest  # one hour of a 48-hour window
    suggestion = first(bench, PROGRESSION_FIELDS)
    load = next(suggestion[k] for k in ("load", "suggestedLoad", "suggested_load") if k in suggestion)
    assert 14 < load <= 14 * 1.10 + 1e-9, suggestion
    plank = result.one("message")["attachments"][0]["workout"]["exercises"][2]
    assert first(plank, RECOVERY_FIELDS) in (None, []) and first(plank, PROGRESSION_FIELDS) is None
    json.dumps(bench)  # plain JSON for the card


@pytest.mark.parametrize(("said", "shown"), [
    ("1. ex_001 Row (reps)", "1. Row (reps)"),
    ("Try Row (ex_001) today", "Try Row today"),
    ("Swap ex_001?", "Swap Row?"),
    ("Swap ex_009?", "Swap?"),
    ("Logged it (id 3d575202-4a6b-4f1f-b310-6730d3cce278).", "Logged it."),
    ("Open workout_2 now", "Open your workout now"),
    ("I called `logbook__log_completed_exercise` for you", "I called for you"),
])
def test_member_text_keeps_the_words_and_drops_the_ids(said, shown) -> None:
    workout = {"id": "workout_1", "title": "Pull day", "exercises": [{"id": "ex_001", "name": "Row"}]}
    assert member_text(said, [workout], "en") == shown
