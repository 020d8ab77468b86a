"""assignments tools: personal assignments, patch/publish/delete, marking comments read for the calling coach,
and bulk preview → publish/delete touching exactly the previewed set (named ranges in the gym's timezone)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import select

from gym import assignments as service
from gym.members import create_member
from gym.programs import create_program
from gym.workouts import create_workout
from tests import factories
from tests.tools.harness import REGISTRY
from tools.leaves.assignments import resolve_range

ACTIONS = ("assign_personal", "update", "set_published", "delete", "mark_comments_read", "bulk_preview",
           "bulk_delete", "bulk_publish")
# Sunday 2026-06-07 22:30 UTC is already Monday 2026-06-08 01:30 in Jerusalem: the local week is 8-14 June.
NOW = datetime(2026, 6, 7, 22, 30, tzinfo=UTC)
NEXT_MONDAY, NEXT_SUNDAY = date(2026, 6, 15), date(2026, 6, 21)


@dataclass
class Gym:
    org: factories.TestOrg
    coach: factories.TestUser
    admin: factories.TestUser
    members: list[uuid.UUID]
    coaching: uuid.UUID
    crossfit: uuid.UUID
    workout: uuid.UUID


async def _gym(db, factory) -> Gym:
    org = await factory.org(timezone="Asia/Jerusalem")
    coach, admin = await factory.user(org, "coach"), await factory.user(org, "admin")
    async with db.scope(org_id=org.id) as session:
        members = [(await create_member(session, org.id, first_name=first, last_name=last)).id
                   for first, last in (("Saar", "Cohen"), ("Dani", "Mizrahi"))]
        coaching = await create_program(session, org.id, name="Coaching", kind="coaching")
        crossfit = await create_program(session, org.id, name="CrossFit", kind="class")
        workout = await create_workout(session, org.id, title="Strength A", program_id=coaching.id,
                                       freeform_text="5x5 back squat")
    return Gym(org, coach, admin, members, coaching.id, crossfit.id, workout.workout.id)


async def _assign(tools, gym: Gym, day: str, member: int = 0, **extra) -> dict:
    return await tools.ok("assignments__assign_personal", {"workoutId": str(gym.workout),
                                                           "memberId": str(gym.members[member]), "date": day,
                                                           **extra}, org=gym.org, user=gym.coach)


async def _program_assignment(db, gym: Gym, day: date, published: bool = False) -> uuid.UUID:
    async with db.scope(org_id=gym.org.id) as session:
        return (await service.assign_to_program(session, gym.org.id, workout_id=gym.workout, program_id=gym.crossfit,
                                                scheduled_on=day, published=published)).id


async def _state(db, ids) -> dict[uuid.UUID, tuple[bool, bool]]:
    """id → (published, deleted) as stored."""
    async with db.owner() as session:
        rows = await session.execute(select(service.Assignment.id, service.Assignment.published,
                                            service.Assignment.deleted_at).where(service.Assignment.id.in_(ids)))
        return {row.id: (row.published, row.deleted_at is not None) for row in rows}


# --- single assignments -------------------------------------------------------------------------------

async def test_assign_personal_defaults_coach_to_calling_coach(db, factory, tools) -> None:
    gym = await _gym(db, factory)
    out = await _assign(tools, gym, "2026-06-10")
    assert (out["date"], out["workoutTitle"], out["memberName"], out["published"]) == (
        "2026-06-10", "Strength A", "Saar Cohen", False)
    assert out["coachUserId"] == str(gym.coach.id) and out["programId"] == str(gym.coaching)
    by_admin = await tools.ok("assignments__assign_personal", {
        "workoutId": str(gym.workout), "memberId": str(gym.members[1]), "date": "2026-06-11",
        "coachUserId": str(gym.coach.id), "published": True}, org=gym.org, user=gym.admin)
    assert (by_admin["coachUserId"], by_admin["published"], by_admin["memberName"]) == (
        str(gym.coach.id), True, "Dani Mizrahi")


async def test_assign_personal_refuses_foreign_ids_and_bad_input(db, factory, tools) -> None:
    gym, other = await _gym(db, factory), await _gym(db, factory)
    base = {"workoutId": str(gym.workout), "memberId": str(gym.members[0]), "date": "2026-06-10"}
    for field, value, code in (("memberId", other.members[0], "member_not_found"),
                               ("workoutId", other.workout, "workout_not_found"),
                               ("coachUserId", other.coach.id, "coach_not_found"),
                               ("programId", other.coaching, "program_not_found")):
        await tools.fails("assignments__assign_personal", {**base, field: str(value)}, code,
                          org=gym.org, user=gym.coach)
    for bad in ({**base, "date": "next tuesday"}, {"workoutId": str(gym.workout), "date": "2026-06-10"},
                {**base, "memberId": "Saar"}):
        await tools.fails("assignments__assign_personal", bad, "validation_failed", org=gym.org, user=gym.coach)


async def test_update_moves_date_swaps_workout_and_coach(db, factory, tools) -> None:
    gym = await _gym(db, factory)
    created = await _assign(tools, gym, "2026-06-10")
    async with db.scope(org_id=gym.org.id) as session:
        other_workout = (await create_workout(session, gym.org.id, title="Engine", freeform_text="row 5k")).workout.id
    out = await tools.ok("assignments__update", {"id": created["id"], "date": "2026-06-12",
                                                 "workoutId": str(other_workout), "coachUserId": str(gym.admin.id)},
                         org=gym.org, user=gym.coach)
    assert (out["date"], out["workoutTitle"], out["coachUserId"]) == ("2026-06-12", "Engine", str(gym.admin.id))
    cleared = await tools.ok("assignments__update", {"id": created["id"], "coachUserId": None},
                             org=gym.org, user=gym.coach)
    assert "coachUserId" not in cleared and cleared["date"] == "2026-06-12"


async def test_update_refuses_foreign_ids_and_bad_input(db, factory, tools) -> None:
    gym, other = await _gym(db, factory), await _gym(db, factory)
    mine, theirs = await _assign(tools, gym, "2026-06-10"), await _assign(tools, other, "2026-06-10")
    await tools.fails("assignments__update", {"id": theirs["id"], "date": "2026-06-11"}, "assignment_not_found",
                      org=gym.org, user=gym.coach)
    await tools.fails("assignments__update", {"id": mine["id"], "workoutId": str(other.workout)},
                      "workout_not_found", org=gym.org, user=gym.coach)
    await tools.fails("assignments__update", {"id": mine["id"], "coachUserId": str(other.coach.id)},
                      "coach_not_found", org=gym.org, user=gym.coach)
    for bad in ({"id": mine["id"]}, {"id": mine["id"], "date": None}, {"id": mine["id"], "published": True}):
        await tools.fails("assignments__update", bad, "validation_failed", org=gym.org, user=gym.coach)


async def test_set_published_toggles_one_assignment(db, factory, tools) -> None:
    gym, other = await _gym(db, factory), await _gym(db, factory)
    mine, theirs = await _assign(tools, gym, "2026-06-10"), await _assign(tools, other, "2026-06-10")
    out = await tools.ok("assignments__set_published", {"id": mine["id"], "published": True},
                         org=gym.org, user=gym.coach)
    assert out["published"] is True
    assert (await _state(db, [uuid.UUID(mine["id"])]))[uuid.UUID(mine["id"])] == (True, False)
    back = await tools.ok("assignments__set_published", {"id": mine["id"], "published": False},
                          org=gym.org, user=gym.coach)
    assert back["published"] is False
    await tools.fails("assignments__set_published", {"id": theirs["id"], "published": True}, "assignment_not_found",
                      org=gym.org, user=gym.coach)
    await tools.fails("assignments__set_published", {"id": mine["id"]}, "validation_failed",
                      org=gym.org, user=gym.coach)


async def test_delete_is_soft_and_refuses_foreign_ids(db, factory, tools) -> None:
    gym, other = await _gym(db, factory), await _gym(db, factory)
    mine, theirs = await _assign(tools, gym, "2026-06-10"), await _assign(tools, other, "2026-06-10")
    assert REGISTRY.get("assignments__delete").confirm == "destructive"
    out = await tools.ok("assignments__delete", {"id": mine["id"]}, org=gym.org, user=gym.coach)
    assert out["deleted"] is True and out["id"] == mine["id"]
    assert (await _state(db, [uuid.UUID(mine["id"])]))[uuid.UUID(mine["id"])] == (False, True)
    await tools.fails("assignments__delete", {"id": mine["id"]}, "assignment_not_found", org=gym.org, user=gym.coach)
    await tools.fails("assignments__delete", {"id": theirs["id"]}, "assignment_not_found", org=gym.org, user=gym.coach)
    assert (await _state(db, [uuid.UUID(theirs["id"])]))[uuid.UUID(theirs["id"])] == (False, False)
    await tools.fails("assignments__delete", {}, "validation_failed", org=gym.org, user=gym.coach)


async def test_mark_comments_read_is_per_calling_coach(db, factory, tools) -> None:
    gym, other = await _gym(db, factory), await _gym(db, factory)
    first, second = await _assign(tools, gym, "2026-06-10"), await _assign(tools, gym, "2026-06-11", member=1)
    async with db.scope(org_id=gym.org.id) as session:
        for assignment, body in ((first, "felt heavy"), (first, "done!"), (second, "knee hurts")):
            await service.add_comment(session, gym.org.id, uuid.UUID(assignment["id"]), body=body,
                                      author_member_id=uuid.UUID(assignment["memberId"]))

    async def unread(user: factories.TestUser) -> int:
        async with db.scope(org_id=gym.org.id) as session:
            return len(await service.comments_in_program(session, gym.org.id, gym.coaching, coach_user_id=user.id,
                                                         unread_only=True))

    out = await tools.ok("assignments__mark_comments_read", {"assignmentId": first["id"]}, org=gym.org, user=gym.coach)
    assert out == {"id": first["id"], "scope": "assignment", "markedRead": 2}
    assert await unread(gym.coach) == 1 and await unread(gym.admin) == 3  # only the caller's markers
    whole = await tools.ok("assignments__mark_comments_read", {"programId": str(gym.coaching)},
                           org=gym.org, user=gym.coach)
    assert whole["markedRead"] == 1 and await unread(gym.coach) == 0
    again = await tools.ok("assignments__mark_comments_read", {"programId": str(gym.coaching)},
                           org=gym.org, user=gym.coach)
    assert again["markedRead"] == 0
    theirs = await _assign(tools, other, "2026-06-10")
    await tools.fails("assignments__mark_comments_read", {"assignmentId": theirs["id"]}, "assignment_not_found",
                      org=gym.org, user=gym.coach)
    await tools.fails("assignments__mark_comments_read", {"programId": str(other.coaching)}, "program_not_found",
                      org=gym.org, user=gym.coach)
    for bad in ({}, {"assignmentId": first["id"], "programId": str(gym.coaching)}):
        await tools.fails("assignments__mark_comments_read", bad, "validation_failed", org=gym.org, user=gym.coach)


# --- bulk ----------------------------------------------------------------------------------------------

def test_named_ranges_resolve_in_the_gym_timezone() -> None:
    """next_week is the Monday-to-Sunday week after the current LOCAL week."""
    assert resolve_range("next_week", "Asia/Jerusalem", NOW) == (NEXT_MONDAY, NEXT_SUNDAY)
    assert resolve_range("next_week", "UTC", NOW) == (date(2026, 6, 8), date(2026, 6, 14))  # still Sunday in UTC
    assert resolve_range("this_week", "Asia/Jerusalem", NOW) == (date(2026, 6, 8), date(2026, 6, 14))
    assert resolve_range("tomorrow", "Asia/Jerusalem", NOW) == (date(2026, 6, 9), date(2026, 6, 9))
    december = datetime(2026, 12, 15, 12, tzinfo=UTC)
    assert resolve_range("next_month", "UTC", december) == (date(2027, 1, 1), date(2027, 1, 31))
    assert resolve_range("next_month", "UTC", datetime(2027, 1, 31, tzinfo=UTC)) == (date(2027, 2, 1),
                                                                                     date(2027, 2, 28))


async def _week_of_assignments(db, tools, gym: Gym) -> dict[str, uuid.UUID]:
    """Assignments around next week (15-21 June local): inside it, and just outside on both ends."""
    days = {"this_sunday": date(2026, 6, 14), "next_monday": NEXT_MONDAY, "next_wednesday": date(2026, 6, 17),
            "next_sunday": NEXT_SUNDAY, "week_after": date(2026, 6, 22)}
    ids = {name: await _program_assignment(db, gym, day) for name, day in days.items()}
    ids["personal"] = uuid.UUID((await _assign(tools, gym, "2026-06-18"))["id"])
    return ids


async def test_publish_next_weeks_assignments_touches_exactly_the_previewed_set(db, factory, tools) -> None:
    """'publish next week's assignments': preview with period next_week, then publish with the fingerprint."""
    gym = await _gym(db, factory)
    ids = await _week_of_assignments(db, tools, gym)
    inside = {ids["next_monday"], ids["next_wednesday"], ids["next_sunday"], ids["personal"]}
    preview = await tools.ok("assignments__bulk_preview", {"period": "next_week"}, org=gym.org, user=gym.coach,
                             now=NOW)
    assert (preview["dateFrom"], preview["dateTo"]) == (NEXT_MONDAY.isoformat(), NEXT_SUNDAY.isoformat())
    assert preview["count"] == 4 and preview["idsComplete"] is True
    assert {uuid.UUID(i) for i in preview["ids"]} == inside
    assert [s["date"] for s in preview["sample"]] == sorted(s["date"] for s in preview["sample"])
    assert {s["workoutTitle"] for s in preview["sample"]} == {"Strength A"}
    assert "Saar Cohen" in {s.get("memberName") for s in preview["sample"]}

    assert REGISTRY.get("assignments__bulk_publish").confirm == "always"
    published = await tools.ok("assignments__bulk_publish", {"period": "next_week",
                                                             "expectedFingerprint": preview["fingerprint"]},
                               org=gym.org, user=gym.coach, now=NOW)
    assert published["count"] == 4 and set(published["ids"]) == set(preview["ids"])
    state = await _state(db, list(ids.values()))
    assert {i for i, (is_published, _) in state.items() if is_published} == inside


