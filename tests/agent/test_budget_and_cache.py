"""Daily caps, exact usage accounting under concurrency, the usage snapshot, and prompt-cache breakpoints."""

import asyncio
from datetime import UTC, datetime

from sqlalchemy import text

from agent.costs import PriceBook, Usage
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse


async def test_over_cap_org_gets_budget_error_and_no_model_call(client, factory, fake_model, db) -> None:
    org = await factory.org(tier="lite")
    owner = await factory.user(org, "owner")
    async with db.owner() as session:
        await session.execute(text("INSERT INTO ai_usage_daily (org_id, user_id, day, cost_usd_micros) "
                                   "VALUES (:o, :u, :d, 1000000)"),
                              {"o": org.id, "u": owner.id, "d": datetime.now(UTC).date()})
    result = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                       headers={**owner.headers, "x-locale": "en"})
    assert result.status == 200
    assert result.names == ["error", "done"]
    error = result.one("error")
    assert error["code"] == "agent_budget_exceeded" and "$1.00" in error["message"] and error["traceId"]
    assert result.one("done")["usage"]["costUsdMicros"] == 0
    assert fake_model.requests == []
    snapshot = (await client.get(f"/organizations/{org.id}/agent/usage", headers=owner.headers)).json()
    assert snapshot["capUsdMicros"] == 1_000_000 and snapshot["spentUsdMicros"] == 1_000_000
    assert snapshot["percentUsed"] == 1.0 and snapshot["tier"] == "lite"


async def test_budget_message_is_localized(client, factory, db) -> None:
    org = await factory.org(tier="pro", budget=0)
    owner = await factory.user(org, "owner")
    result = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                       headers={**owner.headers, "x-locale": "he"})
    assert "$0.00" in result.one("error")["message"] and "הארגון" in result.one("error")["message"]


async def test_unmetered_override_is_never_capped(client, factory, fake_model, db) -> None:
    org = await factory.org(tier="lite", budget=-1)
    owner = await factory.user(org, "owner")
    async with db.owner() as session:
        await session.execute(text("INSERT INTO ai_usage_daily (org_id, user_id, day, cost_usd_micros) "
                                   "VALUES (:o, :u, :d, 99000000)"),
                              {"o": org.id, "u": owner.id, "d": datetime.now(UTC).date()})
    fake_model.queue(Reply(Text("still here")))
    result = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                       headers=owner.headers)
    assert result.text == "still here"
    snapshot = (await client.get(f"/organizations/{org.id}/agent/usage", headers=owner.headers)).json()
    assert snapshot["capUsdMicros"] == -1 and snapshot["percentUsed"] == 0.0
    assert snapshot["resetsAt"].endswith("T00:00:00Z")


async def test_twenty_concurrent_turns_add_up_exactly(client, gym, fake_model, db) -> None:
    fake_model.respond_with(lambda body: Reply(Text("ok " * 5)))
    results = await asyncio.gather(*[
        sse(client, f"{gym.base}/messages", json_body={"message": f"question {i}"}, headers=gym.owner.headers)
        for i in range(20)])
    costs = [r.one("done")["usage"]["costUsdMicros"] for r in results]
    outputs = [r.one("done")["usage"]["outputTokens"] for r in results]
    async with db.owner() as session:
        row = (await session.execute(text("SELECT turns, cost_usd_micros, output_tokens FROM ai_usage_daily "
                                          "WHERE org_id = :o"), {"o": gym.org.id})).one()
    assert row.turns == 20
    assert row.cost_usd_micros == sum(costs) > 0
    assert row.output_tokens == sum(outputs)
    snapshot = (await client.get(f"{gym.base}/usage", headers=gym.owner.headers)).json()
    assert snapshot["spentUsdMicros"] == sum(costs)
    assert snapshot["percentUsed"] == round(sum(costs) / 5_000_000, 4)


