"""Edges of a turn nobody exercised: two confirmations in one message, the round-trip limit, ambient context
reaching the model, a pick sent twice, the elite cap, and provider errors classified by status and by type."""

import asyncio
import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from agent.copilot import STAFF_COPILOT
from gym.members import create_member
from rag.embeddings import LocalEmbedder
from rag.index import reindex_org
from tests.fakes.anthropic_server import ApiError, DropStream, Reply, Text, ToolUse
from tests.sse import sse


async def _tasks(client, gym, fake_model, *titles: str) -> tuple[str, list[str]]:
    fake_model.queue(Reply(*[ToolUse("tasks__create", {"title": t}, id=f"toolu_mk{i}") for i, t in enumerate(titles)]),
                     Reply(Text("Created.")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "add the tasks"},
                       headers=gym.owner.headers)
    return result.one("conversation_started")["conversationId"], [c["output"]["id"] for c in result.of("tool_completed")]


async def _deleted(db, task_ids) -> list[bool]:
    async with db.owner() as session:
        rows = dict((await session.execute(text("SELECT id::text, deleted_at IS NOT NULL FROM tasks WHERE id = ANY("
                                                "CAST(:ids AS uuid[]))"), {"ids": task_ids})).all())
    return [rows[t] for t in task_ids]


async def test_two_confirmations_in_one_message_are_asked_one_at_a_time(client, gym, fake_model, db) -> None:
    """The second confirmation ends the first confirm's stream early (no model call); the second confirm
    runs it and feeds both results, first, in one message."""
    conversation_id, (first, second) = await _tasks(client, gym, fake_model, "Rower", "Bike")
    fake_model.queue(Reply(Text("Both need your OK."), ToolUse("tasks__delete", {"id": first}, id="toolu_a"),
                           ToolUse("tasks__delete", {"id": second}, id="toolu_b")))
    asked = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "delete both", "conversationId": conversation_id})
    assert [p["toolUseId"] for p in asked.of("confirmation_pending")] == ["toolu_a"]
    calls = len(fake_model.requests)

    one = await sse(client, gym.confirm_url(conversation_id, "toolu_a"), json_body={"approved": True},
                    headers=gym.owner.headers)
    assert one.names == ["tool_started", "tool_completed", "confirmation_pending", "done"]
    assert one.one("confirmation_pending")["toolUseId"] == "toolu_b"
    assert one.one("done")["usage"]["costUsdMicros"] == 0 and len(fake_model.requests) == calls
    assert await _deleted(db, [first, second]) == [True, False]

    fake_model.queue(Reply(Text("Both deleted.")))
    two = await sse(client, gym.confirm_url(conversation_id, "toolu_b"), json_body={"approved": True},
                    headers=gym.owner.headers)
    assert two.text == "Both deleted." and await _deleted(db, [first, second]) == [True, True]
    fed = fake_model.requests[-1].body["messages"][-1]["content"]
    assert [(b["type"], b["tool_use_id"]) for b in fed] == [("tool_result", "toolu_a"), ("tool_result", "toolu_b")]
    assert fake_model.requests[-1].rejected is None


async def test_the_round_trip_limit_ends_the_stream_cleanly_and_the_next_turn_is_valid(client, gym,
                                                                                       fake_model) -> None:
    fake_model.respond_with(lambda body: Reply(Text("Looking."), ToolUse("tasks__list", {})))
    looped = await sse(client, f"{gym.base}/messages", json_body={"message": "keep looking"},
                       headers=gym.owner.headers)
    assert len(fake_model.requests) == STAFF_COPILOT.max_round_trips == 6
    assert len(looped.of("message_done")) == 6 and len(looped.of("tool_completed")) == 6
    assert looped.names[-1] == "done" and "error" not in looped.names  # what the user sees: the work, no error
    assert looped.text == "Looking." * 6

    fake_model.respond_with(None)
    fake_model.queue(Reply(Text("Here is what I found.")))
    conversation_id = looped.one("conversation_started")["conversationId"]
    after = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "so?", "conversationId": conversation_id})
    assert after.text == "Here is what I found."
    request = fake_model.requests[-1]
    assert request.rejected is None
    last = request.body["messages"][-1]
    assert last["role"] == "user" and last["content"][0]["type"] == "tool_result"  # the 6th round's result,
    assert last["content"][-1]["text"].endswith("so?")  # then the new message, in one user turn


