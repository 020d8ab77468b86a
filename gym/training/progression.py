"""Progressive overload, exactly as TRAINER.md states it.

A session is successful when every prescribed set reached its reps at RPE ≤ 9 (no RPE recorded counts as ≤ 9), at
the session's load (a set logged at a lighter load than the session's is a miss).
After a success the next load is the smallest multiple of the step — 2.5 kg / 5 lb; 1 kg / 2 lb for dumbbells
under 10 kg / 20 lb — inside [load × 1.05, load × 1.10]. When no step falls inside, the load stays and the target
reps rise by one per set up to the top of the exercise's rep range (double progression); at the top they stay.
After a miss the load stays; after two misses in a row at that load it drops 10 %, rounded down to the step. A new
exercise gets none (start conservatively). Everything is in the member's unit, never mixed.

The rep range is the one the prescription's highest set falls in: up to 6 (strength), up to 12 (hypertrophy),
up to 20 (endurance); above 20 the prescription is its own top. Arithmetic is decimal, so 50 × 1.05 is 52.5.

Bodyweight exercises (no load) get double progression too (TRAINER.md "Library-only prescriptions"): after a
success the target reps rise by one per set up to the top of the range (push-ups 3×10 → 3×11 … 3×12); at the top,
a harder variant from the library (`HARDER`: push-up → diamond push-up) or, without one, added load (one step:
2.5 kg / 5 lb, a vest or a dumbbell), each back at the bottom of the range. After a miss the reps stay; after two
misses in a row at them they drop 10 % (at least one). Which rule applies follows the newest session: loaded
or not.

The suggestion's `why` is a reason code and the numbers its words need; the words are in locales/
(`console.member.progression.<code>`): load_up, add_reps, top_of_range, repeat_after_miss,
deload_after_two_misses, new_exercise; bodyweight_add_reps, bodyweight_harder, bodyweight_add_load,
bodyweight_repeat, bodyweight_fewer_reps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Any

from gym.training.entries import LogEntry
from gym.training.equipment import equipment_key
from gym.training.movements import name_key, named_equipment, resolve, same_exercise
from gym.training.units import kg_to, to_kg

STEP = {"kg": Decimal("2.5"), "lbs": Decimal("5")}
DUMBBELL_STEP = {"kg": Decimal("1"), "lbs": Decimal("2")}
LIGHT_DUMBBELL = {"kg": Decimal("10"), "lbs": Decimal("20")}  # dumbbells under this move by DUMBBELL_STEP
LOW, HIGH = Decimal("1.05"), Decimal("1.10")
DELOAD = Decimal("0.90")
MAX_RPE = 9
RANGE_TOPS = (6, 12, 20)
RANGE_BOTTOMS = {6: 3, 12: 8, 20: 15}  # where a harder variant or added load starts again
# The next harder bodyweight variant of a library exercise (coaching progressions; every name is the library's).
HARDER = {"Push-up": "Diamond Push-up", "Hand-Release Push-up": "Diamond Push-up", "Air Squat": "Bulgarian Split Squat",
          "Lunge": "Bulgarian Split Squat", "Reverse Lunge": "Bulgarian Split Squat", "Bulgarian Split Squat": "Pistol"}
PRECISION = {"kg": Decimal("0.01"), "lbs": Decimal("0.1")}
PROGRESSION_DAYS = 42  # the history progression reads


@dataclass(frozen=True)
class Session:
    """One logged session of an exercise: load in the member's unit, reps reached and prescribed per set."""

    load: Decimal | None  # None: bodyweight
    reps: tuple[int, ...]
    target: tuple[int, ...]
    rpe: float | None
    performed_at: datetime
    set_loads: tuple[Decimal | None, ...] = ()  # each set's load when the sets differed (a set logged in the app)

    @property
    def success(self) -> bool:
        """Every prescribed set reached its reps at the session's load (a lighter set is a miss), RPE ≤ 9."""
        lighter = [i for i, set_load in enumerate(self.set_loads[:len(self.target)])
                   if set_load is not None and self.load is not None and set_load < self.load]
        reached = len(self.reps) >= len(self.target) and not lighter and all(
            r >= t for r, t in zip(self.reps, self.target, strict=False))
        return reached and (self.rpe is None or self.rpe <= MAX_RPE)

    def as_dict(self) -> dict[str, Any]:
        return {"load": None if self.load is None else float(self.load), "reps": list(self.reps), "targetReps": list(self.target), "rpe": self.rpe,
                "performedAt": self.performed_at.isoformat(), "outcome": "success" if self.success else "miss"}


