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
    reps: int | None = None
    load_kg: float | None = None
    duration_min: float | None = None
    distance_km: float | None = None
    rpe: float | None = None
    goals: Mapping[str, float] = field(default_factory=dict)
    muscles: Mapping[str, float] = field(default_factory=dict)
    workout_id: object | None = None
    undone: bool = False

    @property
    def volume_kg(self) -> float:
        """sets × reps × kg; 0 when any of them is missing (bodyweight, cardio)."""
        if self.sets and self.reps and self.load_kg:
            return float(self.sets) * float(self.reps) * float(self.load_kg)
        return 0.0
