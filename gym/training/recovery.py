"""Recovery (TRAINER.md "Recovery"): large muscles need 48 h, the other ten 24 h.

A muscle's clock starts at the last logged exercise (not undone) that gave it a share ≥ 0.3; it is
recovering while less than its window has passed (exactly 48 h later it is ready). Its recovery percentage is
0 % right after it was loaded and rises linearly to 100 % at its window's end; it is rounded down, so a muscle
still recovering never reads 100 %.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from gym.training.entries import LogEntry
from gym.training.vocab import LARGE_MUSCLES, MUSCLES

LOAD_SHARE = 0.3
LARGE_HOURS, SMALL_HOURS = 48, 24


def window_hours(muscle: str) -> int:
    return LARGE_HOURS if muscle in LARGE_MUSCLES else SMALL_HOURS


def percent_recovered(hours_since: float, window: float) -> int:
    """0 at the moment it was loaded, 100 at the end of its window (and after), linear and rounded down between."""
    if hours_since >= window:
        return 100
    return max(0, min(99, math.floor(100 * hours_since / window + 1e-9)))


@dataclass(frozen=True)
class MuscleRecovery:
    muscle: str
    last_trained_at: datetime
    ready_at: datetime
    recovering: bool
    hours_since: float
    hours_remaining: float

    @property
    def percent(self) -> int:
        return percent_recovered(self.hours_since, window_hours(self.muscle))

    def as_dict(self) -> dict:
        return {"muscle": self.muscle, "percent": self.percent, "lastTrainedAt": self.last_trained_at.isoformat(),
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


def all_muscles(credits: Iterable[LogEntry], now: datetime) -> list[dict]:
    """All 16 muscles with their recovery percentage (the recovery view); a muscle not loaded within its window
    is 100 % and ready."""
    trained = {r.muscle: r for r in recovery_status(credits, now)}
    out = []
    for muscle in MUSCLES:
        row = trained.get(muscle)
        if row is not None and row.recovering:
            out.append(row.as_dict())
        else:
            out.append({"muscle": muscle, "percent": 100, "recovering": False})
    return out


def recovering_muscles(credits: Iterable[LogEntry], now: datetime) -> dict[str, MuscleRecovery]:
    return {r.muscle: r for r in recovery_status(credits, now) if r.recovering}


def recovery_warnings(exercise_muscles: Mapping[str, float], recovering: Mapping[str, MuscleRecovery]) -> list[str]:
    """The recovering muscles an exercise loads (share ≥ 0.3)."""
    return [m for m in MUSCLES if m in recovering and loads(exercise_muscles, m)]


def exercise_recovery(exercise_muscles: Mapping[str, float],
                      recovering: Mapping[str, MuscleRecovery]) -> list[dict]:
    """What the workout card shows for one exercise: each recovering muscle it loads, with its percentage."""
    return [{"muscle": m, "percent": recovering[m].percent, "readyAt": recovering[m].ready_at.isoformat()}
            for m in recovery_warnings(exercise_muscles, recovering)]
