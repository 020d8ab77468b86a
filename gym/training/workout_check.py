"""Check a generated workout against one member's record: their units, current location, recovery and history.

The pure rule is `validation.check_workout`; this reads what it needs and turns the first error into the
typed failure the model must fix (`equipment_unavailable`, `unit_mismatch`).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.logs import as_entry, logs_since
from gym.training.profiles import current_location, get_units
from gym.training.record import PROGRESSION_DAYS
from gym.training.recovery import recovering_muscles
from gym.training.validation import WorkoutCheck, check_workout
from gym.training.workout import Workout

HINTS = {
    "equipment_unavailable": "Choose exercises that need only the current location's equipment ({equipment}); "
                             "bodyweight exercises list none.",
    "unit_mismatch": "Give loads in {weight_unit} and distances in {distance_unit}.",
}


async def check_member_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, workout: Workout,
                               now: datetime) -> WorkoutCheck:
    """Errors, recovery warnings and suggested loads; raises the first error as a typed GymError."""
    units = await get_units(session, org_id, member_id)
    location = await current_location(session, org_id, member_id)
    equipment = list(location.equipment) if location else None
    rows = await logs_since(session, org_id, member_id, now - timedelta(days=PROGRESSION_DAYS), until=now)
    entries = [as_entry(r) for r in rows]
    check = check_workout(workout, weight_unit=units.weight_unit, distance_unit=units.distance_unit,
                          equipment=equipment, recovering=recovering_muscles(entries, now), history=entries)
    if not check.ok:
        problem = check.errors[0]
        hint = HINTS.get(problem.code, "Fix the exercise and generate the workout again.").format(
            equipment=", ".join(equipment) if equipment else "none: no current location",
            weight_unit=units.weight_unit, distance_unit=units.distance_unit)
        raise GymError(problem.code, "; ".join(p.message for p in check.errors), hint)
    return check
