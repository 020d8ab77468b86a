"""Equipment names: one vocabulary (the exercise library's), matched case- and plural-insensitively."""

from __future__ import annotations

from collections.abc import Iterable

from gym.exercise_library import LIBRARY

# Home-gym items the library's movements do not need but members own (mats are where floor work happens).
EXTRA_EQUIPMENT = ("mat",)
VOCABULARY: tuple[str, ...] = tuple(sorted({e for x in LIBRARY for e in x.equipment} | set(EXTRA_EQUIPMENT)))
FULL_GYM: tuple[str, ...] = VOCABULARY


ALIASES = {"resistance band": "band"}  # the library says "band"; members and gyms say "Resistance Band"


def equipment_key(name: str) -> str:
    """A comparable form: lower case, single spaces, singular ("Dumbbells" = "dumbbell", "boxes" = "box")."""
    words = " ".join(name.replace("-", " ").split()).lower().split(" ")
    last = words[-1]
    if len(last) > 4 and last.endswith(("xes", "ches", "shes", "sses")):
        last = last[:-2]
    elif len(last) > 3 and last.endswith("s") and not last.endswith("ss"):
        last = last[:-1]
    key = " ".join([*words[:-1], last])
    return ALIASES.get(key, key)


def missing_equipment(needed: Iterable[str], available: Iterable[str]) -> list[str]:
    """The needed names (as given) that the available list lacks."""
    have = {equipment_key(a) for a in available}
    return [n for n in needed if n.strip() and equipment_key(n) not in have]
