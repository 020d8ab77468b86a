"""Scripting the fake Anthropic server as the pipeline's model-backed agents: which agent a recorded
request is for, what it was given (the call's JSON), and a handler that answers every agent as a
rule-following model would (the offline agent's answer to the same input) unless a per-agent script
says otherwise."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from pipeline.offline import AGENTS
from tests.fakes.anthropic_server import Reply, ToolUse

TOOLS = {"NUTRITIONIST": "submit_nutrition_strategy", "DIETITIAN": "submit_weekly_meal_plan",
         "CHEF": "submit_recipes", "COACH": "submit_training_program", "PHYSICIAN": "submit_medical_context"}
AGENT_OF_TOOL = {tool: agent for agent, tool in TOOLS.items()}

Script = Callable[[dict[str, Any]], Any]


def agent_of(body: dict[str, Any]) -> str:
    return AGENT_OF_TOOL[body["tools"][0]["name"]]


def call_of(body: dict[str, Any]) -> dict[str, Any]:
    """What the driver sent the agent: {agent, inputs, constraint, previous_output, advice}."""
    return json.loads(body["messages"][0]["content"])


def agents_asked(fake) -> list[str]:
    return [agent_of(r.body) for r in fake.requests]


def good_payload(body: dict[str, Any]) -> dict[str, Any]:
    call = call_of(body)
    return copy.deepcopy(AGENTS[call["agent"]](call["inputs"], call["constraint"]))


def good_reply(body: dict[str, Any]) -> Reply:
    return Reply(ToolUse(TOOLS[agent_of(body)], good_payload(body)))


def submit(change: Callable[[dict[str, Any]], None]) -> Script:
    """The good answer, edited by `change` before it is submitted."""
    def reply(body: dict[str, Any]) -> Reply:
        payload = good_payload(body)
        change(payload)
        return Reply(ToolUse(TOOLS[agent_of(body)], payload))
    return reply


def physician(action: str, *, urgency: str = "soon", referral: str | None = None) -> Script:
    """A PHYSICIAN that answers with `action` (and always the disclaimer)."""
    def change(payload: dict[str, Any]) -> None:
        payload.update(pipeline_action=action, urgency=urgency, referral_needed=referral is not None,
                       referral_target=referral)
    return submit(change)


def by_agent(**overrides: list[Script]) -> Script:
    """A handler answering every agent well except where a per-agent override list says otherwise."""
    queues = {agent: list(items) for agent, items in overrides.items()}

    def handle(body: dict[str, Any]) -> Any:
        queue = queues.get(agent_of(body))
        return queue.pop(0)(body) if queue else good_reply(body)
    return handle
