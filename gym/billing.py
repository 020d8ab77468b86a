"""Membership plans, member subscriptions and payments, and the revenue numbers analytics reads.

A payment row is one attempt for one due date: a failed card charge followed by a successful retry is a
`failed` row and a `paid` row with the same `due_on`. A failed or pending payment with no paid row for
its due date is *unresolved*; unresolved and past due is *overdue*.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import CHAR, Date, DateTime, ForeignKey, String, and_, case, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, aliased, mapped_column

from core.database import Base
from core.mixins import CreatedAt, OrgRow
from gym.errors import GymError
from gym.members import Member
from gym.periods import Period, Tz, bucket_starts, zone

PLAN_INTERVALS: tuple[str, ...] = ("month", "year", "week", "class_pack")
SUBSCRIPTION_STATUSES: tuple[str, ...] = ("active", "paused", "cancelled", "expired")
PAYMENT_STATUSES: tuple[str, ...] = ("paid", "failed", "refunded", "pending")
# Rough monthly equivalent of one subscription, for "monthly value" estimates (a class pack ≈ one a month).
MONTHLY_FACTOR = {"month": 1.0, "year": 1 / 12, "week": 52 / 12, "class_pack": 1.0}


class MembershipPlan(OrgRow, CreatedAt, Base):
    __tablename__ = "membership_plans"

    name: Mapped[str] = mapped_column(String(120))
    price_cents: Mapped[int]
    currency: Mapped[str] = mapped_column(CHAR(3), default="ILS")
    interval: Mapped[str] = mapped_column(String(12))
    active: Mapped[bool] = mapped_column(default=True)


class MemberSubscription(OrgRow, CreatedAt, Base):
    __tablename__ = "member_subscriptions"

    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    plan_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("membership_plans.id", ondelete="RESTRICT"))
    status: Mapped[str] = mapped_column(String(10), default="active")
    started_on: Mapped[date]
    ends_on: Mapped[date | None]
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Payment(OrgRow, CreatedAt, Base):
    __tablename__ = "payments"

    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    subscription_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("member_subscriptions.id", ondelete="SET NULL"))
    amount_cents: Mapped[int]
    currency: Mapped[str] = mapped_column(CHAR(3), default="ILS")
    status: Mapped[str] = mapped_column(String(10))
    due_on: Mapped[date]
    paid_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


# --- plans, subscriptions, payments ---------------------------------------------------------------------

async def list_plans(session: AsyncSession, org_id: uuid.UUID, *, active_only: bool = True) -> list[MembershipPlan]:
    query = select(MembershipPlan).where(MembershipPlan.org_id == org_id)
    if active_only:
        query = query.where(MembershipPlan.active.is_(True))
    return list((await session.scalars(query.order_by(MembershipPlan.price_cents, MembershipPlan.name))).all())


async def get_plan(session: AsyncSession, org_id: uuid.UUID, plan_id: uuid.UUID) -> MembershipPlan | None:
    return await session.scalar(select(MembershipPlan).where(MembershipPlan.org_id == org_id,
                                                             MembershipPlan.id == plan_id))


async def create_plan(session: AsyncSession, org_id: uuid.UUID, *, name: str, price_cents: int, interval: str,
                      currency: str = "ILS", active: bool = True) -> MembershipPlan:
    if interval not in PLAN_INTERVALS:
        raise GymError("invalid_plan_interval", f"interval must be one of {', '.join(PLAN_INTERVALS)}")
    if price_cents < 0:
        raise GymError("invalid_price", "a price cannot be negative")
    plan = MembershipPlan(id=uuid.uuid4(), org_id=org_id, name=name.strip(), price_cents=price_cents,
                          currency=currency.upper(), interval=interval, active=active)
    session.add(plan)
    await session.flush()
    return plan


async def subscribe(session: AsyncSession, org_id: uuid.UUID, *, member_id: uuid.UUID, plan_id: uuid.UUID,
                    started_on: date, status: str = "active", ends_on: date | None = None) -> MemberSubscription | None:
    """Start a subscription; None when the member or plan is not in this org."""
    if status not in SUBSCRIPTION_STATUSES:
        raise GymError("invalid_subscription_status", f"status must be one of {SUBSCRIPTION_STATUSES}")
    member = await session.scalar(select(Member.id).where(Member.org_id == org_id, Member.id == member_id,
                                                          Member.deleted_at.is_(None)))
    if member is None or await get_plan(session, org_id, plan_id) is None:
        return None
    sub = MemberSubscription(id=uuid.uuid4(), org_id=org_id, member_id=member_id, plan_id=plan_id, status=status,
                             started_on=started_on, ends_on=ends_on)
    session.add(sub)
    await session.flush()
    return sub


async def record_payment(session: AsyncSession, org_id: uuid.UUID, *, member_id: uuid.UUID, amount_cents: int,
                         due_on: date, status: str = "paid", paid_at: datetime | None = None,
                         subscription_id: uuid.UUID | None = None, currency: str = "ILS",
                         attempted_at: datetime | None = None) -> Payment:
    """Record one payment attempt; `attempted_at` (default: now) is when it was charged or failed."""
    if status not in PAYMENT_STATUSES:
        raise GymError("invalid_payment_status", f"status must be one of {', '.join(PAYMENT_STATUSES)}")
    if status == "paid" and paid_at is None:
        raise GymError("paid_at_required", "a paid payment needs paid_at")
    payment = Payment(id=uuid.uuid4(), org_id=org_id, member_id=member_id, subscription_id=subscription_id,
                      amount_cents=amount_cents, currency=currency.upper(), status=status, due_on=due_on,
                      paid_at=paid_at)
    if attempted_at is not None:
        payment.created_at = attempted_at
    session.add(payment)
    await session.flush()
    return payment


def current_plan_name() -> Any:
    """The name of a member's current (active or paused) plan, as a subquery correlated to `Member`."""
    return (select(MembershipPlan.name)
            .join(MemberSubscription, MemberSubscription.plan_id == MembershipPlan.id)
            .where(MemberSubscription.member_id == Member.id, MemberSubscription.org_id == Member.org_id,
                   MemberSubscription.status.in_(("active", "paused")))
            .order_by(MemberSubscription.started_on.desc()).limit(1)
            .correlate(Member).scalar_subquery())


