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
from pipeline.payloads.feedback import WeeklyCheckin
from pipeline.triggers import Point

MEASURE_EVERY = timedelta(days=14)


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
