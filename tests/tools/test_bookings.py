"""bookings tools: the caller's own bookings (via their member profile), and attendance numbers over local
periods that equal hand-computed values on a small fixture."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

import pytest

from gym import classes, members
from gym.periods import local_instant
from tests.tools.harness import REGISTRY, roles_of

if TYPE_CHECKING:
    from tests.factories import TestOrg, TestUser

TZ = "Asia/Jerusalem"
NOW = datetime(2026, 11, 22, 22, 30, tzinfo=UTC)  # 00:30 Monday 23 Nov in Jerusalem
ACTIONS = ("list_mine", "attendance_summary", "attendance_trend")


@dataclass
class Gym:
    org: TestOrg
    owner: TestUser
    coach: TestUser
    members: dict[str, uuid.UUID]
    sessions: dict[str, uuid.UUID]


async def _make_gym(db, factory) -> Gym:
    """Local sessions and bookings (A/B/C are members; D is the coach's own member profile):

    S1 Mon 16 Nov 18:00   A attended, B attended, C no-show
    S2 Wed 18 Nov 07:00   A attended, B cancelled
    S3 Sun 22 Nov 23:30   A no-show, C attended        (21:30 UTC: still last week locally)
    S4 Mon 23 Nov 00:15   B attended, D attended       (22:15 UTC on the 22nd, but this week locally)
    S5 Tue 17 Nov 12:00   cancelled session, no bookings
    S6 Wed 25 Nov 18:00   D booked, A booked           (upcoming)
    """
    org = await factory.org(timezone=TZ)
    owner, coach = await factory.user(org, "owner"), await factory.user(org, "coach")
    plan = {"S1": (date(2026, 11, 16), "18:00", {"A": "attended", "B": "attended", "C": "no_show"}),
            "S2": (date(2026, 11, 18), "07:00", {"A": "attended", "B": "cancelled"}),
            "S3": (date(2026, 11, 22), "23:30", {"A": "no_show", "C": "attended"}),
            "S4": (date(2026, 11, 23), "00:15", {"B": "attended", "D": "attended"}),
            "S5": (date(2026, 11, 17), "12:00", {}),
            "S6": (date(2026, 11, 25), "18:00", {"D": "booked", "A": "booked"})}
    async with db.scope(org_id=org.id) as session:
        crossfit = await classes.create_class_type(session, org.id, name="CrossFit", default_duration_min=45)
        people = {key: (await members.create_member(session, org.id, first_name=name,
                                                     user_id=coach.id if key == "D" else None)).id
                  for key, name in (("A", "Ada"), ("B", "Ben"), ("C", "Cal"), ("D", "Dor"))}
        made = {}
        for key, (day, clock, bookings) in plan.items():
            row = await classes.create_session(session, org.id, class_type_id=crossfit.id, title=f"CrossFit {key}",
                                               starts_at=local_instant(day, clock, TZ))
            made[key] = row.id
            for who, status in bookings.items():
                booking = await classes.book(session, org.id, class_session_id=row.id, member_id=people[who],
                                             now=NOW)
                if status != "booked":
                    await classes.set_booking_status(session, org.id, booking.id, status, now=NOW)
        await classes.cancel_session(session, org.id, made["S5"], NOW)
    return Gym(org, owner, coach, people, made)


@pytest.fixture
async def gym(db, factory) -> Gym:
    return await _make_gym(db, factory)


async def test_attendance_summary_last_week_equals_hand_counts(tools, gym) -> None:
    out = await tools.ok("bookings__attendance_summary", {"period": "last_week"}, org=gym.org, user=gym.owner,
                         now=NOW)
    assert out["period"] == {"label": "last_week", "firstDay": "2026-11-16", "lastDay": "2026-11-22"}
    assert (out["visits"], out["noShows"], out["cancellations"], out["bookings"]) == (4, 2, 1, 7)
    assert (out["uniqueMembers"], out["sessions"]) == (3, 3)  # S5 was cancelled; S4 is Monday locally
    assert out["avgVisitsPerSession"] == 1.33 and out["noShowRate"] == 0.333


async def test_attendance_summary_explicit_dates_in_local_days(tools, gym) -> None:
    out = await tools.ok("bookings__attendance_summary", {"from": "2026-11-16", "to": "2026-11-23"}, org=gym.org,
                         user=gym.owner, role="front_desk", now=NOW)
    assert (out["visits"], out["noShows"], out["uniqueMembers"], out["sessions"]) == (6, 2, 4, 4)
    monday = await tools.ok("bookings__attendance_summary", {"from": "2026-11-23", "to": "2026-11-23"},
                            org=gym.org, user=gym.owner, now=NOW)
    assert (monday["visits"], monday["uniqueMembers"], monday["sessions"]) == (2, 2, 1)


async def test_attendance_trend_per_day_and_week(tools, gym) -> None:
    days = await tools.ok("bookings__attendance_trend", {"period": "last_week", "bucket": "day"}, org=gym.org,
                          user=gym.owner, role="coach", now=NOW)
    assert [(p["start"], p["visits"], p["noShows"], p["uniqueMembers"]) for p in days["points"]] == [
        ("2026-11-16", 2, 1, 2), ("2026-11-17", 0, 0, 0), ("2026-11-18", 1, 0, 1), ("2026-11-19", 0, 0, 0),
        ("2026-11-20", 0, 0, 0), ("2026-11-21", 0, 0, 0), ("2026-11-22", 1, 1, 1)]
    assert (days["totalVisits"], days["totalNoShows"], days["bucket"]) == (4, 2, "day")
    weeks = await tools.ok("bookings__attendance_trend", {"from": "2026-11-16", "to": "2026-11-29"}, org=gym.org,
                           user=gym.owner, now=NOW)
    assert [(p["start"], p["visits"], p["uniqueMembers"]) for p in weeks["points"]] == [
        ("2026-11-16", 4, 3), ("2026-11-23", 2, 2)]
    too_many = await tools.fails("bookings__attendance_trend", {"period": "last_year", "bucket": "day"},
                                 "too_many_points", org=gym.org, user=gym.owner, now=NOW)
    assert "week" in too_many["hint"]


async def test_attendance_is_per_org(tools, factory, gym) -> None:
    other = await factory.org(timezone=TZ)
    stranger = await factory.user(other, "owner")
    out = await tools.ok("bookings__attendance_summary", {"from": "2026-11-16", "to": "2026-11-23"}, org=other,
                         user=stranger, now=NOW)
    assert (out["visits"], out["bookings"], out["sessions"]) == (0, 0, 0)


async def test_list_mine_reads_the_callers_own_member_profile(tools, gym) -> None:
    upcoming = await tools.ok("bookings__list_mine", {}, org=gym.org, user=gym.coach, now=NOW)
    assert upcoming["member"] == "Dor" and upcoming["memberId"] == str(gym.members["D"])
    assert [(b["sessionId"], b["status"], b["date"], b["start"], b["end"]) for b in upcoming["bookings"]] == [
        (str(gym.sessions["S6"]), "booked", "2026-11-25", "18:00", "18:45")]
    everything = await tools.ok("bookings__list_mine", {"when": "all"}, org=gym.org, user=gym.coach, now=NOW)
    assert [b["sessionId"] for b in everything["bookings"]] == [str(gym.sessions["S6"]), str(gym.sessions["S4"])]
    past = await tools.ok("bookings__list_mine", {"when": "past"}, org=gym.org, user=gym.coach, now=NOW)
    assert [(b["date"], b["start"], b["status"]) for b in past["bookings"]] == [("2026-11-23", "00:15", "attended")]


async def test_list_mine_without_a_member_profile_is_empty_with_a_note(tools, gym) -> None:
    out = await tools.ok("bookings__list_mine", {"when": "all"}, org=gym.org, user=gym.owner, now=NOW)
    assert out["count"] == 0 and out["bookings"] == [] and "no member profile" in out["note"]


async def test_list_mine_owner_or_admin_may_read_a_members_bookings(tools, factory, gym) -> None:
    ada = str(gym.members["A"])
    for role in ("owner", "admin"):
        out = await tools.ok("bookings__list_mine", {"memberId": ada, "when": "all"}, org=gym.org, user=gym.owner,
                             role=role, now=NOW)
        assert out["member"] == "Ada"
        assert [(b["title"], b["status"]) for b in out["bookings"]] == [
            ("CrossFit S6", "booked"), ("CrossFit S3", "no_show"), ("CrossFit S2", "attended"),
            ("CrossFit S1", "attended")]
    for role, said in (("coach", "Coach"), ("front_desk", "Front desk")):
        error = await tools.fails("bookings__list_mine", {"memberId": ada}, "forbidden_for_role", org=gym.org,
                                  user=gym.coach, role=role)
        assert f"({said})" in error["message"] and "{" not in error["message"], error["message"]
    other = await _make_gym(tools.runner.db, factory)
    await tools.fails("bookings__list_mine", {"memberId": str(other.members["A"])}, "member_not_found", org=gym.org,
                      user=gym.owner)


@pytest.mark.parametrize("action", ACTIONS)
async def test_every_staff_role_may_read_but_members_may_not(tools, gym, action) -> None:
    name = f"bookings__{action}"
    assert roles_of(name) == {"owner", "admin", "coach", "front_desk"}
    assert REGISTRY.get(name).side_effects == "read"
    assert name not in {s.name for s in REGISTRY.for_role("member")}
    await tools.fails(name, {}, "forbidden_for_role", org=gym.org, user=gym.owner, role="member")


@pytest.mark.parametrize(("action", "bad"), [
    ("list_mine", {"limit": 0}), ("list_mine", {"when": "soon"}), ("list_mine", {"memberId": "ada"}),
    ("attendance_summary", {"period": "fortnight"}), ("attendance_summary", {"from": "2026-11-20", "to": "2026-11-01"}),
    ("attendance_summary", {"from": "yesterday-ish"}), ("attendance_trend", {"bucket": "hour"}),
])
async def test_bad_input_is_validation_failed(tools, gym, action, bad) -> None:
    await tools.fails(f"bookings__{action}", bad, "validation_failed", org=gym.org, user=gym.owner, now=NOW)
