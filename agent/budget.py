"""The per-org daily dollar cap: the turn's pre-check, a reservation for every model call, the usage snapshot."""

from __future__ import annotations

import json
import math
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from agent.costs import PriceBook
from agent.errors import AgentError
from agent.model import ModelRequest
from agent.usage import org_spend_micros
from core.tenancy import OrgAccess

UNMETERED = -1


def next_reset(now: datetime) -> datetime:
    return datetime.combine(now.astimezone(UTC).date() + timedelta(days=1), time(0, 0), tzinfo=UTC)


def format_usd(micros: int) -> str:
    return f"{micros / 1_000_000:.2f}"


class UsageBody(msgspec.Struct, rename="camel"):
    """Today's spend against the org's daily cap; capUsdMicros -1 means unmetered."""

    tier: str
    cap_usd_micros: int
    spent_usd_micros: int
    percent_used: float
    resets_at: str


async def usage_snapshot(session: AsyncSession, access: OrgAccess, now: datetime) -> UsageBody:
    cap = access.daily_cap_usd_micros
    spent = await org_spend_micros(session, access.org_id, now.astimezone(UTC).date())
    percent = 0.0 if cap in (UNMETERED, 0) else round(spent / cap, 4)
    if cap == 0:
        percent = 1.0
    return UsageBody(tier=access.tier, cap_usd_micros=cap, spent_usd_micros=spent, percent_used=percent,
                     resets_at=next_reset(now).isoformat().replace("+00:00", "Z"))


async def check_budget(session: AsyncSession, access: OrgAccess, now: datetime) -> None:
    """Raise agent_budget_exceeded when today's spend has reached the cap (-1 = unmetered)."""
    cap = access.daily_cap_usd_micros
    if cap == UNMETERED:
        return
    spent = await org_spend_micros(session, access.org_id, now.astimezone(UTC).date())
    if spent >= cap:
        raise AgentError("agent_budget_exceeded", status=429, cap=format_usd(cap))


# ---- per-call reservations ---------------------------------------------------------------------------
#
# Every model call reserves an upper bound of its cost in Redis before it starts and releases it once its
# real cost is recorded in Postgres. A call is admitted while today's spend plus the other calls'
# reservations is still under the cap, so concurrent turns overshoot by at most one call's cost.
# Order matters across the two stores: reserve first, then read the spend; settle writes the spend
# first, then drops the reservation. A call in between is then counted once or twice, never zero times.

_RESERVE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
local held = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  held = held + tonumber(string.match(member, ':(%d+)$'))
end
redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], 172800000)
return held
"""


@dataclass(frozen=True)
class Reservation:
    key: str
    member: str
    micros: int


_TOOL_CHARS: dict[int, tuple[list[dict[str, Any]], int]] = {}  # id(tools) -> (tools, chars), per process


def _tool_chars(tools: list[dict[str, Any]]) -> int:
    """JSON length of the tools in the prompt (deferred tools are not input until a search loads them, and a
    loaded one is counted where its tool_search_tool_result sits in the messages), measured once per tools
    list: a persona's list is built once per role and reused by every call."""
    cached = _TOOL_CHARS.get(id(tools))
    if cached is not None and cached[0] is tools:
        return cached[1]
    chars = len(json.dumps([t for t in tools if not t.get("defer_loading")], default=str))
    if len(_TOOL_CHARS) >= 64:
        _TOOL_CHARS.clear()
    _TOOL_CHARS[id(tools)] = (tools, chars)  # holding the list keeps its id from being reused
    return chars


def estimate_call_micros(prices: PriceBook, model: str, request: ModelRequest) -> int:
    """An upper bound on one call's cost: ~3 characters of ASCII JSON per input token, each at the dearest
    input rate (a 1-hour cache write), plus every output token `max_tokens` allows."""
    chars = (len(json.dumps([request.system, request.messages], default=str)) + _tool_chars(request.tools)
             + 16)
    price = prices.price(model)
    per_input = max(price.input, price.cache_write_5m, price.cache_write_1h)
    return math.ceil(math.ceil(chars / 3) * per_input + request.max_tokens * price.output)


class Reservations:
    """Reservations of today's budget by model calls in flight, in one Redis sorted set per org and day."""

    def __init__(self, redis: Any, *, hold_seconds: float) -> None:
        self.redis = redis
        self.hold_ms = int(hold_seconds * 1000)  # a crashed process's reservation lapses after this

    async def reserve(self, session: AsyncSession, access: OrgAccess, estimate_micros: int,
                      now: datetime) -> Reservation | None:
        """Reserve `estimate_micros`, or raise agent_budget_exceeded; None when the org is unmetered."""
        cap = access.daily_cap_usd_micros
        if cap == UNMETERED:
            return None
        day = now.astimezone(UTC).date()
        reservation = Reservation(f"spotter:budget:{access.org_id}:{day.isoformat()}",
                                  f"{uuid.uuid4().hex}:{estimate_micros}", estimate_micros)
        held = int(await self.redis.eval(_RESERVE, 1, reservation.key, reservation.member, self.hold_ms))
        spent = await org_spend_micros(session, access.org_id, day)
        if spent + held >= cap:
            await self.release(reservation)
            raise AgentError("agent_budget_exceeded", status=429, cap=format_usd(cap))
        return reservation

    async def release(self, reservation: Reservation | None) -> None:
        if reservation is not None:
            await self.redis.zrem(reservation.key, reservation.member)
