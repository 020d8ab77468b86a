"""Workouts: freeform and structured creation, exercise resolution, patching, wholesale section
replacement, soft delete, and the whiteboard-text parser."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import func, select, text

from gym import workouts
from gym.errors import GymError
from gym.exercises import install_library
from gym.programs import create_program
from gym.workouts import MovementIn, SectionIn, WorkoutMovement, WorkoutSection, parse_workout_text


async def _org(db, factory):
    org = await factory.org()
    async with db.owner() as session:
        await install_library(session, org.id)
    return org


def test_parse_rounds_distance_and_reps() -> None:
    (section,) = parse_workout_text("3 rounds — 200m run, 30 double-unders")
    assert (section.scheme, section.rounds) == ("3 rounds", 3)
    assert [(m.name, m.prescription) for m in section.movements] == [
        ("run", {"distance_m": 200}), ("double-unders", {"reps": 30})]


def test_parse_titled_sections_sets_loads_and_other_units() -> None:
    strength, metcon, chipper = parse_workout_text(
        "Strength: 5x5 back squat @ 75%\n\nMetcon: AMRAP 12 - 10 wall balls (9/6kg), 15 cal row, 30s plank\n\n"
        "For time:\n1 mile run\n100 pull-ups")
    assert strength.title == "Strength" and strength.movements[0].name == "back squat"
    assert strength.movements[0].prescription == {"sets": 5, "reps": 5, "load_pct": 75}
    assert (metcon.title, metcon.scheme) == ("Metcon", "AMRAP 12")
    assert [m.prescription for m in metcon.movements] == [
        {"reps": 10, "load_kg": 9, "notes": "9/6kg"}, {"calories": 15}, {"duration_s": 30}]
    assert chipper.scheme == "For time"
    assert [m.prescription for m in chipper.movements] == [{"distance_m": 1609}, {"reps": 100}]


async def test_create_freeform_keeps_text_and_parses_nothing(db, factory) -> None:
    org = await _org(db, factory)
    async with db.scope(org_id=org.id) as session:
        detail = await workouts.create_workout(session, org.id, title="Monday", freeform_text="3 rounds — 200m run")
    assert detail.workout.format == "freeform" and detail.sections == []
    assert detail.workout.freeform_text == "3 rounds — 200m run"


async def test_create_structured_resolves_exercises_and_reports_the_rest(db, factory) -> None:
    org = await _org(db, factory)
    async with db.scope(org_id=org.id) as session:
        program = await create_program(session, org.id, name="CrossFit", kind="class")
        detail = await workouts.create_workout(
            session, org.id, title="Fran", program_id=program.id, scheduled_on=date(2026, 3, 2),
            sections=[SectionIn(scheme="21-15-9 for time", rounds=3, movements=[
                MovementIn("Thrusters", prescription={"load_kg": 43}), MovementIn("pull-ups"),
                MovementIn("squat"), MovementIn("zumba")])])
    assert detail.workout.format == "structured" and detail.workout.program_id == program.id
    (section,) = detail.sections
    assert section.section.scheme == "21-15-9 for time" and section.section.rounds == 3
    names = [(m.name, m.exercise_id is not None) for m in section.movements]
    assert names == [("Thrusters", True), ("pull-ups", True), ("squat", False), ("zumba", False)]
    assert section.movements[0].prescription == {"load_kg": 43}
    assert {u["name"]: u["status"] for u in detail.unresolved} == {"squat": "ambiguous", "zumba": "unknown"}


async def test_create_with_structure_from_text(db, factory) -> None:
    org = await _org(db, factory)
    async with db.scope(org_id=org.id) as session:
        detail = await workouts.create_workout(session, org.id, title="Quick",
                                               freeform_text="3 rounds — 200m run, 30 double-unders",
                                               structure_from_text=True)
    assert detail.workout.format == "structured"
    assert [(m.name, m.prescription, m.exercise_id is not None) for m in detail.sections[0].movements] == [
        ("run", {"distance_m": 200}, True), ("double-unders", {"reps": 30}, True)]


async def test_set_sections_replaces_everything(db, factory) -> None:
    org = await _org(db, factory)
    async with db.scope(org_id=org.id) as session:
        detail = await workouts.create_workout(session, org.id, title="Day", sections=[
            SectionIn(title="A", movements=[MovementIn("deadlift"), MovementIn("row")]),
            SectionIn(title="B", movements=[MovementIn("burpee")])])
        old_ids = {m.id for s in detail.sections for m in s.movements}
        replaced = await workouts.set_sections(session, org.id, detail.workout.id, [
            SectionIn(title="Only", scheme="EMOM 10", movements=[MovementIn("power clean", prescription={"reps": 3})])])
        sections = await session.scalar(select(func.count()).select_from(WorkoutSection)
                                        .where(WorkoutSection.workout_id == detail.workout.id))
        leftovers = await session.scalar(select(func.count()).select_from(WorkoutMovement)
                                         .where(WorkoutMovement.id.in_(old_ids)))
    assert [s.section.title for s in replaced.sections] == ["Only"]
    assert [(m.name, m.prescription) for m in replaced.sections[0].movements] == [("power clean", {"reps": 3})]
    assert sections == 1 and leftovers == 0


async def test_update_patch_and_soft_delete(db, factory) -> None:
    org = await _org(db, factory)
    async with db.scope(org_id=org.id) as session:
        program = await create_program(session, org.id, name="Feed", kind="feed")
        detail = await workouts.create_workout(session, org.id, title="Draft", freeform_text="run 5k")
        updated = await workouts.update_workout(session, org.id, detail.workout.id, {
            "title": "Long run", "scheduled_on": date(2026, 4, 1), "program_id": program.id, "description": None})
        with pytest.raises(GymError):
            await workouts.update_workout(session, org.id, detail.workout.id, {"format": "structured"})
        with pytest.raises(GymError):
            await workouts.update_workout(session, org.id, detail.workout.id, {"program_id": uuid.uuid4()})
        listed = await workouts.list_workouts(session, org.id, program_id=program.id)
        found = await workouts.list_workouts(session, org.id, title="long")
        await workouts.soft_delete_workout(session, org.id, detail.workout.id, datetime.now(UTC))
        assert await workouts.get_workout(session, org.id, detail.workout.id) is None
        assert await workouts.set_sections(session, org.id, detail.workout.id, []) is None
    assert (updated.title, updated.scheduled_on, updated.program_id) == ("Long run", date(2026, 4, 1), program.id)
    assert updated.updated_at >= detail.workout.created_at
    assert [w.id for w in listed] == [detail.workout.id] and [w.id for w in found] == [detail.workout.id]


async def test_title_search_reads_only_live_titles_of_the_org_through_the_index(db, factory) -> None:
    """`title=` ranks by word similarity over the rows `workout_title_candidates` offers: live titles of
    this org only, closest first, in any case; an unrelated message finds nothing."""
    org, other = await _org(db, factory), await _org(db, factory)
    async with db.scope(org_id=other.id) as session:
        await workouts.create_workout(session, other.id, title="Long run", freeform_text="x")
        foreign = await session.scalar(text("SELECT count(*) FROM workout_title_candidates(:org, 'long run', 0.1)"),
                                       {"org": org.id})
    async with db.scope(org_id=org.id) as session:
        made = {title: (await workouts.create_workout(session, org.id, title=title, freeform_text="x")).workout.id
                for title in ("Long run", "Long run (old)", "Tempo long runs", "Strength: back squat")}
        await workouts.soft_delete_workout(session, org.id, made["Long run (old)"], datetime.now(UTC))
        found = [w.id for w in await workouts.list_workouts(session, org.id, title="long run")]
        upper = [w.id for w in await workouts.list_workouts(session, org.id, title="LONG RUN")]
        nothing = await workouts.list_workouts(session, org.id, title="send a payment reminder to sar coen please")
    assert set(found) == {made["Long run"], made["Tempo long runs"]} and found[0] == made["Long run"]
    assert upper == found and nothing == [] and foreign == 0


async def test_bad_inputs_are_refused(db, factory) -> None:
    org, other = await _org(db, factory), await _org(db, factory)
    async with db.scope(org_id=other.id) as session:
        foreign = await workouts.create_workout(session, other.id, title="x", freeform_text="x")
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(GymError) as empty:
            await workouts.create_workout(session, org.id, title="Nothing")
        with pytest.raises(GymError) as bad_key:
            await workouts.create_workout(session, org.id, title="x", sections=[
                SectionIn(movements=[MovementIn("row", prescription={"pace": "fast"})])])
        with pytest.raises(GymError) as bad_exercise:
            await workouts.create_workout(session, org.id, title="x", sections=[
                SectionIn(movements=[MovementIn("row", exercise_id=uuid.uuid4())])])
        assert await workouts.get_workout(session, org.id, foreign.workout.id) is None
    assert (empty.value.code, bad_key.value.code, bad_exercise.value.code) == (
        "empty_workout", "invalid_prescription", "exercise_not_found")
