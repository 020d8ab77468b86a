"""The demo's conversation titles (issue 17 item 6): with the offline model and titles on (as `spotter demo`
runs), a new conversation is renamed from its first message to a short cleaned phrase."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from api.app import create_app
from tests.agent.test_compaction import _wait_for_title
from tests.servers import ThreadedServer
from tests.sse import sse


@pytest.fixture(scope="module")
def offline_titled(app_settings) -> Iterator[ThreadedServer]:
    settings = app_settings.model_copy(update={"agent_model_provider": "offline", "agent_titles": True})
    server = ThreadedServer(create_app(settings)).start()
    yield server
    server.stop()


@pytest.mark.parametrize(("message", "title"), [
    ("Hey, can you please show me the classes tomorrow?", "Show me the classes tomorrow"),
    ("пожалуйста, найди Саар", "Найди Саар"),
])
async def test_the_demo_titles_a_conversation_with_a_short_cleaned_phrase(offline_titled, gym, fake_model, db,
                                                                          message, title) -> None:
    async with httpx.AsyncClient(base_url=offline_titled.url, timeout=30) as client:
        result = await sse(client, f"{gym.base}/messages", json_body={"message": message}, headers=gym.owner.headers)
    assert result.names[-1] == "done"
    conversation_id = result.one("conversation_started")["conversationId"]
    assert await _wait_for_title(db, conversation_id, message) == title
    assert fake_model.requests == []  # the offline model, never the API



async def test_the_same_first_message_twice_gets_titles_told_apart(offline_titled, gym, fake_model, db) -> None:
    """Issue 27 item 7: never three "Find Saar" in one list: the second is "Find Saar (2)"."""
    titles = []
    async with httpx.AsyncClient(base_url=offline_titled.url, timeout=30) as client:
        for _ in range(2):
            result = await sse(client, f"{gym.base}/messages", json_body={"message": "please find Saar"},
                               headers=gym.owner.headers)
            assert result.names[-1] == "done"
            conversation_id = result.one("conversation_started")["conversationId"]
            titles.append(await _wait_for_title(db, conversation_id, "please find Saar"))
    assert titles == ["Find Saar", "Find Saar (2)"]