def test_cost_prices_each_cache_bucket_apart() -> None:
    book = PriceBook()
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000, cache_read_tokens=1_000_000,
                  cache_write_5m_tokens=1_000_000, cache_write_1h_tokens=1_000_000)
    # Sonnet: $3 in, $15 out, reads 0.1× = $0.30, 5m writes 1.25× = $3.75, 1h writes 2× = $6
    assert book.cost_usd_micros("claude-sonnet-4-6", usage) == 28_050_000
    assert book.cost_usd_micros("claude-haiku-4-5", Usage(input_tokens=1000, output_tokens=1000)) == 6000
    assert usage.cache_hit_ratio == round(1 / 4, 4)


def test_unknown_model_price_refuses_and_overrides_extend() -> None:
    import pytest

    with pytest.raises(ValueError, match="no price"):
        PriceBook().check_models("claude-imaginary-9")
    book = PriceBook({"claude-imaginary-9": {"input": 2.0, "output": 8.0}})
    assert book.cost_usd_micros("claude-imaginary-9", Usage(cache_write_1h_tokens=1_000_000)) == 4_000_000


def test_default_model_is_not_deprecated() -> None:
    from agent.costs import deprecated_models
    from core.settings import Settings

    assert Settings().agent_model not in deprecated_models()
    assert "claude-sonnet-4-5" in deprecated_models()


def _breakpoints(body: dict) -> list[tuple[str, str]]:
    found = []
    for i, tool in enumerate(body.get("tools", [])):
        if "cache_control" in tool:
            found.append((f"tools[{i}]", tool["cache_control"].get("ttl", "5m")))
    for i, block in enumerate(body.get("system", [])):
        if "cache_control" in block:
            found.append((f"system[{i}]", block["cache_control"].get("ttl", "5m")))
    for m, message in enumerate(body["messages"]):
        for b, block in enumerate(message["content"] if isinstance(message["content"], list) else []):
            if "cache_control" in block:
                found.append((f"messages[{m}][{b}]", block["cache_control"].get("ttl", "5m")))
    return found


async def test_four_breakpoints_in_designed_places_and_cache_reads_grow(client, gym, fake_model) -> None:
    fake_model.respond_with(lambda body: Reply(Text("Noted. " * 20)))
    conversation_id = None
    for turn in range(5):
        body = {"message": f"turn {turn}: tell me something about the schedule", "conversationId": conversation_id}
        result = await sse(client, f"{gym.base}/messages", json_body=body, headers=gym.owner.headers)
        conversation_id = conversation_id or result.one("conversation_started")["conversationId"]
    reads = [r.usage["cache_read_input_tokens"] for r in fake_model.requests]
    for request in fake_model.requests:
        body = request.body
        points = _breakpoints(body)
        last_m = len(body["messages"]) - 1
        last_b = len(body["messages"][-1]["content"]) - 1
        last_in_prompt = max(i for i, t in enumerate(body["tools"]) if not t.get("defer_loading"))
        assert points == [(f"tools[{last_in_prompt}]", "1h"), ("system[0]", "1h"), ("system[1]", "1h"),
                          (f"messages[{last_m}][{last_b}]", "5m")]
        assert all(t.get("defer_loading") for t in body["tools"][last_in_prompt + 1:])  # the deferred tail
        assert request.rejected is None
    assert all(later > earlier for earlier, later in zip(reads, reads[1:], strict=False)), reads
    assert reads[0] == 0


async def test_tool_list_is_role_filtered_and_cached_per_role(client, factory, fake_model) -> None:
    org = await factory.org()
    coach = await factory.user(org, "coach")
    fake_model.queue(Reply(ToolUse("tasks__list", {}, id="t1")), Reply(Text("ok")))
    await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "tasks?"},
              headers=coach.headers)
    tools = fake_model.requests[0].body["tools"]
    names = [t["name"] for t in tools]
    assert "tasks__create" in names and "read__ask_user_to_pick" in names
    loaded = [t["name"] for t in tools if not t.get("defer_loading") and "type" not in t]
    deferred = [t["name"] for t in tools if t.get("defer_loading")]
    assert loaded == sorted(loaded) and deferred == sorted(deferred)  # stable order, so the prefix caches
    assert fake_model.requests[1].body["tools"] == fake_model.requests[0].body["tools"]
