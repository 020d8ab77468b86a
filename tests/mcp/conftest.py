"""MCP tests: the official `mcp` client over real HTTP against the app under uvicorn (the session's `server`)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from agent.costs import Usage
from agent.usage import record_turn
from tests.factories import TestOrg, TestUser

Elicit = Callable[[Any, types.ElicitRequestParams], Awaitable[types.ElicitResult]]
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


class Gym:
    """A fresh org with its owner; the MCP endpoint and the console's agent endpoints of the org."""

    def __init__(self, org: TestOrg, owner: TestUser, keys: Any) -> None:
        self.org, self.owner, self.keys = org, owner, keys

    @property
    def mcp(self) -> str:
        return f"/organizations/{self.org.id}/mcp"

    @property
    def agent(self) -> str:
        return f"/organizations/{self.org.id}/agent"

    def token(self, user: TestUser, audience: str | None = "spotter-mcp") -> str:
        """The user's token issued for the MCP server (`spotter dev-token --mcp`)."""
        return self.keys.sign(sub=user.clerk_id, email=user.email, audience=audience)


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


@pytest.fixture
async def gym(factory, dev_keys) -> Gym:
    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner", name="Maya Owner")
    return Gym(org, owner, dev_keys)


@asynccontextmanager
async def connect(server_url: str, gym: Gym, user: TestUser | None = None, *, elicit: Elicit | None = None,
                  locale: str | None = None, client_name: str = "Test Assistant") -> AsyncIterator[Client]:
    """An MCP session as `user` (the owner by default) with the official client; `elicit` answers approvals."""
    headers = {"authorization": f"Bearer {gym.token(user or gym.owner)}"}
    if locale:
        headers["x-locale"] = locale
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        transport = streamable_http_client(f"{server_url}{gym.mcp}", http_client=http)
        async with Client(transport, elicitation_callback=elicit,
                          client_info=types.Implementation(name=client_name, version="1.0")) as client:
            yield client


async def exhaust_cap(db: Any, gym: Gym) -> None:
    """Today's spend reaches the gym's cap (pro: $5 a day)."""
    async with db.scope(org_id=gym.org.id) as session:
        await record_turn(session, org_id=gym.org.id, user_id=gym.owner.id, day=datetime.now(UTC).date(),
                          usage=Usage(), cost_usd_micros=5_000_000, turns=0)


def body(result: types.CallToolResult) -> dict[str, Any]:
    """The result's structured content (also its last text block, serialized)."""
    assert result.structured_content == json.loads(result.content[-1].text)
    return result.structured_content


# ---- raw HTTP, for what the official client would never send ------------------------------------------------

def initialize(version: str = "2025-06-18") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}


def bearer(token: str, **more: str) -> dict[str, str]:
    return {**ACCEPT, "authorization": f"Bearer {token}", **more}


async def raw_session(client: Any, gym: Gym, user: TestUser | None = None) -> dict[str, str]:
    """The headers of an initialized session opened with plain HTTP."""
    headers = bearer(gym.token(user or gym.owner))
    opened = await client.post(gym.mcp, headers=headers, json=initialize())
    headers |= {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18"}
    await client.post(gym.mcp, headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    return headers
