"""The library's muscle names map onto the 16 of 001; equipment names compare case- and plural-insensitively."""

from __future__ import annotations

import pytest

from gym.exercise_library import LIBRARY
from gym.exercise_library import MUSCLES as LIBRARY_MUSCLES
from gym.training.equipment import VOCABULARY, equipment_key, missing_equipment
from gym.training.muscles import LIBRARY_TO_TRAINER, library_muscle_shares
from gym.training.vocab import MUSCLES, canonical_muscle
from gym.training.workout import MuscleShare


def test_every_library_muscle_maps_to_one_of_the_sixteen() -> None:
    assert len(MUSCLES) == 16
    assert set(LIBRARY_TO_TRAINER) == set(LIBRARY_MUSCLES)
    assert set(LIBRARY_TO_TRAINER.values()) <= set(MUSCLES)


@pytest.mark.parametrize(("library", "expected"), [
    (["quads", "glutes", "hamstrings", "core"], {"Quadriceps": 0.25, "Glutes": 0.25, "Hamstrings": 0.25,
                                                 "Abs": 0.25}),
    (["core", "obliques"], {"Abs": 1.0}),
    (["quads", "glutes", "hip flexors"], {"Quadriceps": 0.67, "Glutes": 0.33}),
    (["lats", "upper back", "biceps"], {"Back": 0.34, "Trapezius": 0.33, "Biceps": 0.33}),
    (["Chest", "unknown"], {"Chest": 1.0}),
    ([], {}),
])
def test_library_muscle_shares(library: list, expected: dict) -> None:
    assert {s["name"]: s["share"] for s in library_muscle_shares(library)} == expected


def test_every_library_exercise_yields_valid_shares() -> None:
    for exercise in LIBRARY:
        shares = library_muscle_shares(exercise.muscles)
        if shares:
            assert abs(sum(s["share"] for s in shares) - 1) < 0.01, exercise.name
        for share in shares:
            MuscleShare.model_validate(share)


@pytest.mark.parametrize(("name", "key"), [
    ("Dumbbells", "dumbbell"), ("boxes", "box"), ("Pull-up bars", "pull up bar"), ("rings", "ring"),
    ("  Medicine   Balls ", "medicine ball"), ("glass", "glass"), ("abs", "abs"), ("Resistance Bands", "band"),
])
def test_equipment_key(name: str, key: str) -> None:
    assert equipment_key(name) == key


def test_missing_equipment_and_vocabulary() -> None:
    assert missing_equipment(["Dumbbell", "barbell"], ["dumbbells", "bands"]) == ["barbell"]
    assert {"barbell", "dumbbell", "band", "mat"} <= set(VOCABULARY)
    assert canonical_muscle(" lower  back") == "Lower Back" and canonical_muscle("lats") is None
