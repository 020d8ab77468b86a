"""Gym members: profile, status, fuzzy search, the one-member detail view, and member analytics.

Search ranks by pg_trgm over `full_name` and `email` (GIN trigram indexes) and boosts a first-name
prefix, so "Saar" puts every Saar first and "saar coen" still finds Saar Cohen.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import Date, DateTime, ForeignKey, String, Text, and_, case, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.tenancy import User
from gym.errors import GymError

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

    from gym.periods import Period

MEMBER_STATUSES: tuple[str, ...] = ("lead", "active", "frozen", "cancelled")
EDITABLE_FIELDS = frozenset({"first_name", "last_name", "email", "phone", "status", "joined_at", "coach_user_id",
                             "user_id", "notes"})


class Member(Base):
    __tablename__ = "members"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    org_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("organizations.id"))
    first_name: Mapped[str] = mapped_column(String(100))
    last_name: Mapped[str] = mapped_column(String(100), default="")
    full_name: Mapped[str] = mapped_column(String(201))
    email: Mapped[str | None] = mapped_column(String(320))
    phone: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(10), default="active")
    joined_at: Mapped[date]
    coach_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    last_visit_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    notes: Mapped[str | None] = mapped_column(Text)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now(),
                                                 onupdate=func.now())


def full_name_of(first_name: str, last_name: str) -> str:
    return " ".join(part for part in (first_name.strip(), last_name.strip()) if part)


@dataclass(frozen=True)
class MemberHit:
    id: uuid.UUID
    full_name: str
    email: str | None
    phone: str | None
    status: str
    plan_name: str | None
    last_visit_at: datetime | None
    score: float


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _current_plan_name():
    from gym.billing import MembershipPlan, MemberSubscription  # billing builds on members

    return (select(MembershipPlan.name)
            .join(MemberSubscription, MemberSubscription.plan_id == MembershipPlan.id)
            .where(MemberSubscription.member_id == Member.id, MemberSubscription.org_id == Member.org_id,
                   MemberSubscription.status.in_(("active", "paused")))
            .order_by(MemberSubscription.started_on.desc()).limit(1)
            .correlate(Member).scalar_subquery())


async def search_members(session: AsyncSession, org_id: uuid.UUID, query: str | None, *, status: str | None = None,
                         coach_user_id: uuid.UUID | None = None, limit: int = 10) -> list[MemberHit]:
    """Members by fuzzy name/email (typos tolerated), best first; no query lists by name."""
    text = " ".join((query or "").split())
    where = [Member.org_id == org_id, Member.deleted_at.is_(None)]
    if status:
        where.append(Member.status == status)
    if coach_user_id:
        where.append(Member.coach_user_id == coach_user_id)
    email = func.coalesce(Member.email, "")
    if text:
        first_token = _like_escape(text.split()[0])
        contains = f"%{_like_escape(text)}%"
        score = (func.greatest(func.similarity(Member.full_name, text), func.word_similarity(text, Member.full_name),
                               0.9 * func.similarity(email, text), 0.9 * func.word_similarity(text, email))
                 + case((Member.first_name.ilike(f"{first_token}%"), 0.5), else_=0.0)
                 + case((Member.full_name.ilike(f"{_like_escape(text)}%"), 0.25), else_=0.0))
        # Each arm can use a trigram index; a first-name prefix makes "saar coen" still list Saar Levi.
        arms = [Member.full_name.op("%")(text), literal(text).op("<%")(Member.full_name),
                Member.full_name.ilike(contains), Member.email.ilike(contains),
                literal(text).op("<%")(Member.email)]
        if len(first_token) >= 3:
            arms.append(Member.full_name.ilike(f"{first_token}%"))
        digits = "".join(ch for ch in text if ch.isdigit())
        if len(digits) >= 4:
            arms.append(func.regexp_replace(Member.phone, r"\D", "", "g").contains(digits))
        where.append(or_(*arms))
        order = [score.desc(), Member.full_name]
    else:
        score = literal(1.0)
        order = [Member.full_name]
    rows = (await session.execute(_hit_query(score).where(*where).order_by(*order, Member.id).limit(limit))).all()
    return [_hit(r) for r in rows]


def _hit_query(score: Any) -> Any:
    return select(Member.id, Member.full_name, Member.email, Member.phone, Member.status,
                  _current_plan_name().label("plan_name"), Member.last_visit_at, score.label("score"))


def _hit(r: Any) -> MemberHit:
    return MemberHit(r.id, r.full_name, r.email, r.phone, r.status, r.plan_name, r.last_visit_at,
                     round(float(r.score), 3))


async def member_hits(session: AsyncSession, org_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[MemberHit]:
    """Live members as search hits in the order of `ids` (ranked elsewhere, so each score is 0)."""
    if not ids:
        return []
    rows = (await session.execute(_hit_query(literal(0.0)).where(
        Member.org_id == org_id, Member.deleted_at.is_(None), Member.id.in_(ids)))).all()
    found = {r.id: _hit(r) for r in rows}
    return [found[i] for i in ids if i in found]


async def get_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> Member | None:
    return await session.scalar(select(Member).where(Member.org_id == org_id, Member.id == member_id,
                                                     Member.deleted_at.is_(None)))


async def get_member_detail(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *,
                            now: datetime | None = None, tz: ZoneInfo | str = "UTC") -> dict[str, Any] | None:
    """Profile, status, coach, current plan + subscription, payment status, visits, pending forms.

    `now` and the gym's `tz` decide what is overdue (due before the local today) and "last 30 days".
    """
    from gym import billing, classes, forms  # they build on members
    from gym.periods import local_today

    member = await get_member(session, org_id, member_id)
    if member is None:
        return None
    now = now or datetime.now(UTC)
    today = local_today(tz, now)
    coach = None
    if member.coach_user_id:
        name = await session.scalar(select(User.name).where(User.id == member.coach_user_id))
        coach = {"user_id": member.coach_user_id, "name": name}
    current = await billing.current_subscription(session, org_id, member_id)
    plan = subscription = None
    if current:
        sub, plan_row = current
        plan = {"id": plan_row.id, "name": plan_row.name, "price_cents": plan_row.price_cents,
                "currency": plan_row.currency, "interval": plan_row.interval}
        subscription = {"id": sub.id, "status": sub.status, "started_on": sub.started_on, "ends_on": sub.ends_on,
                        "cancelled_at": sub.cancelled_at}
    return {
        "id": member.id, "first_name": member.first_name, "last_name": member.last_name,
        "full_name": member.full_name, "email": member.email, "phone": member.phone, "status": member.status,
        "joined_at": member.joined_at, "notes": member.notes, "user_id": member.user_id, "coach": coach,
        "plan": plan, "subscription": subscription,
        "payments": await billing.member_payment_status(session, org_id, member_id, today),
        "last_visit_at": member.last_visit_at,
        "visits": await classes.member_visit_counts(session, org_id, member_id, now),
        "pending_forms": await forms.pending_count_for_member(session, org_id, member_id),
    }


def _check_status(status: str) -> None:
    if status not in MEMBER_STATUSES:
        raise GymError("invalid_member_status", f"status must be one of {', '.join(MEMBER_STATUSES)}",
                       given=status)


async def _check_email_free(session: AsyncSession, org_id: uuid.UUID, email: str | None,
                            member_id: uuid.UUID | None = None) -> None:
    if not email:
        return
    taken = await session.scalar(select(Member.id).where(
        Member.org_id == org_id, func.lower(Member.email) == email.lower(), Member.deleted_at.is_(None),
        Member.id != member_id if member_id else literal(True)))
    if taken:
        raise GymError("member_email_taken", f"{email} already belongs to a member", status=409,
                       member_id=str(taken))


async def create_member(session: AsyncSession, org_id: uuid.UUID, *, first_name: str, last_name: str = "",
                        email: str | None = None, phone: str | None = None, status: str = "active",
                        joined_at: date | None = None, coach_user_id: uuid.UUID | None = None,
                        user_id: uuid.UUID | None = None, notes: str | None = None) -> Member:
    if not first_name.strip():
        raise GymError("member_name_required", "a member needs a first name")
    _check_status(status)
    await _check_email_free(session, org_id, email)
    member = Member(id=uuid.uuid4(), org_id=org_id, first_name=first_name.strip(), last_name=last_name.strip(),
                    full_name=full_name_of(first_name, last_name), email=email, phone=phone, status=status,
                    joined_at=joined_at or datetime.now(UTC).date(), coach_user_id=coach_user_id, user_id=user_id,
                    notes=notes)
    session.add(member)
    await session.flush()
    return member


async def update_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, /,
                        **changes: Any) -> Member | None:
    """Patch the given fields (see EDITABLE_FIELDS); keeps `full_name` in step with the name parts."""
    unknown = set(changes) - EDITABLE_FIELDS
    if unknown:
        raise GymError("unknown_member_field", f"cannot update {', '.join(sorted(unknown))}")
    member = await get_member(session, org_id, member_id)
    if member is None:
        return None
    if "status" in changes:
        _check_status(changes["status"])
    if changes.get("email") and changes["email"] != member.email:
        await _check_email_free(session, org_id, changes["email"], member.id)
    if "first_name" in changes and not (changes["first_name"] or "").strip():
        raise GymError("member_name_required", "a member needs a first name")
    for field, value in changes.items():
        setattr(member, field, value.strip() if field in ("first_name", "last_name") else value)
    member.full_name = full_name_of(member.first_name, member.last_name)
    await session.flush()
    return member


async def soft_delete_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                             now: datetime) -> Member | None:
    member = await get_member(session, org_id, member_id)
    if member is None:
        return None
    member.deleted_at = now
    await session.flush()
    return member


async def at_risk_members(session: AsyncSession, org_id: uuid.UUID, now: datetime, *, days: int = 21,
                          limit: int = 50) -> dict[str, Any]:
    """Active members with no visit for `days`+ days (never-visited ones count once they joined that long ago)."""
    cutoff = now - timedelta(days=days)
    quiet = and_(Member.org_id == org_id, Member.deleted_at.is_(None), Member.status == "active",
                 or_(Member.last_visit_at < cutoff,
                     and_(Member.last_visit_at.is_(None), Member.joined_at <= cutoff.date())))
    total = await session.scalar(select(func.count()).where(quiet))
    rows = (await session.execute(
        select(Member.id, Member.full_name, Member.email, Member.last_visit_at, Member.joined_at,
               _current_plan_name().label("plan_name"), User.name.label("coach_name"))
        .outerjoin(User, User.id == Member.coach_user_id).where(quiet)
        .order_by(Member.last_visit_at.asc().nulls_first(), Member.full_name).limit(limit))).all()
    return {"count": total or 0, "days": days, "members": [
        {"id": r.id, "full_name": r.full_name, "email": r.email, "last_visit_at": r.last_visit_at,
         "days_since_last_visit": (now - r.last_visit_at).days if r.last_visit_at else None,
         "joined_at": r.joined_at, "plan_name": r.plan_name, "coach_name": r.coach_name} for r in rows]}


async def members_summary(session: AsyncSession, org_id: uuid.UUID, period: Period, now: datetime, *,
                          at_risk_days: int = 21) -> dict[str, Any]:
    """Counts by current status, members who joined or cancelled in the period, and today's at-risk count."""
    from gym.billing import MemberSubscription

    live = and_(Member.org_id == org_id, Member.deleted_at.is_(None))
    by_status = dict((await session.execute(
        select(Member.status, func.count()).where(live).group_by(Member.status))).all())
    joined = await session.scalar(select(func.count()).where(
        live, Member.status != "lead", Member.joined_at.between(period.first_day, period.last_day)))
    cancelled = await session.scalar(
        select(func.count(func.distinct(MemberSubscription.member_id)))
        .join(Member, Member.id == MemberSubscription.member_id)
        .where(live, Member.status == "cancelled", MemberSubscription.org_id == org_id,
               MemberSubscription.cancelled_at >= period.start, MemberSubscription.cancelled_at < period.end))
    at_risk = await at_risk_members(session, org_id, now, days=at_risk_days, limit=0)
    return {"period": period.as_dict(), "total": sum(by_status.values()),
            "by_status": {s: by_status.get(s, 0) for s in MEMBER_STATUSES}, "joined": joined or 0,
            "cancelled": cancelled or 0, "at_risk": at_risk["count"]}


