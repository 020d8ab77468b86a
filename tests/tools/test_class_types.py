"""class_types router: the class types under a program (or all), for every staff role, scoped to one gym."""

from __future__ import annotations

import uuid

import pytest

from gym import classes, programs
from tests.tools.harness import REGISTRY


async def _gym(db, factory):
    org = await factory.org()
    owner = await factory.user(org, "owner")
    async with db.scope(org_id=org.id) as s:
        crossfit = await programs.create_program(s, org.id, name="CrossFit", kind="class")
        open_gym = await programs.create_program(s, org.id, name="Open Gym", kind="class")
        wod = await classes.create_class_type(s, org.id, name="CrossFit WOD", program_id=crossfit.id,
                                              default_duration_min=60, default_capacity=14, color="#ff5500")
        await classes.create_class_type(s, org.id, name="Barbell Club", program_id=crossfit.id)
        await classes.create_class_type(s, org.id, name="Open Gym", program_id=open_gym.id, default_capacity=30)
        await classes.create_class_type(s, org.id, name="Kids", default_duration_min=45)
    return org, owner, {"crossfit": crossfit.id, "open_gym": open_gym.id, "wod": wod.id}


@pytest.mark.parametrize("role", ["owner", "admin", "coach", "front_desk"])
async def test_lists_the_class_types_of_one_program(tools, db, factory, role) -> None:
    org, owner, ids = await _gym(db, factory)
    out = await tools.ok("class_types__list_for_program", {"programId": str(ids["crossfit"])}, org=org, user=owner,
                         role=role)
    assert out["count"] == 2 and [t["name"] for t in out["classTypes"]] == ["Barbell Club", "CrossFit WOD"]
    wod = out["classTypes"][1]
    assert wod == {"id": str(ids["wod"]), "name": "CrossFit WOD", "programId": str(ids["crossfit"]),
                   "programName": "CrossFit", "defaultDurationMin": 60, "defaultCapacity": 14, "color": "#ff5500"}


async def test_without_a_program_lists_every_class_type_of_this_gym_only(tools, db, factory) -> None:
    org, owner, _ = await _gym(db, factory)
    await _gym(db, factory)  # another gym's class types must not show
    out = await tools.ok("class_types__list_for_program", {}, org=org, user=owner)
    assert [t["name"] for t in out["classTypes"]] == ["Barbell Club", "CrossFit WOD", "Kids", "Open Gym"]
    kids = out["classTypes"][2]
    assert "programId" not in kids and kids["defaultDurationMin"] == 45


async def test_member_role_foreign_program_and_bad_input(tools, db, factory) -> None:
    org, owner, ids = await _gym(db, factory)
    _, _, other_ids = await _gym(db, factory)
    assert "class_types__list_for_program" not in {s.name for s in REGISTRY.for_role("member")}
    await tools.fails("class_types__list_for_program", {}, "forbidden_for_role", org=org, user=owner, role="member")
    await tools.fails("class_types__list_for_program", {"programId": str(other_ids["crossfit"])},
                      "program_not_found", org=org, user=owner)
    await tools.fails("class_types__list_for_program", {"programId": str(uuid.uuid4())}, "program_not_found",
                      org=org, user=owner)
    await tools.fails("class_types__list_for_program", {"programId": "crossfit"}, "validation_failed", org=org,
                      user=owner)
