"""Timers: phases derived from the exercise; total = Σ phases; supersets and circuits interleaved by round."""

from __future__ import annotations

from gym.training.timers import TRANSITION_SEC, exercise_timer, run_phases, spec_timer, workout_timers
from gym.training.workout import EXERCISE, Group

BASE = {"muscles": [], "goals": [], "reasoning": ""}
REPS = EXERCISE.validate_python({**BASE, "name": "Bench", "type": "reps", "order": 1, "sets": 3, "reps": [10, 8, 6],
                                 "load": 60, "load_unit": "kg", "rest_sec": 90})
HOLD = EXERCISE.validate_python({**BASE, "name": "Plank", "type": "hold", "order": 2, "sets": 2, "hold_sec": [30, 45],
                                 "rest_sec": 60})
DURATION = EXERCISE.validate_python({**BASE, "name": "Run", "type": "duration", "order": 3, "duration_min": 20})
INTERVALS = EXERCISE.validate_python({**BASE, "name": "Bike", "type": "intervals", "order": 4, "rounds": 4,
                                      "work_sec": 20, "rest_sec": 10})


def _shape(timer) -> list[tuple[str, int]]:
    return [(p.phase_type, p.duration_sec) for p in timer.phases]


def test_reps_work_per_set_rest_between() -> None:
    t = exercise_timer(REPS)
    assert _shape(t) == [("work", 30), ("rest", 90), ("work", 24), ("rest", 90), ("work", 18)]
    assert t.total_duration_sec == 252
    assert t.phases[0].detail == "10 reps at 60kg"


def test_hold_duration_intervals() -> None:
    assert _shape(exercise_timer(HOLD)) == [("hold", 30), ("rest", 60), ("hold", 45)]
    assert exercise_timer(HOLD).total_duration_sec == 135
    assert _shape(exercise_timer(DURATION)) == [("work", 1200)]
    assert _shape(exercise_timer(INTERVALS)) == [("work", 20), ("rest", 10)] * 3 + [("work", 20)]
    assert exercise_timer(INTERVALS).total_duration_sec == 110


def test_workout_total_is_the_sum_of_every_phase() -> None:
    out = workout_timers([INTERVALS, HOLD, REPS, DURATION])
    assert [t["exercise_name"] for t in out["timers"]] == ["Bench", "Plank", "Run", "Bike"]
    assert out["total_duration_sec"] == 252 + 135 + 1200 + 110 + 3 * TRANSITION_SEC
    assert all(p["phase_type"] == "transition" for p in out["transitions"])


def test_no_rest_phase_when_rest_is_zero() -> None:
    t = exercise_timer(REPS.model_copy(update={"rest_sec": 0}))
    assert [p.phase_type for p in t.phases] == ["work", "work", "work"]


def test_spec_timer_from_the_tool_fields() -> None:
    assert _shape(spec_timer("Wall sit", "isometric", sets=2, rest_seconds=30, work_duration_seconds=45)) == [
        ("hold", 45), ("rest", 30), ("hold", 45)]
    t = spec_timer("Squat", "strength", sets=3, reps=5, rest_seconds=120)
    assert t.total_duration_sec == 3 * 15 + 2 * 120


def _member(base, position: int, **group):
    return base.model_copy(update={"group": Group(id="ss1", type="superset", position=position, **group)})


def test_a_superset_is_interleaved_by_round_with_the_rest_between_rounds() -> None:
    bench = _member(REPS.model_copy(update={"id": "ex_001"}), 1, name="Push pair", rounds=3,
                    rest_between_rounds_sec=75)
    plank = _member(HOLD.model_copy(update={"id": "ex_002", "order": 2, "hold_sec": [30, 45, 60], "sets": 3}), 2)
    run = REPS.model_copy(update={"id": "ex_003", "order": 3, "name": "Curl", "sets": 1, "reps": [12], "load": 8})
    out = workout_timers([plank, run, bench])
    assert [t["exercise_name"] for t in out["timers"]] == ["Push pair", "Curl"]
    assert out["timers"][0]["exercise_type"] == "superset"
    phases = out["timers"][0]["phases"]
    assert [(p["phase_type"], p.get("exercise_id"), p.get("set_number"), p.get("round")) for p in phases] == [
        ("work", "ex_001", 1, 1), ("hold", "ex_002", 1, 1), ("rest", None, None, 1),
        ("work", "ex_001", 2, 2), ("hold", "ex_002", 2, 2), ("rest", None, None, 2),
        ("work", "ex_001", 3, 3), ("hold", "ex_002", 3, 3)]
    assert [p["duration_sec"] for p in phases] == [30, 30, 75, 24, 45, 75, 18, 60]
    assert phases[0]["reps"] == 10 and phases[0]["load"] == 60 and phases[0]["load_unit"] == "kg"
    assert out["total_duration_sec"] == sum(p["duration_sec"] for t in out["timers"] for p in t["phases"]) + TRANSITION_SEC
    flat = run_phases([plank, run, bench])
    assert [p["phase_type"] for p in flat][-3:] == ["hold", "transition", "work"]
    assert flat[-1]["block_name"] == "Curl" and flat[0]["block_type"] == "superset"


def test_a_circuit_of_single_sets_repeats_each_member_every_round() -> None:
    a = _member(REPS.model_copy(update={"id": "ex_001", "sets": 1, "reps": [15]}), 1, rounds=2)
    b = _member(INTERVALS.model_copy(update={"id": "ex_002", "order": 2, "rounds": 1}), 2)
    b = b.model_copy(update={"group": b.group.model_copy(update={"type": "superset"})})
    phases = workout_timers([a, b])["timers"][0]["phases"]
    assert [(p.get("exercise_id"), p.get("set_number")) for p in phases if p["phase_type"] != "rest"] == [
        ("ex_001", 1), ("ex_002", 1), ("ex_001", 2), ("ex_002", 2)]
    assert [p["duration_sec"] for p in phases] == [45, 20, 90, 45, 20]  # no rest given: the first member's
