"""Trainer workouts: the structured workout a trainer session built, persisted (it survives restarts).

Ids are the server's: `workout_N` per session and `ex_NNN` per exercise, numbered in order.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.models import TrainerWorkout
from gym.training.profiles import require_member
from gym.training.workout import Workout


async def save_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, workout: Workout, *,
                       now: datetime, session_id: uuid.UUID | None = None) -> TrainerWorkout:
    """Store `workout` as the member's current one (any previous current one is abandoned), assigning ids."""
    await require_member(session, org_id, member_id)
    count = await session.scalar(select(func.count()).select_from(TrainerWorkout).where(
        TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id,
        TrainerWorkout.session_id == session_id if session_id else TrainerWorkout.session_id.is_(None))) or 0
    exercises = []
    for n, ex in enumerate(sorted(workout.exercises, key=lambda e: e.order), start=1):
        exercises.append({**ex.model_dump(mode="json"), "id": f"ex_{n:03d}"})
    await session.execute(update(TrainerWorkout).where(
        TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id,
        TrainerWorkout.status == "current").values(status="abandoned", updated_at=now))
    row = TrainerWorkout(org_id=org_id, member_id=member_id, session_id=session_id, workout_key=f"workout_{count + 1}",
                         title=workout.title, exercises=exercises,
                         summary=workout.summary.model_dump(mode="json") if workout.summary else None,
                         completed={}, status="current", created_at=now, updated_at=now)
    session.add(row)
    await session.flush()
    return row


async def current_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> TrainerWorkout | None:
    return await session.scalar(select(TrainerWorkout).where(
        TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id, TrainerWorkout.status == "current")
        .order_by(TrainerWorkout.created_at.desc()).limit(1))


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
