"""Mapped tables of migration 0007 (and 0020: `ready_version`): runs, their envelopes and events, check-ins,
adjustments, clearances."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from sqlalchemy import BigInteger, Date, ForeignKey, Integer, String, Text, UniqueConstraint, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

import core.tenancy  # noqa: F401  (organizations, users: the tables these foreign keys name)
import gym.members  # noqa: F401  (members)
from core.database import Base
from core.mixins import CreatedAt, OrgRow, OrgScoped, Timestamps


class NutritionRun(OrgRow, Timestamps, Base):
    __tablename__ = "nutrition_runs"

    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    state: Mapped[str] = mapped_column(String(32), default="intake_pending")
    previous_state: Mapped[str | None] = mapped_column(String(32))
    version: Mapped[int] = mapped_column(Integer, default=1)
    ready_version: Mapped[int | None] = mapped_column(Integer)  # the version that last reached output_ready
    terminated_medical: Mapped[bool] = mapped_column(default=False)
    intake: Mapped[dict[str, Any]] = mapped_column(JSONB)
    last_completed_agent: Mapped[str | None] = mapped_column(String(16))
    plan: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    error: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    job_id: Mapped[str | None] = mapped_column(String(64))
    started_on: Mapped[date] = mapped_column(Date, server_default=func.current_date())
    superseded_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]


class NutritionMessage(OrgScoped, Base):
    """A stored envelope (004 §2); `id` is its `message_id`."""

    __tablename__ = "nutrition_messages"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("nutrition_runs.id", ondelete="CASCADE"))
    run_version: Mapped[int] = mapped_column(Integer)
    from_agent: Mapped[str] = mapped_column(String(16))
    to_agent: Mapped[str] = mapped_column(String(16))
    data_type: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB)
    schema_version: Mapped[str] = mapped_column(String(8), default="1.0")
    attempt: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime]


class NutritionEvent(OrgScoped, CreatedAt, Base):
    """One SSE frame of a run, numbered per run (`seq` is the frame's id for Last-Event-ID)."""

    __tablename__ = "nutrition_events"
    __table_args__ = (UniqueConstraint("run_id", "seq", name="uq_nutrition_events_run_seq"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("nutrition_runs.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSONB)


class NutritionCheckin(OrgRow, CreatedAt, Base):
    __tablename__ = "nutrition_checkins"
    __table_args__ = (UniqueConstraint("run_id", "checkin_date", name="uq_nutrition_checkins_run_date"),)

    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("nutrition_runs.id", ondelete="CASCADE"))
    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    submitted_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    checkin_date: Mapped[date] = mapped_column(Date)
    weeks_on_program: Mapped[int] = mapped_column(Integer)
    run_version: Mapped[int] = mapped_column(Integer)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB)


class NutritionAdjustment(OrgRow, CreatedAt, Base):
    __tablename__ = "nutrition_adjustments"

    run_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("nutrition_runs.id", ondelete="CASCADE"))
    checkin_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("nutrition_checkins.id", ondelete="CASCADE"))
    from_version: Mapped[int] = mapped_column(Integer)
    to_version: Mapped[int] = mapped_column(Integer)
    triggers: Mapped[list[str]] = mapped_column(JSONB, default=list)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB)


class MedicalClearance(OrgRow, CreatedAt, Base):
    __tablename__ = "nutrition_medical_clearances"

    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    run_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("nutrition_runs.id", ondelete="SET NULL"))
    recorded_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    note: Mapped[str] = mapped_column(Text, default="")
