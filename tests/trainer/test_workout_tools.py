"""workout__*: generate stores the workout with server ids; swap / adjust / remove by id and order number;
adjust refuses id and type; equipment at the current location enforced; recovery warnings; one-shot
preferences gone after the next workout; member only."""

from __future__ import annotations

from datetime import timedelta

from gym.training import logs, preferences
from gym.training.logs import LoggedExercise
from tests.trainer.fixtures import NOW, chest_workout, hold, reps, trainee


async def _run(tools, t, name, input, **kw):
    return await tools.ok(name, input, org=t.org, user=t.user, role="member", now=NOW, **kw)


async def _fail(tools, t, name, input, code):
    return await tools.fails(name, input, code, org=t.org, user=t.user, role="member", now=NOW)


async def test_generate_assigns_workout_and_exercise_ids(tools, db, factory) -> None:
    t = await trainee(db, factory)
    out = await _run(tools, t, "workout__generate_workout", chest_workout())
    assert out["workoutId"] == "workout_1"
    assert out["exercises"][0].startswith("1. ex_001 Dumbbell Floor Press")
    again = await _run(tools, t, "workout__generate_workout", chest_workout())
    assert again["workoutId"] == "workout_2"
    current = await _run(tools, t, "data__fetch_data", {"sources": {"current_workout": {}}})
    workout = current["sources"]["current_workout"]["data"]
    assert workout["id"] == "workout_2" and [e["id"] for e in workout["exercises"]] == ["ex_001", "ex_002", "ex_003"]


async def test_equipment_missing_at_the_current_location_is_a_typed_error(tools, db, factory) -> None:
    t = await trainee(db, factory)
    workout = chest_workout()
    workout["exercises"][0] = reps(1, "Barbell Bench Press", muscles={"Chest": 1.0}, equipment=["Barbell", "Bench"],
                                   load=40)
    error = await _fail(tools, t, "workout__generate_workout", workout, "equipment_unavailable")
    assert "Bench Press needs bench and rack and barbell" in error["message"]  # the library's, by its name
    await _run(tools, t, "location__set_current_location", {"location_name": "harbor strength"})
    assert (await _run(tools, t, "workout__generate_workout", workout))["workoutId"] == "workout_1"


async def test_loads_in_another_unit_and_broken_shares_are_refused(tools, db, factory) -> None:
    t = await trainee(db, factory)
    workout = chest_workout()
    workout["exercises"][0]["load_unit"] = "lbs"
    await _fail(tools, t, "workout__generate_workout", workout, "unit_mismatch")
    workout = chest_workout()
    workout["exercises"][1]["muscles"] = [{"name": "Chest", "share": 0.5}]
    await _fail(tools, t, "workout__generate_workout", workout, "validation_failed")


async def test_recovering_muscles_are_warned(tools, db, factory) -> None:
    t = await trainee(db, factory)
    async with db.scope(org_id=t.org.id) as session:
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Bench Press", exercise_type="strength", sets=3, reps=8, load_kg=40, muscles=["Chest"],
            goals=["Strength"], performed_at=NOW - timedelta(hours=20)), now=NOW)
    out = await _run(tools, t, "workout__generate_workout", chest_workout())
    assert any("Chest" in w for w in out["warnings"])
    status = await _run(tools, t, "data__fetch_data", {"sources": {"recovery_status": {}}})
    rows = status["sources"]["recovery_status"]["data"]
    assert len(rows) == 16 and [r["muscle"] for r in rows if r["recovering"]] == ["Chest"]
    chest = next(r for r in rows if r["muscle"] == "Chest")
    assert chest["percent"] == 41 and {r["percent"] for r in rows if r["muscle"] != "Chest"} == {100}
    # the card and the tool result show it per exercise: the press loads recovering Chest (20 h of 48 h: 41 %)
    assert out["details"][0]["recovery"] == [{"muscle": "Chest", "percent": 41,
                                              "readyAt": (NOW + timedelta(hours=28)).isoformat()}]
    assert out["details"][2]["recovery"] == []  # the plank loads Abs only


async def test_swap_adjust_remove_by_id_and_by_order(tools, db, factory) -> None:
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    out = await _run(tools, t, "workout__swap_exercise", {"exercise_id": 2, "new_exercise": reps(
        9, "Dumbbell Fly", muscles={"Chest": 1.0}, equipment=["Dumbbells"], load=8)})
    assert out["exercises"][1] == "2. ex_002 Dumbbell Fly (reps)"
    out = await _run(tools, t, "workout__adjust_exercise", {"exercise_id": "ex_001", "changes": {
        "sets": 4, "reps": [8, 8, 8, 8]}})
    assert out["adjusted"] == "ex_001"
    workout = (await _run(tools, t, "data__fetch_data", {"sources": {"current_workout": {}}}))["sources"]
    assert workout["current_workout"]["data"]["exercises"][0]["sets"] == 4
    await _fail(tools, t, "workout__adjust_exercise", {"exercise_id": "1", "changes": {"type": "hold"}},
                "immutable_field")
    await _fail(tools, t, "workout__adjust_exercise", {"exercise_id": 1, "changes": {"sets": 5}}, "invalid_workout")
    await _fail(tools, t, "workout__swap_exercise", {"exercise_id": "ex_009", "new_exercise": hold(1)},
                "exercise_not_found")
    out = await _run(tools, t, "workout__remove_exercise", {"exercise_id": "ex_002"})
    assert out["exercises"] == ["1. ex_001 Dumbbell Floor Press (reps)", "2. ex_003 Plank (hold)"]
    await _fail(tools, t, "workout__swap_exercise", {"exercise_id": 1, "new_exercise": reps(
        1, "Barbell Bench Press", muscles={"Chest": 1.0}, equipment=["Barbell"], load=40)}, "equipment_unavailable")


async def test_a_one_shot_preference_is_gone_after_the_next_workout(tools, db, factory) -> None:
    t = await trainee(db, factory)
    once = await _run(tools, t, "prefs__set_preference", {
        "type": "workout", "description": "short today", "guidance": "keep it under 20 minutes",
        "delete_after_use": True})
    await _run(tools, t, "prefs__set_preference", {
        "type": "injury", "description": "left shoulder", "guidance": "no overhead pressing",
        "exclusions": {"patterns": ["overhead_press"]}, "expires_at": (NOW + timedelta(days=10)).isoformat()})
    out = await _run(tools, t, "workout__generate_workout", chest_workout())
    assert out["consumedPreferences"] == [once["id"]]
    assert out["honour"] == ["workout: keep it under 20 minutes"]  # the injury is enforced, not echoed
    async with db.scope(org_id=t.org.id) as session:
        left = await preferences.active_preferences(session, t.org.id, t.member_id, NOW)
    assert [p.description for p in left] == ["left shoulder"]


async def test_staff_roles_cannot_run_member_tools(tools, db, factory) -> None:
    t = await trainee(db, factory)
    error = await tools.fails("workout__generate_workout", chest_workout(), "forbidden_for_role", org=t.org,
                              user=t.user, role="coach", now=NOW)
    assert "coach" in error["message"]


async def test_a_user_without_a_member_record_is_refused(tools, db, factory) -> None:
    t = await trainee(db, factory)
    stranger = await factory.user(t.org, "member")
    await tools.fails("workout__generate_workout", chest_workout(), "member_profile_required", org=t.org,
                      user=stranger, role="member", now=NOW)
