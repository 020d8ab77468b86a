"""The per-org daily dollar cap: pre-check before any model call, and the usage snapshot."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from agent.errors import AgentError
from agent.usage import org_spend_micros
from core.tenancy import OrgAccess

UNMETERED = -1


def next_reset(now: datetime) -> datetime:
    return datetime.combine(now.astimezone(UTC).date() + timedelta(days=1), time(0, 0), tzinfo=UTC)


def format_usd(micros: int) -> str:
    return f"{micros / 1_000_000:.2f}"


async def usage_snapshot(session: AsyncSession, access: OrgAccess, now: datetime) -> dict:
    cap = access.daily_cap_usd_micros
    spent = await org_spend_micros(session, access.org_id, now.astimezone(UTC).date())
    percent = 0.0 if cap in (UNMETERED, 0) else round(spent / cap, 4)
    if cap == 0:
        percent = 1.0
    return {"tier": access.tier, "capUsdMicros": cap, "spentUsdMicros": spent, "percentUsed": percent,
            "resetsAt": next_reset(now).isoformat().replace("+00:00", "Z")}


async def check_budget(session: AsyncSession, access: OrgAccess, now: datetime) -> None:
    """Raise agent_budget_exceeded when today's spend has reached the cap (-1 = unmetered)."""
    cap = access.daily_cap_usd_micros
    if cap == UNMETERED:
        return
    spent = await org_spend_micros(session, access.org_id, now.astimezone(UTC).date())
    if spent >= cap:
        raise AgentError("agent_budget_exceeded", status=429, cap=format_usd(cap))
