"""The engine puts a turn's facts on its own request object (agent/model_facts.py) for a model that cannot read the
prompt's prose (offline_model/), and the wire request stays what it was: the Messages API never sees them."""

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import redis.asyncio as aioredis
from sqlalchemy import text

from agent.composition import build_agent, build_model
from agent.conversations import STAFF_PERSONA
from agent.model import Billed, ModelClient, ModelRequest, ModelResponse, RequestEncoder, TextDelta
from agent.model_facts import FACTS, TURN, facts_of, local_minute
from agent.threads import Opening
from core.tenancy import OrgAccess
from tests.factories import owner_of_new_org
from tests.fakes.anthropic_server import Reply, Text, ToolUse


class Recording:
    """A model client that keeps every request it passes on to the real one."""

    def __init__(self, model: ModelClient, *, reads_facts: bool = True) -> None:
        self.model, self.name, self.requests = model, model.name, []
        self.reads_facts = reads_facts  # as the offline model does: the engine builds the turn's facts for it

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | Billed | ModelResponse]:
        self.requests.append(request)
        async for item in self.model.stream(request):
            yield item

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        return await self.model.complete(request)

    async def close(self) -> None:
        await self.model.close()  # type: ignore[attr-defined]


async def _staff_turn(app_settings, db, factory, fake_model, model: Recording) -> OrgAccess:
    """One staff turn in Hebrew (a tool, then text) through the orchestrator with `model`; the caller's access."""
    fake_model.queue(Reply(ToolUse("tasks__list", {}, id="toolu_t")), Reply(Text("Nothing open.")))
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False, model=model)
    caller, access = await owner_of_new_org(db, factory)
    try:
        turn = await services.orchestrator.open_send(access=access, caller=caller, locale="he",
                                                     trace_id=uuid.uuid4().hex, opening=Opening("what is open?"),
                                                     thread_id=None)
        frames = [event.type async for event in turn.events()]
    finally:
        await services.close()
        await redis.aclose()
    assert frames[-1] == "done" and "error" not in frames
    return access


async def test_every_round_trip_carries_the_turns_facts_and_the_wire_request_does_not(app_settings, db, factory,
                                                                                    fake_model) -> None:
    model = Recording(build_model(app_settings))
    started = datetime.now(UTC)
    access = await _staff_turn(app_settings, db, factory, fake_model, model)
    assert len(model.requests) == len(fake_model.requests) == 2
    for request, sent in zip(model.requests, fake_model.requests, strict=True):
        facts = facts_of(request)
        assert (facts.purpose, facts.persona, facts.locale, facts.role) == (TURN, STAFF_PERSONA, "he", "owner")
        assert facts.now is not None and facts.now.second == 0
        assert local_minute(started, access.timezone) <= facts.now <= local_minute(datetime.now(UTC), access.timezone)
        assert facts.undoable and facts.undoable <= {t["name"] for t in request.tools}
        assert facts.member is None
        # what went over the wire is the request without its facts, byte for byte as the encoder makes it
        assert "metadata" not in sent.body
        bare = dataclasses.replace(request, metadata={})
        assert sent.body == json.loads(RequestEncoder().body(bare, stream=True))


async def test_a_model_that_reads_the_prompt_gets_no_facts(app_settings, db, factory, fake_model) -> None:
    """A hosted model (`reads_facts` False, as AnthropicModel) costs the engine nothing for facts: none are built."""
    assert build_model(app_settings).reads_facts is False
    model = Recording(build_model(app_settings), reads_facts=False)
    await _staff_turn(app_settings, db, factory, fake_model, model)
    assert len(model.requests) == 2 and all(FACTS not in request.metadata for request in model.requests)


def test_the_encoder_never_writes_the_facts() -> None:
    request = ModelRequest(model="m", system=[{"type": "text", "text": "s"}], tools=[],
                           messages=[{"role": "user", "content": "hi"}])
    with_facts = dataclasses.replace(request, metadata={FACTS: facts_of(request)})
    assert RequestEncoder().body(with_facts, stream=False) == RequestEncoder().body(request, stream=False)


def test_the_member_facts_are_what_the_member_prefix_says() -> None:
    from agent.model_facts import MemberFacts
    from agent.trainer.prompt import member_facts, member_prefix

    data = {"user_settings": {"weightUnit": "lb", "distanceUnit": "mi"},
            "all_locations": [{"name": "Garage", "equipment": ["band", "mat"], "current": True},
                              {"name": "Harbor Strength", "equipment": ["barbell"], "current": False}]}
    prefix = member_prefix(data)
    assert "Weight: lb" in prefix and "Equipment: band, mat" in prefix
    assert member_facts(data) == MemberFacts(unit="lb", locations=("Garage", "Harbor Strength"), equipment=("band", "mat"))
    away = {"all_locations": [{"name": "Park", "equipment": [], "current": True}]}
    assert member_facts(away) == MemberFacts(unit="kg", locations=("Park",), equipment=())
    assert member_facts({}) == MemberFacts()