def _pct(new: Decimal, old: Decimal) -> float:
    return float(((new / old - 1) * 100).quantize(Decimal("0.1"), ROUND_HALF_UP))


def step_for(load: Decimal, unit: str, dumbbell: bool) -> Decimal:
    return DUMBBELL_STEP[unit] if dumbbell and load < LIGHT_DUMBBELL[unit] else STEP[unit]


def next_step(load: Decimal, unit: str, dumbbell: bool) -> Decimal:
    """The smallest multiple of the step at least 5 % above `load`."""
    step = step_for(load, unit, dumbbell)
    return (load * LOW / step).to_integral_value(ROUND_CEILING) * step


def load_up(load: Decimal, unit: str, dumbbell: bool) -> Decimal | None:
    """The smallest multiple of the step inside [load × 1.05, load × 1.10], or None when none is."""
    candidate = next_step(load, unit, dumbbell)
    return candidate if candidate <= load * HIGH else None


def deload(load: Decimal, unit: str, dumbbell: bool) -> Decimal:
    """load × 0.9, rounded down to the step of the lighter load (never below one step)."""
    target = load * DELOAD
    step = step_for(target, unit, dumbbell)
    return max(step, (target / step).to_integral_value(ROUND_FLOOR) * step)


def range_top(target: Iterable[int]) -> int:
    highest = max(target)
    return next((top for top in RANGE_TOPS if highest <= top), highest)


def is_dumbbell(exercise: str, equipment: Iterable[str] = ()) -> bool:
    """Dumbbell work: it lists dumbbells, its name says so, or the library knows it as a dumbbell-only movement."""
    keys = {equipment_key(e) for e in equipment} | named_equipment(exercise)
    if "dumbbell" in keys or name_key(exercise).startswith("db "):
        return True
    found = resolve(exercise)
    listed_load = keys - {"bench", "mat", "box"}  # listing a barbell or kettlebell settles it the other way
    return bool(found and found.equipment and found.equipment[0] == "dumbbell" and not listed_load)


@dataclass(frozen=True)
class Suggestion:
    exercise: str
    unit: str
    load: float | None
    reps: list[int] | None
    why: dict[str, Any]
    last: Session | None = None

    @property
    def code(self) -> str:
        return str(self.why["code"])

    def as_dict(self) -> dict[str, Any]:
        return {"exercise": self.exercise, "unit": self.unit, "suggestedLoad": self.load,
                "suggestedReps": self.reps, "why": self.why, "last": self.last.as_dict() if self.last else None}


def _in_unit(load_kg: float, unit: str) -> Decimal:
    return Decimal(str(kg_to(load_kg, unit))).quantize(PRECISION[unit])


def sessions(exercise: str, history: Iterable[LogEntry], unit: str) -> list[Session]:
    """The exercise's loaded sessions, newest first (undone logs never count)."""
    rows = sorted((h for h in history if not h.undone and h.load_kg and h.load_kg > 0 and (h.done_reps or h.reps)
                   and same_exercise(h.name, exercise)), key=lambda h: h.performed_at, reverse=True)
    out = []
    for h in rows:
        done = h.done_reps or (h.reps or 0,)  # reps without a set count: one set
        loads = tuple(None if v is None else _in_unit(v, unit) for v in h.loads_per_set or ())
        out.append(Session(_in_unit(float(h.load_kg or 0), unit), tuple(done), tuple(h.target_reps or done),
                           h.rpe, h.performed_at, loads))
    return out


def bodyweight_sessions(exercise: str, history: Iterable[LogEntry]) -> list[Session]:
    """The exercise's sessions without a load (reps only), newest first."""
    rows = sorted((h for h in history if not h.undone and not h.load_kg and h.done_reps and h.exercise_type
                   in ("bodyweight", "strength") and same_exercise(h.name, exercise)),
                  key=lambda h: h.performed_at, reverse=True)
    return [Session(None, tuple(h.done_reps or ()), tuple(h.target_reps or h.done_reps or ()), h.rpe, h.performed_at)
            for h in rows]


