"""The exercise library in the member's language: each library exercise's name and three short cues — what to set
up, what to do, what to avoid — in en, he and ru (`locales/exercises/<locale>.json`: `exercises`, keyed by the
library's English name, and the words for the equipment and stance a name may start with, `modifiers`).

A name the library knows (its name or an alias) shows in Hebrew and Russian as the library's name in that
language; a library name after equipment or stance words the exercise allows ("Dumbbell Romanian Deadlift",
"Seated Dumbbell Shoulder Press") shows as that name with those words; anything else keeps the name it was given,
as English names do (the trainer's own words), and has no cues.
"""

from __future__ import annotations

from typing import Any

from core.i18n import DEFAULT_LOCALE, part
from gym.exercise_library import LibraryExercise
from gym.training.equipment import equipment_key
from gym.training.movements import EQUIPMENT_PREFIXES, name_key, resolve

CUES = ("setup", "do", "avoid")
MODIFIERS = {"dumbbell": "dumbbell", "db": "dumbbell", "barbell": "barbell", "bb": "barbell",
             "kettlebell": "kettlebell", "kb": "kettlebell", "band": "band", "banded": "band", "cable": "cable",
             "machine": "machine", "seated": "seated", "standing": "standing", "single arm": "single arm",
             "one arm": "one arm", "single leg": "single leg"}
EQUIPMENT = frozenset({"dumbbell", "barbell", "kettlebell", "band", "cable", "machine"})
assert set(MODIFIERS) == set(EQUIPMENT_PREFIXES), "a word for every prefix the movements drop"


def library_match(name: str) -> tuple[LibraryExercise, list[str]] | None:
    """The library exercise a name is, with the equipment and stance words in front of it (modifier keys); an
    equipment word the exercise does not allow ("Band Row" is no rowing machine) is no match."""
    found = resolve(name)
    if found is not None:
        return found, []
    key, words = name_key(name), []
    while found is None:
        prefix = next((p for p in EQUIPMENT_PREFIXES if key.startswith(p + " ")), None)
        if prefix is None:
            return None
        words.append(MODIFIERS[prefix])
        key = key[len(prefix) + 1:]
        found = resolve(key)
    allowed = {equipment_key(e) for e in found.equipment}
    if any(w in EQUIPMENT and w not in allowed for w in words):
        return None
    return found, words


def _catalog(locale: str) -> dict[str, Any]:
    return part("exercises", locale) or part("exercises", DEFAULT_LOCALE)


def _words(library_name: str, locale: str) -> dict[str, Any] | None:
    return _catalog(locale).get("exercises", {}).get(library_name) or \
        part("exercises", DEFAULT_LOCALE).get("exercises", {}).get(library_name)


def display_name(name: str, locale: str) -> str:
    """The exercise's name in `locale` (Hebrew, Russian) when the library knows it, else the name as given."""
    given = " ".join(str(name).split())
    match = library_match(given) if locale != DEFAULT_LOCALE else None
    words = _words(match[0].name, locale) if match else None
    if match is None or not words:
        return given
    modifiers = _catalog(locale).get("modifiers", {})
    extra = [str(modifiers.get(w, w)) for w in match[1]]
    return f"{words['name']} ({', '.join(extra)})" if extra else str(words["name"])


def how_to(name: str, locale: str) -> dict[str, str] | None:
    """{name, setup, do, avoid} in `locale` for a library exercise, else None."""
    match = library_match(name)
    words = _words(match[0].name, locale) if match else None
    if not words:
        return None
    return {"name": display_name(name, locale) if locale != DEFAULT_LOCALE else " ".join(str(name).split()),
            **{cue: str(words[cue]) for cue in CUES}}
