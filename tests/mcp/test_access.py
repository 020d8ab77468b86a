"""Issue 41 item 1: who may reach /organizations/{orgId}/mcp — tokens issued for it, of the org's staff, in their
own session — and what an MCP client learns when it may not (401 + WWW-Authenticate, RFC 9728 metadata)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.mcp.conftest import ACCEPT, bearer, connect, initialize, raw_session

REPO = Path(__file__).resolve().parents[2]


def _list_tools() -> dict:
    return {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}


async def test_no_token_is_401_with_a_challenge_naming_the_resource_metadata(client, server, gym) -> None:
    response = await client.post(gym.mcp, json=initialize(), headers=ACCEPT)
    assert response.status_code == 401 and response.json()["code"] == "token_missing"
    challenge = response.headers["www-authenticate"]
    metadata = f"{server.url}/.well-known/oauth-protected-resource/organizations/{gym.org.id}/mcp"
    assert challenge == f'Bearer resource_metadata="{metadata}"'  # no error attribute: no token came (RFC 6750)

    document = (await client.get(metadata.removeprefix(server.url))).json()
    assert document["resource"] == f"{server.url}{gym.mcp}"
    assert document["authorization_servers"] == [server.url]  # dev mode: the service signs the tokens
    assert document["bearer_methods_supported"] == ["header"]
    root = (await client.get("/.well-known/oauth-protected-resource")).json()
    assert root["resource"] == server.url and root["authorization_servers"] == [server.url]


async def test_a_token_not_issued_for_the_mcp_server_is_refused(client, gym) -> None:
    """The console's own token (no audience) and one for another service are 401 invalid_token; the same user's
    token issued for the MCP server gets in."""
    for token in (gym.owner.token, gym.token(gym.owner, audience="https://other.example/api")):
        response = await client.post(gym.mcp, json=initialize(), headers=bearer(token))
        assert response.status_code == 401 and response.json()["code"] == "token_invalid"
        assert 'error="invalid_token"' in response.headers["www-authenticate"]
    forged = gym.owner.token[:-4] + "AAAA"
    assert (await client.post(gym.mcp, json=initialize(), headers=bearer(forged))).status_code == 401
    ok = await client.post(gym.mcp, json=initialize(), headers=bearer(gym.token(gym.owner)))
    assert ok.status_code == 200 and ok.headers["mcp-session-id"]


async def test_members_and_strangers_are_refused_as_on_the_console(client, factory, gym) -> None:
    member = await factory.user(gym.org, "member")
    response = await client.post(gym.mcp, json=initialize(), headers=bearer(gym.token(member)))
    assert response.status_code == 403 and response.json()["code"] == "member_forbidden"
    stranger = await factory.user(await factory.org(), "owner")
    response = await client.post(gym.mcp, json=initialize(), headers=bearer(gym.token(stranger)))
    assert response.status_code == 404 and response.json()["code"] == "org_not_found"
    response = await client.post(f"/organizations/{uuid.uuid4()}/mcp", json=initialize(),
                                 headers=bearer(gym.token(gym.owner)))
    assert response.status_code == 404 and response.json()["code"] == "org_not_found"


async def test_a_session_answers_only_its_own_user_in_its_own_org(client, factory, gym) -> None:
    """Per-session state: a session id is bound to the user and the org that opened it (else 404, as unknown)."""
    opened = await raw_session(client, gym)
    session = {key: opened[key] for key in ("mcp-session-id", "mcp-protocol-version")}

    coach = await factory.user(gym.org, "coach")
    stolen = await client.post(gym.mcp, json=_list_tools(), headers=bearer(gym.token(coach), **session))
    assert stolen.status_code == 404
    other = await factory.org()
    await factory.join(gym.owner, other, "owner")
    elsewhere = await client.post(f"/organizations/{other.id}/mcp", json=_list_tools(),
                                  headers=bearer(gym.token(gym.owner), **session))
    assert elsewhere.status_code == 404
    own = await client.post(gym.mcp, json=_list_tools(), headers=bearer(gym.token(gym.owner), **session))
    assert own.status_code == 200 and "tasks__create" in own.text


async def test_the_official_client_speaks_a_2025_revision_and_older_ones_are_refused(client, server, gym) -> None:
    """The client probes 2026-07-28 (session-less) first, is told -32022, and falls back to the handshake."""
    async with connect(server.url, gym) as mcp:
        assert mcp.protocol_version == "2025-11-25"
        assert mcp.server_info is not None and mcp.server_info.name == "spotter"
    old = await client.post(gym.mcp, json=initialize("2025-03-26"), headers=bearer(gym.token(gym.owner)))
    assert '"code":-32022' in old.text and '"supported":["2025-06-18","2025-11-25"]' in old.text


async def test_a_page_of_another_origin_is_refused(client, gym) -> None:
    """DNS rebinding: a browser page elsewhere cannot drive the server even with a token it got hold of."""
    response = await client.post(gym.mcp, json=initialize(),
                                 headers=bearer(gym.token(gym.owner), origin="https://evil.example"))
    assert response.status_code == 403


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
async def test_both_served_revisions_open_a_session(client, gym, version) -> None:
    response = await client.post(gym.mcp, json=initialize(version), headers=bearer(gym.token(gym.owner)))
    assert response.status_code == 200 and f'"protocolVersion":"{version}"' in response.text


async def test_an_unknown_session_is_404_and_the_client_must_start_again(client, gym) -> None:
    headers = bearer(gym.token(gym.owner), **{"mcp-session-id": uuid.uuid4().hex,
                                                "mcp-protocol-version": "2025-06-18"})
    assert (await client.post(gym.mcp, json=_list_tools(), headers=headers)).status_code == 404


async def test_dev_token_mcp_prints_the_address_and_a_token_the_server_takes(client, server, gym, embedded_pg,
                                                                               data_dir) -> None:
    """The README's way in: `spotter dev-token --email E --mcp` prints each gym's MCP address, then a token
    issued for the MCP server, which the server accepts."""
    env = {**os.environ, "APP_ENV": "test", "AUTH_MODE": "dev", "DATABASE_URL": embedded_pg.url(),
           "DATA_DIR": str(data_dir), "SENTRY_DSN": "", "POSTHOG_API_KEY": "", "LOG_LEVEL": "warning"}
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "api.cli", "dev-token", "--email",
                                                    gym.owner.email, "--url", server.url, "--mcp"],
                                   cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    address, token = done.stdout.strip().splitlines()
    assert address == f"mcp: {server.url}{gym.mcp}"
    taken = await client.post(gym.mcp, json=initialize(), headers=bearer(token))
    assert taken.status_code == 200 and taken.headers["mcp-session-id"]
