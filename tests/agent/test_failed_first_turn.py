"""A first turn that fails before anything is said leaves no empty "Untitled" conversation behind: the
conversation is created in the transaction of its first message."""

from __future__ import annotations

import pytest

from tests.fakes.anthropic_server import Reply, Text
from tests.sse import sse


@pytest.mark.parametrize("body", [
    b'{"message": "hello\\u0000there"}',  # Postgres jsonb refuses NUL when the user turn is stored
    b'{"message": "hello", "pageContext": {"page": "members\\u0000"}}',
])
async def test_a_failed_first_turn_leaves_no_conversation(client, gym, fake_model, body) -> None:
    fake_model.respond_with(lambda request: Reply(Text("ok")))
    result = await sse(client, f"{gym.base}/messages", content=body, headers=gym.owner.headers)

    if result.status == 200:  # the turn ran and failed: one error, then done without a conversation
        assert result.names[-2:] == ["error", "done"], result.names
        assert "conversation_started" not in result.names
        assert result.one("done")["conversationId"] is None
    else:  # refused before any stream
        assert result.status in (400, 422), result.status
    listing = await client.get(f"{gym.base}/conversations", headers=gym.owner.headers)
    assert listing.status_code == 200 and listing.json()["items"] == []
    fake_model.respond_with(lambda request: Reply(Text("ok")))
    again = await sse(client, f"{gym.base}/messages", json_body={"message": "hello"}, headers=gym.owner.headers)
    assert again.status == 200 and again.names[-1] == "done" and "error" not in again.names
    listing = await client.get(f"{gym.base}/conversations", headers=gym.owner.headers)
    assert [c["title"] for c in listing.json()["items"]] == ["hello"]
