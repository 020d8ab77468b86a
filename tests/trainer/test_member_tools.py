"""The other trainer routers through the runner: coach attachments, data sources, goals, prefs, logbook
(member units in, kg stored, undo, completing a workout), timers, calendar, stats, location."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text

from gym.training.profiles import set_units
from tests.tools.harness import REGISTRY
from tests.trainer.fixtures import NOW, chest_workout, trainee


async def _run(tools, t, name, input):
    return await tools.ok(name, input, org=t.org, user=t.user, role="member", now=NOW)


async def _fail(tools, t, name, input, code):
    return await tools.fails(name, input, code, org=t.org, user=t.user, role="member", now=NOW)


async def test_notify_resolves_workout_and_exercise_attachments_and_drops_unknown_ids(tools, db, factory) -> None:
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    out = await _run(tools, t, "coach__message_notify_user", {"text": "Here you go",
                                                              "attachments": ["workout_1", "ex_002", "workout_9"]})
    assert out["attachments"][0]["type"] == "workout" and out["attachments"][0]["workout"]["id"] == "workout_1"
    assert out["attachments"][1]["exercise"]["name"] == "Push-up"
    assert out["warnings"] == ["attachment workout_9 not found; dropped"]
    asked = await _run(tools, t, "coach__message_ask_user", {"text": "Home or gym?", "options": ["Home", "Gym"]})
    assert asked == {"content": "Home or gym?", "options": ["Home", "Gym"]}
    assert await _run(tools, t, "coach__idle", {}) == {"idle": True}


async def test_fetch_data_loads_sources_with_defaults_and_ranges(tools, db, factory) -> None:
    t = await trainee(db, factory)
    out = await _run(tools, t, "data__fetch_data", {"sources": {
        "category_goals": {}, "workout_history": {"days_back": 30}, "current_location": {}, "all_locations": {},
        "scheduled_workouts": {}}})
    sources = out["sources"]
    strength = next(g for g in sources["category_goals"]["data"] if g["name"] == "Strength")
    assert strength["targetPct"] == 45.0 and strength["target"] == 0.45
    assert sources["workout_history"]["params"] == {"days_back": 30}
    assert sources["scheduled_workouts"]["params"] == {"days_ahead": 7}
    assert sources["current_location"]["data"]["name"] == "Home"
    assert len(sources["all_locations"]["data"]) == 2
    await _fail(tools, t, "data__fetch_data", {"sources": {"nonsense": {}}}, "validation_failed")


async def test_goals_are_normalized_to_100_and_milestones_update(tools, db, factory) -> None:
    t = await trainee(db, factory)
    out = await _run(tools, t, "goals__set_goals", {"goal_type": "category", "goals": [
        {"name": "Strength", "weight": 3}, {"name": "Mobility", "weight": 1}]})
    assert out["goals"] == {"Strength": 75.0, "Mobility": 25.0}
    out = await _run(tools, t, "goals__set_goals", {"goal_type": "muscle", "goals": [{"name": "chest", "weight": 1}]})
    assert out["goals"] == {"Chest": 100.0}
    milestone = await _run(tools, t, "goals__create_milestone", {"name": "5k", "goal_type": "distance",
                                                                 "target_value": 5, "target_unit": "km"})
    updated = await _run(tools, t, "goals__update_milestone", {"id": milestone["id"], "status": "achieved"})
    assert updated["status"] == "achieved"


async def test_preference_set_then_deleted_by_its_inverse_input(tools, db, factory) -> None:
    t = await trainee(db, factory)
    pref = await _run(tools, t, "prefs__set_preference", {"type": "muscle_group", "description": "avoid shoulders",
                                                          "guidance": "no shoulder work",
                                                          "expires_at": (NOW + timedelta(days=14)).isoformat()})
    spec = REGISTRY.get("prefs__set_preference")
    assert await _run(tools, t, spec.inverse.name, spec.inverse.build_input(pref)) == {"id": pref["id"],
                                                                                      "deleted": True}
    await _fail(tools, t, "prefs__delete_preference", {"id": pref["id"]}, "preference_not_found")


async def test_logs_take_the_members_unit_and_store_kg_and_can_be_undone(tools, db, factory) -> None:
    t = await trainee(db, factory)
    async with db.scope(org_id=t.org.id) as session:
        await set_units(session, t.org.id, t.member_id, weight_unit="lbs")
    logged = await _run(tools, t, "logbook__log_completed_exercise", {
        "exercise_name": "Bench Press", "exercise_type": "strength", "sets": 3, "reps": 8, "load": 100,
        "muscles": ["Chest"], "goals": ["Strength"]})
    async with db.owner() as session:
        kg = await session.scalar(text("SELECT load_kg FROM exercise_logs WHERE id = :i"), {"i": logged["id"]})
    assert abs(float(kg) - 45.36) < 0.01
    assert await _run(tools, t, "logbook__undo_logged_exercise", {"id": logged["id"]}) == {"id": logged["id"],
                                                                                          "undone": True}
    await _fail(tools, t, "logbook__undo_logged_exercise", {"id": logged["id"]}, "log_already_undone")


async def test_marking_every_exercise_complete_closes_the_workout(tools, db, factory) -> None:
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    first = await _run(tools, t, "logbook__mark_exercise_complete", {"exercise_id": 1, "actuals": {"reps": 8}})
    assert first["remaining"] == ["ex_002", "ex_003"] and not first["workoutCompleted"]
    await _run(tools, t, "logbook__mark_exercise_complete", {"exercise_id": "ex_002"})
    last = await _run(tools, t, "logbook__mark_exercise_complete", {"exercise_id": "3"})
    assert last["workoutCompleted"] is True
    await _fail(tools, t, "workout__remove_exercise", {"exercise_id": 1}, "no_current_workout")
    history = await _run(tools, t, "data__fetch_data", {"sources": {"workout_history": {}}})
    assert {i["name"] for i in history["sources"]["workout_history"]["data"]["items"]} == {
        "Dumbbell Floor Press", "Push-up", "Plank"}


async def test_logging_every_exercise_of_the_current_workout_closes_it_and_undo_reopens_it(tools, db,
                                                                                            factory) -> None:
    """TRAINER.md: logging closes the current workout when all exercises are done; a log's inverse is its undo,
    which takes the exercise back off the done list and reopens the workout it closed."""
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    bench = await _run(tools, t, "logbook__log_completed_exercise", {
        "exercise_name": "Dumbbell Floor Press", "exercise_type": "strength", "sets": 3, "reps": 10, "load": 14})
    assert (bench["exercise"], bench["remaining"], bench["workoutCompleted"]) == ("ex_001", ["ex_002", "ex_003"],
                                                                                  False)
    again = await _run(tools, t, "logbook__log_completed_exercise", {  # a second bench log counts nothing twice
        "exercise_name": "dumbbell floor press", "exercise_type": "strength", "sets": 1, "reps": 5, "load": 14})
    assert "remaining" not in again
    await _run(tools, t, "logbook__log_completed_exercise", {
        "exercise_name": "Push-up", "exercise_type": "bodyweight", "sets": 3, "reps": 10})
    plank = await _run(tools, t, "logbook__log_completed_exercise", {
        "exercise_name": "Plank", "exercise_type": "isometric", "sets": 2, "duration_min": 1})
    assert (plank["remaining"], plank["workoutCompleted"]) == ([], True)
    await _fail(tools, t, "workout__remove_exercise", {"exercise_id": 1}, "no_current_workout")

    await _run(tools, t, "logbook__undo_logged_exercise", {"id": plank["id"]})
    removed = await _run(tools, t, "workout__remove_exercise", {"exercise_id": 3})  # current again, plank undone
    assert removed is not None
    async with db.owner() as session:
        status = await session.scalar(text("SELECT status FROM trainer_workouts WHERE member_id = :m"),
                                      {"m": t.member_id})
    assert status == "current"


async def test_log_workout_logs_all_and_stats_count_one_workout(tools, db, factory) -> None:
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    out = await _run(tools, t, "logbook__log_workout", {"completed_exercises": [
        {"exercise_name": "Dumbbell Floor Press", "exercise_type": "strength", "sets": 3, "reps": 10, "load": 14},
        {"exercise_name": "Push-up", "exercise_type": "bodyweight", "sets": 3, "reps": 10}]})
    assert out["logged"] == 2 and out["workoutCompleted"] is True
    stats = await _run(tools, t, "stats__get_workout_statistics", {"period": "month"})
    assert stats["overview"]["total_workouts"] == 1
    assert stats["overview"]["total_volume_kg"] == 420.0
    summary = await _run(tools, t, "stats__generate_stats_summary", {"period": "month"})
    assert "total workouts: 1" in summary["summary"]
    breakdown = await _run(tools, t, "stats__get_exercise_breakdown", {"by": "exercise_name"})
    assert len(breakdown["items"]) == 2
    trend = await _run(tools, t, "stats__get_progress_trends", {"metric": "volume", "period": "month"})
    assert trend["metric"] == "volume" and trend["points"]


async def test_timers_total_is_the_sum_of_phases(tools, db, factory) -> None:
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    plank = await _run(tools, t, "timers__generate_exercise_timer", {"exercise_id": "ex_003"})
    assert [p["phase_type"] for p in plank["phases"]] == ["hold", "rest", "hold"]
    assert plank["total_duration_sec"] == 30 + 30 + 30
    all_timers = await _run(tools, t, "timers__generate_workout_timers", {})
    assert all_timers["total_duration_sec"] == sum(x["total_duration_sec"] for x in all_timers["timers"]) + sum(
        p["duration_sec"] for p in all_timers["transitions"])
    described = await _run(tools, t, "timers__generate_exercise_timer", {
        "exercise_name": "Squat", "exercise_type": "strength", "sets": 2, "reps": 5, "rest_seconds": 90})
    assert described["total_duration_sec"] == sum(p["duration_sec"] for p in described["phases"])


async def test_schedule_update_delete_and_plan(tools, db, factory) -> None:
    t = await trainee(db, factory)
    when = (NOW + timedelta(days=2)).isoformat()
    row = await _run(tools, t, "calendar__schedule_workout", {"scheduled_at": when, "workout_type": "Upper body"})
    moved = await _run(tools, t, "calendar__update_scheduled_workout", {"id": row["id"], "duration_minutes": 45})
    assert moved["id"] == row["id"]
    assert await _run(tools, t, "calendar__delete_scheduled_workout", {"id": row["id"]}) == {"id": row["id"],
                                                                                            "deleted": True}
    await _fail(tools, t, "calendar__delete_scheduled_workout", {"id": row["id"]}, "scheduled_workout_not_found")
    plan = await _run(tools, t, "calendar__create_workout_plan", {"name": "Base", "start_date": "2026-11-30",
                                                                  "duration_weeks": 4})
    assert plan["name"] == "Base"


async def test_location_by_name_is_case_insensitive_and_unknown_is_typed(tools, db, factory) -> None:
    t = await trainee(db, factory)
    out = await _run(tools, t, "location__set_current_location", {"location_name": "HARBOR STRENGTH"})
    assert out["name"] == "Harbor Strength"
    await _fail(tools, t, "location__set_current_location", {"location_name": "Moon Base"}, "location_not_found")
    await _fail(tools, t, "location__set_current_location", {}, "validation_failed")


async def test_a_log_of_a_current_workout_exercise_is_measured_against_its_prescription(tools, db, factory) -> None:
    """Logging 3×8 of a 3×10 bench press from the current workout is a miss: the next suggestion repeats the load."""
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    await _run(tools, t, "logbook__log_completed_exercise", {
        "exercise_name": "dumbbell floor press", "exercise_type": "strength", "sets": 3, "reps": 8, "load": 14,
        "rpe": 8})
    progression = (await _run(tools, t, "data__fetch_data", {"sources": {"progression": {}}}))["sources"]
    bench = progression["progression"]["data"][0]
    assert bench["last"]["targetReps"] == [10, 10, 10] and bench["last"]["outcome"] == "miss"
    assert (bench["suggestedLoad"], bench["why"]["code"]) == (14.0, "repeat_after_miss")
    async with db.owner() as session:
        kit = await session.scalar(text("SELECT equipment FROM exercise_logs WHERE member_id = :m"),
                                   {"m": t.member_id})
    assert kit == ["dumbbell"]  # the library's name for what it uses
