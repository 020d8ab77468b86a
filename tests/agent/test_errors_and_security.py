"""Provider failures become stable codes (then done), the history stays replayable, and access is enforced."""

import asyncio
import uuid

import httpx
import pytest

from api.app import create_app
from tests.fakes.anthropic_server import ApiError, DropStream, Held, Reply, Text, ToolUse
from tests.servers import ThreadedServer
from tests.sse import open_sse, sse


@pytest.mark.parametrize(("failure", "code"), [
    (ApiError(429), "provider_rate_limited"),
    (ApiError(529), "provider_overloaded"),
    (ApiError(500), "provider_unavailable"),
    (ApiError(400), "provider_invalid_request"),
    (ApiError(401), "provider_unauthorized"),
    (DropStream(after_events=5, blocks=(Text("partial answer that will be cut", chunks=4),)), "provider_unavailable"),
])
async def test_provider_failures_map_to_codes_then_done_and_stay_replayable(client, gym, fake_model, failure,
                                                                           code) -> None:
    fake_model.queue(failure)
    failed = await sse(client, f"{gym.base}/messages", json_body={"message": "hello there"},
                       headers={**gym.owner.headers, "x-locale": "ru"})
    assert failed.status == 200
    assert failed.names[-2:] == ["error", "done"]
    error = failed.one("error")
    assert error["code"] == code and error["traceId"] and error["message"]
    assert failed.headers["x-trace-id"] == error["traceId"]
    conversation_id = failed.one("conversation_started")["conversationId"]

    fake_model.queue(Reply(Text("Back again.")))
    retry = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "try again", "conversationId": conversation_id})
    assert retry.text == "Back again." and fake_model.requests[-1].rejected is None


async def test_crash_leftover_tool_use_is_repaired_before_the_next_request(client, gym, fake_model, db) -> None:
    from sqlalchemy import text

    fake_model.queue(Reply(Text("ok")))
    first = await sse(client, f"{gym.base}/messages", json_body={"message": "hi"}, headers=gym.owner.headers)
    conversation_id = first.one("conversation_started")["conversationId"]
    async with db.owner() as session:  # a process killed between the assistant turn and its tool results
        await session.execute(text(
            "INSERT INTO conversation_messages (org_id, conversation_id, seq, role, content) VALUES "
            "(:o, :c, 3, 'user', '[{\"type\":\"text\",\"text\":\"make a task\"}]'::jsonb), "
            "(:o, :c, 4, 'assistant', '[{\"type\":\"tool_use\",\"id\":\"toolu_dead\",\"name\":\"tasks__create\","
            "\"input\":{\"title\":\"x\"}}]'::jsonb)"), {"o": gym.org.id, "c": conversation_id})
    fake_model.queue(Reply(Text("Recovered.")))
    result = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                       json_body={"message": "hello?", "conversationId": conversation_id})
    assert result.text == "Recovered."
    request = fake_model.requests[-1]
    assert request.rejected is None
    assert request.body["messages"][-1]["content"][0]["tool_use_id"] == "toolu_dead"


async def test_no_key_answers_agent_disabled(app_settings, factory) -> None:
    server = ThreadedServer(create_app(app_settings.model_copy(update={"anthropic_api_key": None}))).start()
    try:
        org = await factory.org()
        owner = await factory.user(org, "owner")
        async with httpx.AsyncClient(base_url=server.url) as http:
            result = await sse(http, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                               headers=owner.headers)
    finally:
        server.stop()
    assert result.names == ["error", "done"]
    assert result.one("error")["code"] == "agent_disabled"


async def test_client_disconnect_leaves_the_upstream_stream_and_the_turn_running(client, gym, fake_model,
                                                                                db) -> None:
    """A turn outlives its connection (issue 40): the client leaves mid-answer, the model stream runs to its end and
    the whole answer is stored; only an explicit stop cancels it (tests/api/test_turn_streams.py)."""
    from sqlalchemy import text

    fake_model.chunk_delay = 0.15
    fake_model.queue(Reply(Text("a long answer " * 10, chunks=30)))
    async with open_sse(client, f"{gym.base}/messages", json_body={"message": "long one"},
                        headers=gym.owner.headers) as stream:
        await stream.until("text_delta")  # then leave mid-answer
    kept = None
    for _ in range(300):  # the turn finishes on its own and its lock is released
        async with db.owner() as session:
            kept = (await session.execute(text(
                "SELECT m.stop_reason, m.content->0->>'text' AS text FROM conversation_messages m JOIN conversations c "
                "ON c.id = m.conversation_id WHERE c.org_id = :o AND m.role = 'assistant'"), {"o": gym.org.id})).first()
        if kept:
            break
        await asyncio.sleep(0.1)
    assert kept is not None and (kept.stop_reason, kept.text) == ("end_turn", "a long answer " * 10)
    assert fake_model.disconnects == 0


