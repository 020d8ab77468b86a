"""Trainer workouts with server ids, the member-level workout check, milestones, profile, statistics views,
and the log input's validation."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from pydantic import ValidationError

from gym.errors import GymError
from gym.training import goals, logs, profiles, record, schedule, trainer_workouts
from gym.training.logs import LoggedExercise
from gym.training.workout import Workout
from gym.training.workout_check import check_member_workout

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def workout(*equipment: list[str], unit: str = "kg", name: str = "Goblet Squat") -> Workout:
    return Workout.model_validate({"title": "Home legs", "exercises": [
        {"name": name, "type": "reps", "order": n + 1, "sets": 3, "reps": [10, 10, 10], "load": 20,
         "load_unit": unit, "rest_sec": 60, "muscles": [{"name": "Quadriceps", "share": 0.7},
                                                       {"name": "Glutes", "share": 0.3}],
         "goals": [{"name": "Strength", "share": 1}], "reasoning": "", "equipment": kit}
        for n, kit in enumerate(equipment)]})


@pytest.mark.parametrize(("change", "message"), [
    ({"rpe": 11}, "less than or equal to 10"),
    ({"exercise_type": "powerlifting"}, "strength"),
    ({"muscles": ["Lats"]}, "Chest"),
    ({"muscles": [{"name": "Chest", "share": 0.5}]}, "sum to 1.0"),
    ({"sets": 0}, "greater than or equal to 1"),
    ({"load_kg": -5}, "greater than or equal to 0"),
    ({"surprise": 1}, "Extra inputs"),
])
def test_log_input_refuses(change: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        LoggedExercise.model_validate({"exercise_name": "Squat", "exercise_type": "strength", **change})


def test_plain_names_become_equal_shares() -> None:
    entry = LoggedExercise.model_validate({"exercise_name": "Squat", "exercise_type": "strength",
                                           "muscles": ["Quadriceps", "Glutes"], "goals": ["Strength"]})
    assert [(m.name, m.share) for m in entry.muscles] == [("Quadriceps", 0.5), ("Glutes", 0.5)]


async def test_saved_workouts_get_server_ids_and_one_is_current(db, factory, members) -> None:
    org = await factory.org()
    member, other = await members.add(org.id), await members.add(org.id, "Other Person")
    async with db.scope(org_id=org.id) as session:
        first = await trainer_workouts.save_workout(session, org.id, member, workout([], ["dumbbell"]), now=NOW)
        second = await trainer_workouts.save_workout(session, org.id, member, workout([]), now=NOW)
        assert (first.workout_key, second.workout_key) == ("workout_1", "workout_2")
        assert [e["id"] for e in first.exercises] == ["ex_001", "ex_002"]
        await session.refresh(first)
        assert first.status == "abandoned"
        assert (await trainer_workouts.current_workout(session, org.id, member)).id == second.id
        done = await trainer_workouts.finish_workout(session, org.id, member, second.id, now=NOW)
        assert done.status == "completed" and done.completed_at == NOW
        with pytest.raises(GymError) as info:
            await trainer_workouts.finish_workout(session, org.id, other, first.id, now=NOW)
        assert info.value.code == "workout_not_found"
        with pytest.raises(GymError) as info:
            await logs.log_exercise(session, org.id, other, LoggedExercise(exercise_name="x", exercise_type="yoga"),
                                    now=NOW, workout_id=first.id)
        assert info.value.code == "workout_not_found"


async def test_member_workout_check_reads_location_units_and_recovery(db, factory, members) -> None:
    org = await factory.org()
    member = await members.add(org.id)
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(GymError) as info:
            await check_member_workout(session, org.id, member, workout(["dumbbell"]), NOW)
        assert info.value.code == "equipment_unavailable" and "no current location" in info.value.hint
        await profiles.save_location(session, org.id, member, "Home", ["dumbbells", "bands", "mat"],
                                     make_current=True)
        with pytest.raises(GymError) as info:  # the library's equipment, not the list sent
            await check_member_workout(session, org.id, member, workout([], name="Back Squat"), NOW)
        assert info.value.code == "equipment_unavailable" and "dumbbells" in info.value.hint
        goblet = workout(["barbell"])
        await check_member_workout(session, org.id, member, goblet, NOW)  # a barbell listed: the dumbbell it uses
        assert goblet.exercises[0].equipment == ["dumbbell"]
        with pytest.raises(GymError) as info:
            await check_member_workout(session, org.id, member, workout(["dumbbell"], unit="lbs"), NOW)
        assert info.value.code == "unit_mismatch"
        await logs.log_exercise(session, org.id, member, LoggedExercise(
            exercise_name="Goblet Squat", exercise_type="strength", sets=3, reps=10, load_kg=18,
            muscles=["Quadriceps"], performed_at=NOW - timedelta(hours=20)), now=NOW)
        check = await check_member_workout(session, org.id, member, workout(["Dumbbell"]), NOW)
        assert [w.code for w in check.warnings] == ["muscle_recovering", "load_above_suggestion"]
        # 18 kg × [1.05, 1.10] = [18.9, 19.8] holds no 2.5 kg step: same load, one more rep per set
        assert (check.suggestions[0]["suggestedLoad"], check.suggestions[0]["suggestedReps"]) == (18.0, [11, 11, 11])
        assert check.recovery[1] == [{"muscle": "Quadriceps", "percent": 41,
                                      "readyAt": (NOW + timedelta(hours=28)).isoformat()}]


async def test_milestones_schedule_updates_and_profile(db, factory, members) -> None:
    org = await factory.org()
    member, other = await members.add(org.id), await members.add(org.id, "Other Person")
    async with db.scope(org_id=org.id) as session:
        milestone = await goals.create_milestone(session, org.id, member, name="5K", goal_type="distance",
                                                 target_value=5, target_unit="km", target_date=date(2027, 1, 1))
        with pytest.raises(GymError):
            await goals.create_milestone(session, org.id, member, name="x", goal_type="speed")
        done = await goals.update_milestone(session, org.id, member, milestone.id, now=NOW, status="achieved")
        assert done.achieved_at == NOW
        assert await goals.list_milestones(session, org.id, member) == []
        assert [m.name for m in await goals.list_milestones(session, org.id, member, "all")] == ["5K"]
        with pytest.raises(GymError) as info:
            await goals.update_milestone(session, org.id, other, milestone.id, now=NOW, status="abandoned")
        assert info.value.code == "milestone_not_found"
        row = await schedule.schedule_workout(session, org.id, member, now=NOW, scheduled_at=NOW + timedelta(days=1),
                                              workout_type="Legs")
        moved = await schedule.update_scheduled_workout(session, org.id, member, row.id, now=NOW,
                                                        scheduled_at=NOW + timedelta(days=4), duration_minutes=30)
        assert moved.scheduled_at == NOW + timedelta(days=4)
        with pytest.raises(GymError):
            await schedule.update_scheduled_workout(session, org.id, member, row.id, now=NOW, status="lost")
        with pytest.raises(GymError):
            await schedule.update_scheduled_workout(session, org.id, member, row.id, now=NOW, plan_id=None)
        profile = await profiles.upsert_profile(session, org.id, member, height_cm=172, experience="beginner")
        assert profiles.profile_dict(profile)["heightCm"] == 172.0
        with pytest.raises(GymError):
            await profiles.upsert_profile(session, org.id, member, experience="elite")


async def test_statistics_and_trend_views_skip_undone_logs(db, factory, members) -> None:
    org = await factory.org()
    member = await members.add(org.id)
    async with db.scope(org_id=org.id) as session:
        for days, kg in ((20, 60), (10, 65), (3, 70)):
            await logs.log_exercise(session, org.id, member, LoggedExercise(
                exercise_name="Back Squat", exercise_type="strength", sets=3, reps=5, load_kg=kg, rpe=8,
                goals=["Strength"], performed_at=NOW - timedelta(days=days)), now=NOW)
        bad = await logs.log_exercise(session, org.id, member, LoggedExercise(
            exercise_name="Back Squat", exercise_type="strength", sets=3, reps=5, load_kg=500,
            performed_at=NOW - timedelta(days=1)), now=NOW)
        await logs.undo_log(session, org.id, member, bad.id, now=NOW)
        stats = await record.statistics_view(session, org.id, member, NOW, "month")
        assert stats["overview"]["total_volume_kg"] == 15 * (60 + 65 + 70)
        assert stats["personal_records"][0]["max_load_kg"] == 70.0
        points = (await record.trend_view(session, org.id, member, NOW, metric="weight"))["points"]
        assert [p["value"] for p in points] == [60.0, 65.0, 70.0]
