"""The knowledge selector and the context across turns: the summarizer's pick, the keyword fallback on a slow
model, append-only knowledge with knowledge_update, cache reads growing, and the checkpoint."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.asyncio as aioredis
from sqlalchemy import text

from agent.composition import build_agent, build_model
from agent.model import ModelResponse
from agent.threads import Opening
from agent.trainer import knowledge
from agent.trainer.persona import TRAINER
from core.tenancy import find_caller_in_org
from tests.fakes.anthropic_server import Held, Reply, Text, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import trainee
from tests.trainer.scripted import Trainer


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()


def test_keyword_rules_pick_sources_and_ranges() -> None:
    assert {"category_goals", "recovery_status", "progression", "active_preferences"} <= set(
        knowledge.keyword_sources("give me a quick chest workout"))
    stats = knowledge.keyword_sources("how many workouts this month?")
    assert stats["workout_history"] == {"days_back": 30}
    assert "current_workout" in knowledge.keyword_sources("swap the second exercise")
    assert knowledge.parse_selection("not json") is None
    assert knowledge.parse_selection('{"sources": {"progression": {}, "bogus": {}}}') == {
        "progression": {}, "active_preferences": {}}


def test_delivery_is_append_only_unless_the_range_grows_or_data_changes() -> None:
    known = {"workout_history": {"params": {"days_back": 14}, "hash": knowledge.data_hash([1])}}
    assert knowledge.plan_delivery(known, "workout_history", {"days_back": 14}, [1]) is None
    assert knowledge.plan_delivery(known, "workout_history", {"days_back": 30}, [1]).update is True
    assert knowledge.plan_delivery(known, "workout_history", {"days_back": 14}, [2]).update is True
    assert knowledge.plan_delivery(known, "progression", {}, []).update is False


def test_a_source_keeps_the_widest_range_asked_for_in_the_session() -> None:
    """Knowledge never narrows: 14 days asked with 30 in context reads 30; a wider ask widens."""
    known = {"params": {"days_back": 30}, "hash": "x"}
    assert knowledge.widest(known, {"days_back": 14}) == {"days_back": 30}
    assert knowledge.widest(known, {"days_back": 60}) == {"days_back": 60}
    assert knowledge.widest(None, {"days_back": 14}) == {"days_back": 14}
    assert knowledge.widest({"params": {"status": "active"}}, {"status": "all"}) == {"status": "all"}


async def test_a_slow_selector_falls_back_to_the_keyword_rules(app_settings, fake_model) -> None:
    model = build_model(app_settings)
    held = Held(Reply(Text('{"sources": {"milestone_goals": {}}}')), limit=20)
    fake_model.respond_with(held)

    async def call(request):
        async for item in model.stream(request):
            if isinstance(item, ModelResponse):
                return item

    try:
        picked, how = await knowledge.select("give me a quick chest workout", [], call=call,
                                             model=app_settings.summarizer_model)
    finally:
        held.release()
        if held.arrived.is_set():
            await asyncio.to_thread(fake_model.wait_for_requests, 1)
        await model.close()
    assert held.arrived.is_set() and how == "rules"
    assert "milestone_goals" not in picked and "recovery_status" in picked


async def test_the_selectors_pick_is_used_when_it_answers(app_settings, fake_model) -> None:
    model = build_model(app_settings)
    fake_model.queue(Reply(Text('{"sources": {"milestone_goals": {}}}')))

    async def call(request):
        async for item in model.stream(request):
            if isinstance(item, ModelResponse):
                return item

    try:
        picked, how = await knowledge.select("hello", [], call=call, model=app_settings.summarizer_model)
    finally:
        await model.close()
    assert how == "model" and set(picked) == {"milestone_goals", "active_preferences"}
    assert fake_model.requests[0].body["model"] == app_settings.summarizer_model


async def test_knowledge_is_append_only_and_a_wider_range_is_an_update(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    idle = [Reply(ToolUse("coach__idle", {}, id=f"i{n}")) for n in range(3)]
    script = Trainer(fake_model, idle, selection={"sources": {"category_goals": {}, "workout_history": {}}})
    url = f"/organizations/{t.org.id}/trainer/messages"
    first = await sse(client, url, json_body={"message": "hi"}, headers=t.user.headers)
    assert {k["source"] for k in first.of("knowledge")} == {"category_goals", "workout_history", "active_preferences"}
    sid = first.one("done")["sessionId"]
    second = await sse(client, url, json_body={"message": "again", "sessionId": sid}, headers=t.user.headers)
    assert second.of("knowledge") == []
    script.selection = {"sources": {"workout_history": {"days_back": 30}}}
    third = await sse(client, url, json_body={"message": "this month?", "sessionId": sid}, headers=t.user.headers)
    assert [(k["source"], k["params"]) for k in third.of("knowledge")] == [("workout_history", {"days_back": 30})]
    async with db.owner() as session:
        types = list((await session.execute(text(
            "SELECT type FROM trainer_events WHERE session_id = :s AND type LIKE 'knowledge%' ORDER BY seq"),
            {"s": sid})).scalars())
        in_context = await session.scalar(text("SELECT knowledge_in_context FROM trainer_sessions WHERE id = :s"),
                                          {"s": sid})
    assert types == ["knowledge"] * 3 + ["knowledge_update"]
    assert in_context["workout_history"]["params"] == {"days_back": 30}
    turns = script.turn_requests()
    reads = [fake_model.requests[i].usage["cache_read_input_tokens"] for i, r in enumerate(fake_model.requests)
             if r.body.get("tools")]
    assert len(turns) == 3 and reads[0] < reads[1] < reads[2]
    last = turns[-1]
    assert last["system"][0]["cache_control"]["ttl"] == "1h" and last["system"][1]["cache_control"]["ttl"] == "1h"
    assert last["tools"][-1]["cache_control"]["ttl"] == "1h"
    assert "cache_control" in last["messages"][-1]["content"][-1]


async def test_the_checkpoint_restarts_the_context_and_clears_knowledge(app_settings, db, factory,
                                                                         fake_model) -> None:
    t = await trainee(db, factory)
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    agent = services.orchestrator
    script = Trainer(fake_model, [Reply(ToolUse("coach__idle", {}, id=f"i{n}")) for n in range(2)],
                     selection={"sources": {"category_goals": {}, "workout_history": {"days_back": 60}}})
    async with db.scope(org_id=t.org.id) as session:
        caller, access = await find_caller_in_org(session, t.user.clerk_id, t.org.id)
    try:
        sid = None
        for message, limit in (("first " + "x" * 4000, 100_000), ("second", 1500)):
            agent.history(TRAINER).limit_tokens = limit  # the second turn starts past 80 % of 1,500 estimated tokens
            turn = await agent.open_send(access=access, caller=caller, member_id=t.member_id, locale="en",
                                         trace_id=uuid.uuid4().hex, opening=Opening(message), thread_id=sid,
                                         persona=TRAINER)
            frames = [(e.type, e.data) async for e in turn.events()]
            sid = uuid.UUID(frames[-1][1]["sessionId"])
    finally:
        await services.close()
        await redis.aclose()
    async with db.owner() as session:
        types = list((await session.execute(text(
            "SELECT type FROM trainer_events WHERE session_id = :s ORDER BY seq"), {"s": sid})).scalars())
        in_context = await session.scalar(text("SELECT knowledge_in_context FROM trainer_sessions WHERE id = :s"),
                                          {"s": sid})
    assert types.count("checkpoint") == 1
    # the checkpoint came before the second turn's message; its knowledge was cleared and sent again after it
    after = types[types.index("checkpoint"):]
    assert after[:2] == ["checkpoint", "user_message"] and after.count("knowledge") == 3
    assert set(in_context) == {"category_goals", "workout_history", "active_preferences"}
    last = script.turn_requests()[-1]["messages"]
    assert last[0]["content"][0]["text"].startswith("<checkpoint>")
    assert last[0]["content"][1]["text"].endswith("\nsecond")
    assert "x" * 1000 not in str(last)  # only the summary (its first 300 characters) carries over
