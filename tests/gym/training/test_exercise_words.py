"""Every library exercise has a name and three short cues (set up, do, avoid) in en, he and ru; names the library
knows are shown in Hebrew and Russian, with equipment and stance words; others keep the name they were given."""

from __future__ import annotations

import re

import pytest

from core.i18n import SUPPORTED_LOCALES, part
from gym.exercise_library import LIBRARY
from gym.training.exercise_words import CUES, MODIFIERS, display_name, how_to

SCRIPT = {"he": re.compile(r"[\u0590-\u05FF]"), "ru": re.compile(r"[\u0400-\u04FF]"), "en": re.compile(r"[A-Za-z]")}


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_library_exercise_has_a_name_and_three_short_cues(locale) -> None:
    words = part("exercises", locale)
    assert list(words["exercises"]) == [e.name for e in LIBRARY]
    for name, entry in words["exercises"].items():
        assert set(entry) == {"name", *CUES}, name
        for key, value in entry.items():
            assert value.strip() and len(value) <= 70 and SCRIPT[locale].search(value), (name, key, value)
        assert len({entry[c] for c in CUES}) == 3, name
    assert set(words["modifiers"]) == set(MODIFIERS.values())


def test_names_in_the_members_language() -> None:
    assert display_name("Barbell Bench Press", "he") == "לחיצת חזה"
    assert display_name("Seated Dumbbell Shoulder Press", "ru") == "Жим гантелей над головой"  # an alias
    assert display_name("Standing Dumbbell Front Squat", "ru") == "Фронтальные приседания с гантелями (стоя)"
    assert display_name("Dumbbell Curl", "he") == "כפיפת מרפקים במשקולות"
    assert display_name("Band Row", "ru") == "Тяга резины к поясу"       # no rowing machine
    assert display_name("Barbell Bench Press", "en") == "Barbell Bench Press"  # the trainer's own words
    assert display_name("Granny  Swing", "he") == "Granny Swing"


def test_cues_follow_a_library_exercise_and_nothing_else() -> None:
    cues = how_to("DB Romanian Deadlift", "en")
    assert cues is not None and cues["name"] == "DB Romanian Deadlift" and cues["avoid"].startswith("Rounding")
    assert how_to("Push-ups", "he")["name"] == "שכיבות סמיכה"
    assert how_to("Granny Swing", "ru") is None
