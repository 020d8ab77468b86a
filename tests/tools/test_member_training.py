"""read__member_training: owner, admin and coach read one member's training record with its numbers."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from gym.training import goals, logs, preferences, schedule
from gym.training.logs import LoggedExercise
from tests.tools.harness import roles_of

TOOL = "read__member_training"
NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


async def _member(db, org_id, name: str = "Dani Mizrahi") -> uuid.UUID:
    member_id = uuid.uuid4()
    first, _, last = name.partition(" ")
    async with db.owner() as session:
        await session.execute(text("INSERT INTO members (id, org_id, first_name, last_name, full_name) "
                                   "VALUES (:i, :o, :f, :l, :n)"),
                              {"i": member_id, "o": org_id, "f": first, "l": last, "n": name})
    return member_id


async def _record(db, org_id, member_id) -> None:
    async with db.scope(org_id=org_id) as session:
        await goals.set_category_goals(session, org_id, member_id, [("Strength", None, 50), ("Mobility", None, 50)])
        for n, goal in enumerate(["Strength", "Strength", "Strength", "Mobility"]):
            await logs.log_exercise(session, org_id, member_id, LoggedExercise(
                exercise_name=f"Lift {n}", exercise_type="strength", sets=3, reps=5, load_kg=50, goals=[goal],
                muscles=["Chest"], performed_at=NOW - timedelta(days=n + 1)), now=NOW)
        await logs.log_exercise(session, org_id, member_id, LoggedExercise(
            exercise_name="Old", exercise_type="strength", goals=["Mobility"], performed_at=NOW - timedelta(days=20)),
            now=NOW)
        await preferences.set_preference(session, org_id, member_id, type="injury",
                                         description="left shoulder: no overhead pressing",
                                         guidance="no overhead pressing", now=NOW - timedelta(days=1),
                                         expires_at=NOW + timedelta(days=10))
        await preferences.set_preference(session, org_id, member_id, type="exercise", description="hates burpees",
                                         guidance="no burpees", now=NOW - timedelta(days=30))
        await schedule.schedule_workout(session, org_id, member_id, now=NOW, scheduled_at=NOW + timedelta(days=2),
                                        workout_type="Lower body")
        await goals.create_milestone(session, org_id, member_id, name="First Murph", goal_type="event")


def test_owner_admin_coach_only() -> None:
    assert roles_of(TOOL) == {"owner", "admin", "coach"}


@pytest.mark.parametrize("role", ["owner", "admin", "coach"])
async def test_staff_roles_get_numbers_and_injuries(tools, factory, db, role) -> None:
    org = await factory.org()
    user = await factory.user(org, role)
    member = await _member(db, org.id)
    await _record(db, org.id, member)
    out = await tools.ok(TOOL, {"membershipId": str(member)}, org=org, user=user, now=NOW)
    rows = {r["name"]: r for r in out["goals"]["categories"]}
    # 28 days: 3 Strength + 2 Mobility credits (the 20-day-old one counts) → 60 / 40
    assert (rows["Strength"]["targetPct"], rows["Strength"]["actualPct"], rows["Strength"]["debtPct"]) == (
        50.0, 60.0, -10.0)
    assert rows["Mobility"]["debtPct"] == 10.0
    assert [i["description"] for i in out["injuries"]] == ["left shoulder: no overhead pressing"]
    assert [p["description"] for p in out["preferences"]] == ["hates burpees"]
    assert out["recentLogs"]["count"] == 4                     # 14 days only
    assert [u["workoutType"] for u in out["upcoming"]] == ["Lower body"]
    assert [m["name"] for m in out["milestones"]] == ["First Murph"]
    assert out["member"]["name"] == "Dani Mizrahi"


@pytest.mark.parametrize("role", ["front_desk", "member"])
async def test_other_roles_are_refused(tools, factory, db, role) -> None:
    org = await factory.org()
    user = await factory.user(org, role)
    member = await _member(db, org.id)
    await tools.fails(TOOL, {"membershipId": str(member)}, "forbidden_for_role", org=org, user=user, now=NOW)


async def test_unknown_and_foreign_members_are_not_found(tools, factory, db) -> None:
    org, other = await factory.org(), await factory.org()
    coach = await factory.user(org, "coach")
    theirs = await _member(db, other.id)
    await _record(db, other.id, theirs)
    for member_id in (theirs, uuid.uuid4()):
        error = await tools.fails(TOOL, {"membershipId": str(member_id)}, "member_not_found", org=org, user=coach,
                                  now=NOW)
        assert error["hint"]
    await tools.fails(TOOL, {"membershipId": "not-a-uuid"}, org=org, user=coach, now=NOW)