async def test_concurrent_send_on_same_conversation_is_busy(client, gym, fake_model) -> None:
    fake_model.queue(Reply(Text("first")))
    first = await sse(client, f"{gym.base}/messages", json_body={"message": "one"}, headers=gym.owner.headers)
    conversation_id = first.one("conversation_started")["conversationId"]
    held = Held(Reply(Text("slow answer", chunks=10)))  # turn two waits for the model until released
    fake_model.respond_with(held)
    slow = asyncio.create_task(sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                                   json_body={"message": "two", "conversationId": conversation_id}))
    try:
        assert await asyncio.to_thread(held.arrived.wait, 30)  # turn two is in flight, holding the conversation
        busy = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                         json_body={"message": "three", "conversationId": conversation_id})
    finally:
        held.release()
    assert busy.status == 409 and busy.body["code"] == "conversation_busy"
    assert (await slow).text == "slow answer"


async def test_member_role_is_refused_on_send_confirm_pick_undo(client, gym, factory) -> None:
    member = await factory.user(gym.org, "member")
    cid = str(uuid.uuid4())
    for url, body in ((f"{gym.base}/messages", {"message": "hi"}),
                      (gym.confirm_url(cid, "toolu_x"), {"approved": True}),
                      (gym.pick_url(cid, "toolu_x"), {"id": "a"}),
                      (gym.undo_url(cid, "toolu_x"), None)):
        response = await client.post(url, json=body, headers=member.headers)
        assert response.status_code == 403 and response.json()["code"] == "member_forbidden", url
    usage = await client.get(f"{gym.base}/usage", headers=member.headers)
    assert usage.status_code == 200


async def test_other_users_conversation_and_other_orgs_tool_use_are_not_found(client, gym, factory,
                                                                            fake_model) -> None:
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Mine"}, id="toolu_mine")), Reply(Text("ok")))
    mine = await sse(client, f"{gym.base}/messages", json_body={"message": "task"}, headers=gym.owner.headers)
    conversation_id = mine.one("conversation_started")["conversationId"]
    colleague = await factory.user(gym.org, "admin")
    for response in (
        await client.get(f"{gym.base}/conversations/{conversation_id}", headers=colleague.headers),
        await client.post(gym.undo_url(conversation_id, "toolu_mine"), headers=colleague.headers),
        await client.post(f"{gym.base}/messages", headers=colleague.headers,
                          json={"message": "hijack", "conversationId": conversation_id}),
    ):
        assert response.status_code == 404 and response.json()["code"] == "conversation_not_found"
    other_org = await factory.org()
    outsider = await factory.user(other_org, "owner")
    foreign = await client.post(f"/organizations/{other_org.id}/agent/conversations/{conversation_id}/undo/toolu_mine",
                                headers=outsider.headers)
    assert foreign.status_code == 404
    stranger = await client.post(gym.undo_url(conversation_id, "toolu_mine"), headers=outsider.headers)
    assert stranger.status_code == 404 and stranger.json()["code"] == "org_not_found"
    listing = await client.get(f"{gym.base}/conversations", headers=colleague.headers)
    assert listing.json()["items"] == []


@pytest.mark.parametrize("body", [
    b"{not json", b"[]", b'{"message": ""}', b'{"message": "   "}', b'{"message": 5}',
    b'{"message": "hi", "conversationId": "nope"}', b'{"message": "hi", "pageContext": "str"}',
    ('{"message": "' + "x" * 8001 + '"}').encode(),
])
async def test_malformed_send_bodies_fail_before_any_stream(client, gym, fake_model, body) -> None:
    result = await sse(client, f"{gym.base}/messages", content=body, headers=gym.owner.headers)
    assert result.status in (400, 422)
    assert result.body["code"] == "validation_failed" and result.body["traceId"]
    assert fake_model.requests == []


@pytest.mark.parametrize("body", [b'{"approved": "yes"}', b"{}", b'{"approved": true, "input": [1]}'])
async def test_malformed_confirm_bodies_are_validation_failed(client, gym, body) -> None:
    result = await sse(client, gym.confirm_url(str(uuid.uuid4()), "toolu_x"), content=body,
                       headers=gym.owner.headers)
    assert result.status in (400, 422) and result.body["code"] == "validation_failed"


async def test_oversized_payload_is_refused(client, gym) -> None:
    response = await client.post(f"{gym.base}/messages", content=b'{"message": "' + b"x" * 300_000 + b'"}',
                                 headers={**gym.owner.headers, "content-type": "application/json"})
    assert response.status_code == 413 and response.json()["code"] == "payload_too_large"


async def test_sends_over_the_per_user_rate_limit_get_rate_limited(app_settings, factory, fake_model) -> None:
    server = ThreadedServer(create_app(app_settings.model_copy(update={"agent_rate_limit_per_minute": 2}))).start()
    try:
        org = await factory.org()
        owner = await factory.user(org, "owner")
        fake_model.respond_with(lambda body: Reply(Text("ok")))
        async with httpx.AsyncClient(base_url=server.url) as http:
            results = [await sse(http, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                                 headers=owner.headers) for _ in range(3)]
    finally:
        server.stop()
    assert [r.status for r in results] == [200, 200, 429]
    assert results[2].body["code"] == "rate_limited" and results[2].body["traceId"]
