"""Check a workout against one member's record: every exercise it adds or changes is a library exercise (first: the
rules below run on the library's tags), then the member's injuries and hard preferences (a member's safety), then
units, current location, exercise order, recovery and history.

Each exercise a change adds or alters takes the library's name and the equipment the library says it uses where it
happens (gym.training.equipment.needs; a scheduled one as at a full gym), whatever a model listed.

The pure rules are `validation.check_workout` and `constraints.check` (through `enforce_preferences`, the one
constraint check); this reads what they need and turns the first error into the typed failure the model must fix
(`injury_conflict`, `preference_conflict`, `equipment_unavailable`, `unit_mismatch`, `exercise_order`).
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.equipment import anywhere, needs
from gym.training.logs import as_entry, logs_since
from gym.training.movements import prescribed
from gym.training.preferences import enforce_preferences
from gym.training.profiles import current_location, get_units
from gym.training.progression import PROGRESSION_DAYS
from gym.training.recovery import recovering_muscles
from gym.training.validation import Problem, WorkoutCheck, check_workout
from gym.training.workout import Workout

HINTS = {
    "equipment_unavailable": "Choose exercises that need only the current location's equipment ({equipment}); "
                             "bodyweight exercises list none.",
    "unit_mismatch": "Give loads in {weight_unit} and distances in {distance_unit}.",
}


def as_library(workout: Workout, *, touched: Collection[str] | None, available: list[str] | None,
               somewhere: bool = False) -> None:
    """Each exercise a change adds or alters (`touched` ids; None: all) named by the library and equipped as the
    library says it is done at a location with `available` (`somewhere`: where it happens is not known yet).
    Refuses every name the library does not know at once, each with its nearest library names."""
    unknown: list[tuple[str, GymError]] = []
    for ex in workout.exercises:
        if touched is not None and ex.id not in touched:
            continue
        try:
            found = prescribed(ex.name)
        except GymError as exc:
            unknown.append((ex.name, exc))
            continue
        wanted = list(ex.equipment)
        ex.name = found.name
        ex.equipment = anywhere(found, wanted) if somewhere else (needs(found, available, wanted)
                                                                   or list(found.equipment))
    if unknown:
        raise GymError("unknown_exercise", " ".join(e.message for _, e in unknown), unknown[0][1].hint,
                       names="; ".join(str(e.params["names"]) for _, e in unknown),
                       data={"unknown": [{"name": name, **e.params["data"]} for name, e in unknown]})


async def check_member_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, workout: Workout,
                               now: datetime, *, touched: Collection[str] | None = None,
                               check_order: bool = True) -> WorkoutCheck:
    """Errors, warnings, per-exercise recovery and suggested loads; raises the first error as a typed GymError.

    `touched`: the ids of the exercises a change added or altered (None: all, a new workout); only they are
    checked against the member's preferences, so an unrelated edit is never blocked by an older exercise."""
    location = await current_location(session, org_id, member_id)
    equipment = list(location.equipment) if location else None
    as_library(workout, touched=touched, available=equipment)
    changed = [e for e in workout.exercises if touched is None or e.id in touched]
    notes = await enforce_preferences(session, org_id, member_id, changed, at=now)
    units = await get_units(session, org_id, member_id)
    rows = await logs_since(session, org_id, member_id, now - timedelta(days=PROGRESSION_DAYS), until=now)
    entries = [as_entry(r) for r in rows]
    check = check_workout(workout, weight_unit=units.weight_unit, distance_unit=units.distance_unit,
                          equipment=equipment, recovering=recovering_muscles(entries, now), history=entries,
                          check_order=check_order, touched=touched)
    if not check.ok:
        first = check.errors[0]
        same = [p for p in check.errors if p.code == first.code]
        hint = first.hint or HINTS.get(first.code, "Fix the exercise and try again.").format(
            equipment=", ".join(equipment) if equipment else "none: no current location",
            weight_unit=units.weight_unit, distance_unit=units.distance_unit)
        raise GymError(first.code, "; ".join(p.message for p in same), hint)
    check.warnings += [Problem("soft_preference", n.message, n.order) for n in notes]
    return check


async def check_planned_exercises(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                                  exercises: list[Any], *, at: datetime) -> list[dict[str, Any]]:
    """The pre-planned exercises of a scheduled workout (001 §4.7), checked as a workout is — against the injuries
    and hard preferences active at `at` (when it happens), in the member's units, in order — except equipment
    (where it happens is not known yet). Returns them stored-ready, with ids ex_001.. in order."""
    if not exercises:
        return []
    try:
        workout = Workout.model_validate({"exercises": [_plain(e) for e in exercises]})
    except ValidationError as exc:
        raise GymError("invalid_workout", "; ".join(e["msg"] for e in exc.errors()[:5]),
                       "Number the exercises 1..n and keep each group's fields on its first member.") from exc
    as_library(workout, touched=None, available=None, somewhere=True)
    await enforce_preferences(session, org_id, member_id, workout.exercises, at=at)
    units = await get_units(session, org_id, member_id)
    kit = [name for ex in workout.exercises for name in ex.equipment]
    check = check_workout(workout, weight_unit=units.weight_unit, distance_unit=units.distance_unit,
                          equipment=kit, recovering={})
    if not check.ok:
        first = check.errors[0]
        raise GymError(first.code, "; ".join(p.message for p in check.errors if p.code == first.code),
                       first.hint or HINTS.get(first.code, "").format(equipment="", weight_unit=units.weight_unit,
                                                                      distance_unit=units.distance_unit) or None)
    ordered = sorted(workout.exercises, key=lambda e: e.order)
    return [{**ex.model_dump(mode="json"), "id": f"ex_{n:03d}"} for n, ex in enumerate(ordered, start=1)]


def _plain(exercise: Any) -> Any:
    return exercise.model_dump(mode="json") if hasattr(exercise, "model_dump") else exercise
