"""The fixed vocabularies of the trainer (001 §4.4, §4.5, §4.7, §4.9): muscles, types, units, statuses (the library's
movement patterns, body regions and sides: gym/library_vocab.py)."""

from __future__ import annotations

from typing import Literal

Muscle = Literal["Chest", "Back", "Shoulders", "Biceps", "Triceps", "Abs", "Lower Back", "Quadriceps", "Hamstrings",
                 "Glutes", "Calves", "Trapezius", "Abductors", "Adductors", "Forearms", "Neck"]
MUSCLES: tuple[str, ...] = ("Chest", "Back", "Shoulders", "Biceps", "Triceps", "Abs", "Lower Back", "Quadriceps",
                            "Hamstrings", "Glutes", "Calves", "Trapezius", "Abductors", "Adductors", "Forearms", "Neck")
# Recovery windows (TRAINER.md "Recovery"): these six need 48 h, the other ten 24 h.
LARGE_MUSCLES: frozenset[str] = frozenset({"Chest", "Back", "Lower Back", "Quadriceps", "Hamstrings", "Glutes"})

GroupType = Literal["circuit", "superset", "giant_set", "warmup", "cooldown", "sequence"]
GROUP_TYPES: tuple[str, ...] = ("circuit", "superset", "giant_set", "warmup", "cooldown", "sequence")

ExerciseType = Literal["strength", "bodyweight", "cardio_distance", "cardio_time", "hiit", "circuit", "flexibility",
                       "yoga", "isometric", "balance", "sport_specific"]
EXERCISE_TYPES: tuple[str, ...] = ("strength", "bodyweight", "cardio_distance", "cardio_time", "hiit", "circuit",
                                   "flexibility", "yoga", "isometric", "balance", "sport_specific")

PreferenceType = Literal["workout", "injury", "time", "equipment", "intensity", "muscle_group", "exercise", "goal",
                         "recovery", "other"]
PREFERENCE_TYPES: tuple[str, ...] = ("workout", "injury", "time", "equipment", "intensity", "muscle_group",
                                     "exercise", "goal", "recovery", "other")

MilestoneType = Literal["distance", "weight", "time", "event", "other"]
MILESTONE_TYPES: tuple[str, ...] = ("distance", "weight", "time", "event", "other")
MILESTONE_STATUSES: tuple[str, ...] = ("active", "achieved", "abandoned")
SCHEDULE_STATUSES: tuple[str, ...] = ("scheduled", "completed", "skipped", "cancelled")
PLAN_STATUSES: tuple[str, ...] = ("active", "completed", "paused", "cancelled")
WORKOUT_STATUSES: tuple[str, ...] = ("current", "completed", "abandoned")

WeightUnit = Literal["kg", "lbs"]
DistanceUnit = Literal["km", "mi"]
Sex = Literal["female", "male", "other"]
SEXES: tuple[str, ...] = ("female", "male", "other")
Experience = Literal["beginner", "intermediate", "advanced"]
EXPERIENCES: tuple[str, ...] = ("beginner", "intermediate", "advanced")


def canonical_muscle(name: str) -> str | None:
    """The 001 muscle a free-text name means (case- and space-insensitive), or None."""
    key = " ".join(name.split()).lower()
    return _BY_KEY.get(key)


_BY_KEY = {m.lower(): m for m in MUSCLES}
