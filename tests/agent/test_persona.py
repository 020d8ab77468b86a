"""A second persona is configuration on the same loop: its system prompt, the tools it offers, its
tool_choice, its round-trip cap and the tool whose run ends its turn all reach the model request and the loop."""

from __future__ import annotations

import uuid

import redis.asyncio as aioredis

from agent.composition import build_agent
from agent.conversation_thread import ConversationThread
from agent.copilot import STAFF_COPILOT
from agent.persona import Persona
from agent.threads import Opening
from tests.factories import owner_of_new_org
from tests.fakes.anthropic_server import Reply, Text, ToolUse

TOOL_CHOICE = {"type": "any", "disable_parallel_tool_use": True}


def _tasks_coach(max_round_trips: int) -> Persona:
    return Persona(name="tasks_coach", roles=frozenset({"owner"}), history=ConversationThread,
                   system=lambda access: [{"type": "text", "text": f"You keep the to-do list of {access.org_name}."}],
                   max_round_trips=max_round_trips, tool_choice=TOOL_CHOICE,
                   offers=lambda spec: spec.router == "tasks", ends_after_tool=lambda spec: spec.name == "tasks__create")


async def _send(app_settings, db, factory, persona: Persona, message: str) -> list:
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    caller, access = await owner_of_new_org(db, factory)
    try:  # the one engine every persona runs on: the persona is an argument, not an engine of its own
        turn = await services.orchestrator.open_send(persona=persona, access=access, caller=caller, locale="en",
                                                     trace_id=uuid.uuid4().hex, opening=Opening(message),
                                                     thread_id=None)
        return [(event.type, event.data) async for event in turn.events()]
    finally:
        await services.close()
        await redis.aclose()


async def test_the_persona_shapes_every_request_and_its_final_tool_ends_the_turn(app_settings, db, factory,
                                                                                fake_model) -> None:
    fake_model.queue(Reply(ToolUse("tasks__list", {}, id="toolu_l")),
                     Reply(ToolUse("tasks__create", {"title": "Call the plumber"}, id="toolu_c")),
                     Reply(Text("never asked for")))
    frames = await _send(app_settings, db, factory, _tasks_coach(max_round_trips=6), "remind me to call the plumber")

    assert len(fake_model.requests) == 2  # the final tool ran, and the turn ended without another call
    for request in fake_model.requests:
        body = request.body
        assert body["tool_choice"] == TOOL_CHOICE
        assert len(body["system"]) == 1 and body["system"][0]["text"].startswith("You keep the to-do list of Test Gym")
        assert body["tools"] and {t["name"].split("__")[0] for t in body["tools"]} == {"tasks"}
    completed = [data for kind, data in frames if kind == "tool_completed"]
    assert [(c["action"], c["ok"]) for c in completed] == [("list", True), ("create", True)]
    assert [kind for kind, _ in frames][-1] == "done" and "error" not in [kind for kind, _ in frames]


async def test_the_persona_caps_round_trips(app_settings, db, factory, fake_model) -> None:
    fake_model.respond_with(lambda body: Reply(ToolUse("tasks__list", {})))
    frames = await _send(app_settings, db, factory, _tasks_coach(max_round_trips=2), "what is on the list?")
    assert len(fake_model.requests) == 2
    assert [kind for kind, _ in frames].count("message_done") == 2 and frames[-1][0] == "done"


def test_the_staff_copilot_is_the_first_persona() -> None:
    assert STAFF_COPILOT.max_round_trips == 6 and STAFF_COPILOT.tool_choice is None
    assert STAFF_COPILOT.roles == frozenset({"owner", "admin", "coach", "front_desk"})


def test_a_personas_final_tools_come_from_the_tool_declarations() -> None:
    """No persona lists tool names: the trainer's turn ends on the tools declared `ends_turn`."""
    from agent.trainer.persona import TRAINER
    from tools.catalog import build_registry

    registry = build_registry()
    assert TRAINER.final_tools(registry, "member") == {"coach__idle", "coach__message_ask_user"}
    assert STAFF_COPILOT.final_tools(registry, "owner") == frozenset()
