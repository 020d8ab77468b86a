"""The 001 §4.9 workout schema: each constraint refuses what breaks it and accepts its edge."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from gym.training.workout import EXERCISE, Workout


def reps(**over) -> dict:
    base = {"name": "Goblet Squat", "type": "reps", "order": 1, "sets": 3, "reps": [10, 8, 8], "load": 16,
            "load_unit": "kg", "rest_sec": 90, "muscles": [{"name": "Quadriceps", "share": 0.6},
                                                            {"name": "Glutes", "share": 0.4}],
            "goals": [{"name": "Strength", "share": 1.0}], "reasoning": "Legs are under target.",
            "equipment": ["dumbbell"]}
    base.update(over)
    return base


def workout(*exercises: dict) -> dict:
    return {"exercises": list(exercises)}


def test_each_type_parses_into_its_class() -> None:
    parsed = Workout.model_validate(workout(
        reps(),
        {"name": "Plank", "type": "hold", "order": 2, "sets": 2, "hold_sec": [30, 45], "rest_sec": 60,
         "muscles": [{"name": "Abs", "share": 1}], "goals": [], "reasoning": "Core."},
        {"name": "Run", "type": "duration", "order": 3, "duration_min": 20, "distance": 3, "distance_unit": "km",
         "muscles": [], "goals": [{"name": "Conditioning", "share": 1}], "reasoning": "Zone 2."},
        {"name": "Bike sprints", "type": "intervals", "order": 4, "rounds": 8, "work_sec": 20, "rest_sec": 10,
         "muscles": [], "goals": [], "reasoning": "Tabata."}))
    assert [type(e).__name__ for e in parsed.exercises] == ["RepsExercise", "HoldExercise", "DurationExercise",
                                                            "IntervalsExercise"]


@pytest.mark.parametrize("shares", [[0.6, 0.39], [0.5, 0.51], [0.33, 0.33, 0.33], [0.34, 0.34, 0.33]])
def test_shares_summing_to_one_within_a_hundredth_inclusive_are_accepted(shares: list[float]) -> None:
    """TRAINER.md: each list sums to 1 ± 0.01; 0.99 and 1.01 are inside, whatever binary floats make of them."""
    names = ["Quadriceps", "Glutes", "Hamstrings"]
    muscles = [{"name": name, "share": share} for name, share in zip(names, shares, strict=False)]
    goals = [{"name": name, "share": share} for name, share in zip(["Strength", "Hypertrophy", "Endurance"],
                                                                    shares, strict=False)]
    parsed = Workout.model_validate(workout(reps(muscles=muscles, goals=goals)))
    assert [m.share for m in parsed.exercises[0].muscles] == shares


@pytest.mark.parametrize(("change", "message"), [
    ({"type": "tabata"}, "tag"),
    ({"muscles": [{"name": "Lats", "share": 1.0}]}, "Chest"),
    ({"muscles": [{"name": "Chest", "share": 0.5}, {"name": "Back", "share": 0.4}]}, "sum to 1.0"),
    ({"muscles": [{"name": "Chest", "share": 0.5}, {"name": "Back", "share": 0.511}]}, "sum to 1.0"),
    ({"muscles": [{"name": "Chest", "share": 0.5}, {"name": "Chest", "share": 0.5}]}, "once"),
    ({"muscles": [{"name": "Chest", "share": 1.2}]}, "less than or equal"),
    ({"goals": [{"name": "Strength", "share": 0.5}]}, "sum to 1.0"),
    ({"reasoning": "x" * 201}, "at most 200"),
    ({"reps": [10, 8]}, "one entry per set"),
    ({"sets": 0, "reps": []}, "greater than or equal to 1"),
    ({"load_unit": None}, "load_unit"),
    ({"load_unit": "stone"}, "'kg' or 'lbs'"),
    ({"rest_sec": -1}, "greater than or equal to 0"),
    ({"order": 0}, "greater than or equal to 1"),
    ({"surprise": True}, "Extra inputs"),
    ({"group": {"id": "g", "type": "tabata", "position": 1}}, "circuit"),
])
def test_each_exercise_constraint_refuses(change: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        EXERCISE.validate_python(reps(**change))


def test_shares_within_one_hundredth_are_accepted() -> None:
    ex = EXERCISE.validate_python(reps(muscles=[{"name": "Chest", "share": 0.5}, {"name": "Back", "share": 0.495}],
                                       goals=[{"name": "Strength", "share": 0.333}, {"name": "Power", "share": 0.667}]))
    assert len(ex.muscles) == 2
    assert EXERCISE.validate_python(reps(reasoning="x" * 200, muscles=[], goals=[])).reasoning == "x" * 200


@pytest.mark.parametrize(("exercise", "message"), [
    ({"name": "Plank", "type": "hold", "order": 1, "sets": 3, "hold_sec": [30], "rest_sec": 30, "muscles": [],
      "goals": [], "reasoning": ""}, "hold_sec needs one entry per set"),
    ({"name": "Run", "type": "duration", "order": 1, "duration_min": 20, "distance": 5, "muscles": [], "goals": [],
      "reasoning": ""}, "distance_unit"),
    ({"name": "Run", "type": "duration", "order": 1, "duration_min": 0, "muscles": [], "goals": [],
      "reasoning": ""}, "greater than 0"),
    ({"name": "Row", "type": "intervals", "order": 1, "rounds": 0, "work_sec": 30, "rest_sec": 30, "muscles": [],
      "goals": [], "reasoning": ""}, "greater than or equal to 1"),
    ({"name": "Row", "order": 1, "muscles": [], "goals": [], "reasoning": ""}, "type"),
])
def test_other_types_constraints(exercise: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        EXERCISE.validate_python(exercise)


def _grouped(first: dict, second: dict) -> dict:
    return workout(reps(order=1, group=first), reps(order=2, name="Push-up", load=None, load_unit=None,
                                                    equipment=[], group=second))


def test_group_name_and_rounds_only_on_the_first_member() -> None:
    ok = Workout.model_validate(_grouped({"id": "s1", "type": "superset", "position": 1, "name": "A", "rounds": 3,
                                          "rest_between_rounds_sec": 60},
                                         {"id": "s1", "type": "superset", "position": 2}))
    assert ok.exercises[0].group.rounds == 3
    for second in ({"id": "s1", "type": "superset", "position": 2, "name": "A"},
                   {"id": "s1", "type": "superset", "position": 2, "rounds": 3},
                   {"id": "s1", "type": "superset", "position": 2, "rest_between_rounds_sec": 30}):
        with pytest.raises(ValidationError, match="first member only"):
            Workout.model_validate(_grouped({"id": "s1", "type": "superset", "position": 1}, second))


@pytest.mark.parametrize(("first", "second", "message"), [
    ({"id": "s1", "type": "superset", "position": 1}, {"id": "s1", "type": "circuit", "position": 2}, "same type"),
    ({"id": "s1", "type": "superset", "position": 1}, {"id": "s1", "type": "superset", "position": 3}, "positions"),
    ({"id": "s1", "type": "superset", "position": 1}, {"id": "s1", "type": "superset", "position": 1}, "positions"),
])
def test_group_rules(first: dict, second: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Workout.model_validate(_grouped(first, second))


def test_orders_must_number_one_to_n() -> None:
    second = copy.deepcopy(reps(order=3, name="Lunge"))
    with pytest.raises(ValidationError, match="1..n"):
        Workout.model_validate(workout(reps(), second))
    with pytest.raises(ValidationError, match="at least 1"):
        Workout.model_validate(workout())


def test_json_schema_is_a_discriminated_union() -> None:
    schema = Workout.model_json_schema()
    items = schema["properties"]["exercises"]["items"]
    assert items["discriminator"]["propertyName"] == "type"
    assert set(items["discriminator"]["mapping"]) == {"reps", "hold", "duration", "intervals"}
