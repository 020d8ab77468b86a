"""Tenancy guards: membership comes from the database; strangers get 404, members 403 on staff routes."""

import uuid

import httpx
import pytest
from litestar import get

from api.app import create_app
from api.guards import staff_only
from tests.servers import ThreadedServer


async def test_member_of_org_passes(client, factory) -> None:
    org = await factory.org(tier="elite", timezone="Europe/London")
    user = await factory.user(org, "coach")
    response = await client.get(f"/organizations/{org.id}/me", headers=user.headers)
    assert response.status_code == 200
    body = response.json()
    assert body["role"] == "coach"
    assert body["org"] == {"id": str(org.id), "name": org.name, "tier": "elite", "timezone": "Europe/London",
                           "locale": "en"}


@pytest.mark.parametrize("org_id", ["unknown", "not-a-uuid"])
async def test_non_member_and_unknown_org_get_org_not_found(client, factory, org_id) -> None:
    org = await factory.org()
    stranger = await factory.user(await factory.org())
    target = {"unknown": str(uuid.uuid4()), "not-a-uuid": "harbor"}[org_id]
    for path in (f"/organizations/{org.id}/me", f"/organizations/{target}/me"):
        response = await client.get(path, headers=stranger.headers)
        assert response.status_code == 404
        assert response.json()["code"] == "org_not_found"


async def test_disabled_membership_is_not_membership(client, factory, db) -> None:
    from sqlalchemy import text

    org = await factory.org()
    user = await factory.user(org, "admin")
    async with db.owner() as session:
        await session.execute(text("UPDATE memberships SET status = 'disabled' WHERE user_id = :u"), {"u": user.id})
    response = await client.get(f"/organizations/{org.id}/me", headers=user.headers)
    assert response.status_code == 404


@get("/organizations/{org_id:str}/staff-probe", guards=[staff_only])
async def staff_probe() -> dict:
    return {"ok": True}


@pytest.fixture(scope="module")
def staff_server(app_settings):
    app = create_app(app_settings)
    app.register(staff_probe)
    server = ThreadedServer(app).start()
    yield server
    server.stop()


async def test_staff_only_guard_refuses_member_role(staff_server, factory) -> None:
    org = await factory.org()
    member = await factory.user(org, "member")
    desk = await factory.user(org, "front_desk")
    async with httpx.AsyncClient(base_url=staff_server.url) as http:
        refused = await http.get(f"/organizations/{org.id}/staff-probe", headers=member.headers)
        allowed = await http.get(f"/organizations/{org.id}/staff-probe", headers=desk.headers)
    assert refused.status_code == 403 and refused.json()["code"] == "member_forbidden"
    assert allowed.status_code == 200