async def current_subscription(session: AsyncSession, org_id: uuid.UUID,
                               member_id: uuid.UUID) -> tuple[MemberSubscription, MembershipPlan] | None:
    """The live (active or paused) subscription, else the most recent one; with its plan."""
    live_first = case((MemberSubscription.status.in_(("active", "paused")), 0), else_=1)
    row = (await session.execute(
        select(MemberSubscription, MembershipPlan)
        .join(MembershipPlan, MembershipPlan.id == MemberSubscription.plan_id)
        .where(MemberSubscription.org_id == org_id, MemberSubscription.member_id == member_id)
        .order_by(live_first, MemberSubscription.started_on.desc()).limit(1))).first()
    return (row[0], row[1]) if row else None


def _unresolved(payment: type[Payment] = Payment):
    """Failed/pending with no paid attempt for the same member, subscription and due date."""
    settled = aliased(Payment)
    return and_(payment.status.in_(("failed", "pending")), ~exists().where(
        settled.org_id == payment.org_id, settled.member_id == payment.member_id, settled.due_on == payment.due_on,
        settled.subscription_id.is_not_distinct_from(payment.subscription_id), settled.status == "paid"))


async def member_payment_status(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                                today: date) -> dict[str, Any]:
    """Last payment, failed attempts in the last 90 days, and what is overdue now."""
    last = await session.scalar(select(Payment).where(Payment.org_id == org_id, Payment.member_id == member_id)
                                .order_by(Payment.due_on.desc(), Payment.created_at.desc()).limit(1))
    last_paid = await session.scalar(select(func.max(Payment.paid_at)).where(
        Payment.org_id == org_id, Payment.member_id == member_id, Payment.status == "paid"))
    since = date.fromordinal(today.toordinal() - 90)
    failed_count = await session.scalar(select(func.count()).where(
        Payment.org_id == org_id, Payment.member_id == member_id, Payment.status == "failed", Payment.due_on >= since))
    overdue = (await session.execute(select(func.count(), func.coalesce(func.sum(Payment.amount_cents), 0),
                                            func.min(Payment.due_on)).where(
        Payment.org_id == org_id, Payment.member_id == member_id, Payment.due_on < today, _unresolved()))).one()
    state = "none" if last is None else "overdue" if overdue[0] else "failed" if last.status == "failed" else "ok"
    return {
        "state": state,
        "last_payment": None if last is None else {
            "id": last.id, "amount_cents": last.amount_cents, "currency": last.currency, "status": last.status,
            "due_on": last.due_on, "paid_at": last.paid_at},
        "last_paid_at": last_paid, "failed_count_90d": failed_count or 0,
        "overdue_count": overdue[0], "overdue_cents": int(overdue[1]), "oldest_overdue_on": overdue[2],
        "currency": last.currency if last else None,
    }


