"""AGENT_MAX_CONCURRENT_TURNS: a turn beyond the process's slots still gets its first frame at once, and calls the
model only once a slot is free."""

from __future__ import annotations

import asyncio
import uuid

import redis.asyncio as aioredis

from agent.composition import build_agent
from agent.threads import Opening
from tests.factories import owner_of_new_org
from tests.fakes.anthropic_server import Reply, Text, ToolUse


async def test_a_turn_beyond_the_slots_is_started_and_waits_for_the_model(app_settings, db, factory,
                                                                         fake_model) -> None:
    settings = app_settings.model_copy(update={"agent_max_concurrent_turns": 1})
    redis = aioredis.from_url(settings.redis_url, decode_responses=True)
    services = build_agent(settings, db, redis, titles=False, rag_worker=False)
    loop = services.orchestrator
    caller, access = await owner_of_new_org(db, factory)
    fake_model.queue(Reply(ToolUse("tasks__list", {})), Reply(Text("first done")), Reply(Text("second done")))

    async def open_turn():
        stream = await loop.open_send(access=access, caller=caller, locale="en", trace_id=uuid.uuid4().hex,
                                      opening=Opening("what is on my list?"), thread_id=None)
        return stream.events()

    try:
        first = await open_turn()
        assert (await anext(first)).type == "conversation_started"
        assert (await anext(first)).type == "message_done"  # the first turn holds the only slot
        second = await open_turn()
        assert (await anext(second)).type == "conversation_started"  # its first frame does not wait
        waiting = asyncio.create_task(anext(second))
        assert loop._slots is not None
        for _ in range(10_000):  # let the second turn run up to the slot (yields to the loop, no clock involved)
            if loop._slots._waiters:
                break
            await asyncio.sleep(0)
        assert loop._slots._waiters, "the second turn never waited for a slot"
        assert len(fake_model.requests) == 1 and not waiting.done()
        rest = [event.type async for event in first]
        assert rest[-1] == "done" and "error" not in rest
        later = [(await waiting).type] + [event.type async for event in second]
        assert later[-1] == "done" and "error" not in later
        assert len(fake_model.requests) == 3
        assert fake_model.requests[2].body["messages"][0]["content"][-1]["text"] == "what is on my list?"
    finally:
        await services.close()
        await redis.aclose()
