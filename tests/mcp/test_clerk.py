"""Issue 41 item 1 in Clerk mode: the RFC 9728 metadata names Clerk's issuer as the authorization server, a Clerk
token whose audience is the endpoint (RFC 8707's resource indicator, under PUBLIC_URL) opens a session with the
official client, and the same user's Clerk token for the console (no audience) is refused with the challenge."""

from __future__ import annotations

import json
import time

import httpx2
import jwt
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.api.test_auth import _JwksHost
from tests.mcp.conftest import bearer, initialize
from tests.servers import ThreadedServer, free_port

ISSUER = "https://clerk.harbor.example"
PARTY = "https://app.harbor.example"


@pytest.fixture
def clerk_server(app_settings, tmp_path):
    from api.app import create_app

    jwks = _JwksHost()
    jwks.server.start()
    key = jwks.add_key("clerk-1")
    port = free_port()
    settings = app_settings.model_copy(update={
        "auth_mode": "clerk", "clerk_issuer": ISSUER, "clerk_jwks_url": f"{jwks.server.url}/jwks.json",
        "clerk_authorized_parties": [PARTY], "public_url": f"http://127.0.0.1:{port}"})
    server = ThreadedServer(create_app(settings), port=port).start()
    yield server, key
    server.stop()
    jwks.server.stop()


def _clerk_token(key, sub: str, audience: str | None) -> str:
    now = int(time.time())
    claims: dict[str, object] = {"sub": sub, "iss": ISSUER, "azp": PARTY, "iat": now, "nbf": now, "exp": now + 600}
    if audience:
        claims["aud"] = audience
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": "clerk-1"})


async def test_clerk_issues_the_tokens_and_one_for_this_endpoint_gets_in(clerk_server, factory) -> None:
    server, key = clerk_server
    org = await factory.org()
    owner = await factory.user(org, "owner")
    endpoint = f"{server.url}/organizations/{org.id}/mcp"
    async with httpx2.AsyncClient(timeout=30) as http:
        metadata = (await http.get(f"{server.url}/.well-known/oauth-protected-resource/organizations/{org.id}/mcp"))
        console_token = await http.post(endpoint, json=initialize(),
                                        headers=bearer(_clerk_token(key, owner.clerk_id, None)))
    assert metadata.json()["authorization_servers"] == [ISSUER] and metadata.json()["resource"] == endpoint
    assert console_token.status_code == 401 and console_token.json()["code"] == "token_invalid"
    assert console_token.headers["www-authenticate"] == (
        f'Bearer resource_metadata="{server.url}/.well-known/oauth-protected-resource/organizations/{org.id}/mcp", '
        'error="invalid_token"')

    headers = {"authorization": f"Bearer {_clerk_token(key, owner.clerk_id, endpoint)}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            Client(streamable_http_client(endpoint, http_client=http),
                   client_info=types.Implementation(name="Claude", version="1")) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        made = await client.call_tool("tasks__create", {"title": "From Claude"})
    assert "tasks__create" in listed and made.is_error is False
    assert json.loads(made.content[-1].text)["output"]["title"] == "From Claude"
