"""Exercise logs (001 §4.5 `log_completed_exercise`): stored in kg/km, undone by stamping `undone_at`.

A log in the future is refused; an undone log counts nowhere (distribution, recovery, progression,
statistics, history all skip it). A log stored without muscles (a model that left them out, an exercise added
without them) is credited with its library exercise's muscles when the library knows it (`muscles_of`), so it
still counts in distribution, recovery and the muscle statistics; its categories are only what it was given.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.entries import LogEntry
from gym.training.models import ExerciseLog, ExerciseSet, TrainerWorkout
from gym.training.movements import resolve_loosely
from gym.training.muscles import library_muscle_shares
from gym.training.profiles import Units, require_member
from gym.training.units import show_distance, show_load
from gym.training.vocab import ExerciseType
from gym.training.workout import GoalShare, MuscleShare, shares_sum_to_one

CLOCK_SKEW = timedelta(minutes=5)  # a device clock slightly ahead is not "the future"
MAX_HISTORY_DAYS = 365


def performed_time(at: datetime | None, now: datetime, *, what: str = "an exercise") -> datetime:
    """When something was done, as stored: given with a timezone, not in the future (a device clock a little ahead
    stores now) and not before the history's `MAX_HISTORY_DAYS` (0001-01-01 would be stored as -infinity)."""
    at = at or now
    if at.tzinfo is None:
        raise GymError("invalid_log", "performed_at needs a timezone (ISO 8601 with offset)")
    if at > now + CLOCK_SKEW:
        raise GymError("log_in_future", f"{what} cannot be logged in the future",
                       "Log it after it is done, or give the time it was performed.")
    if at < now - timedelta(days=MAX_HISTORY_DAYS):
        raise GymError("log_too_old", f"{what} can be logged up to {MAX_HISTORY_DAYS} days after it was done",
                       "Give the time it was performed, within the last year.")
    return min(at, now)


def _even(value: Any) -> Any:
    """Plain names (001's muscles_utilized / goals_addressed) become equal shares."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        names = list(dict.fromkeys(v.strip() for v in value if v.strip()))
        shares = [round(1 / len(names), 4) for _ in names]
        shares[0] = round(shares[0] + 1 - sum(shares), 4)
        return [{"name": n, "share": s} for n, s in zip(names, shares, strict=True)]
    return value


class LoggedExercise(BaseModel):
    """One completed exercise, every field of 001's log_completed_exercise (loads in kg, distance in km)."""

    model_config = ConfigDict(extra="forbid")

    exercise_name: str = Field(min_length=1, max_length=120)
    exercise_type: ExerciseType
    sets: int | None = Field(None, ge=1, le=100)
    reps: int | None = Field(None, ge=1, le=1000)
    reps_per_set: list[Annotated[int, Field(ge=1, le=1000)]] | None = Field(None, min_length=1, max_length=100)
    target_reps: list[Annotated[int, Field(ge=1, le=1000)]] | None = Field(None, min_length=1, max_length=100)
    equipment: list[Annotated[str, Field(min_length=1, max_length=60)]] = Field(default_factory=list, max_length=10)
    load_kg: float | None = Field(None, ge=0, le=1000)
    duration_min: float | None = Field(None, gt=0, le=1440)
    distance_km: float | None = Field(None, gt=0, le=1000)
    rpe: float | None = Field(None, ge=1, le=10)
    muscles: list[MuscleShare] = Field(default_factory=list, max_length=16)
    goals: list[GoalShare] = Field(default_factory=list, max_length=10)
    notes: str | None = Field(None, max_length=1000)
    performed_at: datetime | None = None

    @field_validator("muscles", "goals", mode="before")
    @classmethod
    def _names_to_shares(cls, value: Any) -> Any:
        return _even(value)

    @field_validator("muscles")
    @classmethod
    def _muscles_sum(cls, value: list[MuscleShare]) -> list[MuscleShare]:
        return shares_sum_to_one(value, "muscle")

    @field_validator("goals")
    @classmethod
    def _goals_sum(cls, value: list[GoalShare]) -> list[GoalShare]:
        return shares_sum_to_one(value, "goal")

    @model_validator(mode="after")
    def _per_set(self) -> LoggedExercise:
        """With reps per set, `sets` is their count and `reps` their common value (None when they differ)."""
        if self.reps_per_set is not None:
            if self.sets is not None and self.sets != len(self.reps_per_set):
                raise ValueError(f"reps_per_set has {len(self.reps_per_set)} entries but sets is {self.sets}")
            if self.reps is not None and any(r != self.reps for r in self.reps_per_set):
                raise ValueError("reps is the reps of every set; give reps_per_set alone when the sets differ")
            self.sets = len(self.reps_per_set)
            self.reps = self.reps_per_set[0] if len(set(self.reps_per_set)) == 1 else None
        return self


async def log_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, entry: LoggedExercise, *,
                       now: datetime, workout_id: uuid.UUID | None = None,
                       exercise_key: str | None = None) -> ExerciseLog:
    await require_member(session, org_id, member_id)
    performed_at = entry.performed_at or now
    performed_time(performed_at, now)  # refuses a time without a zone, in the future, or before the history
    if workout_id is not None and await session.scalar(select(TrainerWorkout.id).where(
            TrainerWorkout.org_id == org_id, TrainerWorkout.member_id == member_id,
            TrainerWorkout.id == workout_id)) is None:
        raise GymError("workout_not_found", f"No workout {workout_id} for this member.", status=404)
    row = ExerciseLog(org_id=org_id, member_id=member_id, name=" ".join(entry.exercise_name.split()),
                      exercise_type=entry.exercise_type, sets=entry.sets, reps=entry.reps, load_kg=entry.load_kg,
                      reps_per_set=entry.reps_per_set, target_reps=entry.target_reps,
                      equipment=[" ".join(e.split()) for e in entry.equipment],
                      duration_min=entry.duration_min, distance_km=entry.distance_km, rpe=entry.rpe,
                      muscles=[m.model_dump() for m in entry.muscles], goals=[g.model_dump() for g in entry.goals],
                      notes=entry.notes, performed_at=performed_at, workout_id=workout_id,
                      exercise_key=exercise_key, created_at=now)
    session.add(row)
    await session.flush()
    return row


