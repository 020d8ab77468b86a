"""GET /organizations/{orgId}/nutrition/members: the nutrition console's member picker by name. Staff search
their org's members (members with runs first when there is no query), each with the latest run and whether a
new run waits for medical clearance; a member gets only themself; another org's members never show."""

from __future__ import annotations

from datetime import date

from gym import members
from tests.gym.nutrition import samples


async def _member(db, org, first: str, last: str, user=None):
    async with db.scope(org_id=org.id) as session:
        return (await members.create_member(session, org.id, first_name=first, last_name=last,
                                            user_id=user.id if user else None, joined_at=date(2026, 1, 5))).id


async def _wait_rest(client, url: str, headers) -> None:
    async with client.stream("GET", url, headers=headers, timeout=120) as response:
        assert response.status_code == 200
        async for _ in response.aiter_lines():
            pass


async def test_staff_pick_members_by_name_with_their_latest_run_and_clearance(client, db, factory) -> None:
    org = await factory.org()
    other = await factory.org()
    owner = await factory.user(org, role="owner")
    noa = await _member(db, org, "Noa", "Levi")
    saar = await _member(db, org, "Saar", "Cohen")
    await _member(db, other, "Saar", "Cohen")
    base = f"/organizations/{org.id}/nutrition"
    intake = {**samples.INTAKE, "medical_history": {"medications": [], "conditions": ["bulimia"], "injuries": []}}
    run_id = (await client.post(f"{base}/runs", json={"membershipId": str(saar), "intake": intake},
                                headers=owner.headers)).json()["runId"]
    await _wait_rest(client, f"{base}/runs/{run_id}/events", owner.headers)

    listed = await client.get(f"{base}/members", headers=owner.headers)
    assert listed.status_code == 200, listed.text
    first, *rest = listed.json()["members"]  # a member with runs first, though "Noa" sorts before "Saar"
    assert (first["membershipId"], first["name"], first["latestRunId"]) == (str(saar), "Saar Cohen", run_id)
    assert (first["latestRunState"], first["clearanceRequired"]) == ("error", True)
    assert [(m["membershipId"], m["name"], m["latestRunId"]) for m in rest] == [(str(noa), "Noa Levi", None)]

    found = await client.get(f"{base}/members", params={"q": "saar coen"}, headers=owner.headers)
    assert [(m["membershipId"], m["clearanceRequired"]) for m in found.json()["members"]] == [(str(saar), True)]

    await client.post(f"{base}/members/{saar}/medical-clearance", json={"note": "GP"}, headers=owner.headers)
    cleared = await client.get(f"{base}/members", params={"q": "Saar"}, headers=owner.headers)
    assert cleared.json()["members"][0]["clearanceRequired"] is False


async def test_a_member_gets_only_themself_and_a_user_without_a_member_row_is_refused(client, db, factory) -> None:
    org = await factory.org()
    user = await factory.user(org, role="member", name="Dana")
    dana = await _member(db, org, "Dana", "Bar", user)
    await _member(db, org, "Saar", "Cohen")
    listed = await client.get(f"/organizations/{org.id}/nutrition/members", params={"q": "Saar"},
                              headers=user.headers)
    assert [m["membershipId"] for m in listed.json()["members"]] == [str(dana)]
    stranger = await factory.user(org, role="member", name="Nobody")
    refused = await client.get(f"/organizations/{org.id}/nutrition/members", headers=stranger.headers)
    assert refused.status_code == 403 and refused.json()["code"] == "member_profile_required"


async def test_a_nul_in_the_query_is_a_validation_error(client, factory) -> None:
    org = await factory.org()
    owner = await factory.user(org, role="owner")
    refused = await client.get(f"/organizations/{org.id}/nutrition/members", params={"q": "Sa\x00ar"},
                               headers=owner.headers)
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "validation_failed"
