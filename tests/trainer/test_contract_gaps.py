"""Issue 24 item 7, the smaller contract gaps: add_exercise_to_workout; a plan schedules its workouts and a
scheduled workout carries exercises (001 §4.7); statistics over a custom date range and a summary of chosen
sections (001 §4.8); exercise order checked in code (001 §4.9 rule 4); workouts numbered per member so a new
session never reuses workout_1; the nutrition_plan source; the workout summary printable."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text

from gym.nutrition.trainer_plan import plan_for_trainer
from gym.training import logs
from gym.training.logs import LoggedExercise
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from gym.training.workout_view import summary_text
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import NOW, chest_workout, hold, reps, trainee
from tests.trainer.scripted import Trainer


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


async def _run(tools, t, name, input):
    return await tools.ok(name, input, org=t.org, user=t.user, role="member", now=NOW)


async def _fail(tools, t, name, input, code):
    return await tools.fails(name, input, code, org=t.org, user=t.user, role="member", now=NOW)


def curl(order: int) -> dict:
    return reps(order, "Dumbbell Curl", muscles={"Biceps": 1.0}, equipment=["Dumbbells"], load=8)


async def test_add_exercise_to_workout_inserts_renumbers_and_keeps_ids(tools, db, factory) -> None:
    t = await trainee(db, factory)
    await _run(tools, t, "workout__generate_workout", chest_workout())
    out = await _run(tools, t, "workout__add_exercise_to_workout", {"exercise": curl(1), "position": 3})
    assert out["exercises"] == ["1. ex_001 Dumbbell Floor Press (reps)", "2. ex_002 Push-up (reps)",
                                "3. ex_004 Dumbbell Curl (reps)", "4. ex_003 Plank (hold)"]
    assert out["addedId"] == "ex_004" and [d["id"] for d in out["details"]] == ["ex_001", "ex_002", "ex_004",
                                                                                 "ex_003"]
    assert out["details"][2]["suggestion"]["why"] == {"code": "new_exercise"}
    await _run(tools, t, "workout__remove_exercise", {"exercise_id": "ex_004"})
    end = await _run(tools, t, "workout__add_exercise_to_workout", {"exercise": hold(1, "Side Plank")})
    assert end["exercises"][-1] == "4. ex_005 Side Plank (hold)"  # an id is never reused in a workout
    await _fail(tools, t, "workout__add_exercise_to_workout", {"exercise": hold(1), "position": 9},
                "invalid_position")
    await _fail(tools, t, "workout__add_exercise_to_workout", {"exercise": {"name": "x"}}, "validation_failed")


async def test_exercise_order_is_checked_by_generate_add_and_adjust(tools, db, factory) -> None:
    t = await trainee(db, factory)
    press = reps(2, "Dumbbell Floor Press", muscles={"Chest": 1.0}, equipment=["Dumbbells"], load=14)
    error = await _fail(tools, t, "workout__generate_workout", {"exercises": [curl(1), press]}, "exercise_order")
    assert "Dumbbell Floor Press (exercise 2) comes after the isolation exercise Dumbbell Curl" in error["message"]
    await _run(tools, t, "workout__generate_workout", {"exercises": [{**press, "order": 1}, {**curl(2)}]})
    row = reps(1, "Dumbbell Row", muscles={"Back": 1.0}, equipment=["Dumbbells"], load=14)
    await _fail(tools, t, "workout__add_exercise_to_workout", {"exercise": row}, "exercise_order")
    assert (await _run(tools, t, "workout__add_exercise_to_workout", {"exercise": row, "position": 2}))[
        "exercises"][1] == "2. ex_003 Dumbbell Row (reps)"
    await _fail(tools, t, "workout__adjust_exercise", {"exercise_id": "ex_002", "changes": {"order": 1}},
                "exercise_order")
    warm = {**hold(1, "Band Pull-Apart"), "group": {"id": "w", "type": "warmup", "position": 1}}
    late = await _fail(tools, t, "workout__add_exercise_to_workout", {"exercise": warm}, "exercise_order")
    assert "the warm-up Band Pull-Apart (exercise 4)" in late["message"]


async def test_a_plan_schedules_its_workouts(tools, db, factory) -> None:
    t = await trainee(db, factory)  # Asia/Jerusalem; NOW is Monday 2026-11-23 14:00 there
    out = await _run(tools, t, "calendar__create_workout_plan", {
        "name": "Base", "start_date": "2026-11-23", "duration_weeks": 2,
        "preferred_days": ["monday", "wednesday", "friday"], "session_types": ["Upper", "Lower"],
        "duration_minutes": 45})
    assert out["scheduled"] == {"count": 6, "first": "2026-11-23T18:00:00+02:00",
                                "last": "2026-12-04T18:00:00+02:00", "types": ["Upper", "Lower"]}
    upcoming = await _run(tools, t, "data__fetch_data", {"sources": {"scheduled_workouts": {"days_ahead": 14}}})
    rows = upcoming["sources"]["scheduled_workouts"]["data"]
    assert [(r["workoutType"], r["planId"], r["durationMinutes"]) for r in rows[:3]] == [
        ("Upper", out["id"], 45), ("Lower", out["id"], 45), ("Upper", out["id"], 45)]
    spread = await _run(tools, t, "calendar__create_workout_plan", {
        "name": "Three a week", "start_date": "2026-11-24", "duration_weeks": 1, "workouts_per_week": 3,
        "time_of_day": "07:30"})
    assert spread["scheduled"]["count"] == 3 and spread["scheduled"]["first"] == "2026-11-24T07:30:00+02:00"
    assert spread["scheduled"]["last"] == "2026-11-29T07:30:00+02:00"  # Tue, Thu, Sun: spread over the week
    await _fail(tools, t, "calendar__create_workout_plan", {
        "name": "x", "start_date": "2026-11-30", "duration_weeks": 1, "workouts_per_week": 3,
        "preferred_days": ["monday", "friday"]}, "invalid_plan")


async def test_a_scheduled_workout_carries_its_exercises(tools, db, factory) -> None:
    t = await trainee(db, factory)
    when = (NOW + timedelta(days=1)).isoformat()
    out = await _run(tools, t, "calendar__schedule_workout", {
        "scheduled_at": when, "workout_type": "Chest", "exercises": chest_workout()["exercises"]})
    assert [(e["id"], e["name"]) for e in out["exercises"]] == [
        ("ex_001", "Dumbbell Floor Press"), ("ex_002", "Push-up"), ("ex_003", "Plank")]
    lbs = chest_workout()["exercises"]
    lbs[0]["load_unit"] = "lbs"
    await _fail(tools, t, "calendar__update_scheduled_workout", {"id": out["id"], "exercises": lbs},
                "unit_mismatch")
    await _fail(tools, t, "calendar__update_scheduled_workout", {"id": out["id"], "exercises": [curl(1), {
        **reps(2, "Dumbbell Floor Press", muscles={"Chest": 1.0}, load=14)}]}, "exercise_order")
    updated = await _run(tools, t, "calendar__update_scheduled_workout", {"id": out["id"], "exercises": [curl(1)]})
    assert [e["name"] for e in updated["exercises"]] == ["Dumbbell Curl"] and updated["when"] == out["when"]


async def _log(db, t, day: datetime, name: str = "Back Squat", kg: float = 60) -> None:
    async with db.scope(org_id=t.org.id) as session:
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name=name, exercise_type="strength", sets=3, reps=5, load_kg=kg, rpe=8, goals=["Strength"],
            muscles=["Quadriceps"], performed_at=day), now=NOW)


async def test_statistics_take_a_custom_range_and_the_summary_its_sections(tools, db, factory) -> None:
    t = await trainee(db, factory)
    for days in (40, 20, 10, 2):
        await _log(db, t, NOW - timedelta(days=days))
    window = await _run(tools, t, "stats__get_workout_statistics", {"start_date": "2026-10-25",
                                                                     "end_date": "2026-11-15"})
    assert window["period"] == "custom" and window["overview"]["total_workouts"] == 2  # 20 and 10 days ago
    assert window["overview"]["total_volume_kg"] == 2 * 15 * 60
    assert window["range"] == {"start": "2026-10-25T00:00:00+03:00", "end": "2026-11-16T00:00:00+02:00"}
    since = await _run(tools, t, "stats__get_workout_statistics", {"start_date": "2026-11-20"})
    assert since["overview"]["total_workouts"] == 1
    assert (await _run(tools, t, "stats__get_workout_statistics", {"period": "quarter"}))["overview"][
        "total_workouts"] == 4
    await _fail(tools, t, "stats__get_workout_statistics", {"start_date": "2026-11-20", "end_date": "2026-11-01"},
                "validation_failed")
    await _fail(tools, t, "stats__get_workout_statistics", {"start_date": "2026-12-20"}, "invalid_range")
    summary = await _run(tools, t, "stats__generate_stats_summary", {"period": "quarter",
                                                                     "include_sections": ["overview", "goals"]})
    assert set(summary["sections"]) == {"overview", "goals"}
    lines = summary["summary"].split("\n")
    assert lines[0].startswith("total workouts: 4") and lines[1].startswith("Goals (last 28 days): Strength")
    every = await _run(tools, t, "stats__generate_stats_summary", {"period": "quarter"})
    assert list(every["sections"]) == ["overview", "category_breakdown", "muscle_breakdown", "top_exercises",
                                       "progress", "goals"]
    assert "Heaviest: Back Squat 60 kg" in every["summary"]
    await _fail(tools, t, "stats__generate_stats_summary", {"include_sections": ["gossip"]}, "validation_failed")


async def test_a_new_session_numbers_workouts_after_the_members_latest(client, db, factory, fake_model) -> None:
    """The member's workout_1 and workout_2 come from an earlier session: the next one is workout_3, and an
    attachment to workout_1 still shows that workout instead of silently nothing."""
    t = await trainee(db, factory)
    earlier = uuid.uuid4()
    async with db.scope(org_id=t.org.id) as session:
        for _ in range(2):
            await save_workout(session, t.org.id, t.member_id, Workout.model_validate(chest_workout()), now=NOW,
                               session_id=earlier)
    Trainer(fake_model, [
        Reply(ToolUse("workout__generate_workout", chest_workout(), id="g1")),
        Reply(ToolUse("coach__message_notify_user", {"text": "New one, and the first for comparison.",
                                                     "attachments": ["workout_3", "workout_1", "workout_9"]},
                      id="n1")),
        Reply(ToolUse("coach__idle", {}, id="i1"))])
    result = await sse(client, f"/organizations/{t.org.id}/trainer/messages",
                       json_body={"message": "a new chest workout"}, headers=t.user.headers)
    generated = next(c for c in result.of("tool_completed") if c["toolUseId"] == "g1")
    assert generated["output"]["workoutId"] == "workout_3"
    cards = result.one("message")["attachments"]
    assert [(c["workout"]["id"], c["workout"]["status"]) for c in cards] == [("workout_3", "current"),
                                                                            ("workout_1", "abandoned")]
    notify = next(c for c in result.of("tool_completed") if c["toolUseId"] == "n1")
    assert notify["output"]["warnings"] == ["attachment workout_9 not found; dropped"]


async def test_the_nutrition_plan_source_reads_the_current_plan(client, db, factory, fake_model) -> None:
    from pipeline.demo import seed_finished_run

    t = await trainee(db, factory)
    seeded = await seed_finished_run(db, t.org.id, t.member_id)
    assert seeded["state"] == "output_ready"
    Trainer(fake_model, [Reply(ToolUse("data__fetch_data", {"sources": {"nutrition_plan": {}}}, id="f1")),
                         Reply(ToolUse("coach__idle", {}, id="i1"))])
    result = await sse(client, f"/organizations/{t.org.id}/trainer/messages",
                       json_body={"message": "what should I eat today?"}, headers=t.user.headers)
    fetched = next(c for c in result.of("tool_completed") if c["toolUseId"] == "f1")
    plan = fetched["output"]["sources"]["nutrition_plan"]["data"]
    assert plan["hasPlan"] is True and plan["state"] == "output_ready"
    assert plan["targets"]["target_intake_kcal"] > 0 and plan["targets"]["protein_g"] > 0
    assert plan["today"]["date"] == datetime.now(ZoneInfo(t.org.timezone)).date().isoformat()  # the gym's today
    meals = plan["today"]["meals"]
    assert meals and all(m["calories"] > 0 and m["recipes"] for m in meals)
    async with db.owner() as session:
        ids = set((await session.execute(text(
            "SELECT jsonb_path_query(payload, '$.recipes[*].recipe_id') #>> '{}' FROM nutrition_messages m "
            "JOIN nutrition_runs r ON r.id = m.run_id WHERE r.member_id = :m AND m.data_type = 'recipes'"),
            {"m": t.member_id})).scalars())
    assert ids and not {r for m in meals for r in m["recipes"]} & ids  # names, not ids


def test_nutrition_plan_shape_without_a_plan_and_with_one() -> None:
    assert plan_for_trainer(None, NOW.date()) == {"hasPlan": False}
    detail = {"run": {"state": "output_ready", "version": 2}, "outputs": {
        "macro_targets": {"target_intake_kcal": 2300, "protein_g": 120, "carbs_g": 280, "fat_g": 70,
                          "bmr_kcal": 1400},
        "weekly_meal_plan": {"weekly_template": {"monday": {"breakfast": {
            "slot_spec": {"calories": 500, "protein_g": 30, "carbs_g": 60, "fat_g": 15}, "alternatives": ["r1"]}}}},
        "recipes": {"recipes": [{"recipe_id": "r1", "recipe_name": "Oats with yogurt"}]}}}
    plan = plan_for_trainer(detail, NOW.date())  # a Monday
    assert plan["targets"] == {"target_intake_kcal": 2300, "protein_g": 120, "carbs_g": 280, "fat_g": 70}
    assert plan["today"] == {"date": "2026-11-23", "day": "monday", "meals": [
        {"meal": "breakfast", "calories": 500, "proteinG": 30, "carbsG": 60, "fatG": 15,
         "recipes": ["Oats with yogurt"]}]}


def test_a_workout_summary_is_a_printable_line() -> None:
    assert summary_text(None) is None
    line = summary_text({"estimated_duration_min": 42.5, "primary_goals": ["Strength", "Hypertrophy"],
                         "muscles_targeted": ["Chest"]}, "ru")
    assert line == "42.5 мин · Сила, Масса · Грудь"  # the goals and muscles in her language too
    own = summary_text({"primary_goals": ["Marathon in May"], "muscles_targeted": ["Chest"]}, "he")
    assert own == "Marathon in May · חזה"  # a goal of her own stays as she wrote it
