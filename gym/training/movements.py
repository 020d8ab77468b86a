"""What the trainer knows about an exercise from its name: the library exercise it is, its movement patterns, its
primary muscle, whether it is a compound or an isolation movement, and the equipment its name says it needs.

Names compare by `name_key` (case, hyphens, apostrophes, spacing and plurals ignored: "Push-ups" = "push up").
`resolve` finds the library exercise by name or alias exactly; `resolve_loosely` also drops a leading equipment word
("Dumbbell Curl" → "Curl" → Biceps Curl), which is right for patterns and order but not for progression, where a
dumbbell curl and a barbell curl are different loads. Names outside the library get patterns from keyword rules,
so "Seated Dumbbell Shoulder Press" is still an overhead press.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from gym.exercise_library import LIBRARY, LibraryExercise
from gym.training.equipment import VOCABULARY, equipment_key
from gym.training.muscles import LIBRARY_TO_TRAINER
from gym.training.vocab import MOVEMENT_PATTERNS

COMPOUND_CATEGORIES = frozenset({"squat", "lunge", "hinge", "press", "pull", "olympic", "gymnastics", "carry"})
ISOLATION_CATEGORIES = frozenset({"accessory"})
COMPOUND_NAMES = frozenset({"Leg Press"})           # filed under accessory, moves two joints under load
ISOLATION_NAMES = frozenset({"Nordic Curl", "Face Pull"})
EQUIPMENT_PREFIXES = ("dumbbell", "db", "barbell", "bb", "kettlebell", "kb", "band", "banded", "cable", "machine",
                      "seated", "standing", "single arm", "one arm", "single leg")

# Keyword rules over `name_key` for names the library does not know (and, as a net, for those it does).
KEYWORD_PATTERNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\bburpee", ("burpee", "jumping", "wrist_extension")),
    (r"\bjump|\bhop\b|\bbound|\bskip|\bplyo|\b(double|single|triple) under\b|\bstar jump", ("jumping",)),
    (r"\b(overhead|shoulder|military|push|strict|arnold|z) press\b|\bjerk\b|\bthruster|\bhandstand push|\bhspu\b|"
     r"\bpike push|\bwall ball|\bohp\b", ("overhead_press", "overhead_hold")),
    (r"\bsnatch|\boverhead\b|\bhandstand\b|\bturkish get|\bwindmill", ("overhead_hold",)),
    (r"\bpull ?up\b|\bchin ?up\b|\btoe to bar\b|\bknee to elbow\b|\bhanging\b|\bdead hang\b|\bmuscle up\b|"
     r"\brope climb", ("hanging",)),
    (r"\bdip\b", ("dip",)),
    (r"\brun\b|\brunning\b|\bsprint|\bjog", ("running",)),
    (r"\bsquat|\blunge|\bpistol\b|\bleg press\b", ("deep_knee_flexion",)),
    (r"\b(back|front|barbell|zercher|box|pause) squat\b|\bdeadlift|\bgood morning|\bclean\b|\bsnatch|\bjerk\b|"
     r"\bcarry\b|\bfarmer|\byoke\b|\b(barbell|bent over|pendlay) row\b|\brack pull\b|\b(strict|military|push|"
     r"overhead) press\b|\bthruster", ("spinal_loading",)),
    (r"\bdeadlift|\brdl\b|\bgood morning|\b(kettlebell|kb|russian|american) swing\b|\bhinge\b|\bbent over\b|"
     r"\bpendlay\b|\bback extension|\bhyperextension|\bclean\b|\bsnatch", ("hip_hinge",)),
    (r"\bpush ?up\b|\bpress up\b|\bhandstand\b|\bmountain climber|\bbear crawl|\binchworm|\bdown(ward)? dog\b|"
     r"\bbench dip\b", ("wrist_extension",)),
)
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


@cache
def _index() -> dict[str, LibraryExercise]:
    by_key: dict[str, LibraryExercise] = {}
    for exercise in LIBRARY:
        by_key.setdefault(name_key(exercise.name), exercise)
    for exercise in LIBRARY:  # aliases never shadow a name
        for alias in exercise.all_aliases:
            by_key.setdefault(name_key(alias), exercise)
    return by_key


def resolve(name: str) -> LibraryExercise | None:
    """The library exercise this name or alias is, exactly (case, plurals and punctuation aside)."""
    return _index().get(name_key(name))


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


@cache
def patterns_for(name: str) -> tuple[str, ...]:
    """Movement patterns: the library's tags for the exercise (loosely resolved) and the keyword rules' for the name."""
    found = resolve_loosely(name)
    have = set(found.patterns) if found else set()
    key = name_key(name)
    for rule, patterns in KEYWORD_PATTERNS:
        if re.search(rule, key):
            have.update(patterns)
    return tuple(p for p in MOVEMENT_PATTERNS if p in have)


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
