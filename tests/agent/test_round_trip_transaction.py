"""A model call's usage is written in its round trip's transaction (one transaction per round trip); when that
transaction never commits, the call is still booked once, and the turn counted once."""

from __future__ import annotations

import uuid

import redis.asyncio as aioredis
from sqlalchemy import text

from agent.composition import build_agent
from agent.costs import PriceBook
from agent.model_stream import usage_from_json
from agent.threads import Opening
from tests.factories import owner_of_new_org
from tests.fakes.anthropic_server import Reply, Text, ToolUse


async def _usage(db, org_id) -> tuple[int, int, int]:
    async with db.owner() as session:
        row = (await session.execute(text(
            "SELECT coalesce(sum(cost_usd_micros), 0) AS cost, coalesce(sum(turns), 0) AS turns, "
            "coalesce(sum(output_tokens), 0) AS output FROM ai_usage_daily WHERE org_id = :o"),
            {"o": org_id})).one()
    return int(row.cost), int(row.turns), int(row.output)


def _billed(app_settings, fake_model, n: int) -> tuple[int, int]:
    """Cost and output tokens of the first `n` calls the fake answered, as the provider billed them."""
    prices, cost, output = PriceBook(app_settings.model_prices), 0, 0
    for request in fake_model.requests[:n]:
        usage = usage_from_json(request.usage)
        cost += prices.cost_usd_micros(app_settings.agent_model, usage)
        output += usage.output_tokens
    return cost, output


async def _turn(app_settings, db, factory, redis, stop_after: str | None) -> tuple[list[str], uuid.UUID]:
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    caller, access = await owner_of_new_org(db, factory)
    names: list[str] = []
    try:
        turn = await services.orchestrator.open_send(access=access, caller=caller, locale="en",
                                                     trace_id=uuid.uuid4().hex, opening=Opening("what is on my list?"),
                                                     thread_id=None)
        stream = turn.events()
        async for event in stream:
            names.append(event.type)
            if event.type == stop_after:
                await stream.aclose()  # the consumer leaves inside the round trip's transaction
                break
    finally:
        await services.close()
    return names, access.org_id


async def test_every_round_trip_books_its_call_and_the_turn_is_counted_once(app_settings, db, factory,
                                                                           fake_model) -> None:
    fake_model.queue(Reply(Text("Checking."), ToolUse("tasks__list", {})), Reply(ToolUse("tasks__list", {})),
                     Reply(Text("Nothing urgent today.")))
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    try:
        names, org_id = await _turn(app_settings, db, factory, redis, stop_after=None)
    finally:
        await redis.aclose()
    assert names.count("message_done") == 3 and names[-1] == "done" and "error" not in names
    cost, output = _billed(app_settings, fake_model, 3)
    assert await _usage(db, org_id) == (cost, 1, output) and cost > 0


async def test_a_round_trip_that_never_commits_still_books_its_call_once(app_settings, db, factory,
                                                                         fake_model) -> None:
    """The consumer leaves right after the first `message_done`, inside the round trip's transaction (before the
    tool ran and before the usage write): that transaction rolls back, and the finalizer books the call."""
    fake_model.queue(Reply(Text("Checking."), ToolUse("tasks__list", {})), Reply(Text("never asked for")))
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    try:
        names, org_id = await _turn(app_settings, db, factory, redis, stop_after="message_done")
    finally:
        await redis.aclose()
    assert names[-1] == "message_done" and len(fake_model.requests) == 1
    cost, output = _billed(app_settings, fake_model, 1)
    assert await _usage(db, org_id) == (cost, 1, output) and cost > 0
