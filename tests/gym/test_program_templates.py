"""Program templates: validation, apply (dated workouts + program assignments), derive from history."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

import pytest

from gym import program_templates as templates
from gym.assignments import AssignmentFilter, bulk_preview
from gym.errors import GymError
from gym.exercises import install_library
from gym.programs import create_program
from gym.workouts import MovementIn, SectionIn, create_workout, get_workout, list_workouts

START = date(2026, 9, 6)
STRUCTURE = [
    {"week": 1, "day": 1, "title": "Squat day", "sections": [
        {"title": "Strength", "scheme": "5x5", "movements": [
            {"name": "Back Squat", "prescription": {"sets": 5, "reps": 5, "load_pct": 75}}]}]},
    {"week": 1, "day": 3, "title": "Engine", "freeform_text": "5 rounds: 400m run, 15 burpees"},
    {"week": 2, "day": 1, "title": "Pull day", "sections": [
        {"scheme": "EMOM 10", "movements": [{"name": "deadlift", "prescription": {"reps": 3}}]}]},
]


async def _org(db, factory):
    org = await factory.org()
    async with db.owner() as session:
        await install_library(session, org.id)
    return org


async def test_apply_creates_dated_workouts_and_program_assignments(db, factory) -> None:
    org = await _org(db, factory)
    async with db.scope(org_id=org.id) as session:
        crossfit = await create_program(session, org.id, name="CrossFit", kind="class")
        template = await templates.create_template(session, org.id, name="Two weeks", weeks=2,
                                                   structure=list(reversed(STRUCTURE)))
        applied = await templates.apply_template(session, org.id, template.id, program_id=crossfit.id,
                                                 start_on=START)
        made = await list_workouts(session, org.id, program_id=crossfit.id)
        squat = await get_workout(session, org.id, applied.workouts[0].id)
        preview = await bulk_preview(session, org.id, AssignmentFilter(program_id=crossfit.id, published=False))
        listed = await templates.list_templates(session, org.id)
    assert [w["week"] for w in template.structure] == [1, 1, 2]
    assert [(w.title, w.scheduled_on) for w in applied.workouts] == [
        ("Squat day", START), ("Engine", START + timedelta(days=2)), ("Pull day", START + timedelta(days=7))]
    assert applied.end_on == START + timedelta(days=13)
    assert {w.id for w in made} == {w.id for w in applied.workouts}
    assert set(preview.ids) == set(applied.assignment_ids) and preview.count == 3
    mv = squat.sections[0].movements[0]
    assert (mv.name, mv.exercise_id is not None, mv.prescription) == (
        "Back Squat", True, {"sets": 5, "reps": 5, "load_pct": 75})
    assert [t.id for t in listed] == [template.id]


async def test_apply_refuses_coaching_programs_and_missing_templates(db, factory) -> None:
    org = await _org(db, factory)
    async with db.scope(org_id=org.id) as session:
        coaching = await create_program(session, org.id, name="Coaching", kind="coaching")
        template = await templates.create_template(session, org.id, name="T", weeks=2, structure=STRUCTURE)
        with pytest.raises(GymError) as refused:
            await templates.apply_template(session, org.id, template.id, program_id=coaching.id, start_on=START)
        assert await templates.apply_template(session, org.id, uuid.uuid4(), program_id=coaching.id,
                                              start_on=START) is None
    assert refused.value.code == "program_not_applicable"


@pytest.mark.parametrize("weeks,structure", [
    (1, STRUCTURE),                                              # week 2 outside 1 week
    (2, [{"week": 1, "day": 8, "title": "x", "freeform_text": "x"}]),
    (2, [{"week": 1, "day": 1, "title": "x"}]),                  # neither text nor sections
    (2, [{"week": 1, "day": 1, "title": "x", "sections": [{"movements": []}]}]),
    (0, STRUCTURE),
    (2, []),
])
async def test_invalid_structures_are_refused(db, factory, weeks, structure) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(GymError) as refused:
            await templates.create_template(session, org.id, name="Bad", weeks=weeks, structure=structure)
    assert refused.value.code == "invalid_template"


async def test_from_history_maps_workouts_to_weeks_and_days(db, factory) -> None:
    org = await _org(db, factory)
    async with db.scope(org_id=org.id) as session:
        crossfit = await create_program(session, org.id, name="CrossFit", kind="class")
        await create_workout(session, org.id, title="Fran", program_id=crossfit.id, scheduled_on=START,
                             sections=[SectionIn(scheme="21-15-9", rounds=3, movements=[
                                 MovementIn("thruster", prescription={"load_kg": 43}), MovementIn("pull-up")])])
        await create_workout(session, org.id, title="Easy", program_id=crossfit.id,
                             scheduled_on=START + timedelta(days=8), freeform_text="30 min row")
        await create_workout(session, org.id, title="Outside", program_id=crossfit.id,
                             scheduled_on=START + timedelta(days=30), freeform_text="x")
        template = await templates.template_from_history(
            session, org.id, program_id=crossfit.id, date_from=START, date_to=START + timedelta(days=13),
            name="Last two weeks")
        with pytest.raises(GymError) as empty:
            await templates.template_from_history(session, org.id, program_id=crossfit.id,
                                                  date_from=START - timedelta(days=60),
                                                  date_to=START - timedelta(days=30), name="Nothing")
    assert (template.weeks, template.source) == (2, "history")
    fran, easy = template.structure
    assert (fran["week"], fran["day"], fran["title"]) == (1, 1, "Fran")
    assert fran["sections"][0]["scheme"] == "21-15-9"
    assert [m["name"] for m in fran["sections"][0]["movements"]] == ["thruster", "pull-up"]
    assert fran["sections"][0]["movements"][0]["exercise_id"] is not None
    assert (easy["week"], easy["day"], easy["freeform_text"]) == (2, 2, "30 min row")
    assert empty.value.code == "no_history"
