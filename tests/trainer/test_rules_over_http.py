"""Issue 24 over real HTTP with a scripted model, as Dani (the demo record: a shoulder injury that rules out
overhead pressing, a never-burpees rule, legs trained 20 hours ago, six weeks of logs):

- a workout with a burpee, a jump squat (after she reports a knee injury) and a dumbbell push press is refused with
  a typed error the model reads and fixes; nothing is stored until it does;
- the workout card carries, per exercise, the recovering muscles with their recovery percentage and the
  progression suggestion; its summary is a line of text;
- marking an uneven prescription done without actuals asks for them instead of logging 4×10, and the next
  suggestion is computed from what each set reached.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import demo_dani, hold, reps
from tests.trainer.scripted import Trainer


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


def _done(result) -> dict[str, dict]:
    return {c["toolUseId"]: c for c in result.of("tool_completed")}


async def test_injuries_and_never_rules_stop_the_workout_until_the_model_fixes_it(client, db, factory,
                                                                                   fake_model) -> None:
    org, user, member_id = await demo_dani(db, factory)
    knee = {"type": "injury", "description": "left knee hurts", "guidance": "no jumping, no deep knee bends",
            "exclusions": {"patterns": ["jumping", "deep_knee_flexion"]},
            "expires_at": (datetime.now(UTC) + timedelta(days=14)).isoformat()}
    bad = {"title": "Quick burner", "exercises": [
        reps(1, "Dumbbell Push Press", muscles={"Shoulders": 0.8, "Triceps": 0.2}, equipment=["dumbbell"], load=10),
        reps(2, "Jump Squat", muscles={"Quadriceps": 0.7, "Glutes": 0.3}),
        reps(3, "Burpee", muscles={"Chest": 0.5, "Quadriceps": 0.5}),
        hold(4)]}
    good = {"title": "Upper and core", "summary": {"estimated_duration_min": 35, "primary_goals": ["Strength"],
                                                   "muscles_targeted": ["Chest", "Back", "Glutes"]},
            "exercises": [
                reps(1, "Dumbbell Floor Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["dumbbell"],
                     load=14),
                reps(2, "Dumbbell Row", muscles={"Back": 0.8, "Biceps": 0.2}, equipment=["dumbbell"], load=16),
                reps(3, "Glute Bridge", muscles={"Glutes": 0.7, "Hamstrings": 0.3}),
                hold(4)]}
    Trainer(fake_model, [
        Reply(ToolUse("prefs__set_preference", knee, id="p1")),
        Reply(ToolUse("workout__generate_workout", bad, id="g1")),
        Reply(ToolUse("workout__generate_workout", good, id="g2")),
        Reply(ToolUse("coach__message_notify_user", {"text": "Knee-friendly and shoulder-friendly.",
                                                     "attachments": ["workout_1"]}, id="n1")),
        Reply(ToolUse("coach__idle", {}, id="i1"))])
    result = await sse(client, f"/organizations/{org.id}/trainer/messages",
                       json_body={"message": "my left knee hurts; give me something quick"}, headers=user.headers)
    done = _done(result)
    assert done["p1"]["ok"] and done["p1"]["output"]["enforced"] is True
    refused = done["g1"]
    assert refused["ok"] is False and refused["error"]["code"] == "injury_conflict"
    message = refused["error"]["message"]
    assert 'Dumbbell Push Press (exercise 1) breaks the injury "left shoulder: no overhead pressing"' in message
    assert 'Jump Squat (exercise 2) breaks the injury "left knee hurts": pattern jump' in message
    assert 'Burpee (exercise 3) breaks the preference "Dislikes burpees": exercise Burpee' in message
    assert done["g2"]["ok"] and done["g2"]["output"]["workoutId"] == "workout_1"
    async with db.owner() as session:
        stored = (await session.execute(text("SELECT workout_key, exercises FROM trainer_workouts WHERE "
                                             "member_id = :m"), {"m": member_id})).all()
        results = [json.loads(p) if isinstance(p, str) else p for p in (await session.execute(text(
            "SELECT payload FROM trainer_events WHERE type = 'tool_result' AND session_id = :s ORDER BY seq"),
            {"s": result.one("done")["sessionId"]})).scalars()]
    assert [key for key, _ in stored] == ["workout_1"]
    assert [e["name"] for e in stored[0][1]] == ["Dumbbell Floor Press", "Dumbbell Row", "Glute Bridge", "Plank"]
    assert any(r["isError"] and r["result"]["code"] == "injury_conflict" for r in results)  # the model read it

    card = result.one("message")["attachments"][0]["workout"]
    assert card["summary"] == "35 min · Strength · Chest, Back, Glutes"  # text, never an object
    assert card["summaryDetail"]["estimated_duration_min"] == 35
    bridge = card["exercises"][2]
    assert [r["muscle"] for r in bridge["recovery"]] == ["Hamstrings", "Glutes"]  # legs, 20 h ago
    assert all(41 <= r["percent"] <= 42 for r in bridge["recovery"])  # 20 h (and a few minutes) of 48 h
    assert card["exercises"][0]["recovery"] == []
    assert card["exercises"][1]["suggestion"]["why"] == {"code": "new_exercise"}
    assert bridge["suggestion"] is None  # bodyweight: no load to progress
    tool_details = done["g2"]["output"]["details"]
    assert [d["recovery"] for d in tool_details] == [e["recovery"] for e in card["exercises"]]


async def test_an_uneven_prescription_is_never_logged_as_its_top_set(client, db, factory, fake_model) -> None:
    org, user, member_id = await demo_dani(db, factory)
    rows = reps(1, "Dumbbell Row", muscles={"Back": 0.8, "Biceps": 0.2}, equipment=["dumbbell"], load=16, sets=4)
    rows["reps"] = [10, 8, 8, 6]
    fly = reps(2, "Dumbbell Fly", muscles={"Chest": 1.0}, equipment=["dumbbell"], load=6)
    Trainer(fake_model, [
        Reply(ToolUse("workout__generate_workout", {"title": "Pull", "exercises": [rows, fly]}, id="g1")),
        Reply(ToolUse("logbook__mark_exercise_complete", {"exercise_id": 1}, id="m1")),
        Reply(ToolUse("logbook__mark_exercise_complete", {"exercise_id": 1, "actuals": {
            "reps_per_set": [10, 8, 8, 5], "rpe": 8}}, id="m2")),
        Reply(ToolUse("logbook__mark_exercise_complete", {"exercise_id": 2}, id="m3")),
        Reply(ToolUse("data__fetch_data", {"sources": {"progression": {}}}, id="f1")),
        Reply(ToolUse("coach__idle", {}, id="i1"))])
    result = await sse(client, f"/organizations/{org.id}/trainer/messages",
                       json_body={"message": "rows done: 10, 8, 8 and 5; flies as planned"}, headers=user.headers)
    done = _done(result)
    assert done["m1"]["error"]["code"] == "actuals_required"
    assert "4 sets of 10/8/8/6 reps" in done["m1"]["error"]["message"]
    assert done["m2"]["ok"] and done["m2"]["output"]["logged"] == "4 sets: 10/8/8/5 at 16 kg"
    assert "assumed" not in done["m2"]["output"]
    assert done["m3"]["output"]["assumed"] == "prescription" and "3×10 at 6 kg" in done["m3"]["output"]["note"]
    async with db.owner() as session:
        logged = (await session.execute(text(
            "SELECT name, sets, reps, reps_per_set, target_reps FROM exercise_logs WHERE member_id = :m AND "
            "workout_id IS NOT NULL ORDER BY name"), {"m": member_id})).all()
    assert [tuple(r) for r in logged] == [("Dumbbell Fly", 3, 10, [10, 10, 10], [10, 10, 10]),
                                          ("Dumbbell Row", 4, None, [10, 8, 8, 5], [10, 8, 8, 6])]
    progression = {p["exercise"]: p for p in done["f1"]["output"]["sources"]["progression"]["data"]}
    row = progression["Dumbbell Row"]
    assert (row["suggestedLoad"], row["suggestedReps"], row["why"]["code"]) == (16.0, [10, 8, 8, 6],
                                                                               "repeat_after_miss")
    assert row["last"]["outcome"] == "miss" and row["why"]["missedSets"] == 1
    fly_next = progression["Dumbbell Fly"]  # 6 kg dumbbell: 1 kg steps, none in [6.3, 6.6] → one more rep a set
    assert (fly_next["suggestedLoad"], fly_next["suggestedReps"], fly_next["why"]["code"]) == (6.0, [11] * 3,
                                                                                           "add_reps")
