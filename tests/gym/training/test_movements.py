"""The movement-pattern vocabulary is one, every tag names a library exercise, patterns come from the library's tags
only (a name the library does not know has none: it cannot be prescribed), and a name resolves — library name,
alias in en/he/ru, the app's name, id — to one library exercise or to `unknown_exercise` with the nearest names."""

from __future__ import annotations

from typing import get_args

import pytest

from gym.errors import GymError
from gym.exercise_library import LIBRARY, PATTERN_TAGS
from gym.library_vocab import MOVEMENT_PATTERNS, MovementPattern
from gym.training.movements import (
    movement_kind,
    name_key,
    named_equipment,
    patterns_for,
    prescribed,
    primary_muscle,
    resolve,
    resolve_loosely,
    same_exercise,
)


def test_one_vocabulary_tags_the_library() -> None:
    assert tuple(MOVEMENT_PATTERNS) == get_args(MovementPattern)
    assert set(PATTERN_TAGS) == set(MOVEMENT_PATTERNS)
    names = {x.name for x in LIBRARY}
    for pattern, tagged in PATTERN_TAGS.items():
        assert tagged and set(tagged) <= names, pattern
    assert all(set(x.patterns) <= set(MOVEMENT_PATTERNS) for x in LIBRARY)


@pytest.mark.parametrize(("name", "includes", "excludes"), [
    ("Strict Press", {"overhead_press", "spinal_loading"}, {"jump"}),
    ("Dumbbell Push Press", {"overhead_press", "shoulder_flexion_loaded_above_90"}, set()),
    ("Seated Dumbbell Shoulder Press", {"overhead_press"}, set()),         # an alias
    ("Burpees", {"burpee_family", "jump"}, set()),
    ("ברפי", {"burpee_family"}, set()),                                     # the library's Hebrew alias
    ("Burpee Box Jump Over", {"burpee_family", "jump"}, set()),
    ("Sprawls", {"burpee_family"}, set()),
    ("Squat Thrust", {"burpee_family"}, set()),
    ("Jump Squat", {"jump", "squat"}, set()),
    ("Pogo Hops", {"jump"}, set()),
    ("Pogo Bounces", set(), {"jump"}),                                      # not the library's: no patterns
    ("Back Squat", {"squat", "deep_knee_flexion", "spinal_loading"}, {"jump", "lunge"}),
    ("Goblet Squat", {"squat"}, {"lunge"}),
    ("Leg Press", {"squat"}, {"lunge"}),
    ("Walking Lunge", {"lunge", "single_leg"}, set()),
    ("Power Snatch", {"overhead_hold", "hinge"}, set()),
    ("Handstand Hold", {"overhead_hold", "wrist_extension"}, set()),
    ("Kettlebell Swing", {"hinge"}, {"overhead_hold"}),
    ("Pull-ups", {"hanging", "vertical_pull"}, set()),
    ("Dumbbell Bench Press", {"horizontal_push"}, {"overhead_press", "overhead_hold"}),
    ("Face Pull", {"horizontal_pull"}, {"overhead_press", "overhead_hold"}),
    ("Landmine Press", {"overhead_press"}, set()),
    ("Behind the Neck Press", {"overhead_press", "spinal_loading"}, set()),
    ("Viking Press", {"overhead_press"}, set()),
    ("Bradford Press", {"overhead_press"}, set()),
    ("Bottoms-up Kettlebell Press", {"overhead_press"}, set()),
    ("Farmer's Walk", {"carry"}, set()),
    ("Russian Twist", {"rotation", "spinal_flexion_loaded"}, set()),
])
def test_patterns_for(name: str, includes: set[str], excludes: set[str]) -> None:
    got = set(patterns_for(name))
    assert includes <= got and not excludes & got, got


def test_names_resolve_case_plural_and_alias_insensitively() -> None:
    assert name_key("Farmer's Walks") == "farmer walk" and name_key("Push-Ups") == "push up"
    assert resolve("barbell bench press").name == "Bench Press"
    assert resolve("Dumbbell Curl").name == "Dumbbell Curl" and resolve("DB Curls").name == "Dumbbell Curl"
    assert resolve("Kettlebell Curl") is None and resolve_loosely("Kettlebell Curl").name == "Biceps Curl"
    assert same_exercise("Barbell Row", "Bent-Over Row") and not same_exercise("Dumbbell Curl", "Biceps Curl")
    assert resolve("farmers-carry").name == "Farmer's Carry"                     # the library's id
    assert resolve("Жим гантелей над головой").name == "Dumbbell Shoulder Press"  # the app's Russian name
    assert resolve("ВЫПАДЫ").name == "Lunge" and resolve("מכרעים בהליכה").name == "Walking Lunge"


def test_an_unknown_name_is_refused_with_the_nearest_library_names() -> None:
    with pytest.raises(GymError) as info:
        prescribed("Seated Dumbbell Shoulder Presses Deluxe")
    assert info.value.code == "unknown_exercise"
    assert "Dumbbell Shoulder Press" in info.value.params["data"]["nearest"]
    assert "Nearest library exercises:" in info.value.message
    assert prescribed("Landmine press").name == "Landmine Press"


def test_kind_prime_mover_and_named_equipment() -> None:
    assert movement_kind("Back Squat") == "compound" and movement_kind("Lateral Raise") == "isolation"
    assert movement_kind("Leg Press") == "compound" and movement_kind("Cable Kickback") == "isolation"
    assert movement_kind("Plank") is None and movement_kind("Run") is None
    assert primary_muscle("Push Press") == "Shoulders" and primary_muscle("Made-up Move") is None
    assert named_equipment("Kettlebell Swing") == {"kettlebell"} and named_equipment("Box Jumps") == {"box"}
