"""Workout validation: the library's equipment for each exercise ⊆ current location (never the list a model sent),
units, recovery warnings, suggested loads."""

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
    result = check(ex(1, "Dumbbell Floor Press", ["dumbbell", "Mat"], load=20, unit="kg"),
                   ex(2, "Push-up", []), ex(3, "Band Pull-Apart", ["Band"]))
    assert result.ok, result.errors


def test_missing_equipment_is_equipment_unavailable() -> None:
    result = check(ex(1, "Bench Press", ["barbell", "bench", "dumbbells"], load=60, unit="kg"))
    assert [p.code for p in result.errors] == ["equipment_unavailable"]
    assert "bench and rack and barbell" in result.errors[0].message and result.errors[0].exercise_order == 1


def test_the_library_says_what_an_exercise_needs_not_the_model() -> None:
    """At home (dumbbells, bands, mat) a barbell squat, a bench press, a cable fly and the leg press are refused
    even when the model lists no equipment; a dumbbell bench press needs its bench."""
    for name in ("Back Squat", "Bench Press", "Cable Fly", "Leg Press", "Dumbbell Bench Press"):
        result = check(ex(1, name, []))
        assert [p.code for p in result.errors] == ["equipment_unavailable"], name
    assert check(ex(1, "Goblet Squat", ["kettlebell"])).ok  # one of its implements is here: the dumbbell


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
                   ex(2, "Dumbbell Floor Press", ["dumbbell"], load=16, unit="kg"),
                   recovering=recovering_muscles(legs, NOW))
    assert result.ok
    assert [(w.code, w.exercise_order) for w in result.warnings] == [("muscle_recovering", 1)]
    assert "Quadriceps (41 % recovered, ready in 28 h)" in result.warnings[0].message
    assert result.recovery[1] == [
        {"muscle": "Quadriceps", "percent": 41, "readyAt": (NOW + timedelta(hours=28)).isoformat()},
        {"muscle": "Glutes", "percent": 41, "readyAt": (NOW + timedelta(hours=28)).isoformat()}]
    assert result.recovery[2] == []


def test_suggested_loads_for_exercises_with_history() -> None:
    history = [LogEntry("Goblet Squat", NOW - timedelta(days=3), sets=3, load_kg=40, reps=8, rpe=8)]
    result = check(ex(1, "Goblet Squat", ["dumbbell"], load=42.5, unit="kg"),
                   ex(2, "Dumbbell Floor Press", ["dumbbell"]),
                   ex(3, "Dumbbell Row", ["dumbbell"], load=12, unit="kg"), history=history)
    assert [(s["order"], s["suggestedLoad"], s["why"]["code"]) for s in result.suggestions] == [
        (1, 42.5, "load_up"), (3, None, "new_exercise")]
    assert result.ok and not result.warnings


def test_a_load_above_the_suggestion_is_a_warning() -> None:
    history = [LogEntry("Goblet Squat", NOW - timedelta(days=3), sets=3, load_kg=40, reps=8, rpe=8)]
    result = check(ex(1, "Goblet Squat", ["dumbbell"], load=50, unit="kg"), history=history)
    assert result.ok
    assert [(w.code, w.message) for w in result.warnings] == [
        ("load_above_suggestion", "Goblet Squat: 50 kg is above the suggested 42.5 kg (last 40 kg, +25 %)")]


def test_exercise_order_is_warm_up_compound_isolation_cool_down() -> None:
    """001 §4.9 rule 4 in code: each break is an `exercise_order` error naming the exercises."""
    warm = {"id": "w", "type": "warmup", "position": 1}
    cool = {"id": "c", "type": "cooldown", "position": 1}
    curl = ex(1, "Dumbbell Curl", ["dumbbell"], load=8, unit="kg")
    press = ex(2, "Dumbbell Floor Press", ["dumbbell"], load=16, unit="kg")
    result = check(curl, press)
    assert [p.code for p in result.errors] == ["exercise_order"]
    assert ("Dumbbell Floor Press (exercise 2) comes after the isolation exercise Dumbbell Curl"
            in result.errors[0].message)
    assert "move Dumbbell Floor Press before Dumbbell Curl" in (result.errors[0].hint or "")
    assert check({**press, "order": 1}, {**curl, "order": 2}).ok
    late_warmup = check({**press, "order": 1}, {**ex(2, "Band Pull-Apart", ["band"]), "group": warm})
    assert "warm-up Band Pull-Apart (exercise 2)" in late_warmup.errors[0].message
    early_cooldown = check({**ex(1, "Push-up", []), "group": cool}, {**press, "order": 2})
    assert "cool-down Push-up (exercise 1)" in early_cooldown.errors[0].message
    # a superset is one block; conditioning and holds after isolation work are fine
    pair = [{**press, "order": 1, "group": {"id": "s", "type": "superset", "position": 1}},
            {**curl, "order": 2, "group": {"id": "s", "type": "superset", "position": 2}},
            {**ex(3, "Goblet Squat", ["dumbbell"], load=16, unit="kg"),
             "group": {"id": "t", "type": "superset", "position": 1}},
            {**ex(4, "Lateral Raise", ["dumbbell"], load=6, unit="kg"),
             "group": {"id": "t", "type": "superset", "position": 2}},
            {"name": "Burpees", "type": "intervals", "order": 5, "rounds": 5, "work_sec": 30, "rest_sec": 30,
             "muscles": [], "goals": [], "reasoning": "", "equipment": []}]
    assert check(*pair).ok, check(*pair).errors
