"""The port between the driver and whoever answers for NUTRITIONIST, DIETITIAN, CHEF, COACH and PHYSICIAN.

An `AgentCall` carries the agent's input (its upstream payloads), the constraint of a re-run, its own
previous output on a weekly re-run (004 §10 rule 2) and any PHYSICIAN advice for the next agent.
An answer is the raw payload the agent submitted for its data type, or an `upstream_data_request`;
the driver validates it, never the agent.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Protocol

from gym.nutrition.payloads import OUTPUT_OF
from gym.nutrition.payloads.common import Agent


@dataclass(frozen=True)
class AgentCall:
    agent: Agent
    inputs: dict[str, Any]
    constraint: str | None = None
    previous_output: dict[str, Any] | None = None
    advice: dict[str, Any] | None = None
    run_version: int = 1
    org_id: uuid.UUID | None = None  # whose budget pays for a model call
    user_id: uuid.UUID | None = None  # who started the run (billed in ai_usage_daily)

    @property
    def data_type(self) -> str:
        return OUTPUT_OF[self.agent]

    def agent_input(self) -> dict[str, Any]:
        """The canonical input of the call (hashed into a timeout error's `input_hash`)."""
        return {"agent": self.agent, "inputs": self.inputs, "constraint": self.constraint,
                "previous_output": self.previous_output, "advice": self.advice}


@dataclass(frozen=True)
class Answer:
    data_type: str
    payload: Any
    usage: dict[str, int] = field(default_factory=dict)


class NoAnswer(Exception):
    """The agent could not answer (provider down or refusing, budget spent): handled like a timeout (004 §6.1
    names no other kind of silence), with `cause` (a fixed phrase, never model or user text) in the details."""

    def __init__(self, cause: str) -> None:
        super().__init__(cause)
        self.cause = cause


class CannotPlan(NoAnswer):
    """The agent has no plan from the foods the member may eat: deterministic, so never retried; the run ends in
    `constraints_infeasible`."""


class Agents(Protocol):
    async def answer(self, call: AgentCall) -> Answer: ...
