"""The movement-pattern vocabulary is one, every tag names a library exercise, and a name outside the library still
gets its patterns (so an injury's "no overhead pressing" catches "Seated Dumbbell Shoulder Press")."""

from __future__ import annotations

from typing import get_args

import pytest

from gym.exercise_library import LIBRARY, PATTERN_TAGS
from gym.training.movements import (
    movement_kind,
    name_key,
    named_equipment,
    patterns_for,
    primary_muscle,
    resolve,
    resolve_loosely,
    same_exercise,
)
from gym.training.vocab import MOVEMENT_PATTERNS, MovementPattern


def test_one_vocabulary_tags_the_library() -> None:
    assert tuple(MOVEMENT_PATTERNS) == get_args(MovementPattern)
    assert set(PATTERN_TAGS) == set(MOVEMENT_PATTERNS)
    names = {x.name for x in LIBRARY}
    for pattern, tagged in PATTERN_TAGS.items():
        assert tagged and set(tagged) <= names, pattern
    assert all(set(x.patterns) <= set(MOVEMENT_PATTERNS) for x in LIBRARY)


@pytest.mark.parametrize(("name", "includes", "excludes"), [
    ("Strict Press", {"overhead_press", "spinal_loading"}, {"jumping"}),
    ("Dumbbell Push Press", {"overhead_press", "overhead_hold"}, set()),
    ("Seated Dumbbell Shoulder Press", {"overhead_press"}, set()),         # not in the library: loosely + keywords
    ("Burpees", {"burpee", "jumping"}, set()),
    ("ברפי", {"burpee"}, set()),                                            # the library's Hebrew alias
    ("Burpee Box Jump Over", {"burpee", "jumping"}, set()),
    ("Jump Squat", {"jumping", "deep_knee_flexion"}, set()),
    ("Pogo Hops", {"jumping"}, set()),                                      # keyword only
    ("Back Squat", {"deep_knee_flexion", "spinal_loading"}, {"jumping"}),
    ("Power Snatch", {"overhead_hold", "hip_hinge"}, set()),
    ("Handstand Hold", {"overhead_hold", "wrist_extension"}, set()),
    ("Kettlebell Swing", {"hip_hinge"}, {"overhead_hold"}),
    ("Pull-ups", {"hanging"}, set()),
    ("Dumbbell Bench Press", set(), {"overhead_press", "overhead_hold"}),
    ("Face Pull", set(), {"overhead_press", "overhead_hold"}),
    ("Landmine Press", set(), {"overhead_press"}),
])
def test_patterns_for(name: str, includes: set[str], excludes: set[str]) -> None:
    got = set(patterns_for(name))
    assert includes <= got and not excludes & got, got


def test_names_resolve_case_plural_and_alias_insensitively() -> None:
    assert name_key("Farmer's Walks") == "farmer walk" and name_key("Push-Ups") == "push up"
    assert resolve("barbell bench press").name == "Bench Press"
    assert resolve("Dumbbell Curl") is None and resolve_loosely("Dumbbell Curl").name == "Biceps Curl"
    assert same_exercise("Barbell Row", "Bent-Over Row") and not same_exercise("Dumbbell Curl", "Biceps Curl")


def test_kind_prime_mover_and_named_equipment() -> None:
    assert movement_kind("Back Squat") == "compound" and movement_kind("Lateral Raise") == "isolation"
    assert movement_kind("Leg Press") == "compound" and movement_kind("Cable Kickback") == "isolation"
    assert movement_kind("Plank") is None and movement_kind("Run") is None
    assert primary_muscle("Push Press") == "Shoulders" and primary_muscle("Made-up Move") is None
    assert named_equipment("Kettlebell Swing") == {"kettlebell"} and named_equipment("Box Jumps") == {"box"}
