"""Distribution and debt (TRAINER.md "Distribution").

Targets are the goal weights normalized to sum to 1. The actual share of a category (or muscle) is the
sum of its share credits over the exercises logged in the last 28 days (undone logs excluded) divided by
all credits of that kind; `debt = target − actual` (positive: under-trained). Primary goals are those
whose weight is at least 0.7 of the largest. Names match case-insensitively.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from gym.training.entries import LogEntry

WINDOW_DAYS = 28
PRIMARY_RATIO = 0.7


@dataclass(frozen=True)
class GoalRow:
    name: str
    weight: float  # the stored weight (already normalized when saved through the service)
    target: float
    actual: float
    debt: float
    primary: bool

    def as_dict(self) -> dict:
        return {"name": self.name, "target": round(self.target, 4), "actual": round(self.actual, 4),
                "debt": round(self.debt, 4), "targetPct": pct(self.target), "actualPct": pct(self.actual),
                "debtPct": pct(self.debt), "primary": self.primary}


@dataclass(frozen=True)
class Distribution:
    rows: list[GoalRow]
    untracked: dict[str, float]  # actual share of logged names that have no goal
    exercises_counted: int

    def as_dict(self) -> dict:
        return {"goals": [r.as_dict() for r in self.rows],
                "untracked": [{"name": k, "actual": round(v, 4), "actualPct": pct(v)}
                              for k, v in sorted(self.untracked.items(), key=lambda kv: (-kv[1], kv[0]))],
                "exercisesCounted": self.exercises_counted}


def pct(value: float) -> float:
    """A share as a percentage with one decimal (0.37999 → 38.0)."""
    return round(value * 100, 1)


def normalize_weights(weights: Mapping[str, float]) -> dict[str, float]:
    """Weights scaled to sum to 1 (30/30/20 → 0.375/0.375/0.25); all-zero or empty stays as zeros."""
    clean = {name: max(0.0, float(w)) for name, w in weights.items()}
    total = sum(clean.values())
    if total <= 0:
        return {name: 0.0 for name in clean}
    return {name: w / total for name, w in clean.items()}


def primary_goals(weights: Mapping[str, float]) -> list[str]:
    """Names with weight ≥ 0.7 × the largest weight, heaviest first."""
    if not weights:
        return []
    top = max(weights.values())
    if top <= 0:
        return []
    return [n for n, w in sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])) if w >= PRIMARY_RATIO * top - 1e-9]


def in_window(credits: Iterable[LogEntry], now: datetime, days: int = WINDOW_DAYS) -> list[LogEntry]:
    """The credits that count: not undone, performed in (now − days, now]."""
    start = now - timedelta(days=days)
    return [c for c in credits if not c.undone and start < c.performed_at <= now]


def actual_shares(credits: Iterable[LogEntry], kind: str) -> dict[str, float]:
    """Each name's share of all credits of `kind` ("goals" or "muscles"); keys lower-cased."""
    totals: dict[str, float] = {}
    for credit in credits:
        for name, share in getattr(credit, kind).items():
            key = name.strip().lower()
            totals[key] = totals.get(key, 0.0) + float(share)
    whole = sum(totals.values())
    return {k: v / whole for k, v in totals.items()} if whole > 0 else {}


def distribution(weights: Mapping[str, float], credits: Iterable[LogEntry], kind: str, now: datetime,
                 days: int = WINDOW_DAYS) -> Distribution:
    """Target, actual and debt per goal of `kind` ("goals" for categories, "muscles")."""
    counted = in_window(credits, now, days)
    actual = actual_shares(counted, kind)
    targets = normalize_weights(weights)
    primary = set(primary_goals(targets))
    rows = [GoalRow(name, float(weights[name]), targets[name], actual.get(name.lower(), 0.0),
                    targets[name] - actual.get(name.lower(), 0.0), name in primary)
            for name in sorted(weights, key=lambda n: (-targets[n], n))]
    known = {name.lower() for name in weights}
    untracked = {k: v for k, v in actual.items() if k not in known}
    return Distribution(rows, untracked, len(counted))
