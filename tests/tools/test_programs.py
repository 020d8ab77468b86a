"""programs router: create ↺ delete, update, soft delete, and enrollment rules, through the real runner."""

from __future__ import annotations

import uuid
from datetime import date

import pytest

from gym import members, programs
from tests.tools.harness import REGISTRY


async def _gym(db, factory):
    org = await factory.org()
    owner = await factory.user(org, "owner")
    async with db.scope(org_id=org.id) as s:
        dani = await members.create_member(s, org.id, first_name="Dani", last_name="Mizrahi",
                                           joined_at=date(2026, 1, 5))
        coaching = await programs.create_program(s, org.id, name="Coaching", kind="coaching")
        crossfit = await programs.create_program(s, org.id, name="CrossFit", kind="class")
    return org, owner, {"dani": dani.id, "coaching": coaching.id, "crossfit": crossfit.id}


def _refused(name: str, role: str) -> bool:
    return name not in {s.name for s in REGISTRY.for_role(role)}


async def test_create_then_its_inverse_soft_deletes_it(tools, db, factory) -> None:
    """programs__create's declared inverse, built from its output id, soft-deletes the new program."""
    org, owner, _ = await _gym(db, factory)
    outcome = await tools.run("programs__create", {"name": " Competition Prep ", "kind": "coaching",
                                                   "description": "For the spring throwdown"}, org=org, user=owner)
    assert outcome.ok and outcome.audit_log_id is not None
    created = outcome.output
    assert created["name"] == "Competition Prep" and created["kind"] == "coaching" and created["active"] is True
    spec = REGISTRY.get("programs__create")
    assert spec.inverse is not None and spec.inverse.name == "programs__delete"
    undo_input = spec.inverse.build_input(created)
    assert undo_input == {"id": created["id"]}
    undone = await tools.ok(spec.inverse.name, undo_input, org=org, user=owner)
    assert undone["id"] == created["id"] and undone["deleted"] is True
    listed = await tools.ok("read__programs_list", {}, org=org, user=owner)
    assert created["id"] not in {p["id"] for p in listed["programs"]}
    async with db.scope(org_id=org.id) as s:
        row = await s.get(programs.Program, uuid.UUID(created["id"]))
        assert row is not None and row.deleted_at is not None  # soft: the row stays
    await tools.fails("programs__delete", undo_input, "program_not_found", org=org, user=owner)


async def test_create_is_for_owner_and_admin(tools, db, factory) -> None:
    org, owner, _ = await _gym(db, factory)
    admin = await factory.user(org, "admin")
    out = await tools.ok("programs__create", {"name": "Daily Feed", "kind": "feed"}, org=org, user=admin)
    assert out["kind"] == "feed"
    for role in ("coach", "front_desk", "member"):
        assert _refused("programs__create", role)
        await tools.fails("programs__create", {"name": "X", "kind": "feed"}, "forbidden_for_role", org=org,
                          user=owner, role=role)


@pytest.mark.parametrize("bad", [{"name": "", "kind": "coaching"}, {"name": "Yoga", "kind": "yoga"},
                                 {"kind": "class"}])
async def test_create_rejects_bad_input(tools, db, factory, bad) -> None:
    org, owner, _ = await _gym(db, factory)
    await tools.fails("programs__create", bad, "validation_failed", org=org, user=owner)


async def test_update_patches_only_given_fields_and_keeps_rules(tools, db, factory) -> None:
    org, owner, ids = await _gym(db, factory)
    other_org, _, other_ids = await _gym(db, factory)
    out = await tools.ok("programs__update", {"id": str(ids["coaching"]), "name": "1-on-1 Coaching",
                                              "description": "Personal programming"}, org=org, user=owner)
    assert out == {"id": str(ids["coaching"]), "name": "1-on-1 Coaching", "kind": "coaching", "active": True,
                   "description": "Personal programming", "deleted": False}
    paused = await tools.ok("programs__update", {"id": str(ids["coaching"]), "active": False}, org=org, user=owner)
    assert paused["active"] is False and paused["name"] == "1-on-1 Coaching"
    await tools.ok("programs__enroll_member", {"programId": str(ids["coaching"]), "memberId": str(ids["dani"])},
                   org=org, user=owner)
    error = await tools.fails("programs__update", {"id": str(ids["coaching"]), "kind": "class"},
                              "program_has_enrollments", org=org, user=owner)
    assert error["hint"]
    await tools.fails("programs__update", {"id": str(other_ids["coaching"]), "name": "Mine now"},
                      "program_not_found", org=org, user=owner)
    await tools.fails("programs__update", {"id": "nope"}, "validation_failed", org=org, user=owner)
    for role in ("coach", "front_desk"):
        assert _refused("programs__update", role)
        await tools.fails("programs__update", {"id": str(ids["coaching"]), "name": "X"}, "forbidden_for_role",
                          org=org, user=owner, role=role)
    async with db.scope(org_id=other_org.id) as s:
        assert (await programs.get_program(s, other_org.id, other_ids["coaching"])).name == "Coaching"