async def test_bulk_delete_touches_exactly_the_previewed_ids(db, factory, tools) -> None:
    gym = await _gym(db, factory)
    ids = await _week_of_assignments(db, tools, gym)
    flt = {"from": "2026-06-15", "to": "2026-06-21", "programId": str(gym.crossfit)}
    preview = await tools.ok("assignments__bulk_preview", flt, org=gym.org, user=gym.coach)
    assert {uuid.UUID(i) for i in preview["ids"]} == {ids["next_monday"], ids["next_wednesday"], ids["next_sunday"]}
    assert REGISTRY.get("assignments__bulk_delete").confirm == "destructive"
    deleted = await tools.ok("assignments__bulk_delete", {**flt, "expectedIds": preview["ids"]},
                             org=gym.org, user=gym.coach)
    assert deleted["count"] == 3 and set(deleted["ids"]) == set(preview["ids"]) and deleted["deleted"] is True
    state = await _state(db, list(ids.values()))
    assert {i for i, (_, is_deleted) in state.items() if is_deleted} == {uuid.UUID(i) for i in preview["ids"]}
    after = await tools.ok("assignments__bulk_preview", flt, org=gym.org, user=gym.coach)
    assert after["count"] == 0 and after["ids"] == []


async def test_stale_preview_is_refused_and_changes_nothing(db, factory, tools) -> None:
    gym = await _gym(db, factory)
    ids = await _week_of_assignments(db, tools, gym)
    preview = await tools.ok("assignments__bulk_preview", {"period": "next_week", "published": False},
                             org=gym.org, user=gym.coach, now=NOW)
    await _assign(tools, gym, "2026-06-19", member=1)  # the set grows after the user saw the preview
    for name, extra in (("assignments__bulk_publish", {"expectedFingerprint": preview["fingerprint"]}),
                        ("assignments__bulk_delete", {"expectedIds": preview["ids"]})):
        error = await tools.fails(name, {"period": "next_week", "published": False, **extra}, "stale_preview",
                                  org=gym.org, user=gym.coach, now=NOW)
        assert "preview" in error["hint"].lower()
    assert all(state == (False, False) for state in (await _state(db, list(ids.values()))).values())


