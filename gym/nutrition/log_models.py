"""Mapped tables of migration 0029_food_log: the member's food log, body weights and expenditure choice."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import Date, Integer, Numeric, String, UniqueConstraint, func
from sqlalchemy.orm import Mapped, mapped_column

import core.tenancy  # noqa: F401  (organizations: the table these foreign keys name)
from core.database import Base
from core.mixins import CreatedAt
from gym.members import MemberOwned


class FoodLogEntry(MemberOwned, CreatedAt, Base):
    """A library food with its portion (amount, unit, grams), or a quick entry (no food: energy and macros as
    entered, an optional label); energy and macros are stored as computed when logged."""

    __tablename__ = "food_log_entries"

    eaten_on: Mapped[date] = mapped_column(Date)
    meal: Mapped[str] = mapped_column(String(10))
    food_key: Mapped[str | None] = mapped_column(String(40))
    amount: Mapped[Decimal | None] = mapped_column(Numeric(8, 2))
    unit: Mapped[str | None] = mapped_column(String(8))
    grams: Mapped[Decimal | None] = mapped_column(Numeric(8, 2))
    label: Mapped[str | None] = mapped_column(String(80))
    kcal: Mapped[Decimal] = mapped_column(Numeric(8, 1))
    protein_g: Mapped[Decimal | None] = mapped_column(Numeric(7, 2))
    fat_g: Mapped[Decimal | None] = mapped_column(Numeric(7, 2))
    carbs_g: Mapped[Decimal | None] = mapped_column(Numeric(7, 2))
    fiber_g: Mapped[Decimal | None] = mapped_column(Numeric(7, 2))


class BodyWeight(MemberOwned, CreatedAt, Base):
    __tablename__ = "body_weights"
    __table_args__ = (UniqueConstraint("member_id", "measured_on", name="uq_body_weights_member_day"),)

    measured_on: Mapped[date] = mapped_column(Date)
    weight_kg: Mapped[Decimal] = mapped_column(Numeric(6, 2))
    updated_at: Mapped[datetime] = mapped_column(server_default=func.now())


class ExpenditureChoice(MemberOwned, Base):
    """The member's choice of TDEE for their plan: `estimate` (with the estimate they accepted) or `formula`."""

    __tablename__ = "expenditure_choices"
    __table_args__ = (UniqueConstraint("member_id", name="uq_expenditure_choices_member"),)

    choice: Mapped[str] = mapped_column(String(8))
    estimate_kcal: Mapped[int | None] = mapped_column(Integer)
    formula_kcal: Mapped[int | None] = mapped_column(Integer)
    confidence: Mapped[str | None] = mapped_column(String(6))
    decided_at: Mapped[datetime] = mapped_column(server_default=func.now())