async def test_delete_is_destructive_soft_and_scoped(tools, db, factory) -> None:
    org, owner, ids = await _gym(db, factory)
    _, _, other_ids = await _gym(db, factory)
    spec = REGISTRY.get("programs__delete")
    assert spec.confirm == "destructive" and spec.audit is not None
    await tools.fails("programs__delete", {"id": str(other_ids["crossfit"])}, "program_not_found", org=org,
                      user=owner)
    for role in ("coach", "front_desk"):
        assert _refused("programs__delete", role)
        await tools.fails("programs__delete", {"id": str(ids["crossfit"])}, "forbidden_for_role", org=org,
                          user=owner, role=role)
    await tools.fails("programs__delete", {}, "validation_failed", org=org, user=owner)
    out = await tools.ok("programs__delete", {"id": str(ids["crossfit"])}, org=org, user=owner)
    assert out["deleted"] is True and out["name"] == "CrossFit"
    listed = await tools.ok("read__programs_list", {}, org=org, user=owner)
    assert [p["name"] for p in listed["programs"]] == ["Coaching"]


async def test_enroll_member_for_any_staff_role(tools, db, factory) -> None:
    org, owner, ids = await _gym(db, factory)
    desk = await factory.user(org, "front_desk")
    outcome = await tools.run("programs__enroll_member",
                              {"programId": str(ids["coaching"]), "memberId": str(ids["dani"])}, org=org, user=desk)
    assert outcome.ok and outcome.audit_log_id is not None
    out = outcome.output
    assert out["programName"] == "Coaching" and out["memberId"] == str(ids["dani"]) and out["status"] == "active"
    uuid.UUID(out["id"])
    member = await tools.ok("read__members_get", {"memberId": str(ids["dani"])}, org=org, user=owner)
    assert [p["name"] for p in member["programs"]] == ["Coaching"]
    await tools.fails("programs__enroll_member", {"programId": str(ids["coaching"]), "memberId": str(ids["dani"])},
                      "already_enrolled", org=org, user=owner)
    assert _refused("programs__enroll_member", "member")
    await tools.fails("programs__enroll_member", {"programId": str(ids["coaching"]), "memberId": str(ids["dani"])},
                      "forbidden_for_role", org=org, user=owner, role="member")


async def test_enroll_into_a_class_program_fails_with_a_clear_code(tools, db, factory) -> None:
    org, owner, ids = await _gym(db, factory)
    error = await tools.fails("programs__enroll_member",
                              {"programId": str(ids["crossfit"]), "memberId": str(ids["dani"])},
                              "program_not_enrollable", org=org, user=owner)
    assert "class program" in error["detail"] and "book" in error["hint"]
    assert error["message"] == "Members can't enroll in this kind of program."
    async with db.scope(org_id=org.id) as s:
        assert await programs.member_program_ids(s, org.id, ids["dani"]) == []


async def test_enroll_rejects_foreign_ids_and_bad_input(tools, db, factory) -> None:
    org, owner, ids = await _gym(db, factory)
    _, _, other_ids = await _gym(db, factory)
    await tools.fails("programs__enroll_member", {"programId": str(other_ids["coaching"]), "memberId": str(ids["dani"])},
                      "program_not_found", org=org, user=owner)
    await tools.fails("programs__enroll_member", {"programId": str(ids["coaching"]), "memberId": str(other_ids["dani"])},
                      "member_not_found", org=org, user=owner)
    await tools.fails("programs__enroll_member", {"programId": str(ids["coaching"])}, "validation_failed", org=org,
                      user=owner)