async def members_growth(session: AsyncSession, org_id: uuid.UUID, period: Period, tz: ZoneInfo | str, *,
                         bucket: str = "month") -> list[dict[str, Any]]:
    """Joins, cancellations and net change per local day/week/month bucket of the period."""
    from gym.billing import MemberSubscription
    from gym.periods import bucket_starts, zone

    live = and_(Member.org_id == org_id, Member.deleted_at.is_(None))
    joined_bucket = func.date_trunc(bucket, Member.joined_at.cast(DateTime)).cast(Date)
    joined = dict((await session.execute(
        select(joined_bucket, func.count()).where(
            live, Member.status != "lead", Member.joined_at.between(period.first_day, period.last_day))
        .group_by(joined_bucket))).all())
    cancel_bucket = func.date_trunc(bucket, func.timezone(zone(tz).key, MemberSubscription.cancelled_at)).cast(Date)
    cancelled = dict((await session.execute(
        select(cancel_bucket, func.count(func.distinct(MemberSubscription.member_id)))
        .join(Member, Member.id == MemberSubscription.member_id)
        .where(live, Member.status == "cancelled", MemberSubscription.org_id == org_id,
               MemberSubscription.cancelled_at >= period.start, MemberSubscription.cancelled_at < period.end)
        .group_by(cancel_bucket))).all())
    return [{"period_start": day, "joined": joined.get(day, 0), "cancelled": cancelled.get(day, 0),
             "net": joined.get(day, 0) - cancelled.get(day, 0)} for day in bucket_starts(period, bucket)]


async def members_activation(session: AsyncSession, org_id: uuid.UUID, period: Period, *,
                             within_days: int = 14) -> dict[str, Any]:
    """Of the members who joined in the period, how many attended a class within `within_days` of joining."""
    from gym.classes import Booking

    first_visit = (select(func.min(Booking.checked_in_at))
                   .where(Booking.member_id == Member.id, Booking.org_id == Member.org_id,
                          Booking.status == "attended")
                   .correlate(Member).scalar_subquery())
    rows = (await session.execute(
        select(Member.joined_at, first_visit.label("first_visit")).where(
            Member.org_id == org_id, Member.deleted_at.is_(None), Member.status != "lead",
            Member.joined_at.between(period.first_day, period.last_day)))).all()
    activated = sum(1 for r in rows if r.first_visit is not None
                    and r.first_visit.date() <= r.joined_at + timedelta(days=within_days))
    return {"period": period.as_dict(), "joined": len(rows), "activated": activated,
            "activation_rate": round(activated / len(rows), 3) if rows else None, "within_days": within_days}
