"""Agent-test fixtures: a clean fake model per test and a staff user in a fresh org."""

from __future__ import annotations

import pytest

from tests.factories import TestOrg, TestUser


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


class Gym:
    def __init__(self, org: TestOrg, owner: TestUser) -> None:
        self.org, self.owner = org, owner

    @property
    def base(self) -> str:
        return f"/organizations/{self.org.id}/agent"

    def confirm_url(self, conversation_id: str, tool_use_id: str) -> str:
        return f"{self.base}/conversations/{conversation_id}/confirm/{tool_use_id}"

    def pick_url(self, conversation_id: str, tool_use_id: str) -> str:
        return f"{self.base}/conversations/{conversation_id}/pick/{tool_use_id}"

    def undo_url(self, conversation_id: str, tool_use_id: str) -> str:
        return f"{self.base}/conversations/{conversation_id}/undo/{tool_use_id}"


@pytest.fixture
async def gym(factory) -> Gym:
    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner", name="Maya Owner")
    return Gym(org, owner)
