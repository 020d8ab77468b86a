"""Trainer workouts: the structured workout a trainer session built, persisted (it survives restarts).

Ids are the server's: `workout_N` numbered per member (a continued or a new session goes on after the member's
latest workout, so `workout_1` never names two workouts the model could confuse) and `ex_NNN` per exercise,
numbered in order.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, cast, func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.models import TrainerWorkout
from gym.training.movements import same_exercise
from gym.training.profiles import Units, require_member, set_units
from gym.training.stored_exercises import dumped, exercises_of, key_of
from gym.training.units import in_units
from gym.training.workout import Workout


async def save_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, workout: Workout, *,
                       now: datetime, session_id: uuid.UUID | None = None) -> TrainerWorkout:
    """Store `workout` as the member's current one (any previous current one is abandoned), assigning ids."""
    await require_member(session, org_id, member_id)
    # one numbering per member: two sessions saving at once must not both take the next number
    await session.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
                          {"key": f"trainer_workouts:{member_id}"})
    count = await latest_number(session, org_id, member_id)
    exercises = dumped([ex.model_copy(update={"id": f"ex_{n:03d}"})
                        for n, ex in enumerate(sorted(workout.exercises, key=lambda e: e.order), start=1)])
    await session.execute(update(TrainerWorkout).where(
        TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id,
        TrainerWorkout.status == "current").values(status="abandoned", updated_at=now))
    row = TrainerWorkout(org_id=org_id, member_id=member_id, session_id=session_id, workout_key=f"workout_{count + 1}",
                         title=workout.title, exercises=exercises,
                         summary=workout.summary.model_dump(mode="json") if workout.summary else None,
                         completed={}, last_exercise_number=len(exercises), status="current", created_at=now,
                         updated_at=now)
    session.add(row)
    await session.flush()
    return row


def note_left_out(row: TrainerWorkout, refused: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep on the workout what the rules refused while it was built (each refused exercise once, with its rule),
    except what is in it after all; returns the new ones."""
    kept = list(row.left_out or [])
    names = [e.name for e in exercises_of(row)]
    new = []
    for item in refused:
        name = str(item.get("exercise") or "")
        if not name or any(same_exercise(name, shown) for shown in names) or any(
                same_exercise(name, str(k.get("exercise", ""))) for k in kept):
            continue
        entry = {k: item[k] for k in ("exercise", "rule", "values", "injury", "region", "side", "description")
                 if item.get(k) is not None}
        kept.append(entry)
        new.append(entry)
    row.left_out = kept
    return new


def issue_exercise_id(row: TrainerWorkout) -> str:
    """The next `ex_NNN` of this workout: never one it issued before, even if that exercise was removed."""
    ids = [e.id for e in exercises_of(row) if e.id is not None]
    used = [int(i[3:]) for i in ids if i.startswith("ex_") and i[3:].isdigit()]
    row.last_exercise_number = max([row.last_exercise_number or 0, *used]) + 1
    return f"ex_{row.last_exercise_number:03d}"


async def latest_number(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> int:
    """The highest N of the member's `workout_N` keys (0 when none)."""
    number = cast(func.substring(TrainerWorkout.workout_key, r"^workout_(\d+)$"), Integer)
    return await session.scalar(select(func.coalesce(func.max(number), 0)).where(
        TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id)) or 0


async def workout_by_key(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                         key: str) -> TrainerWorkout | None:
    """The member's workout with this id (`workout_3`), the newest when older rows repeat a key."""
    return await session.scalar(select(TrainerWorkout).where(
        TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id, TrainerWorkout.workout_key == key)
        .order_by(TrainerWorkout.created_at.desc()).limit(1))


async def current_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *,
                          for_update: bool = False) -> TrainerWorkout | None:
    """The member's current workout (`for_update`: its row locked until the transaction ends, read afresh)."""
    query = select(TrainerWorkout).where(
        TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id, TrainerWorkout.status == "current")
    query = query.order_by(TrainerWorkout.created_at.desc()).limit(1)
    if for_update:
        query = query.with_for_update().execution_options(populate_existing=True)
    return await session.scalar(query)


def mark_done(row: TrainerWorkout, exercise_key: str, log_id: uuid.UUID) -> None:
    """One exercise of the workout counts done by the log `log_id` (undoing that log un-counts it: logs.retire_log)."""
    row.completed = {**(row.completed or {}), exercise_key: str(log_id)}


async def close_if_done(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, row: TrainerWorkout, *,
                        now: datetime) -> list[str]:
    """The exercises still to do; none left, the workout closes (completed). TRAINER.md: logging closes the
    current workout when all exercises are done, whether the member marks them or logs them."""
    remaining = [key_of(e) for e in exercises_of(row) if key_of(e) not in (row.completed or {})]
    if not remaining:
        await finish_workout(session, org_id, member_id, row.id, now=now)
    return remaining


async def finish_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, workout_id: uuid.UUID, *,
                         now: datetime, status: str = "completed") -> TrainerWorkout:
    if status not in ("completed", "abandoned"):
        raise GymError("invalid_workout_status", "a workout ends completed or abandoned")
    row = await session.scalar(select(TrainerWorkout).where(
        TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id, TrainerWorkout.id == workout_id))
    if row is None:
        raise GymError("workout_not_found", f"No workout {workout_id} for this member.", status=404)
    row.status, row.updated_at = status, now
    row.completed_at = now if status == "completed" else None
    await session.flush()
    return row


async def switch_units(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, now: datetime,
                       weight_unit: str | None = None, distance_unit: str | None = None) -> Units:
    """Change the member's units and say the current workout's loads and distances in them (TRAINER.md "Units":
    a switch converts the current workout; what is stored of logged sets is kg and km either way)."""
    units = await set_units(session, org_id, member_id, weight_unit=weight_unit, distance_unit=distance_unit)
    row = await current_workout(session, org_id, member_id)
    if row is not None:
        exercises = exercises_of(row)
        converted = in_units(exercises, units.weight_unit, units.distance_unit)
        if converted != exercises:
            row.exercises, row.updated_at = dumped(converted), now
            await session.flush()
    return units