async def test_bulk_filters_refuse_foreign_ids_and_bad_input(db, factory, tools) -> None:
    gym, other = await _gym(db, factory), await _gym(db, factory)
    for name in ("assignments__bulk_preview", "assignments__bulk_publish", "assignments__bulk_delete"):
        for field, value, code in (("programId", other.crossfit, "program_not_found"),
                                   ("memberId", other.members[0], "member_not_found"),
                                   ("coachUserId", other.coach.id, "coach_not_found")):
            await tools.fails(name, {"period": "next_week", field: str(value)}, code, org=gym.org, user=gym.coach)
        await tools.fails(name, {"published": False}, "filter_too_broad", org=gym.org, user=gym.coach)
        await tools.fails(name, {"from": "2026-06-21", "to": "2026-06-15"}, "invalid_range",
                          org=gym.org, user=gym.coach)
        for bad in ({"period": "next_week", "from": "2026-06-15"}, {"period": "fortnight"}, {"from": "soon"}):
            await tools.fails(name, bad, "validation_failed", org=gym.org, user=gym.coach)


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ["front_desk", "member"])
async def test_front_desk_and_members_cannot_use_assignments(action, role, factory, tools) -> None:
    name = f"assignments__{action}"
    assert name not in {s.name for s in REGISTRY.for_role(role)}
    org = await factory.org()
    user = await factory.user(org, role)
    await tools.fails(name, {"id": str(uuid.uuid4()), "period": "next_week"}, "forbidden_for_role",
                      org=org, user=user, role=role)


@pytest.mark.parametrize("role", ["owner", "admin", "coach"])
async def test_owner_admin_and_coach_may_preview(role, db, factory, tools) -> None:
    gym = await _gym(db, factory)
    user = await factory.user(gym.org, role)
    assert {f"assignments__{a}" for a in ACTIONS} <= {s.name for s in REGISTRY.for_role(role)}
    await _program_assignment(db, gym, NEXT_MONDAY)
    out = await tools.ok("assignments__bulk_preview", {"period": "next_week"}, org=gym.org, user=user, now=NOW)
    assert out["count"] == 1
