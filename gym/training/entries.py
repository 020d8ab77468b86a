"""One logged exercise as the pure rules read it (distribution, recovery, progression, statistics)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class LogEntry:
    name: str
    performed_at: datetime
    exercise_type: str = "strength"
    sets: int | None = None
    reps: int | None = None  # the reps of every set; None when the sets differ (see reps_per_set)
    load_kg: float | None = None
    duration_min: float | None = None
    distance_km: float | None = None
    rpe: float | None = None
    goals: Mapping[str, float] = field(default_factory=dict)
    muscles: Mapping[str, float] = field(default_factory=dict)
    workout_id: object | None = None
    undone: bool = False
    reps_per_set: tuple[int, ...] | None = None  # what each set reached
    target_reps: tuple[int, ...] | None = None   # what each set was prescribed (None: what was logged was the plan)
    equipment: tuple[str, ...] = ()
    loads_per_set: tuple[float | None, ...] | None = None  # what each set lifted in kg (a set logged in the app)
    log_id: object | None = None

    @property
    def done_reps(self) -> tuple[int, ...] | None:
        """Reps per set as done: the per-set record, else `reps` for each of `sets`; None when unknown."""
        if self.reps_per_set:
            return tuple(self.reps_per_set)
        if self.reps and self.sets:
            return (self.reps,) * self.sets
        return None

    @property
    def best_reps(self) -> int | None:
        """The most reps in one set."""
        done = self.done_reps
        return max(done) if done else self.reps

    def set_loads(self) -> tuple[float | None, ...]:
        """The kg each set lifted: the per-set record, else `load_kg` for every set."""
        done = self.done_reps or ()
        if self.loads_per_set and len(self.loads_per_set) == len(done):
            return tuple(self.loads_per_set)
        return (self.load_kg,) * len(done)

    @property
    def volume_kg(self) -> float:
        """Σ reps × kg of every set; 0 when reps or load is missing (bodyweight, cardio)."""
        done = self.done_reps
        if not done:
            return 0.0
        return float(sum(r * (load or 0.0) for r, load in zip(done, self.set_loads(), strict=True)))
