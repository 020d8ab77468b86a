"""The member's body weights: one per local day (an edit replaces it), and the trend's value a weekly check-in
takes when the member enters no weight.

A check-in without `weight_kg` gets the trend's value on its date (`gym.nutrition.weight_trend.trend_on`, from the
weights up to that date) when a weight was logged in the 7 days up to it; otherwise the body stays as sent and
the check-in's own validation asks for `weight_kg`, as before.
"""

from __future__ import annotations

import uuid
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import NotFound
from gym.nutrition.log_models import BodyWeight
from gym.nutrition.scientist import round_half_up
from gym.nutrition.weight_trend import trend_on

FRESH_DAYS = 7  # a check-in takes the trend only when a weight was logged in the week up to its date


async def put_weight(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, on: date, kg: float) -> float:
    """The day's weight, created or replaced; the kg stored (two decimals)."""
    stored = Decimal(str(round_half_up(kg, 0.01)))
    await session.execute(insert(BodyWeight).values(id=uuid.uuid4(), org_id=org_id, member_id=member_id,
                                                    measured_on=on, weight_kg=stored)
                          .on_conflict_do_update(constraint="uq_body_weights_member_day",
                                                 set_={"weight_kg": stored, "updated_at": func.now()}))
    return float(stored)


async def delete_weight(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, on: date) -> None:
    """404 `weight_not_found` when the day has none."""
    gone = await session.execute(delete(BodyWeight).where(BodyWeight.org_id == org_id, BodyWeight.member_id == member_id,
                                                          BodyWeight.measured_on == on).returning(BodyWeight.id))
    if gone.first() is None:
        raise NotFound("weight_not_found")


async def weights(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                  until: date | None = None) -> dict[date, float]:
    """Every logged weight (kg) up to `until`, by day."""
    query = select(BodyWeight.measured_on, BodyWeight.weight_kg).where(BodyWeight.org_id == org_id,
                                                                      BodyWeight.member_id == member_id)
    if until is not None:
        query = query.where(BodyWeight.measured_on <= until)
    return {on: float(kg) for on, kg in (await session.execute(query)).all()}


async def checkin_weight(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, on: date) -> float | None:
    """The trend's value on `on` (two decimals) when a weight was logged in the 7 days up to it, else None."""
    logged = await weights(session, org_id, member_id, until=on)
    if not any(on - timedelta(days=FRESH_DAYS - 1) <= day for day in logged):
        return None
    value = trend_on(logged, on)
    return None if value is None else round_half_up(value, 0.01)


async def with_trend_weight(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, payload: Any,
                            today: date) -> tuple[Any, dict[str, Any] | None]:
    """(the check-in body, with `weight_kg` from the trend when it had none and one is known; where its weight came
    from: {kg, source: entered | trend}, None when it has none)."""
    if not isinstance(payload, dict):
        return payload, None
    if "weight_kg" in payload:
        sent = payload["weight_kg"]
        known = isinstance(sent, int | float) and not isinstance(sent, bool)
        return payload, {"kg": float(sent), "source": "entered"} if known else None
    try:
        on = date.fromisoformat(payload["checkin_date"]) if payload.get("checkin_date") else today
    except (TypeError, ValueError):
        return payload, None  # the check-in's own validation names the bad date
    kg = await checkin_weight(session, org_id, member_id, on)
    if kg is None:
        return payload, None
    return {**payload, "weight_kg": kg}, {"kg": kg, "source": "trend"}
