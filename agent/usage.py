"""Daily AI usage per org, user and UTC day: SQL increments, so concurrent turns lose nothing."""

from __future__ import annotations

import uuid
from datetime import date

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from agent.costs import Usage

_UPSERT = text("""
INSERT INTO ai_usage_daily (org_id, user_id, day, input_tokens, output_tokens, cache_read_tokens,
                            cache_creation_5m_tokens, cache_creation_1h_tokens, cost_usd_micros, turns, updated_at)
VALUES (:org, :user, :day, :input, :output, :read, :w5, :w1h, :cost, :turns, now())
ON CONFLICT (org_id, user_id, day) DO UPDATE SET
  input_tokens = ai_usage_daily.input_tokens + EXCLUDED.input_tokens,
  output_tokens = ai_usage_daily.output_tokens + EXCLUDED.output_tokens,
  cache_read_tokens = ai_usage_daily.cache_read_tokens + EXCLUDED.cache_read_tokens,
  cache_creation_5m_tokens = ai_usage_daily.cache_creation_5m_tokens + EXCLUDED.cache_creation_5m_tokens,
  cache_creation_1h_tokens = ai_usage_daily.cache_creation_1h_tokens + EXCLUDED.cache_creation_1h_tokens,
  cost_usd_micros = ai_usage_daily.cost_usd_micros + EXCLUDED.cost_usd_micros,
  turns = ai_usage_daily.turns + EXCLUDED.turns,
  updated_at = now()
""")


async def record_turn(session: AsyncSession, *, org_id: uuid.UUID, user_id: uuid.UUID, day: date, usage: Usage,
                      cost_usd_micros: int, turns: int = 1) -> None:
    await session.execute(_UPSERT, {
        "org": org_id, "user": user_id, "day": day, "input": usage.input_tokens, "output": usage.output_tokens,
        "read": usage.cache_read_tokens, "w5": usage.cache_write_5m_tokens, "w1h": usage.cache_write_1h_tokens,
        "cost": cost_usd_micros, "turns": turns})


async def org_spend_micros(session: AsyncSession, org_id: uuid.UUID, day: date) -> int:
    value = await session.scalar(text(
        "SELECT coalesce(sum(cost_usd_micros), 0) FROM ai_usage_daily WHERE org_id = :org AND day = :day"),
        {"org": org_id, "day": day})
    return int(value or 0)
