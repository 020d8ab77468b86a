"""A persona: what makes one agent different from another on the same engine, as configuration.

The engine drives every persona the same way (lock, budget, replay guard, streaming, tools, confirm, pick,
undo, finalize); a persona only says who it serves, what its system prompt is, which of the caller's tools
it offers, how many model round trips one controller call may make, the `tool_choice` it sends, what ends a
turn, where its history lives (`thread`: a factory of agent.threads.Thread over the engine's parts) and the
frames it adds around the engine's own (`frames`). The staff copilot is agent/copilot.py; the member's trainer
agent/trainer/persona.py. A new persona is a new module of configuration.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from agent import events
from agent.costs import Usage
from agent.events import Event
from agent.model import ModelResponse
from core.tenancy import OrgAccess
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolOutcome

if TYPE_CHECKING:
    from agent.threads import Thread, ThreadParts
    from agent.turns import Turn

SystemPrompt = Callable[[OrgAccess], list[dict[str, Any]]]


def _every_tool(spec: ToolSpec) -> bool:
    return True


def _no_tool_use(response: ModelResponse) -> bool:
    """The Messages API's own end: anything but a stop for tool use, or a tool_use stop without tool uses."""
    return response.stop_reason != "tool_use" or not any(b.get("type") == "tool_use" for b in response.content)


class Frames:
    """The frames a persona adds around the engine's own. The staff copilot's: the engine's alone (text
    streams as `text_delta`, each answer ends with `message_done`, `done` carries the conversation)."""

    streams_text = True  # the model's text goes out as text_delta while it streams

    def answered(self, message_id: object, stop_reason: str | None) -> list[Event]:
        return [events.message_done(message_id, stop_reason)]

    def reply_without_tools(self, turn: Turn, text: str) -> list[Event]:
        """An answer that used no tool ended the turn: what the person sees of it beyond streamed text."""
        return []

    def tool_started(self, turn: Turn, name: str) -> list[Event]:
        return []

    def tool_finished(self, turn: Turn, name: str, outcome: ToolOutcome) -> list[Event]:
        return []

    def done(self, turn: Totals) -> Event:
        return events.done(turn.conversation_id if turn.opened else None, turn.usage, turn.cost_usd_micros)


class Totals(Protocol):
    """What a `done` frame reports: a turn's, or nothing for one whose process was lost (agent/turn_runner.py)."""

    conversation_id: uuid.UUID
    opened: bool
    usage: Usage
    cost_usd_micros: int
    round_trips: int


ThreadFactory = Callable[["ThreadParts"], "Thread"]


@dataclass(frozen=True)
class Persona:
    name: str
    roles: frozenset[str]  # the caller roles it serves
    system: SystemPrompt  # the cached system blocks for the org (a thread may add its own per turn)
    thread: ThreadFactory  # where its history lives
    frames: Frames = field(default_factory=Frames)
    acts_as: str | None = None  # the role its tools run as (the trainer: "member"); None: the caller's
    max_round_trips: int = 6  # model calls per controller call (send, confirm, pick)
    tool_choice: dict[str, Any] | None = None  # None: the API default ("auto")
    offers: Callable[[ToolSpec], bool] = _every_tool  # which of the caller's tools it shows the model
    ends_turn: Callable[[ModelResponse], bool] = _no_tool_use  # checked on each assistant message
    final_tools: frozenset[str] = field(default_factory=frozenset)  # tool names whose run ends the turn
    loaded_tools: frozenset[str] | None = None  # None: every tool in the prompt; else the rest is deferred
    endpoint_prefix: str = ""  # its endpoints in logs and traces: "" → send, confirm; "trainer_" → trainer_send

    def serves(self, role: str) -> bool:
        return role in self.roles

    def tools(self, registry: ToolRegistry, role: str) -> list[ToolSpec]:
        """The caller's tools this persona offers (the registry's role filter, then the persona's own)."""
        if not self.serves(role):
            return []
        return [spec for spec in registry.for_role(role) if self.offers(spec)]

    def ends_after(self, tool_names: list[str]) -> bool:
        return any(name in self.final_tools for name in tool_names)

    def endpoint(self, kind: str) -> str:
        return f"{self.endpoint_prefix}{kind}"

