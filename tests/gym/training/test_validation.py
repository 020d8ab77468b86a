"""Workout validation: equipment ⊆ current location, units, recovery warnings, suggested loads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gym.training.entries import LogEntry
from gym.training.recovery import recovering_muscles
from gym.training.validation import check_workout
from gym.training.workout import Workout

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
HOME = ["Dumbbells", "bands", "mat"]


def ex(order: int, name: str, equipment: list[str], *, load: float | None = None, unit: str | None = None,
       muscles: list | None = None) -> dict:
    return {"name": name, "type": "reps", "order": order, "sets": 3, "reps": [8, 8, 8], "load": load,
            "load_unit": unit, "rest_sec": 60, "muscles": muscles or [{"name": "Chest", "share": 1}],
            "goals": [{"name": "Strength", "share": 1}], "reasoning": "", "equipment": equipment}


def check(*exercises: dict, equipment=HOME, weight_unit="kg", history=(), recovering=None):
    return check_workout(Workout.model_validate({"exercises": list(exercises)}), weight_unit=weight_unit,
                         distance_unit="km", equipment=equipment, recovering=recovering or {}, history=history)


def test_equipment_matches_case_and_plural_insensitively() -> None:
    result = check(ex(1, "Dumbbell Bench Press", ["dumbbell", "Mat"], load=20, unit="kg"),
                   ex(2, "Band Pull-Apart", ["Band"]), ex(3, "Push-up", []))
    assert result.ok, result.errors


def test_missing_equipment_is_equipment_unavailable() -> None:
    result = check(ex(1, "Bench Press", ["barbell", "bench", "dumbbells"], load=60, unit="kg"))
    assert [p.code for p in result.errors] == ["equipment_unavailable"]
    assert "barbell, bench" in result.errors[0].message and result.errors[0].exercise_order == 1


def test_no_current_location_allows_bodyweight_only() -> None:
    assert check(ex(1, "Push-up", []), equipment=None).ok
    assert [p.code for p in check(ex(1, "Row", ["dumbbell"]), equipment=None).errors] == ["equipment_unavailable"]


def test_loads_must_be_in_the_members_unit() -> None:
    result = check(ex(1, "Goblet Squat", ["dumbbell"], load=35, unit="lbs"))
    assert [p.code for p in result.errors] == ["unit_mismatch"]
    assert check(ex(1, "Goblet Squat", ["dumbbell"], load=35, unit="lbs"), weight_unit="lbs").ok
    distance = {"name": "Run", "type": "duration", "order": 1, "duration_min": 30, "distance": 3,
                "distance_unit": "mi", "muscles": [], "goals": [], "reasoning": ""}
    assert [p.code for p in check(distance).errors] == ["unit_mismatch"]


def test_recovering_muscles_warn_without_failing() -> None:
    legs = [LogEntry("Squat", NOW - timedelta(hours=20), muscles={"Quadriceps": 0.6, "Glutes": 0.4})]
    result = check(ex(1, "Goblet Squat", ["dumbbell"], load=16, unit="kg",
                      muscles=[{"name": "Quadriceps", "share": 0.7}, {"name": "Glutes", "share": 0.3}]),
                   ex(2, "Floor Press", ["dumbbell"], load=16, unit="kg"),
                   recovering=recovering_muscles(legs, NOW))
    assert result.ok
    assert [(w.code, w.exercise_order) for w in result.warnings] == [("muscle_recovering", 1)]
    assert "Quadriceps (ready in 28 h)" in result.warnings[0].message


def test_suggested_loads_for_exercises_with_history() -> None:
    history = [LogEntry("Goblet Squat", NOW - timedelta(days=3), load_kg=20, reps=8)]
    result = check(ex(1, "Goblet Squat", ["dumbbell"], load=22.5, unit="kg"), ex(2, "Floor Press", ["dumbbell"]),
                   history=history)
    assert [(s["order"], s["suggestedLoad"]) for s in result.suggestions] == [(1, 22.5)]
