"""agent.first_frames: a running turn's next model call waits while turns are starting, never longer than
the bound, and a start nobody ended stops counting."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.asyncio as aioredis

from agent.composition import build_agent
from agent.first_frames import FirstFrames
from agent.threads import Opening
from core.errors import NotFound
from tests.factories import owner_of_new_org
from tests.fakes.anthropic_server import Reply, Text


async def test_a_running_turn_waits_until_the_starting_turn_sent_its_first_frame() -> None:
    gate = FirstFrames(max_wait_s=30.0)
    token = gate.begin()
    waiter = asyncio.create_task(gate.let_starting_turns_first())
    await asyncio.sleep(0.05)
    assert not waiter.done() and gate.starting == 1
    gate.end(token)
    await asyncio.wait_for(waiter, 5.0)  # released by the first frame, not by the 30 s bound
    gate.end(token)  # idempotent
    assert gate.starting == 0


async def test_the_wait_is_bounded() -> None:
    gate = FirstFrames(max_wait_s=0.1, stale_s=60.0)
    gate.begin()  # never ended
    await asyncio.wait_for(gate.let_starting_turns_first(), 5.0)
    assert gate.starting == 1


async def test_a_start_nobody_ended_stops_counting() -> None:
    gate = FirstFrames(max_wait_s=30.0, stale_s=0.1)
    gate.begin()  # a stream nobody read
    await asyncio.sleep(0.15)
    await asyncio.wait_for(gate.let_starting_turns_first(), 5.0)  # no 30 s wait: the start is stale
    assert gate.starting == 0


async def test_no_starting_turn_no_wait() -> None:
    gate = FirstFrames(max_wait_s=30.0)
    await asyncio.wait_for(gate.let_starting_turns_first(), 5.0)


async def test_a_send_counts_as_starting_until_its_first_frame(app_settings, db, factory, fake_model) -> None:
    fake_model.queue(Reply(Text("Nothing urgent today.")), Reply(Text("Still nothing.")))
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    caller, access = await owner_of_new_org(db, factory)
    # A turn waiting on its own start would hold its model call for the whole 30 s bound.
    gate = services.orchestrator.first_frames = FirstFrames(max_wait_s=30.0)
    try:
        with pytest.raises(NotFound):  # refused before any stream: it does not stay "starting"
            await services.orchestrator.open_send(access=access, caller=caller, locale="en", trace_id="t" * 32,
                                                  opening=Opening("hi"), thread_id=uuid.uuid4())
        assert gate.starting == 0
        turn = await services.orchestrator.open_send(access=access, caller=caller, locale="en", trace_id="t" * 32,
                                                     opening=Opening("what is on my list?"), thread_id=None)
        assert gate.starting == 1
        names: list[str] = []

        async def read(stream) -> None:
            async for item in stream.events():
                names.append(item.type)
                if len(names) == 1 and item.type == "conversation_started":
                    assert gate.starting == 0

        await asyncio.wait_for(read(turn), 10.0)
        assert names[0] == "conversation_started" and names[-1] == "done"
        conversation_id = turn.turn.conversation_id
        names.clear()
        follow_up = await services.orchestrator.open_send(  # no conversation_started before its model call
            access=access, caller=caller, locale="en", trace_id="t" * 32, opening=Opening("and tomorrow?"),
            thread_id=conversation_id)
        await asyncio.wait_for(read(follow_up), 10.0)
        assert "conversation_started" not in names and names[-1] == "done" and gate.starting == 0
    finally:
        await services.close()
        await redis.aclose()
