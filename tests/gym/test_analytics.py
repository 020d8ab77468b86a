"""gym.analytics: period arithmetic (previous period, to-date comparison, buckets) and the cross-entity
queries (coach overview, workouts summary, org insights, plan starts), checked against hand counts."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update

from gym import analytics, assignments, billing, classes, members, programs, workouts
from gym.periods import day_range, resolve_period
from gym.workouts import MovementIn, SectionIn, Workout

TZ = "Asia/Jerusalem"
NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)  # Monday 23 Nov 2026, 12:00 in Jerusalem


def local(*args: int) -> datetime:
    return datetime(*args, tzinfo=ZoneInfo(TZ))


def days(period) -> tuple[date, date]:
    return period.first_day, period.last_day


# --- period arithmetic ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "expected"), [
    ("this_month", (date(2026, 10, 1), date(2026, 10, 31))),
    ("last_month", (date(2026, 9, 1), date(2026, 9, 30))),
    ("this_quarter", (date(2026, 7, 1), date(2026, 9, 30))),
    ("this_year", (date(2025, 1, 1), date(2025, 12, 31))),
    ("this_week", (date(2026, 11, 16), date(2026, 11, 22))),  # Monday to Sunday
    ("last_7_days", (date(2026, 11, 10), date(2026, 11, 16))),  # 17-23 Nov before it
    ("last_30_days", (date(2026, 9, 25), date(2026, 10, 24))),
])
def test_previous_period_has_the_same_shape(name: str, expected: tuple[date, date]) -> None:
    assert days(analytics.previous_period(resolve_period(name, None, None, TZ, NOW), TZ)) == expected


def test_previous_period_of_explicit_dates_and_its_instants() -> None:
    january = day_range(date(2026, 1, 1), date(2026, 1, 31), TZ, "jan")
    assert days(analytics.previous_period(january, TZ)) == (date(2025, 12, 1), date(2025, 12, 31))
    odd = day_range(date(2026, 2, 10), date(2026, 3, 9), TZ, "odd")  # 28 days, not whole months
    assert days(analytics.previous_period(odd, TZ)) == (date(2026, 1, 13), date(2026, 2, 9))
    october = day_range(date(2026, 10, 1), date(2026, 10, 31), TZ, "oct")
    september = analytics.previous_period(october, TZ)
    assert september.start == datetime(2026, 8, 31, 21, tzinfo=UTC)  # local midnight, UTC+3 in summer
    assert september.end == october.start == datetime(2026, 9, 30, 21, tzinfo=UTC)


def test_comparison_windows_to_date_while_running_and_full_otherwise() -> None:
    november = resolve_period("this_month", None, None, TZ, NOW)
    current, before, basis = analytics.comparison_windows(november, TZ, NOW)
    assert (basis, days(current), days(before)) == (
        "to_date", (date(2026, 11, 1), date(2026, 11, 23)), (date(2026, 10, 1), date(2026, 10, 23)))
    late_march = datetime(2026, 3, 30, 12, tzinfo=UTC)
    march = resolve_period("this_month", None, None, TZ, late_march)
    _, february, _ = analytics.comparison_windows(march, TZ, late_march)
    assert days(february) == (date(2026, 2, 1), date(2026, 2, 28))  # clipped to February's end
    october = resolve_period("last_month", None, None, TZ, NOW)
    current, before, basis = analytics.comparison_windows(october, TZ, NOW)
    assert (basis, current, days(before)) == ("full_period", october, (date(2026, 9, 1), date(2026, 9, 30)))
    # 22:30 UTC on 31 Oct is already 1 Nov in Jerusalem: November is running, on its first day
    _, _, basis = analytics.comparison_windows(november, TZ, datetime(2026, 10, 31, 22, 30, tzinfo=UTC))
    assert basis == "to_date"


def test_auto_bucket_and_percent_change() -> None:
    span = {n: day_range(date(2026, 1, 1), date(2026, 1, 1) + timedelta(days=n - 1), TZ, "x") for n in (14, 15, 92, 93)}
    assert [analytics.auto_bucket(span[n]) for n in (14, 15, 92, 93)] == ["day", "week", "week", "month"]
    assert analytics.percent_change(150, 100) == 50.0
    assert analytics.percent_change(100, 300) == -66.7
    assert analytics.percent_change(100, 0) is None


# --- queries ----------------------------------------------------------------------------------------------

async def _coached_gym(db, factory):
    """Coach Rina: members Ada (active), Bo (frozen), Cal (cancelled); one held and one cancelled class;
    comments on her assignments and on her members' assignments."""
    org = await factory.org(timezone=TZ)
    rina = await factory.user(org, "coach", name="Rina")
    admin = await factory.user(org, "admin", name="Avi")
    member_user = await factory.user(org, "member", name="Mo")
    async with db.scope(org_id=org.id) as s:
        people = {name: (await members.create_member(s, org.id, first_name=name, status=status,
                                                     joined_at=date(2026, 1, 1), coach_user_id=rina.id)).id
                  for name, status in (("Ada", "active"), ("Bo", "frozen"), ("Cal", "cancelled"))}
        kind = await classes.create_class_type(s, org.id, name="Strength", default_capacity=6)
        held = await classes.create_session(s, org.id, class_type_id=kind.id, starts_at=local(2026, 11, 9, 8),
                                            coach_user_id=rina.id)
        for name, status in (("Ada", "attended"), ("Bo", "no_show")):
            booking = await classes.book(s, org.id, class_session_id=held.id, member_id=people[name],
                                         now=local(2026, 11, 8))
            await classes.set_booking_status(s, org.id, booking.id, status, now=local(2026, 11, 9, 8, 5))
        dropped = await classes.create_session(s, org.id, class_type_id=kind.id, starts_at=local(2026, 11, 10, 8),
                                               coach_user_id=rina.id)
        await classes.cancel_session(s, org.id, dropped.id, NOW)
        plan = (await workouts.create_workout(s, org.id, title="Plan", freeform_text="squat")).workout
        mine = await assignments.assign_personal(s, org.id, workout_id=plan.id, member_id=people["Ada"],
                                                 scheduled_on=date(2026, 11, 12), coach_user_id=admin.id)
        theirs = await assignments.assign_personal(s, org.id, workout_id=plan.id, member_id=people["Bo"],
                                                   scheduled_on=date(2026, 11, 13), coach_user_id=rina.id)
        deleted = await assignments.assign_personal(s, org.id, workout_id=plan.id, member_id=people["Ada"],
                                                    scheduled_on=date(2026, 11, 14), coach_user_id=rina.id)
        await assignments.add_comment(s, org.id, mine.id, body="1", author_member_id=people["Ada"])
        await assignments.add_comment(s, org.id, theirs.id, body="2", author_member_id=people["Bo"])
        await assignments.add_comment(s, org.id, theirs.id, body="3", author_user_id=rina.id)
        await assignments.add_comment(s, org.id, deleted.id, body="4", author_member_id=people["Ada"])
        await assignments.soft_delete_assignment(s, org.id, deleted.id, NOW)
    return org, rina, admin, member_user


