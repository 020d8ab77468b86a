"""Expected answers, computed by the domain's own code from the try's database, never typed into a task.

A task names a function here (`answer = { fn = "revenue", args = { period = "last_month" } }`); it runs on an
owner session of the try's database at grading time with the run's clock, and returns the numbers (and words)
the agent's reply must hold. The functions call the same services the tools call (gym.billing, gym.attendance,
gym.member_analytics, gym.training, the nutrition pipeline's SCIENTIST), so a change to a tool's arithmetic
cannot silently move the expected value with it unless the domain changed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from evals import nutrition
from evals.values import local_day
from gym import attendance, billing, forms, member_analytics
from gym.assignments import comments_in_program
from gym.classes import list_sessions_for_date
from gym.demo.seed import DANI_MEMBER_ID
from gym.demo.tenancy import HARBOR
from gym.periods import local_today, resolve_period
from gym.training.record import distribution_view, statistics_view

TZ = ZoneInfo(HARBOR.timezone)


@dataclass(frozen=True)
class Expected:
    numbers: tuple[float, ...] = ()
    texts: tuple[str, ...] = ()

    def shown(self) -> str:
        """The answer as a sentence would give it (the reference agent says this)."""
        parts = [f"{n:,.2f}".rstrip("0").rstrip(".") for n in self.numbers] + list(self.texts)
        return ", ".join(parts)


AnswerFn = Callable[..., Awaitable[Expected]]
ANSWERS: dict[str, AnswerFn] = {}


def answer(fn: AnswerFn) -> AnswerFn:
    ANSWERS[fn.__name__] = fn
    return fn


def _period(name: str, now: datetime):
    return resolve_period(name, None, None, TZ, now)


@answer
async def revenue(session: AsyncSession, now: datetime, *, period: str) -> Expected:
    """Paid revenue in the period, in the gym's currency (what analytics.revenue_summary reports)."""
    span = _period(period, now)
    data = await billing.revenue_summary(session, HARBOR.id, span.start, span.end)
    return Expected((data["total_cents"] / 100,))


@answer
async def revenue_per_member(session: AsyncSession, now: datetime, *, period: str) -> Expected:
    span = _period(period, now)
    data = await billing.revenue_summary(session, HARBOR.id, span.start, span.end)
    return Expected((float(data["average_per_member_cents"]) / 100,))


@answer
async def failed_payments(session: AsyncSession, now: datetime, *, period: str) -> Expected:
    span = _period(period, now)
    return Expected((float((await billing.revenue_summary(session, HARBOR.id, span.start, span.end))["failed_count"]),))


@answer
async def members_with_status(session: AsyncSession, now: datetime, *, status: str) -> Expected:
    data = await member_analytics.members_summary(session, HARBOR.id, _period("this_month", now), now)
    return Expected((float(data["by_status"][status]),))


@answer
async def members_joined(session: AsyncSession, now: datetime, *, period: str) -> Expected:
    data = await member_analytics.members_summary(session, HARBOR.id, _period(period, now), now)
    return Expected((float(data["joined"]),))


@answer
async def at_risk(session: AsyncSession, now: datetime, *, days: int = 21, names: int = 0) -> Expected:
    """How many active members have not visited for `days`; with `names`, the longest absent ones too."""
    data = await member_analytics.at_risk_members(session, HARBOR.id, now, days=days, limit=max(names, 1))
    return Expected((float(data["count"]),), tuple(m["full_name"] for m in data["members"][:names]))


@answer
async def visits(session: AsyncSession, now: datetime, *, period: str) -> Expected:
    span = _period(period, now)
    return Expected((float((await attendance.attendance_summary(session, HARBOR.id, span.start, span.end))["visits"]),))


@answer
async def most_popular_class(session: AsyncSession, now: datetime, *, period: str) -> Expected:
    span = _period(period, now)
    top = (await attendance.popular_classes(session, HARBOR.id, span.start, span.end, tz=TZ, limit=1))[0]
    return Expected((float(top["visits"]),), (top["name"],))


@answer
async def utilization(session: AsyncSession, now: datetime, *, period: str) -> Expected:
    """Overall class utilization in percent, one decimal (as analytics.class_utilization shows it)."""
    span = _period(period, now)
    data = await attendance.class_utilization(session, HARBOR.id, span.start, span.end)
    return Expected((round(data["utilization"] * 100, 1),))


@answer
async def plan_subscriptions(session: AsyncSession, now: datetime, *, plan: str) -> Expected:
    data = await billing.plan_distribution(session, HARBOR.id)
    row = next(p for p in data["plans"] if p["name"] == plan)
    return Expected((float(row["active_subscriptions"]),))


@answer
async def pending_forms(session: AsyncSession, now: datetime) -> Expected:
    data = await forms.list_pending_for_org(session, HARBOR.id, today=local_today(TZ, now), limit=1)
    return Expected((float(data["count"]),))


