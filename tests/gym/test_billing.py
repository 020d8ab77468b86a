"""Revenue, trends, plan mix, failed and overdue payments equal hand-computed values, in the gym's timezone."""

from __future__ import annotations

from datetime import UTC, date, datetime
from fractions import Fraction

import pytest

from gym import billing, members
from gym.errors import GymError
from gym.periods import resolve_period

TZ = "Asia/Jerusalem"
NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


async def _books(db, factory):
    """Four members, two plans; payments chosen so every number below can be added up by hand."""
    org = await factory.org(timezone=TZ)
    async with db.scope(org_id=org.id) as session:
        unlimited = await billing.create_plan(session, org.id, name="Unlimited", price_cents=45000, interval="month")
        pack = await billing.create_plan(session, org.id, name="8-Class Pack", price_cents=32000,
                                         interval="class_pack")
        await billing.create_plan(session, org.id, name="Yearly", price_cents=450000, interval="year")
        ids = {}
        for name, plan, status in (("Ada", unlimited, "active"), ("Ben", pack, "active"),
                                   ("Cy", unlimited, "active"), ("Dov", pack, "paused")):
            member = await members.create_member(session, org.id, first_name=name, last_name="Test")
            sub = await billing.subscribe(session, org.id, member_id=member.id, plan_id=plan.id,
                                          started_on=date(2026, 1, 1), status=status)
            ids[name] = (member.id, sub.id, plan.price_cents)

        async def pay(name: str, due: date, status: str, at: datetime, paid: bool = True) -> None:
            member_id, sub_id, amount = ids[name]
            await billing.record_payment(session, org.id, member_id=member_id, subscription_id=sub_id,
                                         amount_cents=amount, due_on=due, status=status,
                                         paid_at=at if paid else None, attempted_at=at)

        await pay("Ada", date(2026, 10, 5), "paid", utc(2026, 10, 5, 6))
        await pay("Ada", date(2026, 11, 1), "paid", utc(2026, 10, 31, 22, 30))  # 00:30 on 1 Nov in Jerusalem
        await pay("Ben", date(2026, 10, 12), "paid", utc(2026, 10, 12, 7))
        await pay("Ben", date(2026, 10, 15), "refunded", utc(2026, 10, 15, 7))
        await pay("Cy", date(2026, 10, 20), "failed", utc(2026, 10, 20, 6), paid=False)
        await pay("Cy", date(2026, 10, 20), "paid", utc(2026, 10, 22, 6))  # the retry recovers it
        await pay("Cy", date(2026, 11, 20), "failed", utc(2026, 11, 20, 6), paid=False)  # never recovered
        await pay("Dov", date(2026, 11, 10), "pending", utc(2026, 11, 10, 6), paid=False)  # overdue
        await pay("Dov", date(2026, 11, 25), "pending", utc(2026, 11, 23, 6), paid=False)  # not due yet
    return org, ids


async def test_revenue_summary_counts_paid_by_local_month_with_refunds_and_failures(db, factory) -> None:
    org, _ = await _books(db, factory)
    october = resolve_period("last_month", None, None, TZ, NOW)
    async with db.scope(org_id=org.id) as session:
        summary = await billing.revenue_summary(session, org.id, october.start, october.end)
    assert summary["currency"] == "ILS"
    assert summary["total_cents"] == 45000 + 32000 + 45000  # the 1 Nov (local) payment is November's
    assert (summary["payments"], summary["paying_members"]) == (3, 3)
    assert summary["refunded_cents"] == 32000
    assert (summary["failed_count"], summary["failed_cents"]) == (1, 45000)
    assert summary["average_per_member_cents"] == Fraction(122000, 3)


async def test_revenue_series_buckets_by_local_month_and_fills_gaps(db, factory) -> None:
    org, _ = await _books(db, factory)
    period = resolve_period(None, date(2026, 9, 1), date(2026, 11, 30), TZ, NOW)
    async with db.scope(org_id=org.id) as session:
        series = await billing.revenue_series(session, org.id, period, TZ, bucket="month")
    assert [(p["period_start"], p["amount_cents"], p["payments"]) for p in series["points"]] == [
        (date(2026, 9, 1), 0, 0), (date(2026, 10, 1), 122000, 3), (date(2026, 11, 1), 45000, 1)]


async def test_overdue_is_unresolved_and_past_due_and_recovered_failures_are_not(db, factory) -> None:
    org, ids = await _books(db, factory)
    async with db.scope(org_id=org.id) as session:
        overdue = await billing.overdue_payments(session, org.id, date(2026, 11, 23))
        failed = await billing.failed_payments(session, org.id, utc(2026, 10, 1), utc(2026, 12, 1))
        cy = await billing.member_payment_status(session, org.id, ids["Cy"][0], date(2026, 11, 23))
        ada = await billing.member_payment_status(session, org.id, ids["Ada"][0], date(2026, 11, 23))
    assert (overdue["count"], overdue["amount_cents"], overdue["members"]) == (2, 45000 + 32000, 2)
    assert [(p["member_id"], p["due_on"], p["days_overdue"]) for p in overdue["payments"]] == [
        (ids["Dov"][0], date(2026, 11, 10), 13), (ids["Cy"][0], date(2026, 11, 20), 3)]
    assert (failed["count"], failed["recovered"], failed["amount_cents"]) == (2, 1, 90000)
    assert (cy["state"], cy["overdue_count"], cy["failed_count_90d"]) == ("overdue", 1, 2)
    assert (ada["state"], ada["overdue_count"], ada["last_payment"]["due_on"]) == ("ok", 0, date(2026, 11, 1))


async def test_plan_distribution_counts_active_and_paused_subscriptions(db, factory) -> None:
    org, _ = await _books(db, factory)
    async with db.scope(org_id=org.id) as session:
        mix = await billing.plan_distribution(session, org.id)
    by_name = {p["name"]: p for p in mix["plans"]}
    assert mix["active_subscriptions"] == 3
    assert (by_name["Unlimited"]["active_subscriptions"], by_name["Unlimited"]["share"]) == (2, 0.667)
    assert (by_name["8-Class Pack"]["active_subscriptions"], by_name["8-Class Pack"]["paused_subscriptions"]) == (1, 1)
    assert by_name["Yearly"]["active_subscriptions"] == 0
    assert by_name["Unlimited"]["monthly_value_cents"] == 90000


async def test_billing_rules_and_other_orgs(db, factory) -> None:
    org, ids = await _books(db, factory)
    other = await factory.org()
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(GymError) as interval:
            await billing.create_plan(session, org.id, name="Daily", price_cents=100, interval="day")
        with pytest.raises(GymError) as paid_at:
            await billing.record_payment(session, org.id, member_id=ids["Ada"][0], amount_cents=1,
                                         due_on=date(2026, 11, 1), status="paid")
        foreign_plan = await billing.subscribe(session, org.id, member_id=ids["Ada"][0], plan_id=other.id,
                                               started_on=date(2026, 1, 1))
    async with db.scope(org_id=other.id) as session:
        empty = await billing.revenue_summary(session, other.id, utc(2026, 1, 1), utc(2027, 1, 1))
        mix = await billing.plan_distribution(session, other.id)
    assert (interval.value.code, paid_at.value.code) == ("invalid_plan_interval", "paid_at_required")
    assert foreign_plan is None
    assert (empty["total_cents"], empty["currency"], mix["plans"]) == (0, None, [])