async def test_coach_overview_counts_and_unread_rules(db, factory) -> None:
    org, rina, admin, member_user = await _coached_gym(db, factory)
    november = resolve_period("this_month", None, None, TZ, NOW)
    async with db.scope(org_id=org.id) as s:
        everyone = await analytics.coach_overview(s, org.id, november)
        only_admin = await analytics.coach_overview(s, org.id, november, coach_user_id=admin.id)
        not_staff = await analytics.coach_overview(s, org.id, november, coach_user_id=member_user.id)
        october = await analytics.coach_overview(s, org.id, resolve_period("last_month", None, None, TZ, NOW))
    first, second = everyone["coaches"]
    assert everyone["count"] == 2 and (first["name"], second["name"]) == ("Rina", "Avi")
    # Ada + Bo (Cal cancelled); one class held (the other cancelled) with Ada in it and Bo a no-show;
    # one live assignment of hers in November; unread: Ada's comment (her member, Avi's assignment) and Bo's
    # (her assignment) - not her own reply, not the deleted assignment's
    assert (first["members"], first["sessions"], first["visits"], first["no_shows"]) == (2, 1, 1, 1)
    assert (first["assignments"], first["unread_comments"]) == (1, 2)
    # Avi coaches the assignment Ada commented on, so it is unread for him as well
    assert (second["members"], second["sessions"], second["assignments"], second["unread_comments"]) == (0, 0, 1, 1)
    assert only_admin["count"] == 1 and only_admin["coaches"][0]["user_id"] == admin.id
    assert not_staff == {"period": november.as_dict(), "count": 0, "coaches": []}
    assert [(c["name"], c["sessions"], c["assignments"]) for c in october["coaches"]] == [("Rina", 0, 0)]