# --- analytics ------------------------------------------------------------------------------------------

async def revenue_summary(session: AsyncSession, org_id: uuid.UUID, start: datetime, end: datetime) -> dict[str, Any]:
    """Paid revenue in `[start, end)` (by paid_at), refunds, and failed attempts (by attempt time), per currency."""
    in_range = and_(Payment.org_id == org_id, Payment.paid_at >= start, Payment.paid_at < end)
    rows = (await session.execute(
        select(Payment.currency,
               func.coalesce(func.sum(Payment.amount_cents).filter(Payment.status == "paid"), 0),
               func.count().filter(Payment.status == "paid"),
               func.count(func.distinct(Payment.member_id)).filter(Payment.status == "paid"),
               func.coalesce(func.sum(Payment.amount_cents).filter(Payment.status == "refunded"), 0))
        .where(in_range).group_by(Payment.currency))).all()
    failed = (await session.execute(
        select(func.count(), func.coalesce(func.sum(Payment.amount_cents), 0)).where(
            Payment.org_id == org_id, Payment.status == "failed", Payment.created_at >= start,
            Payment.created_at < end))).one()
    by_currency: list[dict[str, Any]] = sorted(
        ({"currency": r[0], "total_cents": int(r[1]), "payments": r[2], "paying_members": r[3],
          "refunded_cents": int(r[4])} for r in rows), key=lambda c: -c["total_cents"])
    main: dict[str, Any] = by_currency[0] if by_currency else {"currency": None, "total_cents": 0, "payments": 0,
                                               "paying_members": 0, "refunded_cents": 0}
    return {**main, "average_per_member_cents": Fraction(main["total_cents"], main["paying_members"])
            if main["paying_members"] else 0,  # exact: the display rounds it once
            "failed_count": failed[0], "failed_cents": int(failed[1]), "by_currency": by_currency}


async def revenue_series(session: AsyncSession, org_id: uuid.UUID, period: Period, tz: Tz, *,
                         bucket: str = "month") -> dict[str, Any]:
    """Paid revenue per local day/week/month bucket (zero-filled), in the org's main currency."""
    starts = bucket_starts(period, bucket)
    key = func.date_trunc(bucket, func.timezone(zone(tz).key, Payment.paid_at)).cast(Date)
    rows = (await session.execute(
        select(key, Payment.currency, func.sum(Payment.amount_cents), func.count())
        .where(Payment.org_id == org_id, Payment.status == "paid", Payment.paid_at >= period.start,
               Payment.paid_at < period.end)
        .group_by(key, Payment.currency))).all()
    totals: dict[str, int] = {}
    for _, row_currency, amount, _count in rows:
        totals[row_currency] = totals.get(row_currency, 0) + int(amount)
    currency: str | None = max(totals, key=totals.__getitem__) if totals else None
    points = {day: (int(amount), count) for day, cur, amount, count in rows if cur == currency}
    return {"currency": currency, "bucket": bucket, "points": [
        {"period_start": day, "amount_cents": points.get(day, (0, 0))[0], "payments": points.get(day, (0, 0))[1]}
        for day in starts]}


