"""Recovery (TRAINER.md "Recovery"): large muscles need 48 h, the other ten 24 h.

A muscle's clock starts at the last logged exercise (not undone) that gave it a share ≥ 0.3; it is
recovering while less than its window has passed (exactly 48 h later it is ready).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from gym.training.entries import LogEntry
from gym.training.vocab import LARGE_MUSCLES, MUSCLES

LOAD_SHARE = 0.3
LARGE_HOURS, SMALL_HOURS = 48, 24


def window_hours(muscle: str) -> int:
    return LARGE_HOURS if muscle in LARGE_MUSCLES else SMALL_HOURS


@dataclass(frozen=True)
class MuscleRecovery:
    muscle: str
    last_trained_at: datetime
    ready_at: datetime
    recovering: bool
    hours_since: float
    hours_remaining: float

    def as_dict(self) -> dict:
        return {"muscle": self.muscle, "lastTrainedAt": self.last_trained_at.isoformat(),
                "readyAt": self.ready_at.isoformat(), "recovering": self.recovering,
                "hoursSince": round(self.hours_since, 1), "hoursRemaining": round(self.hours_remaining, 1)}


def loads(muscles: Mapping[str, float], muscle: str) -> bool:
    return float(muscles.get(muscle, 0.0)) >= LOAD_SHARE - 1e-9


def recovery_status(credits: Iterable[LogEntry], now: datetime) -> list[MuscleRecovery]:
    """Every muscle trained (share ≥ 0.3) before `now`, in the 001 muscle order."""
    last: dict[str, datetime] = {}
    for credit in credits:
        if credit.undone or credit.performed_at > now:
            continue
        for muscle in credit.muscles:
            if muscle in MUSCLES and loads(credit.muscles, muscle) and (
                    muscle not in last or credit.performed_at > last[muscle]):
                last[muscle] = credit.performed_at
    rows = []
    for muscle in MUSCLES:
        if muscle not in last:
            continue
        ready = last[muscle] + timedelta(hours=window_hours(muscle))
        since = (now - last[muscle]).total_seconds() / 3600
        rows.append(MuscleRecovery(muscle, last[muscle], ready, now < ready, since,
                                   max(0.0, (ready - now).total_seconds() / 3600)))
    return rows


def recovering_muscles(credits: Iterable[LogEntry], now: datetime) -> dict[str, MuscleRecovery]:
    return {r.muscle: r for r in recovery_status(credits, now) if r.recovering}


def recovery_warnings(exercise_muscles: Mapping[str, float], recovering: Mapping[str, MuscleRecovery]) -> list[str]:
    """The recovering muscles an exercise loads (share ≥ 0.3)."""
    return [m for m in MUSCLES if m in recovering and loads(exercise_muscles, m)]
