"""The daily cap holds under concurrency and inside a turn: every model call reserves its cost first."""

import asyncio
from datetime import UTC, datetime

from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse

CAP = 1_000_000  # lite: $1 a day


async def _org_at(factory, db, spent_micros: int):
    org = await factory.org(tier="lite")
    owner = await factory.user(org, "owner")
    async with db.owner() as session:
        await session.execute(text("INSERT INTO ai_usage_daily (org_id, user_id, day, cost_usd_micros) "
                                   "VALUES (:o, :u, :d, :c)"),
                              {"o": org.id, "u": owner.id, "d": datetime.now(UTC).date(), "c": spent_micros})
    return org, owner


async def _spent(db, org_id) -> int:
    async with db.owner() as session:
        return int(await session.scalar(text(
            "SELECT coalesce(sum(cost_usd_micros), 0) FROM ai_usage_daily WHERE org_id = :o"), {"o": org_id}))


async def test_ten_concurrent_turns_at_98_5_percent_run_at_most_one_call_over_the_cap(client, factory, fake_model,
                                                                                   db) -> None:
    org, owner = await _org_at(factory, db, 985_000)
    fake_model.chunk_delay = 0.05
    fake_model.respond_with(lambda body: Reply(Text("an answer in ten pieces", chunks=10)))
    results = await asyncio.gather(*[
        sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": f"question {i}"},
            headers=owner.headers) for i in range(10)])
    assert all(r.names[-1] == "done" for r in results)
    answered = [r for r in results if "error" not in r.names]
    refused = [r for r in results if "error" in r.names]
    assert all(r.one("error")["code"] == "agent_budget_exceeded" for r in refused)
    # one call costs more than the 1.5 % left, so exactly one call runs: the first to reserve
    assert len(fake_model.requests) == 1 and len(answered) == 1
    one_call = answered[0].one("done")["usage"]["costUsdMicros"]
    spent = await _spent(db, org.id)
    assert spent == 985_000 + one_call and 0 < spent - CAP <= one_call


async def test_a_turn_stops_at_the_cap_between_its_model_calls(client, factory, fake_model, db) -> None:
    """The budget is checked before every model call, not only when the turn starts."""
    org, owner = await _org_at(factory, db, 985_000)
    fake_model.queue(Reply(ToolUse("tasks__list", {}, id="toolu_list")), Reply(Text("never sent")))
    result = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "my tasks?"},
                       headers=owner.headers)
    assert result.names[-3:] == ["tool_completed", "error", "done"]
    assert result.one("error")["code"] == "agent_budget_exceeded"
    assert len(fake_model.requests) == 1
    first_call = result.one("done")["usage"]["costUsdMicros"]
    assert await _spent(db, org.id) == 985_000 + first_call


async def test_settled_calls_release_their_reservations(client, factory, fake_model, db) -> None:
    """Six turns in a row with $1 left on a $5 cap all run: each call's reservation (~$0.2) is released
    once its real cost is booked, so reservations never pile up against the cap."""
    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner")
    async with db.owner() as session:
        await session.execute(text("INSERT INTO ai_usage_daily (org_id, user_id, day, cost_usd_micros) "
                                   "VALUES (:o, :u, :d, 4000000)"),
                              {"o": org.id, "u": owner.id, "d": datetime.now(UTC).date()})
    fake_model.respond_with(lambda body: Reply(Text("short")))
    conversation_id = None
    for i in range(6):
        result = await sse(client, f"/organizations/{org.id}/agent/messages", headers=owner.headers,
                           json_body={"message": f"question {i}", "conversationId": conversation_id})
        conversation_id = result.one("done")["conversationId"]
        assert result.text == "short", result.names
    assert len(fake_model.requests) == 6 and 4_000_000 < await _spent(db, org.id) < 5_000_000
