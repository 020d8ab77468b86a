"""Member search ranks by name (typos tolerated) within one gym; the detail view gathers plan, payments,
visits and forms; edits keep the stored full name in step and refuse duplicates."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from gym import billing, classes, forms, member_analytics, member_profile, member_search, members
from gym.errors import GymError

NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)
NAMES = [("Saar", "Levi"), ("Sarah", "Katz"), ("Shira", "Saar"), ("Sasha", "Cohen"), ("Saar", "Cohen"),
         ("Noa", "Peretz"), ("Dani", "Mizrahi")]


async def _gym(db, factory, names=NAMES):
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        made = {}
        for first, last in names:
            member = await members.create_member(session, org.id, first_name=first, last_name=last,
                                                 email=f"{first}.{last}@example.test".lower(),
                                                 joined_at=date(2026, 1, 5))
            made[f"{first} {last}"] = member.id
    return org, made


async def test_search_ranks_both_saars_first_and_tolerates_a_typo(db, factory) -> None:
    org, made = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        saar = await member_search.search_members(session, org.id, "Saar")
        typo = await member_search.search_members(session, org.id, "saar coen")
    assert {hit.full_name for hit in saar[:2]} == {"Saar Cohen", "Saar Levi"}
    assert "Shira Saar" in [hit.full_name for hit in saar[2:]]  # a surname match ranks below first names
    assert typo[0].id == made["Saar Cohen"]


async def test_search_by_email_status_filter_and_soft_delete(db, factory) -> None:
    org, made = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        await members.update_member(session, org.id, made["Noa Peretz"], status="frozen")
        by_email = await member_search.search_members(session, org.id, "noa.peretz@")
        frozen = await member_search.search_members(session, org.id, None, status="frozen")
        await members.soft_delete_member(session, org.id, made["Saar Levi"], NOW)
        after_delete = await member_search.search_members(session, org.id, "Saar")
    assert by_email[0].id == made["Noa Peretz"]
    assert [hit.id for hit in frozen] == [made["Noa Peretz"]]
    assert made["Saar Levi"] not in {hit.id for hit in after_delete}


async def test_search_never_returns_another_gyms_members(db, factory) -> None:
    org, made = await _gym(db, factory)
    other, other_made = await _gym(db, factory, names=[("Saar", "Cohen")])
    async with db.scope(org_id=org.id) as session:
        hits = await member_search.search_members(session, org.id, "Saar Cohen")
        # Asking for the other org's id from this org's scope sees nothing either (RLS backs the filter).
        foreign = await member_search.search_members(session, other.id, "Saar Cohen")
        detail = await member_profile.get_member_detail(session, org.id, other_made["Saar Cohen"], now=NOW)
    assert other_made["Saar Cohen"] not in {hit.id for hit in hits}
    assert made["Saar Cohen"] in {hit.id for hit in hits}
    assert foreign == []
    assert detail is None


async def test_member_detail_gathers_coach_plan_payments_visits_and_forms(db, factory) -> None:
    org, made = await _gym(db, factory)
    coach = await factory.user(org, "coach", name="Noa Coach")
    dani = made["Dani Mizrahi"]
    async with db.scope(org_id=org.id) as session:
        await members.update_member(session, org.id, dani, coach_user_id=coach.id)
        plan = await billing.create_plan(session, org.id, name="Unlimited Monthly", price_cents=45000,
                                         interval="month")
        sub = await billing.subscribe(session, org.id, member_id=dani, plan_id=plan.id, started_on=date(2026, 1, 5))
        paid = dict(member_id=dani, subscription_id=sub.id, amount_cents=45000)
        await billing.record_payment(session, org.id, **paid, due_on=date(2026, 9, 5), status="paid",
                                     paid_at=datetime(2026, 9, 5, 6, tzinfo=UTC))
        # October: failed, then recovered by a retry; November: failed and never recovered (overdue).
        await billing.record_payment(session, org.id, **paid, due_on=date(2026, 10, 5), status="failed")
        await billing.record_payment(session, org.id, **paid, due_on=date(2026, 10, 5), status="paid",
                                     paid_at=datetime(2026, 10, 7, 6, tzinfo=UTC))
        await billing.record_payment(session, org.id, **paid, due_on=date(2026, 11, 5), status="failed")
        crossfit = await classes.create_class_type(session, org.id, name="CrossFit")
        visit = await classes.create_session(session, org.id, class_type_id=crossfit.id,
                                             starts_at=NOW - timedelta(days=2), published=True)
        upcoming = await classes.create_session(session, org.id, class_type_id=crossfit.id,
                                                starts_at=NOW + timedelta(days=1), published=True)
        booking = await classes.book(session, org.id, class_session_id=visit.id, member_id=dani, now=NOW)
        await classes.set_booking_status(session, org.id, booking.id, "attended", now=visit.starts_at)
        await classes.book(session, org.id, class_session_id=upcoming.id, member_id=dani, now=NOW)
        health = await forms.create_form(session, org.id, name="Health Declaration", type_key="health")
        await forms.assign_form(session, org.id, form_id=health.id, member_id=dani, now=NOW)
        detail = await member_profile.get_member_detail(session, org.id, dani, now=NOW, tz="Asia/Jerusalem")
    assert detail["full_name"] == "Dani Mizrahi"
    assert detail["status"] == "active"
    assert detail["coach"] == {"user_id": coach.id, "name": "Noa Coach"}
    assert detail["plan"]["name"] == "Unlimited Monthly"
    assert detail["subscription"]["id"] == sub.id and detail["subscription"]["status"] == "active"
    payments = detail["payments"]
    assert payments["state"] == "overdue"
    assert payments["last_payment"]["status"] == "failed"
    assert payments["last_paid_at"] == datetime(2026, 10, 7, 6, tzinfo=UTC)
    assert (payments["failed_count_90d"], payments["overdue_count"], payments["overdue_cents"]) == (2, 1, 45000)
    assert detail["last_visit_at"] == visit.starts_at
    assert detail["visits"] == {"last_30_days": 1, "upcoming": 1}
    assert detail["pending_forms"] == 1


async def test_update_keeps_full_name_and_refuses_bad_values(db, factory) -> None:
    org, made = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        updated = await members.update_member(session, org.id, made["Saar Levi"], last_name="Levy ")
        assert updated.full_name == "Saar Levy"
        assert (await member_search.search_members(session, org.id, "Saar Levy"))[0].id == made["Saar Levi"]
        with pytest.raises(GymError) as taken:
            await members.update_member(session, org.id, made["Saar Levi"], email="SAAR.COHEN@example.test")
        with pytest.raises(GymError) as status:
            await members.update_member(session, org.id, made["Saar Levi"], status="vip")
        with pytest.raises(GymError) as unknown:
            await members.update_member(session, org.id, made["Saar Levi"], org_id=made["Saar Levi"])
        with pytest.raises(GymError):
            await members.create_member(session, org.id, first_name="  ")
        missing = await members.update_member(session, org.id, org.id, first_name="Nobody")
    assert (taken.value.code, taken.value.status) == ("member_email_taken", 409)
    assert status.value.code == "invalid_member_status"
    assert unknown.value.code == "unknown_member_field"
    assert missing is None


async def test_at_risk_lists_active_members_quiet_for_three_weeks(db, factory) -> None:
    org, made = await _gym(db, factory, names=[("Quiet", "One"), ("Busy", "Two"), ("New", "Three")])
    async with db.scope(org_id=org.id) as session:
        await members.update_member(session, org.id, made["New Three"], joined_at=NOW.date() - timedelta(days=3))
        quiet = await members.get_member(session, org.id, made["Quiet One"])
        busy = await members.get_member(session, org.id, made["Busy Two"])
        quiet.last_visit_at, busy.last_visit_at = NOW - timedelta(days=30), NOW - timedelta(days=2)
        await session.flush()
        risk = await member_analytics.at_risk_members(session, org.id, NOW)
    assert [m["id"] for m in risk["members"]] == [made["Quiet One"]]
    assert risk["members"][0]["days_since_last_visit"] == 30
