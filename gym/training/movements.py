"""What the trainer knows about an exercise from its name: the library exercise it is, its movement patterns, its
primary muscle, whether it is a compound or an isolation movement, and the equipment its name says it needs.

Names compare by `name_key` (case, hyphens, apostrophes, spacing and plurals ignored: "Push-ups" = "push up").
`prescribed` is the rule every prescription passes (TRAINER.md "Library-only prescriptions"): a name — the library's
name, an alias in English, Hebrew or Russian, the name the member's app shows in their language — or a library id
resolves to exactly one library exercise, else `unknown_exercise` with the nearest library names. `resolve` finds
the exercise the same way without refusing; `resolve_loosely` also drops a leading equipment word ("Dumbbell Curl
Variation" → …), for names logged before the rule. Patterns are the library's tags, never words of a name.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import cache, lru_cache

from core.i18n import SUPPORTED_LOCALES, part
from gym.errors import GymError
from gym.exercise_library import LIBRARY, LibraryExercise
from gym.training.equipment import VOCABULARY, equipment_key
from gym.training.muscles import LIBRARY_TO_TRAINER

COMPOUND_CATEGORIES = frozenset({"squat", "lunge", "hinge", "press", "pull", "olympic", "gymnastics", "carry"})
ISOLATION_CATEGORIES = frozenset({"accessory"})
COMPOUND_NAMES = frozenset({"Leg Press", "Hack Squat"})  # filed under accessory or machines, two joints under load
ISOLATION_NAMES = frozenset({"Nordic Curl", "Face Pull", "Band Face Pull"})
EQUIPMENT_PREFIXES = ("dumbbell", "db", "barbell", "bb", "kettlebell", "kb", "band", "banded", "cable", "machine",
                      "seated", "standing", "single arm", "one arm", "single leg")
NEAREST = 5
ISOLATION_WORDS = re.compile(r"\bcurl\b|\braise\b|\bfly\b|\bflye\b|\bkickback\b|\bpushdown\b|\bpush down\b|"
                             r"\bextension\b|\bpull apart\b|\bshrug\b|\bpec deck\b|\bcrossover\b")
COMPOUND_WORDS = re.compile(r"\bsquat\b|\bdeadlift\b|\bpress\b|\brow\b|\bpull ?up\b|\bchin ?up\b|\blunge\b|"
                            r"\bclean\b|\bsnatch\b|\bthruster\b|\bdip\b|\bpush ?up\b|\bswing\b|\bstep up\b")


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("sses"):
        return word[:-2]
    if len(word) > 4 and word.endswith(("xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


@lru_cache(maxsize=8192)  # a pure function of a name: progression compares a member's history name by name
def name_key(name: str) -> str:
    """A comparable form of an exercise name: lower case, words only, singular ("Farmer's Walks" → "farmer walk")."""
    text = re.sub(r"['’`]s\b", "", name.lower())
    text = re.sub(r"[^\w]+", " ", text.replace("_", " "))
    return " ".join(_singular(w) for w in text.split())


def _shown_names() -> list[tuple[str, str]]:
    """(name the member's app shows, library name) in every language: a name the member read is one they may say."""
    return [(str(words["name"]), name) for locale in SUPPORTED_LOCALES
            for name, words in (part("exercises", locale).get("exercises") or {}).items() if words.get("name")]


@cache
def _index() -> dict[str, LibraryExercise]:
    by_name = {exercise.name: exercise for exercise in LIBRARY}
    by_key: dict[str, LibraryExercise] = {}
    for exercise in LIBRARY:
        by_key.setdefault(name_key(exercise.name), exercise)
    for exercise in LIBRARY:  # aliases never shadow a name
        for alias in exercise.all_aliases:
            by_key.setdefault(name_key(alias), exercise)
    for shown, name in _shown_names():  # nor do the app's words for them
        by_key.setdefault(name_key(shown), by_name[name])
    for exercise in LIBRARY:
        by_key.setdefault(name_key(exercise.key), exercise)
    return by_key


def spellings() -> dict[str, LibraryExercise]:
    """Every name key the library knows → its exercise: names, aliases, the app's names in every language, ids."""
    return _index()


def resolve(name: str) -> LibraryExercise | None:
    """The library exercise this name, alias or id is, exactly (case, plurals and punctuation aside)."""
    return _index().get(name_key(name))


def nearest(name: str, count: int = NEAREST) -> list[str]:
    """The library names closest to a name: spelling and shared words, over every name and alias."""
    key = name_key(name)
    words = set(key.split())
    scored: dict[str, float] = {}
    for spelling, exercise in _index().items():
        shared = len(words & set(spelling.split())) / max(len(words | set(spelling.split())), 1)
        score = SequenceMatcher(None, key, spelling).ratio() + shared
        scored[exercise.name] = max(scored.get(exercise.name, 0.0), score)
    return [n for n, _ in sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:count]]


