"""Scheduling in the gym's timezone, bulk operations that touch exactly the previewed sessions, booking
rules, and attendance numbers equal to hand-computed values."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest

from gym import attendance, classes, members
from gym.classes import SessionFilter
from gym.errors import GymError
from gym.periods import local_instant, parse_local_time_range, resolve_period

TZ = "Asia/Jerusalem"
NOW = datetime(2026, 11, 22, 22, 30, tzinfo=UTC)  # 00:30 on Monday 23 November in Jerusalem


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


async def _gym(db, factory):
    org = await factory.org(timezone=TZ)
    async with db.scope(org_id=org.id) as session:
        crossfit = await classes.create_class_type(session, org.id, name="CrossFit", default_capacity=16)
        open_gym = await classes.create_class_type(session, org.id, name="Open Gym", default_duration_min=120,
                                                   default_capacity=25)
    return org, crossfit.id, open_gym.id


async def _at(session, org_id, type_id, day: date, clock: str, **kw):
    return await classes.create_session(session, org_id, class_type_id=type_id,
                                        starts_at=local_instant(day, clock, TZ), **kw)


async def test_schedule_open_gym_tomorrow_13_to_14_published(db, factory) -> None:
    org, _, open_gym = await _gym(db, factory)
    starts, ends = parse_local_time_range("tomorrow", "13:00", "14:00", TZ, NOW)
    async with db.scope(org_id=org.id) as session:
        created = await classes.create_session(session, org.id, class_type_id=open_gym, starts_at=starts,
                                               ends_at=ends, published=True)
        late = await _at(session, org.id, open_gym, date(2026, 11, 24), "23:30")
        after_midnight = await _at(session, org.id, open_gym, date(2026, 11, 25), "00:30")
        tuesday = await classes.list_sessions_for_date(session, org.id, date(2026, 11, 24), TZ)
        monday = await classes.list_sessions_for_date(session, org.id, date(2026, 11, 23), TZ)
    assert (created.starts_at, created.ends_at) == (utc(2026, 11, 24, 11), utc(2026, 11, 24, 12))
    assert (created.title, created.capacity, created.published) == ("Open Gym", 25, True)
    assert [row.id for row in tuesday] == [created.id, late.id]
    assert after_midnight.id not in {row.id for row in tuesday}
    assert monday == []
    assert tuesday[0].class_type_name == "Open Gym" and tuesday[0].booked == 0


async def test_session_rules(db, factory) -> None:
    org, crossfit, _ = await _gym(db, factory)
    other, other_type, _ = await _gym(db, factory)
    starts = utc(2026, 12, 1, 6)
    async with db.scope(org_id=org.id) as session:
        foreign = await classes.create_session(session, org.id, class_type_id=other_type, starts_at=starts)
        with pytest.raises(GymError) as backwards:
            await classes.create_session(session, org.id, class_type_id=crossfit, starts_at=starts,
                                         ends_at=starts - timedelta(hours=1))
        with pytest.raises(GymError) as naive:
            await classes.create_session(session, org.id, class_type_id=crossfit, starts_at=datetime(2026, 12, 1, 6))
        row = await classes.create_session(session, org.id, class_type_id=crossfit, starts_at=starts, capacity=2)
        for name in ("Ada", "Ben"):
            member = await members.create_member(session, org.id, first_name=name)
            await classes.book(session, org.id, class_session_id=row.id, member_id=member.id, now=NOW)
        with pytest.raises(GymError) as below:
            await classes.update_session(session, org.id, row.id, capacity=1)
        with pytest.raises(GymError) as zero:
            await classes.update_session(session, org.id, row.id, capacity=0)
        with pytest.raises(GymError) as unknown:
            await classes.update_session(session, org.id, row.id, org_id=other.id)
        moved = await classes.update_session(session, org.id, row.id, starts_at=starts + timedelta(hours=1),
                                             ends_at=starts + timedelta(hours=2), title="CrossFit (late)")
        cancelled = await classes.cancel_session(session, org.id, row.id, NOW)
        again = await classes.cancel_session(session, org.id, row.id, NOW + timedelta(hours=1))
        with pytest.raises(GymError) as publish_cancelled:
            await classes.set_published(session, org.id, row.id, True)
    assert foreign is None
    assert (backwards.value.code, naive.value.code) == ("invalid_time_range", "naive_datetime")
    assert (below.value.code, zero.value.code) == ("capacity_below_bookings", "invalid_capacity")
    assert unknown.value.code == "unknown_session_field"
    assert moved.title == "CrossFit (late)"
    assert cancelled.cancelled_at == NOW and again.cancelled_at == NOW
    assert publish_cancelled.value.code == "session_cancelled"


async def test_bulk_publish_touches_exactly_the_previewed_sessions(db, factory) -> None:
    org, crossfit, open_gym = await _gym(db, factory)
    other, other_type, _ = await _gym(db, factory)
    week = [date(2026, 11, 29) + timedelta(days=n) for n in range(7)]
    async with db.scope(org_id=other.id) as session:
        foreign = await _at(session, other.id, other_type, week[1], "07:00")
    async with db.scope(org_id=org.id) as session:
        for day in week:
            await _at(session, org.id, crossfit, day, "07:00")
            await _at(session, org.id, open_gym, day, "10:00")
        await _at(session, org.id, crossfit, week[1], "18:00", published=True)  # already published
        flt = SessionFilter(date_from=week[0], date_to=week[2], class_type_id=crossfit, published=False)
        preview = await classes.preview_sessions(session, org.id, flt, TZ)
        late_arrival = await _at(session, org.id, crossfit, week[2], "19:00")  # matches, but after the preview
        published = await classes.bulk_publish(session, org.id, ids=[*preview["ids"], foreign.id])
        rest = await classes.bulk_publish(session, org.id, flt=flt, tz=TZ)
        unpublished_left = await classes.select_session_ids(session, org.id, SessionFilter(
            date_from=week[0], date_to=week[6], published=False), TZ)
    assert preview["count"] == 3 and len(preview["sessions"]) == 3
    assert all(row.class_type_id == crossfit and not row.published for row in preview["sessions"])
    assert published == preview["ids"]  # the foreign id is ignored, the late arrival untouched
    assert rest == [late_arrival.id]
    assert len(unpublished_left) == 7 + 4  # every open gym session + crossfit on the last four days
    async with db.scope(org_id=other.id) as session:
        assert (await classes.get_session(session, other.id, foreign.id)).published is False


async def test_bulk_delete_cancels_the_previewed_set_and_needs_a_date_range(db, factory) -> None:
    org, crossfit, open_gym = await _gym(db, factory)
    days = [date(2026, 12, 7), date(2026, 12, 8)]
    async with db.scope(org_id=org.id) as session:
        for day in days:
            await _at(session, org.id, crossfit, day, "07:00")
            await _at(session, org.id, open_gym, day, "10:00")
        flt = SessionFilter(date_from=days[0], date_to=days[1], class_type_id=open_gym)
        preview = await classes.preview_sessions(session, org.id, flt, TZ)
        deleted = await classes.bulk_delete(session, org.id, flt=flt, tz=TZ, now=NOW)
        after = await classes.preview_sessions(session, org.id, flt, TZ)
        kept = await classes.list_sessions_for_date(session, org.id, days[0], TZ, include_cancelled=False)
        with pytest.raises(GymError) as no_dates:
            await classes.preview_sessions(session, org.id, SessionFilter(class_type_id=crossfit), TZ)
        with pytest.raises(GymError) as no_target:
            await classes.bulk_publish(session, org.id)
    assert deleted == preview["ids"] and len(deleted) == 2
    assert after["count"] == 0
    assert [row.class_type_id for row in kept] == [crossfit]
    assert (no_dates.value.code, no_target.value.code) == ("session_filter_needs_dates", "bulk_target_required")


async def test_booking_rules_and_check_in_moves_last_visit(db, factory) -> None:
    org, crossfit, _ = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        row = await classes.create_session(session, org.id, class_type_id=crossfit, starts_at=utc(2026, 11, 20, 5),
                                           capacity=1)
        ada = await members.create_member(session, org.id, first_name="Ada")
        ben = await members.create_member(session, org.id, first_name="Ben")
        booking = await classes.book(session, org.id, class_session_id=row.id, member_id=ada.id, now=NOW)
        with pytest.raises(GymError) as twice:
            await classes.book(session, org.id, class_session_id=row.id, member_id=ada.id, now=NOW)
        with pytest.raises(GymError) as full:
            await classes.book(session, org.id, class_session_id=row.id, member_id=ben.id, now=NOW)
        unknown = await classes.book(session, org.id, class_session_id=row.id, member_id=uuid.uuid4(), now=NOW)
        await classes.set_booking_status(session, org.id, booking.id, "attended", now=utc(2026, 11, 20, 5))
        await session.refresh(ada)
        history = await classes.list_member_bookings(session, org.id, ada.id)
    assert (twice.value.code, full.value.code, unknown) == ("already_booked", "session_full", None)
    assert ada.last_visit_at == utc(2026, 11, 20, 5)
    assert [(h["session_id"], h["status"]) for h in history] == [(row.id, "attended")]


async def _attendance_fixture(db, factory):
    """Five members, four sessions (one cancelled, one outside the week of 1-7 November)."""
    org, crossfit, open_gym = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        people = {n: (await members.create_member(session, org.id, first_name=n)).id for n in "ABCDE"}
        s1 = await _at(session, org.id, crossfit, date(2026, 11, 2), "06:30")
        s2 = await _at(session, org.id, open_gym, date(2026, 11, 3), "10:00")
        s3 = await _at(session, org.id, crossfit, date(2026, 11, 4), "06:30")
        s4 = await _at(session, org.id, crossfit, date(2026, 10, 31), "10:00")
        plan = {s1: {"A": "attended", "B": "attended", "C": "no_show", "D": "cancelled"},
                s2: {"A": "attended", "C": "attended", "E": "attended"},
                s3: {"B": "cancelled"}, s4: {"A": "attended"}}
        for row, outcomes in plan.items():
            for name, status in outcomes.items():
                booking = await classes.book(session, org.id, class_session_id=row.id, member_id=people[name],
                                             now=row.starts_at - timedelta(days=1))
                await classes.set_booking_status(session, org.id, booking.id, status, now=row.starts_at)
        await classes.cancel_session(session, org.id, s3.id, s3.starts_at - timedelta(hours=3))
    return org, crossfit, open_gym


async def test_attendance_summary_equals_hand_counts(db, factory) -> None:
    org, _, _ = await _attendance_fixture(db, factory)
    week = resolve_period(None, date(2026, 11, 1), date(2026, 11, 7), TZ, NOW)
    async with db.scope(org_id=org.id) as session:
        summary = await attendance.attendance_summary(session, org.id, week.start, week.end)
    assert summary == {"visits": 5, "no_shows": 1, "cancellations": 2, "bookings": 8, "unique_members": 4,
                       "sessions": 2, "avg_visits_per_session": 2.5, "no_show_rate": 0.167}


async def test_attendance_trend_utilization_and_popular_classes(db, factory) -> None:
    org, crossfit, open_gym = await _attendance_fixture(db, factory)
    week = resolve_period(None, date(2026, 11, 1), date(2026, 11, 7), TZ, NOW)
    async with db.scope(org_id=org.id) as session:
        trend = await attendance.attendance_trend(session, org.id, week, TZ, bucket="day")
        usage = await attendance.class_utilization(session, org.id, week.start, week.end)
        popular = await attendance.popular_classes(session, org.id, week.start, week.end, tz=TZ)
        slots = await attendance.popular_classes(session, org.id, week.start, week.end, tz=TZ, by="slot", limit=1)
    assert len(trend) == 7
    assert {p["period_start"]: (p["visits"], p["no_shows"], p["unique_members"]) for p in trend if p["visits"]} == {
        date(2026, 11, 2): (2, 1, 2), date(2026, 11, 3): (3, 0, 3)}
    assert (usage["sessions"], usage["capacity"], usage["filled"], usage["utilization"]) == (2, 41, 5, 0.122)
    assert {t["class_type_id"]: (t["filled"], t["utilization"]) for t in usage["by_class_type"]} == {
        crossfit: (2, 0.125), open_gym: (3, 0.12)}
    assert [(p["name"], p["sessions"], p["visits"]) for p in popular] == [("Open Gym", 1, 3), ("CrossFit", 1, 2)]
    assert (slots[0]["weekday"], slots[0]["time"]) == ("tuesday", "10:00")


async def test_confirmed_bulk_ids_are_locked_while_compared_with_the_preview(db, factory) -> None:
    """A concurrent writer cannot change a previewed session between the fingerprint check and the update."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    from gym.fingerprint import fingerprint

    org, crossfit, _ = await _gym(db, factory)
    days = [date(2026, 12, 14), date(2026, 12, 15)]
    async with db.scope(org_id=org.id) as session:
        for day in days:
            await _at(session, org.id, crossfit, day, "07:00")
    flt = SessionFilter(date_from=days[0], date_to=days[1])
    async with db.scope(org_id=org.id) as session:
        preview = await classes.preview_sessions(session, org.id, flt, TZ)
        with pytest.raises(GymError) as stale:
            await classes.confirmed_session_ids(session, org.id, flt, TZ, expected_fingerprint="0" * 16)
    assert stale.value.code == "bulk_set_changed" and "bulk_preview" in stale.value.hint
    async with db.scope(org_id=org.id) as session:
        ids = await classes.confirmed_session_ids(session, org.id, flt, TZ,
                                                  expected_fingerprint=fingerprint(preview["ids"]))
        assert ids == preview["ids"]
        async with db.scope(org_id=org.id) as other:
            with pytest.raises(DBAPIError) as busy:
                await other.execute(text("SELECT id FROM class_sessions WHERE id = ANY(:ids) FOR UPDATE NOWAIT"),
                                    {"ids": ids})
    assert "could not obtain lock" in str(busy.value.orig)
