"""The one-member profile: status, coach, current plan and subscription, payments, visits, pending forms."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.tenancy import User
from gym import billing, classes, forms
from gym.members import get_member
from gym.periods import local_today


async def get_member_detail(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *,
                            now: datetime | None = None, tz: ZoneInfo | str = "UTC") -> dict[str, Any] | None:
    """Profile, status, coach, current plan + subscription, payment status, visits, pending forms.

    `now` and the gym's `tz` decide what is overdue (due before the local today) and "last 30 days".
    """
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
