"""Mapped tables of the training record (migration 0006_training_record, 0019, 0020, 0023, 0025, 0027, 0030); every row is
org-scoped."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    Boolean,
    Date,
    ForeignKey,
    Index,
    Integer,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import CreatedAt, Timestamps
from gym.members import MemberOwned


class MemberProfile(MemberOwned, Timestamps, Base):
    __tablename__ = "member_profiles"
    __table_args__ = (UniqueConstraint("member_id", name="uq_member_profiles_member"),)

    height_cm: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    weight_kg: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    birth_year: Mapped[int | None] = mapped_column(Integer)
    sex: Mapped[str | None] = mapped_column(String(10))
    experience: Mapped[str | None] = mapped_column(String(20))


class MemberSettings(MemberOwned, Base):
    __tablename__ = "member_settings"
    __table_args__ = (UniqueConstraint("member_id", name="uq_member_settings_member"),)

    weight_unit: Mapped[str] = mapped_column(String(3), default="kg")
    distance_unit: Mapped[str] = mapped_column(String(2), default="km")
    updated_at: Mapped[datetime] = mapped_column(server_default=func.now(), onupdate=func.now())


class MemberLocation(MemberOwned, Timestamps, Base):
    __tablename__ = "member_locations"

    name: Mapped[str] = mapped_column(String(100))
    equipment: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    is_current: Mapped[bool] = mapped_column(Boolean, default=False)


class CategoryGoal(MemberOwned, CreatedAt, Base):
    __tablename__ = "category_goals"

    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str | None] = mapped_column(Text)
    weight: Mapped[Decimal] = mapped_column(Numeric(6, 5))


class MuscleGoal(MemberOwned, CreatedAt, Base):
    __tablename__ = "muscle_goals"
    __table_args__ = (UniqueConstraint("member_id", "muscle", name="uq_muscle_goals_member_muscle"),)

    muscle: Mapped[str] = mapped_column(String(20))
    weight: Mapped[Decimal] = mapped_column(Numeric(6, 5))


class MemberPreference(MemberOwned, CreatedAt, Base):
    __tablename__ = "member_preferences"

    type: Mapped[str] = mapped_column(String(20))
    description: Mapped[str] = mapped_column(Text)
    guidance: Mapped[str] = mapped_column(Text)
    expires_at: Mapped[datetime | None]
    delete_after_use: Mapped[bool] = mapped_column(Boolean, default=False)
    exclusions: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)  # migration 0019
    hard: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime | None]


class WorkoutPlan(MemberOwned, CreatedAt, Base):
    __tablename__ = "workout_plans"

    name: Mapped[str] = mapped_column(String(200))
    goal_description: Mapped[str | None] = mapped_column(Text)
    start_date: Mapped[date] = mapped_column(Date)
    end_date: Mapped[date] = mapped_column(Date)
    workouts_per_week: Mapped[int | None] = mapped_column(Integer)
    preferred_days: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    status: Mapped[str] = mapped_column(String(12), default="active")


class TrainerWorkout(MemberOwned, Timestamps, Base):
    __tablename__ = "trainer_workouts"

    session_id: Mapped[uuid.UUID | None]
    workout_key: Mapped[str] = mapped_column(String(20))
    title: Mapped[str | None] = mapped_column(String(200))
    exercises: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    completed: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    last_exercise_number: Mapped[int] = mapped_column(Integer, default=0)  # the highest ex_NNN issued (0019)
    status: Mapped[str] = mapped_column(String(12), default="current")
    completed_at: Mapped[datetime | None]
    started_at: Mapped[datetime | None]  # the member pressed Start in the app (0020)
    # each exercise the rules refused while it was built: {exercise, rule, values, injury, region?, side?} (0024)
    left_out: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list, server_default=text("'[]'::jsonb"))


class ExerciseLog(MemberOwned, CreatedAt, Base):
    __tablename__ = "exercise_logs"

    name: Mapped[str] = mapped_column(String(120))
    exercise_type: Mapped[str] = mapped_column(String(20))
    sets: Mapped[int | None] = mapped_column(Integer)
    reps: Mapped[int | None] = mapped_column(Integer)  # the reps of every set; NULL when the sets differ
    reps_per_set: Mapped[list[int] | None] = mapped_column(ARRAY(Integer))  # what each set reached (0019)
    target_reps: Mapped[list[int] | None] = mapped_column(ARRAY(Integer))   # what each set was prescribed (0019)
    equipment: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    load_kg: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    load_per_set_kg: Mapped[list[Decimal | None] | None] = mapped_column(ARRAY(Numeric(10, 2)))  # each set's (0020)
    duration_min: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    distance_km: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    rpe: Mapped[Decimal | None] = mapped_column(Numeric(3, 1))
    muscles: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    goals: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    notes: Mapped[str | None] = mapped_column(Text)
    performed_at: Mapped[datetime]
    workout_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("trainer_workouts.id", ondelete="SET NULL"))
    exercise_key: Mapped[str | None] = mapped_column(String(20))
    undone_at: Mapped[datetime | None]


class ExerciseSet(MemberOwned, CreatedAt, Base):
    """One set of an exercise of a trainer workout, as the member logged it in the app (migration 0020)."""

    __tablename__ = "exercise_sets"

    workout_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("trainer_workouts.id", ondelete="CASCADE"))
    log_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("exercise_logs.id", ondelete="CASCADE"))
    exercise_key: Mapped[str] = mapped_column(String(20))
    set_number: Mapped[int] = mapped_column(Integer)
    reps: Mapped[int | None] = mapped_column(Integer)
    load_kg: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    load_unit: Mapped[str | None] = mapped_column(String(3))  # the unit the member saw (migration 0023)
    duration_sec: Mapped[int | None] = mapped_column(Integer)
    distance_km: Mapped[Decimal | None] = mapped_column(Numeric(10, 3))
    rpe: Mapped[Decimal | None] = mapped_column(Numeric(3, 1))
    warmup: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # never counted (0026)
    performed_at: Mapped[datetime]
    undone_at: Mapped[datetime | None]
    client_set_id: Mapped[uuid.UUID | None]  # the app's own id for the set (migration 0027): sent again, the same set


class MemberExerciseNote(MemberOwned, Base):
    """The member's own note on a library exercise (by its key), shown each time it comes up (migration 0030)."""

    __tablename__ = "member_exercise_notes"
    __table_args__ = (UniqueConstraint("member_id", "exercise_key", name="uq_member_exercise_notes_member_exercise"),
                      Index("ix_member_exercise_notes_org_member", "org_id", "member_id"))

    exercise_key: Mapped[str] = mapped_column(String(120))
    note: Mapped[str] = mapped_column(String(1000))
    updated_at: Mapped[datetime] = mapped_column(server_default=func.now())


class ScheduledWorkout(MemberOwned, Timestamps, Base):
    __tablename__ = "scheduled_workouts"

    scheduled_at: Mapped[datetime]
    workout_type: Mapped[str] = mapped_column(String(100))
    duration_minutes: Mapped[int | None] = mapped_column(Integer)
    notes: Mapped[str | None] = mapped_column(Text)
    exercises: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    status: Mapped[str] = mapped_column(String(12), default="scheduled")
    plan_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("workout_plans.id", ondelete="SET NULL"))


class MilestoneGoal(MemberOwned, CreatedAt, Base):
    __tablename__ = "milestone_goals"

    name: Mapped[str] = mapped_column(String(200))
    goal_type: Mapped[str] = mapped_column(String(10))
    target_value: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    target_unit: Mapped[str | None] = mapped_column(String(50))
    target_date: Mapped[date | None] = mapped_column(Date)
    current_value: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    status: Mapped[str] = mapped_column(String(10), default="active")
    plan_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("workout_plans.id", ondelete="SET NULL"))
    achieved_at: Mapped[datetime | None]
