"""The built-in exercise library every gym starts with (hand-written, static), and the one vocabulary the trainer
prescribes from (TRAINER.md "Library-only prescriptions and structured constraints").

Each entry: name, category, equipment, muscles (the prime mover first), aliases in every registered language (the
abbreviations and spellings coaches write on the whiteboard, the names members say; `locales/exercises/<code>.json`),
and tags from closed vocabularies — movement patterns, the body regions it loads and its side (gym/library_tags.py).
The entries live in gym/library_strength.py and gym/library_conditioning.py. "WOD", "metcon", "AMRAP" and the like are formats, not exercises, and are absent.
"""

from __future__ import annotations

from dataclasses import replace

from gym.library_conditioning import CONDITIONING
from gym.library_entry import LibraryExercise
from gym.library_strength import STRENGTH
from gym.library_tags import MUSCLE_REGIONS, PATTERN_REGIONS, PATTERN_TAGS, side_of
from gym.library_vocab import BODY_REGIONS, MOVEMENT_PATTERNS

__all__ = ["CATEGORIES", "LIBRARY", "MUSCLES", "PATTERN_TAGS", "LibraryExercise", "library_names"]

CATEGORIES = ("squat", "lunge", "hinge", "press", "pull", "carry", "gymnastics", "monostructural", "olympic",
              "core", "plyometric", "mobility", "accessory")
MUSCLES = ("chest", "lats", "upper back", "lower back", "shoulders", "biceps", "triceps", "forearms", "core",
           "obliques", "glutes", "quads", "hamstrings", "calves", "hip flexors", "adductors")


def _tagged(exercise: LibraryExercise) -> LibraryExercise:
    patterns = tuple(p for p in MOVEMENT_PATTERNS if exercise.name in PATTERN_TAGS[p])
    loaded = {r for p in patterns for r in PATTERN_REGIONS[p]} | {r for m in exercise.muscles
                                                                 for r in MUSCLE_REGIONS[m]}
    return replace(exercise, patterns=patterns, regions=tuple(r for r in BODY_REGIONS if r in loaded),
                   side=side_of(exercise.name, patterns))


LIBRARY: tuple[LibraryExercise, ...] = tuple(_tagged(e) for e in (*STRENGTH, *CONDITIONING))

assert set(PATTERN_TAGS) == set(MOVEMENT_PATTERNS), "every pattern of the vocabulary is tagged"
assert {n for names in PATTERN_TAGS.values() for n in names} <= {e.name for e in LIBRARY}, "tags name exercises"
assert all(m in MUSCLES for e in LIBRARY for m in e.muscles), "muscles from the library's vocabulary"
assert len({e.key for e in LIBRARY}) == len(LIBRARY), "one id per exercise"


def library_names() -> list[str]:
    return [exercise.name for exercise in LIBRARY]
