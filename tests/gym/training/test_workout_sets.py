"""Sets of the current workout, logged one by one (the member's app) or at once (the trainer's mark): one record.

Each live set rebuilds its exercise's one log (sets, reps per set against the prescription, each set's load, the
session load, the hardest RPE); the exercise is complete once all its sets are in; an undone set stops counting
and its last one undoes the log; the trainer's undo, a removal and a re-mark take the sets with them.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text

from gym.errors import GymError
from gym.training import workout_changes, workout_sets
from gym.training.logs import LoggedExercise, log_exercise, logs_since, undo_log
from gym.training.record import progression_view
from gym.training.trainer_workouts import current_workout, save_workout
from gym.training.workout import EXERCISE, Workout
from gym.training.workout_sets import Actuals, SetInput
from tests.trainer.fixtures import NOW, chest_workout, hold, reps, trainee


async def _workout(db, t, workout: dict | None = None) -> None:
    async with db.scope(org_id=t.org.id) as session:
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(workout or chest_workout()),
                           now=NOW - timedelta(minutes=30))


async def _log(db, t, minutes_ago: float = 5, **fields):
    async with db.scope(org_id=t.org.id) as session:
        return await workout_sets.log_set(session, t.org.id, t.member_id, SetInput(**fields),
                                          now=NOW - timedelta(minutes=minutes_ago))


async def _logs(db, t) -> list:
    async with db.owner() as session:
        return (await session.execute(text(
            "SELECT id, name, sets, reps, reps_per_set, target_reps, load_kg, load_per_set_kg, rpe, undone_at, "
            "exercise_key, duration_min FROM exercise_logs WHERE member_id = :m ORDER BY created_at"),
            {"m": t.member_id})).all()


async def _completed(db, t) -> dict:
    async with db.scope(org_id=t.org.id) as session:
        return dict((await current_workout(session, t.org.id, t.member_id)).completed)


async def test_sets_logged_one_by_one_build_one_log_the_rules_read(db, factory) -> None:
    t = await trainee(db, factory)
    await _workout(db, t)
    await _log(db, t, 9, exercise_id="ex_001", reps=10, load=14, rpe=7)
    assert await _completed(db, t) == {}
    await _log(db, t, 7, exercise_id="ex_001", reps=9, load=14, rpe=8.5)
    _, third, log, _ = await _log(db, t, 5, exercise_id="ex_001", load=16)  # reps from the prescription
    assert third.set_number == 3 and third.reps == 10
    [row] = await _logs(db, t)
    assert row.id == log.id and row.name == "Dumbbell Floor Press" and row.exercise_key == "ex_001"
    assert (row.sets, row.reps, list(row.reps_per_set), list(row.target_reps)) == (3, None, [10, 9, 10], [10, 10, 10])
    assert float(row.load_kg) == 14 and [float(v) for v in row.load_per_set_kg] == [14, 14, 16]
    assert float(row.rpe) == 8.5
    assert await _completed(db, t) == {"ex_001": str(log.id)}
    async with db.scope(org_id=t.org.id) as session:
        [suggestion] = await progression_view(session, t.org.id, t.member_id, NOW)
    assert suggestion["last"]["outcome"] == "miss" and suggestion["why"]["code"] == "repeat_after_miss"


async def test_a_set_at_a_lighter_load_than_the_session_is_a_miss(db, factory) -> None:
    t = await trainee(db, factory)
    await _workout(db, t)
    for minutes, load in ((9, 14), (7, 14), (5, 12)):
        await _log(db, t, minutes, exercise_id="ex_001", reps=10, load=load)
    async with db.scope(org_id=t.org.id) as session:
        [suggestion] = await progression_view(session, t.org.id, t.member_id, NOW)
    assert suggestion["last"]["load"] == 14 and suggestion["last"]["outcome"] == "miss"


async def test_undoing_sets_follows_into_the_log_and_the_last_one_undoes_it(db, factory) -> None:
    t = await trainee(db, factory)
    await _workout(db, t)
    ids = [(await _log(db, t, 9 - n, exercise_id="ex_003"))[1].id for n in range(2)]  # the plank: 2 × 30 s
    assert list(await _completed(db, t)) == ["ex_003"]
    [row] = await _logs(db, t)
    assert row.sets == 2 and float(row.duration_min) == 1.0
    async with db.scope(org_id=t.org.id) as session:
        await workout_sets.undo_set(session, t.org.id, t.member_id, ids[1], now=NOW)
        with pytest.raises(GymError) as again:
            await workout_sets.undo_set(session, t.org.id, t.member_id, ids[1], now=NOW)
    assert (again.value.code, again.value.status) == ("set_already_undone", 409)
    assert await _completed(db, t) == {}
    async with db.scope(org_id=t.org.id) as session:
        await workout_sets.undo_set(session, t.org.id, t.member_id, ids[0], now=NOW)
        assert await logs_since(session, t.org.id, t.member_id, NOW - timedelta(days=1)) == []
    await _log(db, t, 1, exercise_id="ex_003", set_number=1, duration_sec=40)
    [row] = await _logs(db, t)
    assert row.undone_at is None and row.sets == 1 and float(row.duration_min) == 0.67


async def test_what_a_set_may_not_be(db, factory) -> None:
    t = await trainee(db, factory)
    with pytest.raises(GymError) as none:
        await _log(db, t, exercise_id="ex_001", reps=5)
    assert (none.value.code, none.value.status) == ("no_current_workout", 409)
    await _workout(db, t)
    await _log(db, t, exercise_id="ex_001", set_number=2, reps=8)
    cases = [({"exercise_id": "ex_009", "reps": 5}, "exercise_not_found", 404),
             ({"exercise_id": "ex_001", "set_number": 2, "reps": 5}, "set_already_logged", 409),
             ({"exercise_id": "ex_003", "reps": 5}, "invalid_set", 422)]
    for fields, code, status in cases:
        with pytest.raises(GymError) as info:
            await _log(db, t, **fields)
        assert (info.value.code, info.value.status) == (code, status), fields
    with pytest.raises(GymError) as future:
        await _log(db, t, exercise_id="ex_001", reps=5, performed_at=NOW + timedelta(hours=1))
    assert future.value.code == "log_in_future"
    [row] = await _logs(db, t)
    assert row.sets == 1  # nothing the refusals tried was stored


async def test_the_trainers_mark_keeps_the_apps_sets_or_replaces_them(db, factory) -> None:
    t = await trainee(db, factory)
    await _workout(db, t)
    await _log(db, t, 8, exercise_id="ex_001", reps=10, load=14)
    async with db.scope(org_id=t.org.id) as session:
        row, log, assumed = await workout_sets.complete_exercise(session, t.org.id, t.member_id, "ex_001", Actuals(),
                                                                 now=NOW)
    assert not assumed and row.completed["ex_001"] == str(log.id)
    [kept] = await _logs(db, t)
    assert kept.sets == 1  # what the app logged stands: a miss of the 3-set prescription
    async with db.scope(org_id=t.org.id) as session:
        _, again, _ = await workout_sets.complete_exercise(session, t.org.id, t.member_id, "ex_001",
                                                           Actuals(reps_per_set=[10, 10, 8], load=15, rpe=8), now=NOW)
    assert again.id == log.id
    [replaced] = await _logs(db, t)
    assert list(replaced.reps_per_set) == [10, 10, 8] and float(replaced.load_kg) == 15 and float(replaced.rpe) == 8
    async with db.owner() as session:
        live = await session.scalar(text("SELECT count(*) FROM exercise_sets WHERE log_id = :l AND undone_at IS NULL"),
                                    {"l": log.id})
    assert live == 3


async def test_the_trainers_undo_removal_and_swap_respect_the_logged_sets(db, factory) -> None:
    t = await trainee(db, factory)
    await _workout(db, t)
    _, _, bench, _ = await _log(db, t, 8, exercise_id="ex_001", reps=10, load=14)
    await _log(db, t, 6, exercise_id="ex_002", reps=12)
    band = EXERCISE.validate_python(reps(1, "Band Chest Press", muscles={"Chest": 1.0}, equipment=["Resistance Band"]))
    async with db.scope(org_id=t.org.id) as session:
        with pytest.raises(GymError) as swap:
            await workout_changes.swap_exercise(session, t.org.id, t.member_id, "ex_001", band, now=NOW)
        assert (swap.value.code, swap.value.status) == ("exercise_has_sets", 409)
        await undo_log(session, t.org.id, t.member_id, bench.id, now=NOW)
        await workout_changes.remove_exercise(session, t.org.id, t.member_id, "ex_002", now=NOW)
    async with db.owner() as session:
        live = await session.scalar(text("SELECT count(*) FROM exercise_sets WHERE member_id = :m "
                                         "AND undone_at IS NULL"), {"m": t.member_id})
    assert live == 0 and all(r.undone_at is not None for r in await _logs(db, t))
    async with db.scope(org_id=t.org.id) as session:  # no sets left: the swap goes through
        row, _, old = await workout_changes.swap_exercise(session, t.org.id, t.member_id, "ex_001", band, now=NOW)
    assert old.name == "Dumbbell Floor Press" and row.exercises[0]["name"] == "Band Chest Press"


async def test_a_superset_member_owes_a_set_each_round(db, factory) -> None:
    t = await trainee(db, factory)
    group = {"id": "s1", "type": "superset", "position": 1, "rounds": 3}
    await _workout(db, t, {"title": "Pair", "exercises": [
        reps(1, "Dumbbell Floor Press", muscles={"Chest": 1.0}, equipment=["Dumbbells"], load=14, sets=1,
             group=group),
        {**hold(2), "sets": 1, "hold_sec": [30], "group": {**group, "position": 2, "rounds": None}}]})
    for n in range(1, 4):
        await _log(db, t, 10 - n, exercise_id="ex_001", reps=10)
    assert list(await _completed(db, t)) == ["ex_001"]
    [row] = await _logs(db, t)
    assert list(row.target_reps) == [10, 10, 10]


async def test_a_free_log_of_the_trainer_is_untouched_by_sets(db, factory) -> None:
    t = await trainee(db, factory)
    async with db.scope(org_id=t.org.id) as session:
        free = await log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Back Squat", exercise_type="strength", sets=3, reps=5, load_kg=80), now=NOW)
    await _workout(db, t)
    await _log(db, t, exercise_id="ex_001", reps=10, load=14)
    rows = {r.id: r for r in await _logs(db, t)}
    assert len(rows) == 2 and rows[free.id].sets == 3 and rows[free.id].undone_at is None


async def test_a_device_clock_a_little_ahead_logs_the_set_now(db, factory) -> None:
    """A phone two minutes fast still logs the set, at the service's now (so today's history shows it at once)."""
    t = await trainee(db, factory)
    await _workout(db, t)
    await _log(db, t, minutes_ago=0, exercise_id="ex_001", reps=8, performed_at=NOW + timedelta(minutes=2))
    async with db.owner() as session:
        at = await session.scalar(text("SELECT performed_at FROM exercise_sets WHERE member_id = :m"),
                                  {"m": t.member_id})
    assert at == NOW