async def test_ambient_context_about_a_named_member_reaches_the_model(client, gym, fake_model, db) -> None:
    async with db.scope(org_id=gym.org.id) as session:
        await create_member(session, gym.org.id, first_name="Yarden", last_name="Abergil")
    # this gym's documents only: the worker's database holds every earlier test's undrained outbox
    assert (await reindex_org(db, LocalEmbedder(), gym.org.id)).failed == 0
    fake_model.queue(Reply(Text("She is doing well.")))
    message = "how has Yarden Abergil been doing with her training lately?"
    await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
              json_body={"message": message, "pageContext": {"page": "members"}})
    blocks = fake_model.requests[0].body["messages"][-1]["content"]
    ambient = [b["text"] for b in blocks if b["type"] == "text" and b["text"].startswith("<ambient_context>")]
    assert len(ambient) == 1 and "Yarden Abergil" in ambient[0]
    # ARCHITECTURE.md: the new user turn starts with <page_context> and <ambient_context>, the user's text last
    assert blocks[0]["text"].startswith("<page_context>") and blocks[1]["text"].startswith("<ambient_context>")
    assert blocks[-1]["text"] == message


async def test_a_pick_sent_twice_resolves_once(client, gym, fake_model) -> None:
    candidates = [{"id": "m1", "label": "Saar Cohen"}, {"id": "m2", "label": "Saar Levi"}]
    fake_model.queue(Reply(ToolUse("read__ask_user_to_pick", {"kind": "member", "prompt": "Which Saar?",
                                                              "candidates": candidates}, id="toolu_pick")))
    asked = await sse(client, f"{gym.base}/messages", json_body={"message": "find Saar"}, headers=gym.owner.headers)
    conversation_id = asked.one("conversation_started")["conversationId"]
    fake_model.respond_with(lambda body: Reply(Text("Saar Levi it is.")))
    both = await asyncio.gather(*[sse(client, gym.pick_url(conversation_id, "toolu_pick"), json_body={"id": "m2"},
                                      headers=gym.owner.headers) for _ in range(2)])
    again = await sse(client, gym.pick_url(conversation_id, "toolu_pick"), json_body={"id": "m1"},
                      headers=gym.owner.headers)
    statuses = sorted(r.status for r in both)
    assert statuses == [200, 409] and again.status == 409
    assert all(r.body["code"] == "tool_already_resolved" for r in [*both, again] if r.status == 409)
    assert len(fake_model.requests) == 2  # the model resumed once
    detail = (await client.get(f"{gym.base}/conversations/{conversation_id}", headers=gym.owner.headers)).json()
    calls = [c for m in detail["messages"] for c in m["toolCalls"] if c["toolUseId"] == "toolu_pick"]
    assert len(calls) == 1 and calls[0]["status"] == "succeeded"


@pytest.mark.parametrize(("spent", "refused"), [(24_999_999, False), (25_000_000, True)])
async def test_the_elite_cap_is_25_dollars(client, factory, fake_model, db, spent, refused) -> None:
    org = await factory.org(tier="elite")
    owner = await factory.user(org, "owner")
    async with db.owner() as session:
        await session.execute(text("INSERT INTO ai_usage_daily (org_id, user_id, day, cost_usd_micros) "
                                   "VALUES (:o, :u, :d, :c)"),
                              {"o": org.id, "u": owner.id, "d": datetime.now(UTC).date(), "c": spent})
    fake_model.queue(Reply(Text("Still within the elite budget.")))
    result = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                       headers={**owner.headers, "x-locale": "en"})
    snapshot = (await client.get(f"/organizations/{org.id}/agent/usage", headers=owner.headers)).json()
    assert snapshot["tier"] == "elite" and snapshot["capUsdMicros"] == 25_000_000
    if refused:
        assert result.one("error")["code"] == "agent_budget_exceeded" and "$25.00" in result.one("error")["message"]
        assert fake_model.requests == []
    else:
        assert result.text == "Still within the elite budget."


@pytest.mark.parametrize(("failure", "code"), [
    (ApiError(403), "provider_unauthorized"),
    (ApiError(500, error_type="overloaded_error"), "provider_overloaded"),
    (DropStream(after_events=4, error="overloaded_error"), "provider_overloaded"),
    (DropStream(after_events=4, error="api_error"), "provider_unavailable"),
])
async def test_provider_errors_are_classified_by_status_and_by_type(client, gym, fake_model, failure, code) -> None:
    fake_model.queue(failure)
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "hello"}, headers=gym.owner.headers)
    assert result.status == 200 and result.names[-2:] == ["error", "done"]
    assert result.one("error")["code"] == code
    assert json.dumps(result.one("error")).count(code) == 1
