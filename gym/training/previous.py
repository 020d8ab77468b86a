"""What the member did last time, per set: the sets of the newest earlier session of the same library exercise (not
from the workout on screen), as the app shows them beside each set row ("last time: 14 kg × 8")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gym.training.entries import LogEntry
from gym.training.records import exercise_key
from gym.training.units import show_load


def previous_sets(history: Iterable[LogEntry], name: str, workout_id: object, weight_unit: str) -> dict[str, Any] | None:
    """The newest live session of `name` outside workout `workout_id` with reps per set: when, and each set's reps and
    load in the member's unit (None for bodyweight); None when the member never did it with reps."""
    key = exercise_key(name)
    past = [e for e in history if exercise_key(e.name) == key and e.workout_id != workout_id and not e.undone
            and e.done_reps]
    if not past:
        return None
    last = max(past, key=lambda e: e.performed_at)
    reps = last.done_reps or ()
    return {"performedAt": last.performed_at.isoformat(), "unit": weight_unit,
            "sets": [{"setNumber": n, "reps": r, "load": show_load(kg, weight_unit) if kg else None}
                     for n, (r, kg) in enumerate(zip(reps, last.set_loads(), strict=True), start=1)]}
