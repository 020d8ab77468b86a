"""Check-in validation that needs the run's history (004 §7.1–7.2 beyond the schema).

Waist and hips are required every two weeks: on the first check-in (the baseline) and whenever the
last check-in that measured them is 14 or more days older. `checkin_date` defaults to today, may not
be in the future, before the run started or before the previous check-in.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from core.errors import InvalidInput
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.triggers import Point

MEASURE_EVERY = timedelta(days=14)
MAX_WEEKLY_CHANGE_KG = 3.0  # NUTRITION.md: more than 3 kg from the last weight within a week needs "confirmed"


def checkin_errors(checkin: WeeklyCheckin, *, started_on: date, today: date,
                   history: Sequence[Point]) -> list[dict[str, Any]]:
    on = checkin.checkin_date or today
    errors: list[dict[str, Any]] = []
    if on > today:
        errors.append({"field": "checkin_date", "code": "in_future"})
    if on < started_on:
        errors.append({"field": "checkin_date", "code": "before_run_start"})
    if history and on < history[-1].on:
        errors.append({"field": "checkin_date", "code": "before_previous_checkin"})
    measured = [p.on for p in history if p.checkin.waist_cm is not None and p.checkin.hip_cm is not None]
    if not measured or on - measured[-1] >= MEASURE_EVERY:
        errors += [{"field": name, "code": "required_biweekly"} for name in ("waist_cm", "hip_cm")
                   if getattr(checkin, name) is None]
    if (checkin.waist_cm is None) != (checkin.hip_cm is None):
        errors += [{"field": name, "code": "measured_together"} for name in ("waist_cm", "hip_cm")
                   if getattr(checkin, name) is None and {"field": name, "code": "required_biweekly"} not in errors]
    return errors


def validate_checkin(checkin: WeeklyCheckin, *, started_on: date, today: date,
                     history: Sequence[Point]) -> date:
    """The date the check-in counts for; raises 422 validation_failed with per-field errors."""
    errors = checkin_errors(checkin, started_on=started_on, today=today, history=history)
    if errors:
        raise InvalidInput(detail="weekly_checkin invalid", errors=errors)
    return checkin.checkin_date or today


def check_plausible(checkin: WeeklyCheckin, on: date, *, last_weight_kg: float, last_on: date) -> None:
    """422 `implausible_change` for a weight more than 3 kg from the last known one (the last check-in's, else
    the intake's) per week between them (a week at least), unless the check-in says `"confirmed": true`."""
    if checkin.confirmed:
        return
    weeks = max(1.0, (on - last_on).days / 7)
    change = checkin.weight_kg - last_weight_kg
    if abs(change) > MAX_WEEKLY_CHANGE_KG * weeks:
        raise InvalidInput("implausible_change", detail="weight change needs confirmation",
                           change_kg=round(change, 1), errors=[{"field": "weight_kg", "code": "implausible_change"}])
