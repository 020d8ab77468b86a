"""forms router: pending form assignments for the gym and one member's compliance per form type."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

import pytest

from gym import forms, members
from tests.tools.harness import REGISTRY

NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)


async def _gym(db, factory):
    """Dani signed the waiver but owes the PAR-Q (overdue); Noa owes the waiver; no health form exists."""
    org = await factory.org()
    owner = await factory.user(org, "owner")
    async with db.scope(org_id=org.id) as s:
        made = {}
        for first, last in [("Dani", "Mizrahi"), ("Noa", "Peretz")]:
            made[first] = (await members.create_member(s, org.id, first_name=first, last_name=last,
                                                       joined_at=date(2026, 1, 5))).id
        waiver = await forms.create_form(s, org.id, name="Liability Waiver", type_key="waiver")
        parq = await forms.create_form(s, org.id, name="PAR-Q", type_key="parq")
        signed = await forms.assign_form(s, org.id, form_id=waiver.id, member_id=made["Dani"],
                                         now=datetime(2026, 1, 5, 8, tzinfo=UTC))
        await forms.set_assignment_status(s, org.id, signed.id, "completed", now=datetime(2026, 1, 5, 23, tzinfo=UTC))
        late = await forms.assign_form(s, org.id, form_id=parq.id, member_id=made["Dani"], now=NOW,
                                       due_on=date(2026, 11, 20))
        soon = await forms.assign_form(s, org.id, form_id=waiver.id, member_id=made["Noa"], now=NOW,
                                       due_on=date(2026, 12, 1))
    return org, owner, {**made, "late": late.id, "soon": soon.id}


@pytest.mark.parametrize("role", ["owner", "admin", "coach", "front_desk"])
async def test_pending_forms_soonest_first_with_overdue_count(tools, db, factory, role) -> None:
    org, owner, ids = await _gym(db, factory)
    out = await tools.ok("forms__list_pending_for_org", {}, org=org, user=owner, role=role, now=NOW)
    assert out["count"] == 2 and out["overdue"] == 1
    late, soon = out["assignments"]
    assert late == {"id": str(ids["late"]), "formName": "PAR-Q", "typeKey": "parq", "memberId": str(ids["Dani"]),
                    "memberName": "Dani Mizrahi", "assignedOn": "2026-11-23", "dueOn": "2026-11-20", "overdue": True}
    assert soon["memberName"] == "Noa Peretz" and soon["overdue"] is False


async def test_pending_forms_filter_by_type_and_stay_in_this_gym(tools, db, factory) -> None:
    org, owner, _ = await _gym(db, factory)
    await _gym(db, factory)
    waivers = await tools.ok("forms__list_pending_for_org", {"typeKey": "waiver"}, org=org, user=owner, now=NOW)
    assert [a["memberName"] for a in waivers["assignments"]] == ["Noa Peretz"] and waivers["overdue"] == 0
    capped = await tools.ok("forms__list_pending_for_org", {"limit": 1}, org=org, user=owner, now=NOW)
    assert capped["count"] == 2 and len(capped["assignments"]) == 1
    await tools.fails("forms__list_pending_for_org", {"typeKey": "tax"}, "validation_failed", org=org, user=owner)


async def test_compliance_per_type_for_a_member(tools, db, factory) -> None:
    org, owner, ids = await _gym(db, factory)
    out = await tools.ok("forms__compliance_status_for_member", {"memberId": str(ids["Dani"])}, org=org,
                         user=owner, role="front_desk", now=NOW)
    assert out["memberName"] == "Dani Mizrahi" and out["compliant"] is False and out["outstanding"] == ["parq"]
    by_type = out["byType"]
    assert by_type["waiver"] == {"status": "completed", "required": True, "formName": "Liability Waiver",
                                 "completedOn": "2026-01-06"}  # 23:00 UTC is the next day in Jerusalem
    assert by_type["parq"]["status"] == "pending" and by_type["parq"]["dueOn"] == "2026-11-20"
    assert by_type["health"] == {"status": "missing", "required": False}
    assert by_type["custom"] == {"status": "missing", "required": False}
    assert await tools.ok("forms__compliance_status_for_member", {"membershipId": str(ids["Dani"])}, org=org,
                          user=owner, role="front_desk", now=NOW) == out


async def test_compliance_member_role_foreign_member_and_bad_input(tools, db, factory) -> None:
    org, owner, ids = await _gym(db, factory)
    _, _, other_ids = await _gym(db, factory)
    for name in ("forms__compliance_status_for_member", "forms__list_pending_for_org"):
        assert name not in {s.name for s in REGISTRY.for_role("member")}
        await tools.fails(name, {"memberId": str(ids["Dani"])}, "forbidden_for_role", org=org, user=owner,
                          role="member")
    for foreign in (other_ids["Dani"], uuid.uuid4()):
        await tools.fails("forms__compliance_status_for_member", {"memberId": str(foreign)}, "member_not_found",
                          org=org, user=owner)
    await tools.fails("forms__compliance_status_for_member", {"memberId": 42}, "validation_failed", org=org,
                      user=owner)