def test_the_knowledge_facts_are_what_the_contexts_knowledge_blocks_say() -> None:
    """Deliveries in order, an update of changes applied, null fields out, member-written text as written (its
    envelope is for the model's prose only), nothing from before a checkpoint."""
    from agent.trainer import delta
    from agent.trainer.messages import KnownInContext, knowledge_text, to_messages
    from agent.trainer.store import Event

    goals = [{"name": "Strength", "debt": 3, "target": None}]
    grown = [{"name": "Strength", "debt": 5, "target": None}, {"name": "Hypertrophy", "debt": 1, "target": 2}]
    prefs = [{"id": "p1", "description": "no <b>jumping</b>", "guidance": "knees", "expires_at": None}]
    events = [Event(1, "knowledge", {"source": "milestone_goals", "params": {}, "data": [{"name": "old"}]}),
              Event(2, "checkpoint", {"summary": "earlier"}),
              Event(3, "user_message", {"message": "hi", "context": ""}),
              Event(4, "knowledge", {"source": "category_goals", "params": {}, "data": goals}),
              Event(5, "knowledge", {"source": "active_preferences", "params": {}, "data": prefs}),
              Event(6, "knowledge_update", {"source": "category_goals", "params": {},
                                            "changes": delta.diff(delta.compact(goals), delta.compact(grown))})]
    known = KnownInContext(events)
    assert dict(known) == {"category_goals": [{"name": "Strength", "debt": 5}, {"name": "Hypertrophy", "debt": 1,
                                                                                "target": 2}],
                           "active_preferences": [{"id": "p1", "description": "no <b>jumping</b>", "guidance": "knees"}]}
    prose = str(to_messages(events[2:]))
    assert "<member_text" in prose and "<member_text" not in str(dict(known))
    assert knowledge_text("milestone_goals", [{"name": "old"}]) not in prose


def test_the_members_words_are_the_text_after_the_context_the_engine_put_ahead() -> None:
    from agent.trainer.messages import member_words

    context = "<turn_context>\nNow: 2026-11-26T09:00+00:00 (UTC)\n</turn_context>\n"
    assert member_words(f"{context}<current_workout_id>w1</current_workout_id>\nlog squat 3x5") == "log squat 3x5"
    assert member_words(f"{context}swap the <b>bench</b>") == "swap the <b>bench</b>"
    assert member_words("no context at all") == "no context at all"


async def test_a_trainer_request_carries_the_outputs_behind_its_compact_observations(app_settings, db, factory,
                                                                                    fake_model) -> None:
    """The log's result reads "logged ... (id ...)" to the model; the facts carry what the tool returned, and each
    offered tool's declared input model; the wire request stays the request without them."""
    from agent.trainer.persona import TRAINER
    from core.tenancy import find_caller_in_org
    from tests.trainer.fixtures import trainee
    from tests.trainer.scripted import Trainer
    from tools.leaves.trainer.prefs import SetPreferenceInput

    t = await trainee(db, factory)
    bench = {"exercise_name": "Bench Press", "exercise_type": "strength", "sets": 3, "reps": 8, "load": 40}
    Trainer(fake_model, [Reply(ToolUse("logbook__log_completed_exercise", bench, id="log1")),
                         Reply(ToolUse("coach__idle", {}, id="idle"))])
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    model = Recording(build_model(app_settings))
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False, model=model)
    async with db.scope(org_id=t.org.id) as session:
        caller, access = await find_caller_in_org(session, t.user.clerk_id, t.org.id)
    try:
        turn = await services.orchestrator.open_send(access=access, caller=caller, member_id=t.member_id, locale="en",
                                                     trace_id=uuid.uuid4().hex, opening=Opening("bench 3x8 at 40"),
                                                     thread_id=None, persona=TRAINER)
        frames = [event.type async for event in turn.events()]
    finally:
        await services.close()
        await redis.aclose()
    assert frames[-1] == "done" and "error" not in frames
    first, second = [r for r in model.requests if r.tools]
    async with db.owner() as session:
        (log_id,) = (await session.execute(text("SELECT id FROM exercise_logs WHERE member_id = :m"),
                                           {"m": t.member_id})).scalars().all()
    assert facts_of(first).outputs == {}
    assert facts_of(second).outputs == {"log1": {"id": str(log_id), "logged": "Bench Press"}}
    result = next(b for m in second.messages if isinstance(m["content"], list) for b in m["content"]
                  if b.get("type") == "tool_result")
    assert result["content"] == f"<result>logged Bench Press (id {log_id})</result>"  # what the model reads
    assert facts_of(second).inputs["prefs__set_preference"] is SetPreferenceInput
    assert set(facts_of(second).inputs) == {t["name"] for t in second.tools}
    for request, sent in zip([first, second], [r for r in fake_model.requests if r.body.get("tools")], strict=True):
        assert sent.body == json.loads(RequestEncoder().body(dataclasses.replace(request, metadata={}), stream=True))
