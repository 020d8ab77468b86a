"""The trend weight and the expenditure it implies (issue 43 item 6), as pure functions of the logged days.

**Trend.** An exponentially smoothed moving average of the daily weights with α = 0.1 per day: John Walker, *The
Hacker's Diet* (1991), "Signal and Noise" — each day the trend moves a tenth of the way from yesterday's trend to
today's weight, so a day's water and food swings move it little and a real change moves it steadily. It starts at
the first weight. Missing days, explicitly: a day without a weight keeps the trend where it was (nothing new is
known, and the value of a past day never changes when later weights arrive); the next weight after a gap of g days
since the last one moves the trend 1 − 0.9^g of the way to it — the g daily steps it would have taken toward that
weight — so after a gap it catches up instead of lagging by the days it missed.

**Expenditure** (energy balance): over the window from `start` = the later of the first weight and 28 days before
`end` to `end` (the day it is computed for), with days = end − start,

    expenditure = average intake − (trend(end) − trend(start)) × 7,700 kcal/kg ÷ days

where the average intake is over the logged days from `start` to the day before `end` (a morning weight shows the
day before's eating; an unlogged day is unknown, not zero, and today's unfinished log never counts). It is given
once days ≥ 14 with at least 10 weights in the window and 10 logged days. 7,700 kcal per kg is the figure
SCIENTIST's rate uses (NUTRITION.md: 7,700 kcal per kg over 7 days).

**Confidence**, a documented rule: coverage = the smaller of (weights ÷ mornings in the window) and (logged days ÷
days); `high` when days ≥ 20 and coverage ≥ 0.85, `medium` when coverage ≥ 0.70, else `low`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from gym.nutrition.scientist import KCAL_PER_KG_PER_WEEK

ALPHA = 0.1  # The Hacker's Diet: the trend moves 10 % of the way to each day's weight
KCAL_PER_KG = KCAL_PER_KG_PER_WEEK * 7  # 7,700
WINDOW_DAYS = 28
MIN_DAYS = 14
MIN_WEIGHTS = 10
MIN_LOGGED_DAYS = 10
HIGH_DAYS = 20
HIGH_COVERAGE = 0.85
MEDIUM_COVERAGE = 0.70


def trend(weights: Mapping[date, float], until: date | None = None) -> dict[date, float]:
    """The trend on every day from the first weight to `until` (default: the last weight); weights after `until`
    are not read."""
    days = sorted(d for d in weights if until is None or d <= until)
    if not days:
        return {}
    end = until or days[-1]
    value, last = float(weights[days[0]]), days[0]
    out = {last: value}
    day = last + timedelta(days=1)
    while day <= end:
        if day in weights:
            gap = (day - last).days
            value += (1 - (1 - ALPHA) ** gap) * (float(weights[day]) - value)
            last = day
        out[day] = value
        day += timedelta(days=1)
    return out


def trend_on(weights: Mapping[date, float], day: date) -> float | None:
    """The trend's value on `day` from the weights up to it (None before the first weight)."""
    return trend(weights, until=day).get(day)


@dataclass(frozen=True)
class Expenditure:
    """An energy-balance estimate over `start`..`end` (kcal None until the minimums are met)."""

    start: date | None
    end: date
    days: int
    weights: int
    logged_days: int
    average_intake_kcal: float | None
    trend_change_kg: float | None
    kcal: float | None
    confidence: str | None

    @property
    def ready(self) -> bool:
        return self.kcal is not None


def confidence(days: int, weights: int, logged_days: int) -> str:
    """`high`, `medium` or `low` by the module's rule."""
    coverage = min(weights / (days + 1), logged_days / days)
    if days >= HIGH_DAYS and coverage >= HIGH_COVERAGE:
        return "high"
    return "medium" if coverage >= MEDIUM_COVERAGE else "low"


def expenditure(weights: Mapping[date, float], intake: Mapping[date, float], end: date) -> Expenditure:
    """The estimate for `end` from the weights up to `end` and the intake of the days before it."""
    weighed = sorted(d for d in weights if d <= end)
    if not weighed:
        return Expenditure(None, end, 0, 0, 0, None, None, None, None)
    start = max(weighed[0], end - timedelta(days=WINDOW_DAYS))
    days = (end - start).days
    in_window = [d for d in weighed if d >= start]
    eaten = [kcal for d, kcal in intake.items() if start <= d < end]
    average = sum(eaten) / len(eaten) if eaten else None
    series = trend(weights, until=end)
    change = series[end] - series[start]
    if days < MIN_DAYS or len(in_window) < MIN_WEIGHTS or len(eaten) < MIN_LOGGED_DAYS or average is None:
        return Expenditure(start, end, days, len(in_window), len(eaten), average, change, None, None)
    kcal = average - change * KCAL_PER_KG / days
    return Expenditure(start, end, days, len(in_window), len(eaten), average, change, kcal,
                       confidence(days, len(in_window), len(eaten)))
