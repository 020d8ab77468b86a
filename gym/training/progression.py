"""Progressive overload (TRAINER.md): the next load is the last successful load × 1.05–1.10, in practical steps.

Steps are 2.5 kg or 5 lb, in the member's unit only (never mixed). The suggestion is the smallest step
at least 5 % above the last successful load; when one step is more than 10 % (light loads), that one
step is still the suggestion. A session at RPE 10 (failure) is not successful; an exercise with no
loaded history gets no suggestion: start conservatively.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from gym.training.entries import LogEntry
from gym.training.units import kg_to, to_kg

STEP = {"kg": 2.5, "lbs": 5.0}
LOW, HIGH = 1.05, 1.10
FAILURE_RPE = 10


@dataclass(frozen=True)
class Suggestion:
    exercise: str
    unit: str
    last_load: float | None
    last_reps: int | None
    last_performed_at: datetime | None
    suggested_load: float | None
    range_low: float | None
    range_high: float | None
    reason: str  # "progress" | "new_exercise"

    def as_dict(self) -> dict:
        return {"exercise": self.exercise, "unit": self.unit, "lastLoad": self.last_load, "lastReps": self.last_reps,
                "lastPerformedAt": self.last_performed_at.isoformat() if self.last_performed_at else None,
                "suggestedLoad": self.suggested_load, "rangeLow": self.range_low, "rangeHigh": self.range_high,
                "reason": self.reason}


def round_up_to_step(value: float, unit: str) -> float:
    """The smallest multiple of the unit's step that is ≥ value (float noise below 1e-6 ignored)."""
    step = STEP[unit]
    return round(math.ceil(round(value / step, 6)) * step, 2)


def next_load(last_load: float, unit: str) -> float:
    """The suggested load after `last_load` (both in `unit`)."""
    return round_up_to_step(last_load * LOW, unit)


def _same_exercise(a: str, b: str) -> bool:
    return " ".join(a.split()).lower() == " ".join(b.split()).lower()


def suggest(exercise: str, history: Iterable[LogEntry], unit: str) -> Suggestion:
    """The suggestion for `exercise` from its history (any order), in `unit` ("kg" or "lbs")."""
    if unit not in STEP:
        raise ValueError(f"unknown weight unit {unit!r}")
    loaded = sorted((h for h in history if not h.undone and _same_exercise(h.name, exercise) and h.load_kg and h.load_kg > 0),
                    key=lambda h: h.performed_at, reverse=True)
    successful = [h for h in loaded if h.rpe is None or h.rpe < FAILURE_RPE]
    if not successful:
        return Suggestion(exercise, unit, None, None, None, None, None, None, "new_exercise")
    last = successful[0]
    last_load = kg_to(float(last.load_kg or 0), unit)
    return Suggestion(exercise, unit, round(last_load, 1), last.reps, last.performed_at, next_load(last_load, unit),
                      round(last_load * LOW, 1), round(last_load * HIGH, 1), "progress")


def suggested_kg(suggestion: Suggestion) -> float | None:
    """The suggestion back in kg, for storage."""
    if suggestion.suggested_load is None:
        return None
    return round(to_kg(suggestion.suggested_load, suggestion.unit), 2)
