"""class_sessions tools: local days and times in the gym's timezone become the right UTC instants (both
sides of DST), undo cancels, and bulk actions touch exactly the previewed set."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from gym import classes, members
from gym.classes import ClassSession
from tests.tools.harness import REGISTRY, roles_of

if TYPE_CHECKING:
    from tests.factories import TestOrg, TestUser

TZ = "Asia/Jerusalem"
WINTER = datetime(2026, 11, 22, 22, 30, tzinfo=UTC)  # 00:30 Monday 23 Nov in Jerusalem (UTC+2)
SUMMER = datetime(2026, 7, 14, 9, 0, tzinfo=UTC)  # 12:00 Tuesday 14 Jul (UTC+3)
EVE_OF_DST = datetime(2026, 3, 26, 8, 0, tzinfo=UTC)  # 10:00 Thu 26 Mar (UTC+2); clocks go forward on Fri 27th
STAFF = {"owner", "admin", "coach", "front_desk"}
OPEN_GYM = {"classType": "open gym", "date": "tomorrow", "start": "13:00", "end": "14:00", "published": True}


@dataclass
class Gym:
    org: TestOrg
    owner: TestUser
    coach: TestUser
    open_gym: uuid.UUID
    crossfit: uuid.UUID


async def _make_gym(db, factory) -> Gym:
    org = await factory.org(timezone=TZ)
    owner, coach = await factory.user(org, "owner"), await factory.user(org, "coach", name="Noa Coach")
    async with db.scope(org_id=org.id) as session:
        open_gym = await classes.create_class_type(session, org.id, name="Open Gym", default_duration_min=120,
                                                   default_capacity=25)
        crossfit = await classes.create_class_type(session, org.id, name="CrossFit", default_capacity=16)
    return Gym(org, owner, coach, open_gym.id, crossfit.id)


@pytest.fixture
async def gym(db, factory) -> Gym:
    return await _make_gym(db, factory)


@pytest.fixture
async def other(db, factory) -> Gym:
    """A second gym, for ids from another org."""
    return await _make_gym(db, factory)


async def _row(db, org_id, session_id) -> ClassSession:
    async with db.scope(org_id=org_id) as session:
        return await session.scalar(select(ClassSession).where(ClassSession.id == session_id))


async def _create(tools, g: Gym, now: datetime = WINTER, **fields) -> dict:
    return await tools.ok("class_sessions__create", {**OPEN_GYM, **fields}, org=g.org, user=g.owner, now=now)


def _refused(name: str, role: str) -> None:
    assert name not in {s.name for s in REGISTRY.for_role(role)}


# --- create -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("now", "day", "utc_start", "utc_end", "offset"), [
    (WINTER, "2026-11-24", "2026-11-24T11:00:00Z", "2026-11-24T12:00:00Z", "+02:00"),
    (SUMMER, "2026-07-15", "2026-07-15T10:00:00Z", "2026-07-15T11:00:00Z", "+03:00"),
    (EVE_OF_DST, "2026-03-27", "2026-03-27T10:00:00Z", "2026-03-27T11:00:00Z", "+03:00"),
], ids=["winter", "summer", "tomorrow-is-first-summer-day"])
async def test_open_gym_tomorrow_13_to_14_published_is_the_right_utc_instant(tools, db, gym, now, day, utc_start,
                                                                             utc_end, offset) -> None:
    out = await _create(tools, gym, now)
    assert (out["startsAtUtc"], out["endsAtUtc"]) == (utc_start, utc_end)
    assert (out["startsAt"], out["endsAt"]) == (f"{day}T13:00:00{offset}", f"{day}T14:00:00{offset}")
    assert out["date"] == day and out["classType"] == "Open Gym" and out["title"] == "Open Gym"
    assert out["published"] is True and out["cancelled"] is False and out["capacity"] == 25
    row = await _row(db, gym.org.id, uuid.UUID(out["id"]))
    assert row.starts_at == datetime.fromisoformat(utc_start) and row.published is True
    assert row.class_type_id == gym.open_gym and row.created_by == gym.owner.id


async def test_create_undo_cancels_the_session(tools, db, gym) -> None:
    out = await _create(tools, gym)
    inverse = REGISTRY.get("class_sessions__create").inverse
    assert inverse.name == "class_sessions__cancel"
    undone = await tools.ok(inverse.name, inverse.build_input(out), org=gym.org, user=gym.owner, now=WINTER)
    assert undone["id"] == out["id"] and undone["cancelled"] is True
    assert (await _row(db, gym.org.id, uuid.UUID(out["id"]))).cancelled_at == WINTER


async def test_create_by_id_with_defaults_coach_and_weekday(tools, gym) -> None:
    out = await tools.ok("class_sessions__create", {"classTypeId": str(gym.crossfit), "date": "friday",
                                                    "start": "7:30", "coachUserId": str(gym.coach.id)},
                         org=gym.org, user=gym.coach, now=WINTER)
    assert out["date"] == "2026-11-27" and out["weekday"] == "Friday"
    assert out["startsAt"] == "2026-11-27T07:30:00+02:00" and out["endsAt"] == "2026-11-27T08:30:00+02:00"
    assert out["capacity"] == 16 and out["published"] is False and out["coach"] == "Noa Coach"


async def test_create_roles_every_staff_role_but_not_members(tools, gym) -> None:
    assert roles_of("class_sessions__create") == STAFF
    out = await tools.ok("class_sessions__create", OPEN_GYM, org=gym.org, user=gym.owner, role="front_desk",
                         now=WINTER)
    assert out["published"] is True
    _refused("class_sessions__create", "member")
    await tools.fails("class_sessions__create", OPEN_GYM, "forbidden_for_role", org=gym.org, user=gym.owner,
                      role="member")


async def test_create_refuses_foreign_ids_and_unknown_names(tools, gym, other) -> None:
    base = {k: v for k, v in OPEN_GYM.items() if k != "classType"}
    await tools.fails("class_sessions__create", {**base, "classTypeId": str(other.open_gym)}, "class_type_not_found",
                      org=gym.org, user=gym.owner)
    await tools.fails("class_sessions__create", {**OPEN_GYM, "coachUserId": str(other.coach.id)}, "coach_not_found",
                      org=gym.org, user=gym.owner)
    unknown = await tools.fails("class_sessions__create", {**OPEN_GYM, "classType": "yoga"}, "class_type_not_found",
                                org=gym.org, user=gym.owner)
    assert "Open Gym" in unknown["hint"] and "CrossFit" in unknown["hint"]


async def test_create_ambiguous_type_name_asks_for_a_choice(tools, db, gym) -> None:
    async with db.scope(org_id=gym.org.id) as session:
        await classes.create_class_type(session, gym.org.id, name="Open Gym Kids")
    exact = await _create(tools, gym)
    assert exact["classType"] == "Open Gym"
    ambiguous = await tools.fails("class_sessions__create", {**OPEN_GYM, "classType": "gym"}, "class_type_ambiguous",
                                  org=gym.org, user=gym.owner)
    assert "Open Gym Kids" in ambiguous["detail"]  # for the model; people read the localized message
    assert ambiguous["message"] == "Several class types match that name. Say which one."


@pytest.mark.parametrize("bad", [
    {"start": "25:00"}, {"end": "2pm"}, {"date": "someday"}, {"date": "2026-02-30"}, {"capacity": 0},
    {"classTypeId": str(uuid.uuid4())}, {"classType": None}, {"published": "maybe"},
], ids=lambda bad: next(iter(bad)))
async def test_create_bad_input_is_validation_failed(tools, gym, bad) -> None:
    await tools.fails("class_sessions__create", {**OPEN_GYM, **bad}, "validation_failed", org=gym.org, user=gym.owner)


async def test_create_end_before_start_is_refused(tools, gym) -> None:
    failed = await tools.fails("class_sessions__create", {**OPEN_GYM, "start": "14:00", "end": "13:00"},
                               "invalid_time_range", org=gym.org, user=gym.owner, now=WINTER)
    assert failed["hint"]


# --- list_for_date ------------------------------------------------------------------------------------------

async def test_list_for_date_shows_the_local_day_with_bookings(tools, db, gym, other) -> None:
    first = await _create(tools, gym)
    late = await _create(tools, gym, start="23:30", end="23:59", published=False)  # 21:30 UTC, still Tuesday
    await _create(tools, gym, date="2026-11-25", start="00:30", end="01:30")  # Tuesday 22:30 UTC, Wednesday here
    gone = await _create(tools, gym, start="18:00", end="19:00")
    await tools.ok("class_sessions__cancel", {"id": gone["id"]}, org=gym.org, user=gym.owner)
    await _create(tools, other)
    async with db.scope(org_id=gym.org.id) as session:
        member = await members.create_member(session, gym.org.id, first_name="Dana")
        await classes.book(session, gym.org.id, class_session_id=uuid.UUID(first["id"]), member_id=member.id,
                           now=WINTER)

    day = await tools.ok("class_sessions__list_for_date", {"date": "tomorrow"}, org=gym.org, user=gym.owner,
                         role="front_desk", now=WINTER)
    assert day["date"] == "2026-11-24" and day["weekday"] == "Tuesday" and day["timezone"] == TZ
    assert [(s["id"], s["start"], s["end"]) for s in day["sessions"]] == [
        (first["id"], "13:00", "14:00"), (gone["id"], "18:00", "19:00"), (late["id"], "23:30", "23:59")]
    assert day["sessions"][0]["booked"] == 1 and day["sessions"][0]["capacity"] == 25
    assert [s["cancelled"] for s in day["sessions"]] == [False, True, False]
    assert day["sessions"][2]["published"] is False
    held = await tools.ok("class_sessions__list_for_date", {"date": "2026-11-24", "includeCancelled": False},
                          org=gym.org, user=gym.owner)
    assert held["count"] == 2


async def test_list_for_date_roles_and_bad_input(tools, gym) -> None:
    assert roles_of("class_sessions__list_for_date") == STAFF
    _refused("class_sessions__list_for_date", "member")
    await tools.fails("class_sessions__list_for_date", {}, "forbidden_for_role", org=gym.org, user=gym.owner,
                      role="member")
    await tools.fails("class_sessions__list_for_date", {"date": "the other day"}, "validation_failed", org=gym.org,
                      user=gym.owner)


# --- update ---------------------------------------------------------------------------------------------

async def test_update_moves_times_in_local_time_and_keeps_length(tools, db, gym) -> None:
    out = await _create(tools, gym)
    moved = await tools.ok("class_sessions__update", {"id": out["id"], "start": "15:00"}, org=gym.org,
                           user=gym.coach, now=WINTER)
    assert (moved["startsAtUtc"], moved["endsAtUtc"]) == ("2026-11-24T13:00:00Z", "2026-11-24T14:00:00Z")
    shifted = await tools.ok("class_sessions__update", {"id": out["id"], "date": "2026-07-01", "capacity": 10,
                                                        "title": "Summer open gym",
                                                        "coachUserId": str(gym.coach.id)},
                             org=gym.org, user=gym.owner, now=WINTER)
    assert shifted["startsAt"] == "2026-07-01T15:00:00+03:00" and shifted["startsAtUtc"] == "2026-07-01T12:00:00Z"
    assert (shifted["capacity"], shifted["title"], shifted["coach"]) == (10, "Summer open gym", "Noa Coach")
    cleared = await tools.ok("class_sessions__update", {"id": out["id"], "coachUserId": None}, org=gym.org,
                             user=gym.owner)
    assert "coach" not in cleared
    row = await _row(db, gym.org.id, uuid.UUID(out["id"]))
    assert row.capacity == 10 and row.coach_user_id is None


async def test_update_refusals(tools, db, gym, other) -> None:
    out = await _create(tools, gym)
    theirs = await _create(tools, other)
    await tools.fails("class_sessions__update", {"id": theirs["id"], "capacity": 5}, "class_session_not_found",
                      org=gym.org, user=gym.owner)
    await tools.fails("class_sessions__update", {"id": out["id"]}, "validation_failed", org=gym.org, user=gym.owner)
    await tools.fails("class_sessions__update", {"id": out["id"], "end": "12:00"}, "invalid_time_range",
                      org=gym.org, user=gym.owner)
    async with db.scope(org_id=gym.org.id) as session:
        for name in ("Ada", "Ben"):
            member = await members.create_member(session, gym.org.id, first_name=name)
            await classes.book(session, gym.org.id, class_session_id=uuid.UUID(out["id"]), member_id=member.id,
                               now=WINTER)
    await tools.fails("class_sessions__update", {"id": out["id"], "capacity": 1}, "capacity_below_bookings",
                      org=gym.org, user=gym.owner)
    _refused("class_sessions__update", "member")
    await tools.fails("class_sessions__update", {"id": out["id"], "capacity": 30}, "forbidden_for_role",
                      org=gym.org, user=gym.owner, role="member")
    assert (await _row(db, gym.org.id, uuid.UUID(out["id"]))).capacity == 25


# --- publish / unpublish / cancel ---------------------------------------------------------------------------

async def test_publish_and_its_inverse_unpublish(tools, db, gym) -> None:
    out = await _create(tools, gym, published=False)
    published = await tools.ok("class_sessions__publish", {"id": out["id"]}, org=gym.org, user=gym.owner,
                               role="front_desk")
    assert published["published"] is True
    inverse = REGISTRY.get("class_sessions__publish").inverse
    assert inverse.name == "class_sessions__unpublish"
    hidden = await tools.ok(inverse.name, inverse.build_input(published), org=gym.org, user=gym.owner, role="coach")
    assert hidden["id"] == out["id"] and hidden["published"] is False
    assert (await _row(db, gym.org.id, uuid.UUID(out["id"]))).published is False


@pytest.mark.parametrize("action", ["publish", "unpublish", "cancel"])
async def test_one_session_actions_refuse_foreign_and_bad_ids(tools, gym, other, action) -> None:
    theirs = await _create(tools, other, published=False)
    name = f"class_sessions__{action}"
    await tools.fails(name, {"id": theirs["id"]}, "class_session_not_found", org=gym.org, user=gym.owner)
    await tools.fails(name, {"id": "not-a-uuid"}, "validation_failed", org=gym.org, user=gym.owner)
    _refused(name, "member")
    await tools.fails(name, {"id": theirs["id"]}, "forbidden_for_role", org=gym.org, user=gym.owner, role="member")
    assert roles_of(name) == (STAFF if action != "cancel" else {"owner", "admin"})


async def test_cancel_is_owner_admin_and_blocks_publishing(tools, db, gym) -> None:
    out = await _create(tools, gym, published=False)
    for role in ("coach", "front_desk"):
        _refused("class_sessions__cancel", role)
        await tools.fails("class_sessions__cancel", {"id": out["id"]}, "forbidden_for_role", org=gym.org,
                          user=gym.owner, role=role)
    assert (await _row(db, gym.org.id, uuid.UUID(out["id"]))).cancelled_at is None
    cancelled = await tools.ok("class_sessions__cancel", {"id": out["id"]}, org=gym.org, user=gym.owner,
                               role="admin", now=WINTER)
    assert cancelled["cancelled"] is True
    failed = await tools.fails("class_sessions__publish", {"id": out["id"]}, "session_cancelled", org=gym.org,
                               user=gym.owner)
    assert "new session" in failed["hint"]
    await tools.fails("class_sessions__update", {"id": out["id"], "title": "x"}, "session_cancelled",
                      org=gym.org, user=gym.owner)


# --- bulk -------------------------------------------------------------------------------------------------

async def _week(tools, g: Gym) -> dict[str, list[str]]:
    """Now is Monday 23 Nov 00:30 local: this week runs to Sun 29 Nov, next week is 30 Nov - 6 Dec."""
    made: dict[str, list[str]] = {"this": [], "next_open": [], "next_crossfit": [], "after": []}
    for day, key in (("2026-11-24", "this"), ("2026-11-29", "this"), ("2026-11-30", "next_open"),
                     ("2026-12-03", "next_open"), ("2026-12-07", "after")):
        made[key].append((await _create(tools, g, date=day, published=False))["id"])
    made["next_crossfit"].append((await _create(tools, g, classType="crossfit", date="2026-12-06", start="23:00",
                                                published=False, end=None))["id"])
    return made


async def test_bulk_preview_publish_delete_touch_the_same_set(tools, db, gym) -> None:
    made = await _week(tools, gym)
    flt = {"period": "next_week", "classTypeId": str(gym.open_gym)}
    preview = await tools.ok("class_sessions__bulk_preview", flt, org=gym.org, user=gym.owner, now=WINTER)
    assert preview["count"] == 2 and set(preview["ids"]) == set(made["next_open"])
    assert (preview["firstDay"], preview["lastDay"]) == ("2026-11-30", "2026-12-06")
    assert [s["date"] for s in preview["sample"]] == ["2026-11-30", "2026-12-03"]

    published = await tools.ok("class_sessions__bulk_publish", {**flt, "expectedFingerprint": preview["fingerprint"]},
                               org=gym.org, user=gym.owner, now=WINTER)
    assert set(published["ids"]) == set(preview["ids"]) and published["count"] == 2
    assert published["fingerprint"] == preview["fingerprint"]

    again = await tools.ok("class_sessions__bulk_preview", {**flt, "published": True}, org=gym.org, user=gym.owner,
                           now=WINTER)
    deleted = await tools.ok("class_sessions__bulk_delete", {**flt, "published": True,
                                                             "expectedIds": again["ids"]},
                             org=gym.org, user=gym.owner, role="admin", now=WINTER)
    assert set(deleted["ids"]) == set(again["ids"]) == set(preview["ids"]) and deleted["action"] == "cancelled"

    async with db.scope(org_id=gym.org.id) as session:
        rows = {str(r.id): r for r in (await session.scalars(select(ClassSession).where(
            ClassSession.org_id == gym.org.id))).all()}
    assert {i for i, r in rows.items() if r.cancelled_at is not None} == set(made["next_open"])
    assert {i for i, r in rows.items() if r.published} == set(made["next_open"])
    whole_week = await tools.ok("class_sessions__bulk_preview", {"from": "2026-11-30", "to": "2026-12-06"},
                                org=gym.org, user=gym.owner)
    assert whole_week["ids"] == made["next_crossfit"]  # cancelled sessions are no longer hit


async def test_bulk_refuses_when_the_set_changed_since_the_preview(tools, db, gym) -> None:
    await _week(tools, gym)
    flt = {"period": "this_week"}
    preview = await tools.ok("class_sessions__bulk_preview", flt, org=gym.org, user=gym.owner, now=WINTER)
    assert preview["count"] == 2
    await _create(tools, gym, date="2026-11-26", published=False)
    for name in ("class_sessions__bulk_publish", "class_sessions__bulk_delete"):
        for expected in ({"expectedFingerprint": preview["fingerprint"]}, {"expectedIds": preview["ids"]}):
            failed = await tools.fails(name, {**flt, **expected}, "bulk_set_changed", org=gym.org, user=gym.owner,
                                       now=WINTER)
            assert "bulk_preview" in failed["hint"]
    async with db.scope(org_id=gym.org.id) as session:
        touched = await session.scalar(select(ClassSession.id).where(
            ClassSession.org_id == gym.org.id, (ClassSession.published.is_(True))
            | (ClassSession.cancelled_at.is_not(None))))
    assert touched is None


@pytest.mark.parametrize("action", ["bulk_preview", "bulk_delete", "bulk_publish"])
async def test_bulk_roles_foreign_ids_and_bad_filters(tools, gym, other, action) -> None:
    name = f"class_sessions__{action}"
    assert roles_of(name) == {"owner", "admin"}
    for role in ("coach", "front_desk", "member"):
        _refused(name, role)
        await tools.fails(name, {"period": "this_week"}, "forbidden_for_role", org=gym.org, user=gym.owner, role=role)
    await tools.fails(name, {"period": "this_week", "classTypeId": str(other.open_gym)}, "class_type_not_found",
                      org=gym.org, user=gym.owner)
    await tools.fails(name, {"period": "this_week", "programId": str(uuid.uuid4())}, "program_not_found",
                      org=gym.org, user=gym.owner)
    await tools.fails(name, {"period": "this_week", "coachUserId": str(other.coach.id)}, "coach_not_found",
                      org=gym.org, user=gym.owner)
    for bad in ({}, {"period": "fortnight"}, {"from": "2026-12-06", "to": "2026-12-01"}):
        await tools.fails(name, bad, "validation_failed", org=gym.org, user=gym.owner)
