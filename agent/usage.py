"""Daily AI usage per org, user and UTC day: SQL increments, so concurrent turns lose nothing."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date

from sqlalchemy import BigInteger, Date, DateTime, Uuid, column, func, table, text
from sqlalchemy.dialects.postgresql import Insert, insert
from sqlalchemy.ext.asyncio import AsyncSession

from agent.costs import Usage
from core import row_inserts
from core.row_inserts import Row, binds

_SUMMED = ("input_tokens", "output_tokens", "cache_read_tokens", "cache_creation_5m_tokens",
           "cache_creation_1h_tokens", "cost_usd_micros", "turns")
_DAILY = table("ai_usage_daily", column("org_id", Uuid), column("user_id", Uuid), column("day", Date),
               *(column(name, BigInteger) for name in _SUMMED), column("updated_at", DateTime(timezone=True)))


_UPSERT_BINDS = ("org_id", "user_id", "day", *_SUMMED)


def _upsert_template() -> Insert:
    """The increment of one (org, user, day) row, as one INSERT … ON CONFLICT DO UPDATE (parameters `u_*`)."""
    stmt = insert(_DAILY).values({**binds(_DAILY, "u_", _UPSERT_BINDS), "updated_at": func.now()})
    return stmt.on_conflict_do_update(
        index_elements=["org_id", "user_id", "day"],
        set_={**{name: _DAILY.c[name] + stmt.excluded[name] for name in _SUMMED}, "updated_at": func.now()})


async def record_turn(session: AsyncSession, *, org_id: uuid.UUID, user_id: uuid.UUID, day: date, usage: Usage,
                      cost_usd_micros: int, turns: int = 1, along: Sequence[Row] = ()) -> None:
    """Add to the day's row. `along` (rows of the caller's, e.g. the round trip's last message) are inserted by
    the same statement, each a data-modifying CTE: one round trip for all of them."""
    stmt, params = row_inserts.statements.get(along, main=("ai_usage_daily", _upsert_template))
    params.update({"u_org_id": org_id, "u_user_id": user_id, "u_day": day, "u_input_tokens": usage.input_tokens,
                   "u_output_tokens": usage.output_tokens, "u_cache_read_tokens": usage.cache_read_tokens,
                   "u_cache_creation_5m_tokens": usage.cache_write_5m_tokens,
                   "u_cache_creation_1h_tokens": usage.cache_write_1h_tokens, "u_cost_usd_micros": cost_usd_micros,
                   "u_turns": turns})
    await session.execute(stmt, params)


async def org_spend_micros(session: AsyncSession, org_id: uuid.UUID, day: date) -> int:
    value = await session.scalar(text(
        "SELECT coalesce(sum(cost_usd_micros), 0) FROM ai_usage_daily WHERE org_id = :org AND day = :day"),
        {"org": org_id, "day": day})
    return int(value or 0)
