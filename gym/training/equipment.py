"""Equipment names: one vocabulary (the exercise library's), matched case- and plural-insensitively, and what a
library exercise needs at a location — the library's list, never what a model or a client says it needs.

Of an exercise's load implements (barbell, dumbbell, kettlebell, cable, band, plate, …) one is enough — the first
the location has, or the one asked for when the location has it too; the rest (bench, rack, box, bar, rings) are
all needed.
"""

from __future__ import annotations

from collections.abc import Iterable

from gym.exercise_library import LIBRARY, LibraryExercise

# Home-gym items the library's movements do not need but members own (mats are where floor work happens).
EXTRA_EQUIPMENT = ("mat",)
VOCABULARY: tuple[str, ...] = tuple(sorted({e for x in LIBRARY for e in x.equipment} | set(EXTRA_EQUIPMENT)))
FULL_GYM: tuple[str, ...] = VOCABULARY
LOAD_IMPLEMENTS = frozenset({"barbell", "dumbbell", "kettlebell", "cable", "band", "plate", "medicine ball",
                             "sandbag", "machine", "trap bar", "landmine", "smith machine"})


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


def needs(exercise: LibraryExercise, available: Iterable[str] | None,
          preferred: Iterable[str] = ()) -> list[str] | None:
    """What the library exercise uses at a location with `available` (None: no current location, bodyweight
    only): one load implement — the first of `preferred` the exercise and the location both have, else the first
    the location has — and every other item; None when the location cannot host it."""
    have = {equipment_key(a) for a in available or []}
    implements = [e for e in exercise.equipment if e in LOAD_IMPLEMENTS]
    others = [e for e in exercise.equipment if e not in LOAD_IMPLEMENTS]
    if any(equipment_key(e) not in have for e in others):
        return None
    if not implements:
        return others
    wanted = {equipment_key(p) for p in preferred}
    usable = [e for e in implements if equipment_key(e) in have]
    chosen = next((e for e in usable if equipment_key(e) in wanted), usable[0] if usable else None)
    return None if chosen is None else [chosen, *others]


def anywhere(exercise: LibraryExercise, preferred: Iterable[str] = ()) -> list[str]:
    """What it uses where the place is not known yet (a scheduled workout): as at a full gym."""
    return needs(exercise, FULL_GYM, preferred) or list(exercise.equipment)
