"""Injuries and never-rules are enforced by every tool that adds or changes an exercise (generate, swap, adjust,
add; and a scheduled workout's exercises): a typed `injury_conflict` / `preference_conflict` naming the exercise
and the rule, nothing stored. Soft preferences are guidance. set_preference asks for exclusions when the words name
nothing; the same preference said twice updates the first, and undoing that update puts the first back."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text

from tests.tools.harness import REGISTRY
from tests.trainer.fixtures import NOW, chest_workout, hold, reps, trainee

SHOULDER = {"type": "injury", "description": "left shoulder: no overhead pressing", "guidance": "no overhead "
            "pressing", "exclusions": {"patterns": ["overhead_press", "overhead_hold"]},
            "expires_at": (NOW + timedelta(days=10)).isoformat()}
KNEE = {"type": "injury", "description": "left knee: no jumping", "guidance": "no jumping or deep squats",
        "exclusions": {"patterns": ["jumping", "deep_knee_flexion"]}}
BURPEES = {"type": "exercise", "description": "Never include burpees", "guidance": "no burpees",
           "exclusions": {"exercises": ["Burpee"], "patterns": ["burpee"]}, "hard": True}


async def _run(tools, t, name, input):
    return await tools.ok(name, input, org=t.org, user=t.user, role="member", now=NOW)


async def _fail(tools, t, name, input, code):
    return await tools.fails(name, input, code, org=t.org, user=t.user, role="member", now=NOW)


async def _injured(tools, db, factory):
    t = await trainee(db, factory)
    for pref in (SHOULDER, KNEE, BURPEES):
        await _run(tools, t, "prefs__set_preference", pref)
    return t


def burpee(order: int) -> dict:
    return reps(order, "Burpee", muscles={"Quadriceps": 0.5, "Chest": 0.5}, rep=10)


def jump_squat(order: int) -> dict:
    return reps(order, "Jump Squat", muscles={"Quadriceps": 0.7, "Glutes": 0.3}, rep=10)


def push_press(order: int) -> dict:
    return reps(order, "Dumbbell Push Press", muscles={"Shoulders": 0.8, "Triceps": 0.2}, equipment=["Dumbbells"],
                load=12)


async def _current(tools, t) -> list[str]:
    out = await _run(tools, t, "data__fetch_data", {"sources": {"current_workout": {}}})
    workout = out["sources"]["current_workout"]["data"]
    return [e["name"] for e in workout["exercises"]] if workout else []


async def test_generate_refuses_a_burpee_and_a_jump_squat(tools, db, factory) -> None:
    t = await _injured(tools, db, factory)
    workout = {"title": "Conditioning", "exercises": [burpee(1), jump_squat(2), hold(3)]}
    error = await _fail(tools, t, "workout__generate_workout", workout, "injury_conflict")
    assert 'Jump Squat (exercise 2) breaks the injury "left knee: no jumping": pattern jump' in error["message"]
    assert 'Burpee (exercise 1) breaks the preference "Never include burpees": exercise Burpee' in error["message"]
    assert "Replace Burpee, Jump Squat with an exercise without jump, Burpee" in error["hint"]
    assert await _current(tools, t) == []  # nothing stored
    only_burpees = {"title": "Conditioning", "exercises": [burpee(1), hold(2)]}
    await _fail(tools, t, "workout__generate_workout", only_burpees, "injury_conflict")  # a burpee jumps too
    no_knee = await trainee(db, factory, "Noa Levi")
    await _run(tools, no_knee, "prefs__set_preference", BURPEES)
    error = await _fail(tools, no_knee, "workout__generate_workout", only_burpees, "preference_conflict")
    assert error["message"] == 'Burpee (exercise 1) breaks the preference "Never include burpees": exercise Burpee'
    shoulders = {"exercises": [push_press(1)]}
    error = await _fail(tools, t, "workout__generate_workout", shoulders, "injury_conflict")
    assert "pattern overhead press, shoulder flexion loaded above 90" in error["message"]
    assert (await _run(tools, t, "workout__generate_workout", chest_workout()))["workoutId"] == "workout_1"


async def test_swap_adjust_and_add_refuse_what_a_rule_rules_out(tools, db, factory) -> None:
    t = await _injured(tools, db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    before = await _current(tools, t)
    error = await _fail(tools, t, "workout__swap_exercise", {"exercise_id": 2, "new_exercise": push_press(2)},
                        "injury_conflict")
    assert "Dumbbell Push Press (exercise 2)" in error["message"]
    error = await _fail(tools, t, "workout__adjust_exercise", {"exercise_id": "ex_002",
                                                                "changes": {"name": "Burpees"}}, "injury_conflict")
    assert 'breaks the preference "Never include burpees"' in error["message"]  # and the knee's no-jumping
    error = await _fail(tools, t, "workout__add_exercise_to_workout", {"exercise": jump_squat(9), "position": 3},
                        "injury_conflict")
    assert "Jump Squat (exercise 3)" in error["message"]
    mountain = reps(1, "Burpee Pull-up", muscles={"Back": 0.5, "Chest": 0.5}, rep=5)
    error = await _fail(tools, t, "workout__add_exercise_to_workout", {"exercise": mountain}, "injury_conflict")
    assert "Burpee Pull-up (exercise 4)" in error["message"] and "Never include burpees" in error["message"]
    assert await _current(tools, t) == before  # every refusal left the workout as it was
    # what the rules allow still goes through
    fly = reps(1, "Dumbbell Fly", muscles={"Chest": 1.0}, equipment=["Dumbbells"], load=6)
    assert (await _run(tools, t, "workout__add_exercise_to_workout", {"exercise": fly, "position": 3}))[
        "addedId"] == "ex_004"
    assert (await _run(tools, t, "workout__adjust_exercise", {"exercise_id": 1, "changes": {"rest_sec": 90}}))[
        "adjusted"] == "ex_001"


async def test_a_rule_saved_after_the_workout_marks_its_exercise(tools, db, factory) -> None:
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", {"exercises": [push_press(1), hold(2)]})
    await _run(tools, t, "prefs__set_preference", SHOULDER)
    out = await _run(tools, t, "data__fetch_data", {"sources": {"current_workout": {}}})
    press = out["sources"]["current_workout"]["data"]["exercises"][0]
    assert [(c["code"], c["rule"]) for c in press["conflicts"]] == [("injury_conflict", "pattern")]
    # an unrelated change is not blocked by it; changing the press itself is
    await _run(tools, t, "workout__adjust_exercise", {"exercise_id": 2, "changes": {"rest_sec": 45}})
    await _fail(tools, t, "workout__adjust_exercise", {"exercise_id": 1, "changes": {"load": 10}}, "injury_conflict")
    await _run(tools, t, "workout__remove_exercise", {"exercise_id": 1})


async def test_soft_preferences_are_guidance_only(tools, db, factory) -> None:
    t = await trainee(db, factory)
    await _run(tools, t, "prefs__set_preference", {"type": "equipment", "description": "likes kettlebells",
                                                   "guidance": "use kettlebells when possible"})
    await _run(tools, t, "prefs__set_preference", {"type": "exercise", "description": "not a fan of push-ups",
                                                   "guidance": "fewer push-ups", "hard": False,
                                                   "exclusions": {"exercises": ["Push-up"]}})
    out = await _run(tools, t, "workout__generate_workout", chest_workout())
    assert any('breaks the soft preference "not a fan of push-ups"' in w for w in out["warnings"])
    assert "equipment: use kettlebells when possible" in out["honour"]


async def test_set_preference_asks_for_exclusions_and_updates_a_repeat(tools, db, factory) -> None:
    t = await trainee(db, factory)
    schema = REGISTRY.get("prefs__set_preference").input_schema()
    assert {"exclusions", "hard"} <= set(schema["properties"])
    vague = {"type": "injury", "description": "feeling a bit off", "guidance": "go easy", "exclusions": {}}
    await _fail(tools, t, "prefs__set_preference", vague, "exclusions_required")  # no place, nothing named
    await _fail(tools, t, "prefs__set_preference", {"type": "exercise", "description": "the thing I hate",
                                                    "guidance": "leave it out", "hard": True}, "exclusions_required")
    first = await _run(tools, t, "prefs__set_preference", BURPEES)
    assert first["updated"] is False and first["enforced"] is True
    again = await _run(tools, t, "prefs__set_preference", {**BURPEES, "description": "avoid burpees",
                                                           "exclusions": {"exercises": ["burpees"]}})
    assert again["id"] == first["id"] and again["updated"] is True
    async with db.owner() as session:
        assert await session.scalar(text("SELECT count(*) FROM member_preferences WHERE member_id = :m"),
                                    {"m": t.member_id}) == 1
    spec = REGISTRY.get("prefs__set_preference")
    restored = await _run(tools, t, spec.inverse.name, spec.inverse.build_input(again))
    assert restored["restored"] is True and restored["description"] == "Never include burpees"
    prefs = await _run(tools, t, "data__fetch_data", {"sources": {"active_preferences": {}}})
    assert [(p["description"], p["exclusions"]) for p in prefs["sources"]["active_preferences"]["data"]] == [
        ("Never include burpees", {"exercises": ["Burpee"], "patterns": ["burpee_family"]})]


async def test_a_scheduled_workout_carrying_exercises_is_checked_too(tools, db, factory) -> None:
    t = await _injured(tools, db, factory)
    when = (NOW + timedelta(days=2)).isoformat()
    error = await _fail(tools, t, "calendar__schedule_workout", {
        "scheduled_at": when, "workout_type": "Conditioning", "exercises": [burpee(1), hold(2)]},
        "injury_conflict")
    assert "Burpee (exercise 1)" in error["message"] and "Never include burpees" in error["message"]
    # the shoulder injury ends in 10 days: a workout scheduled after that is judged by the rules active then
    later = (NOW + timedelta(days=12)).isoformat()
    out = await _run(tools, t, "calendar__schedule_workout", {
        "scheduled_at": later, "workout_type": "Shoulders", "exercises": [push_press(1)]})
    assert [e["id"] for e in out["exercises"]] == ["ex_001"]