async def undo_log(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, log_id: uuid.UUID, *,
                   now: datetime) -> ExerciseLog:
    row = await session.scalar(select(ExerciseLog).where(ExerciseLog.org_id == org_id,
                                                         ExerciseLog.member_id == member_id,
                                                         ExerciseLog.id == log_id).with_for_update())
    if row is None:
        raise GymError("log_not_found", f"No logged exercise {log_id} for this member.",
                       "Read the workout history and use one of its ids.", status=404)
    if row.undone_at is not None:
        raise GymError("log_already_undone", "that logged exercise was already undone", status=409)
    await retire_log(session, row, now)
    return row


async def retire_log(session: AsyncSession, row: ExerciseLog, now: datetime) -> None:
    """Stop a log counting, with the sets it was built from (workout_sets), and un-complete its exercise; a workout
    that closed because that exercise was done is current again, unless the member has another current one."""
    row.undone_at = row.undone_at or now
    await session.execute(update(ExerciseSet).where(ExerciseSet.log_id == row.id, ExerciseSet.undone_at.is_(None))
                          .values(undone_at=now))
    if row.workout_id is not None and row.exercise_key is not None:
        workout = await session.get(TrainerWorkout, row.workout_id)
        if workout is not None and (workout.completed or {}).get(row.exercise_key) == str(row.id):
            workout.completed = {k: v for k, v in workout.completed.items() if k != row.exercise_key}
            if workout.status == "completed" and await session.scalar(select(TrainerWorkout.id).where(
                    TrainerWorkout.org_id == workout.org_id, TrainerWorkout.member_id == workout.member_id,
                    TrainerWorkout.status == "current").limit(1)) is None:
                workout.status, workout.completed_at, workout.updated_at = "current", None, now
    await session.flush()


async def logs_since(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, since: datetime,
                     until: datetime | None = None) -> list[ExerciseLog]:
    """Live (not undone) logs performed after `since` (and not after `until`), newest first."""
    where = [ExerciseLog.org_id == org_id, ExerciseLog.member_id == member_id, ExerciseLog.undone_at.is_(None),
             ExerciseLog.performed_at > since]
    if until is not None:
        where.append(ExerciseLog.performed_at <= until)
    return list((await session.scalars(select(ExerciseLog).where(*where).order_by(
        ExerciseLog.performed_at.desc(), ExerciseLog.id))).all())


def muscles_of(row: ExerciseLog) -> list[dict[str, Any]]:
    """The log's muscle shares: as stored, else its library exercise's (equal credit per listed muscle)."""
    if row.muscles:
        return list(row.muscles)
    found = resolve_loosely(row.name)
    return library_muscle_shares(found.muscles) if found else []


def as_entry(row: ExerciseLog) -> LogEntry:
    return LogEntry(row.name, row.performed_at, row.exercise_type, row.sets, row.reps,
                    float(row.load_kg) if row.load_kg is not None else None,
                    float(row.duration_min) if row.duration_min is not None else None,
                    float(row.distance_km) if row.distance_km is not None else None,
                    float(row.rpe) if row.rpe is not None else None,
                    {g["name"]: float(g["share"]) for g in row.goals},
                    {m["name"]: float(m["share"]) for m in muscles_of(row)}, row.workout_id, row.undone_at is not None,
                    tuple(row.reps_per_set) if row.reps_per_set else None,
                    tuple(row.target_reps) if row.target_reps else None, tuple(row.equipment or ()),
                    tuple(None if v is None else float(v) for v in row.load_per_set_kg) if row.load_per_set_kg
                    else None, row.id)


def log_dict(row: ExerciseLog, units: Units) -> dict:
    """A log as the member sees it: load and distance in their units (`loadPerSet` when its sets differed)."""
    out: dict = {
        "id": str(row.id), "name": row.name, "exerciseType": row.exercise_type, "sets": row.sets, "reps": row.reps,
        "repsPerSet": list(row.reps_per_set) if row.reps_per_set else None,
        "targetReps": list(row.target_reps) if row.target_reps else None,
        "load": show_load(row.load_kg, units.weight_unit),
        "loadUnit": units.weight_unit if row.load_kg is not None else None,
        "durationMin": float(row.duration_min) if row.duration_min is not None else None,
        "distance": show_distance(row.distance_km, units.distance_unit),
        "distanceUnit": units.distance_unit if row.distance_km is not None else None,
        "rpe": float(row.rpe) if row.rpe is not None else None, "muscles": muscles_of(row), "goals": row.goals,
        "notes": row.notes, "performedAt": row.performed_at.isoformat(),
        "workoutId": str(row.workout_id) if row.workout_id else None}
    if row.load_per_set_kg and len({v for v in row.load_per_set_kg}) > 1:
        out["loadPerSet"] = [show_load(v, units.weight_unit) for v in row.load_per_set_kg]
    return out