@answer
async def sessions_on(session: AsyncSession, now: datetime, *, day: str, class_type: str | None = None) -> Expected:
    """Class sessions (not cancelled) on a local day, optionally of one class type."""
    rows = await list_sessions_for_date(session, HARBOR.id, local_day(day, now), TZ, include_cancelled=False)
    wanted = [r for r in rows if class_type is None or r.class_type_name.lower() == class_type.lower()]
    return Expected((float(len(wanted)),))


@answer
async def enrolled(session: AsyncSession, now: datetime, *, program: str) -> Expected:
    count = await session.scalar(text(
        "SELECT count(*) FROM program_enrollments e JOIN programs p ON p.id = e.program_id "
        "WHERE p.org_id = :org AND lower(p.name) = lower(:name) AND e.status = 'active'"),
        {"org": HARBOR.id, "name": program})
    return Expected((float(count or 0),))


async def _member_id(session: AsyncSession, name: str) -> Any:
    found = await session.scalar(text("SELECT id FROM members WHERE org_id = :org AND lower(full_name) = lower(:n) "
                                      "AND deleted_at IS NULL"), {"org": HARBOR.id, "n": name})
    if found is None:
        raise LookupError(f"no member {name}")
    return found


@answer
async def member_plan(session: AsyncSession, now: datetime, *, member: str) -> Expected:
    """The member's current plan's name (what read.members_get shows)."""
    current = await billing.current_subscription(session, HARBOR.id, await _member_id(session, member))
    return Expected(texts=(current[1].name,) if current else ())


@answer
async def member_payments(session: AsyncSession, now: datetime, *, member: str) -> Expected:
    """The member's payment state (ok, failed, overdue) and, when overdue, how much."""
    status = await billing.member_payment_status(session, HARBOR.id, await _member_id(session, member),
                                                 local_today(TZ, now))
    amount = (status["overdue_cents"] / 100,) if status["state"] == "overdue" else ()
    return Expected(amount, (status["state"],))


@answer
async def unread_comments(session: AsyncSession, now: datetime, *, program: str, coach: str) -> Expected:
    """Comments in the program the coach has not read (and did not write)."""
    program_id = await session.scalar(text("SELECT id FROM programs WHERE org_id = :org AND name = :n"),
                                      {"org": HARBOR.id, "n": program})
    coach_id = await session.scalar(text("SELECT id FROM users WHERE email = :e"), {"e": coach})
    found = await comments_in_program(session, HARBOR.id, program_id, coach_user_id=coach_id, unread_only=True,
                                      limit=500)
    return Expected((float(len(found or [])),))


@answer
async def dani_workouts(session: AsyncSession, now: datetime, *, period: str = "month") -> Expected:
    view = await statistics_view(session, HARBOR.id, DANI_MEMBER_ID, now, period, TZ)
    return Expected((float(view["overview"]["total_workouts"]),))


@answer
async def dani_volume(session: AsyncSession, now: datetime, *, period: str = "month") -> Expected:
    view = await statistics_view(session, HARBOR.id, DANI_MEMBER_ID, now, period, TZ)
    return Expected((float(view["overview"]["total_volume_kg"]),))


@answer
async def dani_record(session: AsyncSession, now: datetime, *, exercise: str) -> Expected:
    view = await statistics_view(session, HARBOR.id, DANI_MEMBER_ID, now, "all_time", TZ)
    row = next(r for r in view["personal_records"] if r["exercise"].lower() == exercise.lower())
    return Expected((float(row["max_load_kg"]),))


@answer
async def dani_debt(session: AsyncSession, now: datetime, *, goal: str) -> Expected:
    """A category's actual share over the last 28 days and its debt, in percent (as the tools show them)."""
    view = await distribution_view(session, HARBOR.id, DANI_MEMBER_ID, now)
    row = next(g for g in view["categories"] if g["name"] == goal)
    return Expected((float(row["actualPct"]), float(row["debtPct"])))


@answer
async def nutrition_targets(session: AsyncSession, now: datetime, *, member: str,
                            fields: tuple[str, ...] = ("target_intake_kcal",)) -> Expected:
    """The member's current plan's macro targets (the SCIENTIST's numbers, from the pipeline's own code)."""
    return Expected(tuple(await nutrition.current_targets(session, member, list(fields))))


async def expected_answer(session: AsyncSession, now: datetime, fn: str, args: dict[str, Any]) -> Expected:
    if fn not in ANSWERS:
        raise KeyError(f"no answer function {fn!r} (evals/answers.py has {', '.join(sorted(ANSWERS))})")
    return await ANSWERS[fn](session, now, **args)


def with_texts(found: Expected, texts: tuple[str, ...]) -> Expected:
    return Expected(found.numbers, found.texts + texts) if texts else found