def prescribed(name: str) -> LibraryExercise:
    """THE rule every prescription passes: the one library exercise `name` is, or `unknown_exercise` naming the
    nearest library exercises (the model picks one; the app shows them)."""
    found = resolve(name) if name.strip() else None
    if found is None:
        close = nearest(name)
        raise GymError("unknown_exercise", f"{' '.join(name.split()) or 'An empty name'} is not in the exercise "
                                           f"library. Nearest library exercises: {', '.join(close)}.",
                       "Prescribe only library exercises, by their library name (an alias in English, Hebrew or "
                       "Russian works too): pick one of the nearest, or another library exercise.",
                       names=", ".join(close), data={"nearest": close})
    return found


def resolve_loosely(name: str) -> LibraryExercise | None:
    """`resolve`, else the same with a leading equipment or stance word dropped ("Dumbbell Curl" → Biceps Curl)."""
    found = resolve(name)
    key = name_key(name)
    while found is None:
        prefix = next((p for p in EQUIPMENT_PREFIXES if key.startswith(p + " ")), None)
        if prefix is None:
            return None
        key = key[len(prefix) + 1:]
        found = _index().get(key)
    return found


@lru_cache(maxsize=65536)
def same_exercise(a: str, b: str) -> bool:
    """One exercise under two names: equal keys, or the same library exercise ("Barbell Row" = "Bent-Over Row")."""
    if name_key(a) == name_key(b):
        return True
    first, second = resolve(a), resolve(b)
    return first is not None and first is second


def canonical_name(name: str) -> str:
    """The library's name for it when it is a library exercise or alias; else the name as given, tidied."""
    found = resolve(name)
    return found.name if found else " ".join(name.split())


def name_forms(name: str) -> set[str]:
    """Every key this exercise is known by: its own, and its library name and aliases (all languages)."""
    forms = {name_key(name)}
    found = resolve_loosely(name)
    if found is not None:
        forms |= {name_key(n) for n in (found.name, *found.all_aliases)}
    return forms - {""}


def patterns_for(name: str) -> tuple[str, ...]:
    """Movement patterns: the library's tags of the exercise (loosely resolved); none for a name it does not know."""
    found = resolve_loosely(name)
    return found.patterns if found else ()


def primary_muscle(name: str) -> str | None:
    """The 001 muscle the library lists first for this exercise (its prime mover), if the library knows it."""
    found = resolve_loosely(name)
    return LIBRARY_TO_TRAINER.get(found.muscles[0]) if found and found.muscles else None


def movement_kind(name: str) -> str | None:
    """"compound", "isolation", or None when neither (core, mobility, cardio, plyometrics, unknown names)."""
    found = resolve_loosely(name)
    if found is not None:
        if found.name in COMPOUND_NAMES:
            return "compound"
        if found.name in ISOLATION_NAMES or found.category in ISOLATION_CATEGORIES:
            return "isolation"
        return "compound" if found.category in COMPOUND_CATEGORIES else None
    key = name_key(name)
    if ISOLATION_WORDS.search(key):
        return "isolation"
    return "compound" if COMPOUND_WORDS.search(key) else None


@cache
def _equipment_keys() -> tuple[tuple[str, str], ...]:
    return tuple((equipment_key(e), e) for e in VOCABULARY)


def named_equipment(name: str) -> set[str]:
    """Equipment keys the name itself mentions ("Kettlebell Swing" → kettlebell, "Box Jump" → box)."""
    words = f" {' '.join(equipment_key(w) for w in name_key(name).split())} "
    return {key for key, _ in _equipment_keys() if f" {key} " in words}
