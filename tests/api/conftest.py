"""API-test fixtures: a clean fake model per test and an owner in a fresh org."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.factories import TestOrg, TestUser


@dataclass
class Gym:
    org: TestOrg
    owner: TestUser

    @property
    def base(self) -> str:
        return f"/organizations/{self.org.id}/agent"

    def resume_url(self, kind: str, conversation_id: str, tool_use_id: str) -> str:
        return f"{self.base}/conversations/{conversation_id}/{kind}/{tool_use_id}"


@pytest.fixture
async def gym(factory) -> Gym:
    org = await factory.org(tier="pro")
    return Gym(org, await factory.user(org, "owner", name="Maya Owner"))


@pytest.fixture
async def redis_client(app_settings):
    """A client of the tests' Redis (decoded strings, as the service's)."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    yield client
    await client.aclose()