async def test_workouts_summary_groups_programs_and_movement_names(db, factory) -> None:
    org = await factory.org(timezone=TZ)
    async with db.scope(org_id=org.id) as s:
        feed = await programs.create_program(s, org.id, name="Daily Feed", kind="feed")

        async def workout(title: str, program, created: datetime, **kw):
            w = (await workouts.create_workout(s, org.id, title=title, program_id=program, **kw)).workout
            await s.execute(update(Workout).where(Workout.id == w.id).values(created_at=created))
            return w

        await workout("A", feed.id, local(2026, 11, 1, 0, 10),  # just inside November, local time
                      sections=[SectionIn(movements=[MovementIn(name="Sled Drag"), MovementIn(name="sled drag")])])
        await workout("B", None, local(2026, 10, 31, 23, 50), scheduled_on=date(2026, 11, 2),
                      sections=[SectionIn(movements=[MovementIn(name="Sled Drag")])])
        await workout("C", None, local(2026, 10, 31, 23, 50), freeform_text="rest")  # October only
        gone = await workout("D", feed.id, local(2026, 11, 3), freeform_text="gone")
        member = await members.create_member(s, org.id, first_name="Ann")
        await assignments.assign_personal(s, org.id, workout_id=gone.id, member_id=member.id,
                                          scheduled_on=date(2026, 11, 4))
        await workouts.soft_delete_workout(s, org.id, gone.id, NOW)
        november = resolve_period("this_month", None, None, TZ, NOW)
        summary = await analytics.workouts_summary(s, org.id, november)
        only_feed = await analytics.workouts_summary(s, org.id, november, program_id=feed.id)
        october = await analytics.workouts_summary(s, org.id, resolve_period("last_month", None, None, TZ, NOW))
    assert summary["totals"] == {"created": 1, "scheduled": 1, "structured": 2, "freeform": 0, "workouts": 2,
                                 "assignments": 0}  # the deleted workout's assignment does not count
    assert [(p["name"], p["workouts"], p["created"], p["scheduled"]) for p in summary["programs"]] == [
        ("Daily Feed", 1, 1, 0), (None, 1, 0, 1)]
    assert summary["program_count"] == 2
    # one unresolved movement in two spellings, in two workouts, shown as the commoner spelling
    assert [(e["name"], e["workouts"], e["uses"]) for e in summary["top_exercises"]] == [("Sled Drag", 2, 3)]
    assert only_feed["totals"]["workouts"] == 1 and only_feed["top_exercises"][0]["uses"] == 2
    assert october["totals"]["created"] == 2  # B and C were created on 31 Oct, local time


async def test_org_insights_without_money_and_plan_starts(db, factory) -> None:
    org = await factory.org(timezone=TZ)
    async with db.scope(org_id=org.id) as s:
        plan = await billing.create_plan(s, org.id, name="Monthly", price_cents=30000, interval="month", currency="GBP")
        for name, joined in (("Ann", date(2026, 11, 2)), ("Bea", date(2026, 10, 30))):
            member = await members.create_member(s, org.id, first_name=name, joined_at=joined)
            await billing.subscribe(s, org.id, member_id=member.id, plan_id=plan.id, started_on=joined)
        november = resolve_period("this_month", None, None, TZ, NOW)
        coachish = await analytics.org_insights(s, org.id, november, TZ, NOW, include_money=False)
        full = await analytics.org_insights(s, org.id, november, TZ, NOW)
        mix = await analytics.plan_distribution(s, org.id, november)
    assert "revenue" not in coachish and "failed_payments" not in coachish
    assert coachish["members"]["active"] == 2 and coachish["members"]["joined"] == 1
    # no payments at all: zero revenue, labelled in the plans' currency, no % change
    assert (full["revenue"]["currency"], full["revenue"]["current_cents"], full["revenue"]["change_pct"]) == (
        "GBP", 0, None)
    assert full["failed_payments"] == {"count": 0, "amount_cents": 0, "recovered": 0, "unrecovered": 0}
    assert (mix["active_subscriptions"], mix["started_in_period"], mix["plans"][0]["started_in_period"]) == (2, 1, 1)
