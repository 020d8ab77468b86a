"""program_templates tools: list, create by hand, apply into a program (creates dated workouts and
assignments), and derive a template from a program's history."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import func, select

from gym.assignments import Assignment
from gym.exercises import Exercise, install_library
from gym.programs import create_program
from gym.workouts import MovementIn, SectionIn, Workout, create_workout, get_workout
from tests.tools.harness import REGISTRY

ACTIONS = ("list", "create", "apply", "from_history")
DAYS = [
    {"week": 1, "day": 1, "title": "Squat day", "sections": [
        {"title": "Strength", "scheme": "5x5", "movements": [
            {"name": "back squat", "prescription": {"sets": 5, "reps": 5, "loadPct": 75}}]}]},
    {"week": 1, "day": 3, "title": "Engine", "text": "AMRAP 20: 10 burpees, 200m run"},
    {"week": 2, "day": 1, "title": "Heavy squat", "sections": [
        {"movements": [{"name": "back squat", "prescription": {"sets": 3, "reps": 3}}]}]},
]


async def _gym(db, factory, role: str = "coach"):
    org = await factory.org()
    async with db.owner() as session:
        await install_library(session, org.id)
    user = await factory.user(org, role)
    async with db.scope(org_id=org.id) as session:
        crossfit = (await create_program(session, org.id, name="CrossFit", kind="class")).id
        coaching = (await create_program(session, org.id, name="Coaching", kind="coaching")).id
    return org, user, crossfit, coaching


async def _template(tools, org, user, name: str = "Squat block") -> dict:
    return await tools.ok("program_templates__create", {"name": name, "weeks": 2, "days": DAYS}, org=org, user=user)


async def test_create_stores_weeks_and_days(db, factory, tools) -> None:
    org, coach, _, _ = await _gym(db, factory)
    out = await tools.ok("program_templates__create", {"name": "Squat block", "description": "two weeks",
                                                       "weeks": 2, "days": DAYS}, org=org, user=coach)
    assert (out["name"], out["weeks"], out["dayCount"], out["source"]) == ("Squat block", 2, 3, "manual")
    assert [(d["week"], d["day"], d["title"]) for d in out["outline"]] == [
        (1, 1, "Squat day"), (1, 3, "Engine"), (2, 1, "Heavy squat")]


async def test_create_refuses_foreign_exercises_and_bad_input(db, factory, tools) -> None:
    org, coach, _, _ = await _gym(db, factory)
    other, *_ = await _gym(db, factory)
    async with db.owner() as session:
        foreign = await session.scalar(select(Exercise.id).where(Exercise.org_id == other.id).limit(1))
    day = {"week": 1, "day": 1, "title": "x", "sections": [{"movements": [{"name": "row", "exerciseId": str(foreign)}]}]}
    await tools.fails("program_templates__create", {"name": "t", "weeks": 1, "days": [day]}, "exercise_not_found",
                      org=org, user=coach)
    await tools.fails("program_templates__create", {"name": "t", "weeks": 1, "days": DAYS}, "invalid_template",
                      org=org, user=coach)  # week 2 days in a 1-week template
    for bad in ({"name": "t", "weeks": 1, "days": []}, {"name": "t", "weeks": 0, "days": DAYS},
                {"name": "t", "weeks": 1, "days": [{"week": 1, "day": 8, "title": "x", "text": "run"}]},
                {"name": "t", "weeks": 1, "days": [{"week": 1, "day": 1, "title": "x"}]}, {"weeks": 1, "days": DAYS}):
        await tools.fails("program_templates__create", bad, "validation_failed", org=org, user=coach)


async def test_list_shows_this_gyms_templates_only(db, factory, tools) -> None:
    org, coach, _, _ = await _gym(db, factory)
    other, other_coach, _, _ = await _gym(db, factory)
    await _template(tools, org, coach, "B block")
    await _template(tools, org, coach, "A block")
    await _template(tools, other, other_coach, "Theirs")
    out = await tools.ok("program_templates__list", {}, org=org, user=coach)
    assert out["count"] == 2 and [t["name"] for t in out["templates"]] == ["A block", "B block"]
    assert {(t["weeks"], t["dayCount"]) for t in out["templates"]} == {(2, 3)} and "outline" not in out["templates"][0]
    await tools.fails("program_templates__list", {"limit": 0}, "validation_failed", org=org, user=coach)


async def test_apply_creates_dated_workouts_and_assignments(db, factory, tools) -> None:
    org, coach, crossfit, _ = await _gym(db, factory)
    template = await _template(tools, org, coach)
    assert REGISTRY.get("program_templates__apply").confirm == "always"
    out = await tools.ok("program_templates__apply", {"templateId": template["id"], "programId": str(crossfit),
                                                      "startDate": "2026-06-15"}, org=org, user=coach)
    assert (out["id"], out["programName"], out["dateFrom"], out["dateTo"]) == (
        template["id"], "CrossFit", "2026-06-15", "2026-06-28")
    assert (out["workoutsCreated"], out["assignmentsCreated"], out["published"]) == (3, 3, False)
    assert [(w["title"], w["date"]) for w in out["workouts"]] == [
        ("Squat day", "2026-06-15"), ("Engine", "2026-06-17"), ("Heavy squat", "2026-06-22")]
    async with db.owner() as session:
        stored = (await session.execute(select(Workout.title, Workout.scheduled_on, Workout.format).where(
            Workout.org_id == org.id, Workout.program_id == crossfit).order_by(Workout.scheduled_on))).all()
        assignments = await session.scalar(select(func.count()).select_from(Assignment).where(
            Assignment.org_id == org.id, Assignment.program_id == crossfit, Assignment.published.is_(False)))
    assert [(t, d, f) for t, d, f in stored] == [("Squat day", date(2026, 6, 15), "structured"),
                                                 ("Engine", date(2026, 6, 17), "freeform"),
                                                 ("Heavy squat", date(2026, 6, 22), "structured")]
    assert assignments == 3
    async with db.scope(org_id=org.id) as session:
        squat_day = await get_workout(session, org.id, uuid.UUID(out["workouts"][0]["id"]))
        (movement,) = squat_day.sections[0].movements
        exercise = await session.scalar(select(Exercise.name).where(Exercise.id == movement.exercise_id))
    assert exercise == "Back Squat" and movement.prescription == {"sets": 5, "reps": 5, "load_pct": 75}


async def test_apply_refuses_foreign_ids_wrong_program_kind_and_bad_input(db, factory, tools) -> None:
    org, coach, crossfit, coaching = await _gym(db, factory)
    other, other_coach, other_crossfit, _ = await _gym(db, factory)
    mine, theirs = await _template(tools, org, coach), await _template(tools, other, other_coach)
    base = {"templateId": mine["id"], "programId": str(crossfit), "startDate": "2026-06-15"}
    await tools.fails("program_templates__apply", {**base, "templateId": theirs["id"]}, "template_not_found",
                      org=org, user=coach)
    await tools.fails("program_templates__apply", {**base, "programId": str(other_crossfit)}, "program_not_found",
                      org=org, user=coach)
    await tools.fails("program_templates__apply", {**base, "programId": str(coaching)}, "program_not_applicable",
                      org=org, user=coach)
    for bad in ({**base, "startDate": "next monday"}, {"templateId": mine["id"], "programId": str(crossfit)}):
        await tools.fails("program_templates__apply", bad, "validation_failed", org=org, user=coach)
    async with db.owner() as session:
        assert await session.scalar(select(func.count()).select_from(Workout).where(Workout.org_id == org.id)) == 0


async def _history(db, org, program_id) -> None:
    """Two weeks of CrossFit: Mon 1 June (structured), Wed 3 June (text), Mon 8 June; one in May outside."""
    async with db.scope(org_id=org.id) as session:
        for title, day, text, sections in (
                ("Fran", date(2026, 6, 1), None, [SectionIn(scheme="21-15-9", rounds=3, movements=[
                    MovementIn("thrusters", prescription={"load_kg": 43}), MovementIn("pull-ups")])]),
                ("Run", date(2026, 6, 3), "5k run", None),
                ("Grace", date(2026, 6, 8), "30 clean and jerks", None),
                ("Old", date(2026, 5, 20), "row 2k", None)):
            await create_workout(session, org.id, title=title, program_id=program_id, scheduled_on=day,
                                 freeform_text=text, sections=sections)


async def test_from_history_derives_a_template_from_a_date_range(db, factory, tools) -> None:
    org, coach, crossfit, _ = await _gym(db, factory)
    await _history(db, org, crossfit)
    assert REGISTRY.get("program_templates__from_history").confirm == "always"
    out = await tools.ok("program_templates__from_history", {"programId": str(crossfit), "name": "June block",
                                                             "from": "2026-06-01", "to": "2026-06-14"},
                         org=org, user=coach)
    assert (out["name"], out["source"], out["weeks"], out["dayCount"]) == ("June block", "history", 2, 3)
    assert (out["dateFrom"], out["dateTo"]) == ("2026-06-01", "2026-06-14")
    assert [(d["week"], d["day"], d["title"]) for d in out["outline"]] == [(1, 1, "Fran"), (1, 3, "Run"), (2, 1, "Grace")]
    listed = await tools.ok("program_templates__list", {}, org=org, user=coach)
    assert [t["id"] for t in listed["templates"]] == [out["id"]]


async def test_from_history_accepts_a_named_period_in_the_gym_timezone(db, factory, tools) -> None:
    org, coach, crossfit, _ = await _gym(db, factory)
    await _history(db, org, crossfit)
    # Sunday 7 June 22:30 UTC is Monday 8 June in Jerusalem, so last_week is 1-7 June there.
    out = await tools.ok("program_templates__from_history", {"programId": str(crossfit), "name": "Last week",
                                                             "period": "last_week"},
                         org=org, user=coach, now=datetime(2026, 6, 7, 22, 30, tzinfo=UTC))
    assert (out["dateFrom"], out["dateTo"], out["weeks"]) == ("2026-06-01", "2026-06-07", 1)
    assert [d["title"] for d in out["outline"]] == ["Fran", "Run"]


async def test_from_history_refuses_foreign_programs_empty_ranges_and_bad_input(db, factory, tools) -> None:
    org, coach, crossfit, _ = await _gym(db, factory)
    other, _, other_crossfit, _ = await _gym(db, factory)
    await _history(db, other, other_crossfit)
    base = {"programId": str(crossfit), "name": "t", "from": "2026-06-01", "to": "2026-06-14"}
    await tools.fails("program_templates__from_history", {**base, "programId": str(other_crossfit)},
                      "program_not_found", org=org, user=coach)
    await tools.fails("program_templates__from_history", base, "no_history", org=org, user=coach)
    await tools.fails("program_templates__from_history", {**base, "from": "2026-06-14", "to": "2026-06-01"},
                      "invalid_period", org=org, user=coach)
    for bad in ({"programId": str(crossfit), "name": "t"}, {**base, "period": "last_week"},
                {"programId": str(crossfit), "name": "t", "from": "2026-06-01"}, {**base, "period": "someday"}):
        await tools.fails("program_templates__from_history", bad, "validation_failed", org=org, user=coach)


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ["front_desk", "member"])
async def test_front_desk_and_members_cannot_use_templates(action, role, factory, tools) -> None:
    name = f"program_templates__{action}"
    assert name not in {s.name for s in REGISTRY.for_role(role)}
    org = await factory.org()
    user = await factory.user(org, role)
    await tools.fails(name, {"templateId": str(uuid.uuid4())}, "forbidden_for_role", org=org, user=user, role=role)


@pytest.mark.parametrize("role", ["owner", "admin"])
async def test_owner_and_admin_may_create_and_list(role, db, factory, tools) -> None:
    org, user, _, _ = await _gym(db, factory, role)
    assert {f"program_templates__{a}" for a in ACTIONS} <= {s.name for s in REGISTRY.for_role(role)}
    created = await _template(tools, org, user)
    assert (await tools.ok("program_templates__list", {}, org=org, user=user))["templates"][0]["id"] == created["id"]
