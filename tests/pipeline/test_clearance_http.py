"""Issue 25 item 4 through the front door: after a medical abort only an owner, admin or coach records clearance,
from a clinician's note (required), audited; the member themself gets 403 and cannot clear the hold by editing the
intake either; front desk reads nothing; the staff tool is offered to owner and admin (NUTRITION.md)."""

from __future__ import annotations

from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, Text
from tests.gym.nutrition import samples
from tests.pipeline.issue25 import base, follow, member, start, states
from tests.sse import sse

BULIMIA = {**samples.INTAKE, "medical_history": {"medications": [], "conditions": ["bulimia"], "injuries": []}}


async def _clearances(db, org) -> list:
    async with db.owner() as session:
        return list((await session.execute(text(
            "SELECT id, note, recorded_by FROM nutrition_medical_clearances WHERE org_id = :o"), {"o": org.id})).all())


async def test_only_staff_record_clearance_from_a_clinicians_note(client, db, factory) -> None:
    org = await factory.org()
    coach = await factory.user(org, role="coach")
    desk = await factory.user(org, role="front_desk")
    user, member_id = await member(db, factory, org)
    url = await start(client, org, user.headers, BULIMIA)
    assert states(await follow(client, url, user.headers))[-1] == "error"
    clearance_url = f"{base(org)}/members/{member_id}/medical-clearance"

    own = await client.post(clearance_url, json={"note": "I feel fine"}, headers=user.headers)
    assert (own.status_code, own.json()["code"]) == (403, "member_forbidden")
    edited = {**samples.INTAKE, "medical_history": {"medications": [], "conditions": [], "injuries": []}}
    again = await client.post(f"{base(org)}/runs", json={"intake": edited}, headers=user.headers)
    assert (again.status_code, again.json()["code"]) == (409, "medical_clearance_required")  # editing is no way out
    desk_try = await client.post(clearance_url, json={"note": "GP letter"}, headers=desk.headers)
    assert (desk_try.status_code, desk_try.json()["code"]) == (403, "forbidden")
    for body in ({}, {"note": ""}, {"note": "   "}):
        noteless = await client.post(clearance_url, json=body, headers=coach.headers)
        assert (noteless.status_code, noteless.json()["code"]) == (400, "validation_failed"), body
    assert await _clearances(db, org) == []

    note = "Cleared by Dr. Levi (GP), letter of 2026-11-20"
    cleared = await client.post(clearance_url, json={"note": note}, headers=coach.headers)
    assert cleared.status_code == 201, cleared.text
    [row] = await _clearances(db, org)
    assert (row.note, str(row.recorded_by)) == (note, str(coach.id))
    async with db.owner() as session:
        audit = (await session.execute(text(
            "SELECT actor_user_id, resource, resource_id, metadata FROM audit_logs WHERE org_id = :o "
            "AND action = 'nutrition.clearance.record'"), {"o": org.id})).one()
    assert (str(audit.actor_user_id), audit.resource, audit.resource_id) == (
        str(coach.id), "medical_clearance", cleared.json()["clearanceId"])
    assert audit.metadata["membershipId"] == str(member_id) and note not in str(audit.metadata)
    assert (await client.post(f"{base(org)}/runs", json={"intake": edited}, headers=user.headers)).status_code == 202


async def test_the_staff_tool_is_offered_to_owner_and_admin_only(client, db, factory, fake_model) -> None:
    org = await factory.org()
    offered = {}
    for role in ("owner", "admin", "coach"):
        fake_model.reset()
        fake_model.queue(Reply(Text("Hello.")))
        staff = await factory.user(org, role=role)
        await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "hello"},
                  headers=staff.headers)
        offered[role] = {t.get("name") for r in fake_model.requests for t in r.body.get("tools", [])}
    fake_model.reset()
    assert "nutrition__record_medical_clearance" in offered["owner"] & offered["admin"]
    assert "nutrition__record_medical_clearance" not in offered["coach"]
    assert "nutrition__get_plan" in offered["coach"]