async def plan_distribution(session: AsyncSession, org_id: uuid.UUID) -> dict[str, Any]:
    """Active (and paused) subscriptions per plan, with each plan's share and estimated monthly value."""
    rows = (await session.execute(
        select(MembershipPlan.id, MembershipPlan.name, MembershipPlan.interval, MembershipPlan.price_cents,
               MembershipPlan.currency, MembershipPlan.active,
               func.count(MemberSubscription.id).filter(MemberSubscription.status == "active"),
               func.count(MemberSubscription.id).filter(MemberSubscription.status == "paused"))
        .outerjoin(MemberSubscription, and_(MemberSubscription.plan_id == MembershipPlan.id,
                                            MemberSubscription.org_id == org_id))
        .where(MembershipPlan.org_id == org_id)
        .group_by(MembershipPlan.id).order_by(MembershipPlan.price_cents, MembershipPlan.name))).all()
    total = sum(r[6] for r in rows)
    plans: list[dict[str, Any]] = [{"plan_id": r[0], "name": r[1], "interval": r[2], "price_cents": r[3], "currency": r[4],
              "plan_active": r[5], "active_subscriptions": r[6], "paused_subscriptions": r[7],
              "share": round(r[6] / total, 3) if total else 0.0,
              "monthly_value_cents": round(r[6] * r[3] * MONTHLY_FACTOR[r[2]])} for r in rows]
    plans.sort(key=lambda p: -p["active_subscriptions"])
    return {"active_subscriptions": total, "plans": plans}


def _payment_rows(rows) -> list[dict[str, Any]]:
    return [{"payment_id": r.id, "member_id": r.member_id, "full_name": r.full_name, "amount_cents": r.amount_cents,
             "currency": r.currency, "status": r.status, "due_on": r.due_on} for r in rows]


async def failed_payments(session: AsyncSession, org_id: uuid.UUID, start: datetime, end: datetime, *,
                          limit: int = 50) -> dict[str, Any]:
    """Failed attempts made in `[start, end)`, newest first, and how many were later recovered."""
    where = and_(Payment.org_id == org_id, Payment.status == "failed", Payment.created_at >= start,
                 Payment.created_at < end)
    count, amount, unresolved = (await session.execute(
        select(func.count(), func.coalesce(func.sum(Payment.amount_cents), 0),
               func.count().filter(_unresolved())).where(where))).one()
    rows = (await session.execute(
        select(Payment.id, Payment.member_id, Member.full_name, Payment.amount_cents, Payment.currency,
               Payment.status, Payment.due_on)
        .join(Member, Member.id == Payment.member_id).where(where)
        .order_by(Payment.created_at.desc()).limit(limit))).all()
    return {"count": count, "amount_cents": int(amount), "recovered": count - unresolved,
            "payments": _payment_rows(rows)}


async def overdue_payments(session: AsyncSession, org_id: uuid.UUID, today: date, *,
                           limit: int = 50) -> dict[str, Any]:
    """Unresolved failed/pending payments due before `today`, oldest first."""
    where = and_(Payment.org_id == org_id, Payment.due_on < today, _unresolved())
    count, amount, members = (await session.execute(
        select(func.count(), func.coalesce(func.sum(Payment.amount_cents), 0),
               func.count(func.distinct(Payment.member_id))).where(where))).one()
    rows = (await session.execute(
        select(Payment.id, Payment.member_id, Member.full_name, Payment.amount_cents, Payment.currency,
               Payment.status, Payment.due_on)
        .join(Member, Member.id == Payment.member_id).where(where, Member.deleted_at.is_(None))
        .order_by(Payment.due_on, Member.full_name).limit(limit))).all()
    items = _payment_rows(rows)
    for item in items:
        item["days_overdue"] = (today - item["due_on"]).days
    return {"count": count, "amount_cents": int(amount), "members": members, "payments": items}