def harder_variant(exercise: str) -> str | None:
    found = resolve(exercise)
    return HARDER.get(found.name if found else exercise)


def decide_bodyweight(past: list[Session], unit: str, exercise: str) -> tuple[Decimal | None, list[int] | None, dict]:
    """Double progression without a load: reps first, then a harder variant or added load."""
    last = past[0]
    target = list(last.target)
    if last.success:
        top = range_top(target)
        raised = [min(r + 1, top) for r in target]
        if raised != target:
            return None, raised, {"code": "bodyweight_add_reps", "top": top}
        bottom = [RANGE_BOTTOMS.get(top, max(1, top - 5))] * len(target)
        variant = harder_variant(exercise)
        if variant is not None:
            return None, bottom, {"code": "bodyweight_harder", "top": top, "variant": variant}
        step = STEP[unit]
        return step, bottom, {"code": "bodyweight_add_load", "top": top, "load": float(step), "unit": unit}
    before = past[1] if len(past) > 1 else None
    if before is not None and not before.success and list(before.target) == target:
        fewer = [max(1, r - max(1, round(r * (1 - DELOAD)))) for r in target]
        return None, fewer, {"code": "bodyweight_fewer_reps", "from": max(target), "to": max(fewer)}
    return None, target, {"code": "bodyweight_repeat"}


def decide(past: list[Session], unit: str, dumbbell: bool) -> tuple[Decimal | None, list[int] | None, dict]:
    """The rule itself over the sessions (newest first): the next load, reps per set, and why."""
    if not past:
        return None, None, {"code": "new_exercise"}
    last = past[0]
    load, target, u = last.load, list(last.target), unit
    assert load is not None  # loaded sessions only (bodyweight ones: decide_bodyweight)
    if last.success:
        up = load_up(load, unit, dumbbell)
        if up is not None:
            return up, target, {"code": "load_up", "from": float(load), "to": float(up), "unit": u,
                                "pct": _pct(up, load)}
        top = range_top(target)
        raised = [min(r + 1, top) for r in target]
        if raised != target:
            return load, raised, {"code": "add_reps", "load": float(load), "unit": u,
                                  "step": float(step_for(load, unit, dumbbell)), "top": top}
        jump = next_step(load, unit, dumbbell)
        return load, target, {"code": "top_of_range", "load": float(load), "unit": u, "top": top,
                              "next": float(jump), "pct": _pct(jump, load)}
    before = past[1] if len(past) > 1 else None
    if before is not None and not before.success and before.load == load:
        down = deload(load, unit, dumbbell)
        return down, target, {"code": "deload_after_two_misses", "from": float(load), "to": float(down), "unit": u}
    missed = sum(1 for r, t in zip(last.reps, target, strict=False) if r < t) + max(0, len(target) - len(last.reps))
    return load, target, {"code": "repeat_after_miss", "load": float(load), "unit": u, "missedSets": missed,
                          "rpe": last.rpe}


def suggest(exercise: str, history: Iterable[LogEntry], unit: str, equipment: Iterable[str] = ()) -> Suggestion:
    """The suggestion for `exercise` from its logged history (any order), in `unit` ("kg" or "lbs")."""
    if unit not in STEP:
        raise ValueError(f"unknown weight unit {unit!r}")
    history = list(history)
    past = sessions(exercise, history, unit)
    bodyweight = bodyweight_sessions(exercise, history)
    if bodyweight and (not past or bodyweight[0].performed_at > past[0].performed_at):
        load, reps, why = decide_bodyweight(bodyweight, unit, exercise)
        return Suggestion(exercise, unit, None if load is None else float(load), reps, why, bodyweight[0])
    logged = [e for h in history if same_exercise(h.name, exercise) for e in h.equipment]
    load, reps, why = decide(past, unit, is_dumbbell(exercise, [*equipment, *logged]))
    return Suggestion(exercise, unit, None if load is None else float(load), reps, why, past[0] if past else None)


def suggested_kg(suggestion: Suggestion) -> float | None:
    """The suggested load back in kg, for storage."""
    if suggestion.load is None:
        return None
    return round(to_kg(suggestion.load, suggestion.unit), 2)


assert all(resolve(n) is not None for pair in HARDER.items() for n in pair), "HARDER names library exercises"
