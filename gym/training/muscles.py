"""The exercise library's muscle names (gym.exercise_library.MUSCLES) mapped onto the 16 muscles of 001 §4.9.

One table, so a library exercise can be logged or generated with valid muscle shares. Where the library
is finer than 001 (lats / upper back, core / obliques) two names land on one muscle; hip flexors are
credited to Quadriceps (rectus femoris is the hip flexor a squat or a sit-up loads).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gym.exercise_library import MUSCLES as LIBRARY_MUSCLES

LIBRARY_TO_TRAINER: dict[str, str] = {
    "chest": "Chest",
    "lats": "Back",
    "upper back": "Trapezius",
    "lower back": "Lower Back",
    "shoulders": "Shoulders",
    "biceps": "Biceps",
    "triceps": "Triceps",
    "forearms": "Forearms",
    "core": "Abs",
    "obliques": "Abs",
    "glutes": "Glutes",
    "quads": "Quadriceps",
    "hamstrings": "Hamstrings",
    "calves": "Calves",
    "hip flexors": "Quadriceps",
    "adductors": "Adductors",
}
assert set(LIBRARY_TO_TRAINER) == set(LIBRARY_MUSCLES), "every library muscle needs a trainer muscle"


def library_muscle_shares(library_muscles: Iterable[str]) -> list[dict[str, Any]]:
    """Equal credit per listed library muscle, merged onto the 16 (shares sum to 1, rounded to 0.01).

    Unknown names are ignored; an exercise with none gets an empty list (allowed by the schema).
    """
    mapped = [LIBRARY_TO_TRAINER[m] for m in (name.strip().lower() for name in library_muscles)
              if m in LIBRARY_TO_TRAINER]
    if not mapped:
        return []
    credit: dict[str, float] = {}
    for muscle in mapped:
        credit[muscle] = credit.get(muscle, 0.0) + 1 / len(mapped)
    rounded = {name: round(value, 2) for name, value in credit.items()}
    first = next(iter(rounded))
    rounded[first] = round(rounded[first] + round(1 - sum(rounded.values()), 2), 2)  # the sum stays exactly 1
    return [{"name": name, "share": share} for name, share in rounded.items()]
