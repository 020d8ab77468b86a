"""workouts tools: freeform and structured creation (text parsed and resolved to exercises), the undo
through workouts__delete, patching, wholesale section replacement, soft delete, roles and bad input."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import select

from gym.exercises import Exercise, install_library
from gym.programs import create_program
from gym.workouts import Workout
from tests.tools.harness import REGISTRY

ACTIONS = ("workouts__create", "workouts__update", "workouts__set_sections", "workouts__delete")


async def _gym(db, factory, role: str = "coach"):
    org = await factory.org()
    async with db.owner() as session:
        await install_library(session, org.id)
    return org, await factory.user(org, role)


async def _program(db, org, kind: str = "class"):
    async with db.scope(org_id=org.id) as session:
        return (await create_program(session, org.id, name=f"P {kind}", kind=kind)).id


async def _freeform(tools, org, user, title: str = "Draft") -> dict:
    return await tools.ok("workouts__create", {"title": title, "text": "run 5k"}, org=org, user=user)


async def _deleted_at(db, workout_id):
    async with db.owner() as session:
        return await session.scalar(select(Workout.deleted_at).where(Workout.id == workout_id))


async def test_build_workout_from_text_resolves_movements_and_undo_soft_deletes(db, factory, tools) -> None:
    """'build a workout: 3 rounds — 200m run, 30 double-unders' → one 3-round section of Run and Double-Under;
    the declared inverse, built from the output, soft-deletes it."""
    org, coach = await _gym(db, factory)
    outcome = await tools.run("workouts__create", {"title": "Quick one", "text": "3 rounds — 200m run, 30 double-unders",
                                                   "structureFromText": True}, org=org, user=coach)
    assert outcome.ok, outcome.error
    out = outcome.output
    assert outcome.audit_log_id is not None
    assert out["format"] == "structured" and out["unresolved"] == []
    (section,) = out["sections"]
    assert (section["rounds"], section["scheme"]) == (3, "3 rounds")
    assert [(m["name"], m["exerciseName"], m["prescription"]) for m in section["movements"]] == [
        ("run", "Run", {"distanceM": 200}), ("double-unders", "Double-Under", {"reps": 30})]
    assert all(uuid.UUID(m["exerciseId"]) for m in section["movements"])

    inverse = REGISTRY.get("workouts__create").inverse
    assert inverse.name == "workouts__delete"
    undo = inverse.build_input(out)
    assert undo == {"id": out["id"]}
    deleted = await tools.ok(inverse.name, undo, org=org, user=coach)
    assert deleted == {"id": out["id"], "title": "Quick one", "deleted": True}
    assert await _deleted_at(db, uuid.UUID(out["id"])) is not None  # the row stays: soft delete
    await tools.fails("workouts__update", {"id": out["id"], "title": "x"}, "workout_not_found", org=org, user=coach)


async def test_create_freeform_keeps_text_as_written(db, factory, tools) -> None:
    org, admin = await _gym(db, factory, "admin")
    out = await tools.ok("workouts__create", {"title": "Murph", "text": "1 mile run, 100 pull-ups", "date": "2026-05-25"},
                         org=org, user=admin)
    assert (out["format"], out["text"], out["date"], out["sections"]) == (
        "freeform", "1 mile run, 100 pull-ups", "2026-05-25", [])


async def test_create_structured_reports_unresolved_names_with_candidates(db, factory, tools) -> None:
    org, coach = await _gym(db, factory)
    program_id = await _program(db, org)
    out = await tools.ok("workouts__create", {
        "title": "Fran", "programId": str(program_id), "date": "2026-06-01",
        "sections": [{"scheme": "21-15-9 for time", "rounds": 3, "movements": [
            {"name": "thrusters", "prescription": {"loadKg": 43}}, {"name": "squat"}, {"name": "zumba"}]}]},
        org=org, user=coach)
    assert out["programId"] == str(program_id) and out["format"] == "structured"
    movements = out["sections"][0]["movements"]
    assert movements[0]["exerciseName"] == "Thruster" and movements[0]["prescription"] == {"loadKg": 43}
    assert "exerciseId" not in movements[1] and "exerciseId" not in movements[2]
    unresolved = {u["name"]: u for u in out["unresolved"]}
    assert unresolved["squat"]["status"] == "ambiguous" and len(unresolved["squat"]["candidates"]) >= 2
    assert unresolved["zumba"] == {"name": "zumba", "status": "unknown", "candidates": []}
    assert "set_sections" in out["next"]


async def test_create_refuses_foreign_ids_and_bad_input(db, factory, tools) -> None:
    org, coach = await _gym(db, factory)
    other, _ = await _gym(db, factory, "owner")
    foreign_program = await _program(db, other)
    await tools.fails("workouts__create", {"title": "x", "text": "row", "programId": str(foreign_program)},
                      "program_not_found", org=org, user=coach)
    async with db.owner() as session:
        foreign_exercise = await session.scalar(select(Exercise.id).where(Exercise.org_id == other.id).limit(1))
    await tools.fails("workouts__create", {"title": "x", "sections": [
        {"movements": [{"name": "row", "exerciseId": str(foreign_exercise)}]}]}, "exercise_not_found",
        org=org, user=coach)
    for bad in ({"title": "Nothing"}, {"title": "x", "structureFromText": True},
                {"title": "", "text": "run"}, {"title": "x", "sections": [{"movements": []}]},
                {"title": "x", "sections": [{"movements": [{"name": "row", "prescription": {"reps": 0}}]}]},
                {"title": "x", "sections": [{"movements": [{"name": "row", "prescription": {"pace": "fast"}}]}]},
                {"title": "x", "text": "run", "date": "someday"}):
        await tools.fails("workouts__create", bad, "validation_failed", org=org, user=coach)


async def test_update_patches_only_given_fields(db, factory, tools) -> None:
    org, coach = await _gym(db, factory)
    program_id = await _program(db, org, "feed")
    created = await tools.ok("workouts__create", {"title": "Draft", "text": "run 5k", "description": "easy pace"},
                             org=org, user=coach)
    out = await tools.ok("workouts__update", {"id": created["id"], "title": "Long run", "date": "2026-04-01",
                                              "programId": str(program_id), "description": None},
                         org=org, user=coach)
    assert (out["title"], out["date"], out["programId"], out["text"]) == (
        "Long run", "2026-04-01", str(program_id), "run 5k")
    assert "description" not in out
    detached = await tools.ok("workouts__update", {"id": created["id"], "programId": None}, org=org, user=coach)
    assert "programId" not in detached and detached["title"] == "Long run"


async def test_update_refuses_foreign_ids_and_bad_input(db, factory, tools) -> None:
    org, coach = await _gym(db, factory)
    other, other_owner = await _gym(db, factory, "owner")
    mine = await _freeform(tools, org, coach)
    theirs = await _freeform(tools, other, other_owner)
    await tools.fails("workouts__update", {"id": theirs["id"], "title": "mine now"}, "workout_not_found",
                      org=org, user=coach)
    await tools.fails("workouts__update", {"id": mine["id"], "programId": str(await _program(db, other))},
                      "program_not_found", org=org, user=coach)
    for bad in ({"id": mine["id"]}, {"id": mine["id"], "title": None}, {"id": "not-a-uuid", "title": "x"},
                {"id": mine["id"], "date": "2026-13-01"}):
        await tools.fails("workouts__update", bad, "validation_failed", org=org, user=coach)
    async with db.owner() as session:
        assert await session.scalar(select(Workout.title).where(Workout.id == uuid.UUID(theirs["id"]))) == "Draft"


async def test_set_sections_replaces_the_whole_structure(db, factory, tools) -> None:
    org, coach = await _gym(db, factory)
    created = await tools.ok("workouts__create", {"title": "Day", "sections": [
        {"title": "A", "movements": [{"name": "deadlift"}, {"name": "zumba"}]},
        {"title": "B", "movements": [{"name": "burpee"}]}]}, org=org, user=coach)
    burpee = created["sections"][1]["movements"][0]["exerciseId"]
    out = await tools.ok("workouts__set_sections", {"id": created["id"], "sections": [
        {"title": "Only", "scheme": "EMOM 10", "movements": [
            {"name": "burpees", "exerciseId": burpee, "prescription": {"reps": 8}}]}]}, org=org, user=coach)
    assert [s["title"] for s in out["sections"]] == ["Only"]
    (movement,) = out["sections"][0]["movements"]
    assert (movement["exerciseId"], movement["exerciseName"], movement["prescription"]) == (
        burpee, "Burpee", {"reps": 8})
    assert out["unresolved"] == [] and out["format"] == "structured"


async def test_set_sections_refuses_foreign_ids_and_bad_input(db, factory, tools) -> None:
    org, coach = await _gym(db, factory)
    other, other_owner = await _gym(db, factory, "owner")
    theirs = await _freeform(tools, other, other_owner)
    mine = await _freeform(tools, org, coach)
    section = {"movements": [{"name": "row"}]}
    await tools.fails("workouts__set_sections", {"id": theirs["id"], "sections": [section]}, "workout_not_found",
                      org=org, user=coach)
    for bad in ({"id": mine["id"], "sections": []}, {"id": mine["id"]},
                {"id": mine["id"], "sections": [{"movements": [{"name": ""}]}]},
                {"id": mine["id"], "sections": [{"rounds": 0, "movements": [{"name": "row"}]}]}):
        await tools.fails("workouts__set_sections", bad, "validation_failed", org=org, user=coach)


async def test_delete_is_soft_and_refuses_foreign_or_repeated_ids(db, factory, tools) -> None:
    org, owner = await _gym(db, factory, "owner")
    other, other_owner = await _gym(db, factory, "owner")
    mine = await _freeform(tools, org, owner)
    theirs = await _freeform(tools, other, other_owner)
    assert REGISTRY.get("workouts__delete").confirm == "destructive"
    out = await tools.ok("workouts__delete", {"id": mine["id"]}, org=org, user=owner)
    assert out["deleted"] is True and await _deleted_at(db, uuid.UUID(mine["id"])) is not None
    await tools.fails("workouts__delete", {"id": mine["id"]}, "workout_not_found", org=org, user=owner)
    await tools.fails("workouts__delete", {"id": theirs["id"]}, "workout_not_found", org=org, user=owner)
    assert await _deleted_at(db, uuid.UUID(theirs["id"])) is None
    await tools.fails("workouts__delete", {"id": 42}, "validation_failed", org=org, user=owner)


@pytest.mark.parametrize("name", ACTIONS)
@pytest.mark.parametrize("role", ["front_desk", "member"])
async def test_front_desk_and_members_cannot_touch_workouts(name, role, factory, tools) -> None:
    assert name not in {s.name for s in REGISTRY.for_role(role)}
    org = await factory.org()
    user = await factory.user(org, role)
    await tools.fails(name, {"id": str(uuid.uuid4()), "title": "x", "text": "x"}, "forbidden_for_role",
                      org=org, user=user, role=role)


@pytest.mark.parametrize("role", ["owner", "admin", "coach"])
async def test_owner_admin_and_coach_may_create(role, db, factory, tools) -> None:
    org, user = await _gym(db, factory, role)
    assert "workouts__create" in {s.name for s in REGISTRY.for_role(role)}
    out = await tools.ok("workouts__create", {"title": "t", "text": "10 burpees"}, org=org, user=user)
    assert out["title"] == "t"
