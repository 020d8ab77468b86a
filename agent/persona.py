"""A persona: what makes one agent different from another on the same engine, as configuration.

The engine drives every persona the same way (lock, budget, replay guard, streaming, tools, confirm, pick,
undo, finalize); a persona only says who it serves, what its system prompt is, which of the caller's tools
it offers, how many model round trips one controller call may make, the `tool_choice` it sends, what ends a
turn, where its history lives (`history`: a factory of agent.threads.History over the engine's parts, storage
only) and its hooks: the frames it adds around the engine's own and what a person sees of a finished tool
(`frames`). What a tool is (loaded, final, what it shows) is on the tool's declaration, never here. The staff
copilot is agent/copilot.py; the member's trainer agent/trainer/persona.py. The engine imports none of them:
the composition root (agent/composition.py) names the `Personas` it runs. A new persona is a new module of
configuration (docs/recipes/add-a-persona.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
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
    from agent.round_trip import RoundTrip
    from agent.threads import History, HistoryParts
    from agent.turns import Turn

SystemPrompt = Callable[[OrgAccess], list[dict[str, Any]]]


def _every_tool(spec: ToolSpec) -> bool:
    return True


def _declared_final(spec: ToolSpec) -> bool:
    return spec.ends_turn


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

    def tool_started(self, turn: Turn, spec: ToolSpec) -> list[Event]:
        return []

    def tool_finished(self, turn: Turn, name: str, outcome: ToolOutcome, spec: ToolSpec | None = None) -> list[Event]:
        """`spec`: the finished tool's declaration (None for a name no tool has)."""
        return []

    async def after_tool(self, turn: Turn, trip: RoundTrip, spec: ToolSpec, tool_use_id: str,
                         outcome: ToolOutcome) -> list[Event]:
        """What the person sees of a tool that succeeded beyond its status (the trainer: a coach message or
        question as the member reads it); may read through the round trip's session, never writes. What the
        history keeps of it goes through `turn.state`."""
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


HistoryFactory = Callable[["HistoryParts"], "History"]


@dataclass(frozen=True)
class Persona:
    name: str
    roles: frozenset[str]  # the caller roles it serves
    system: SystemPrompt  # the cached system blocks for the org (a thread may add its own per turn)
    history: HistoryFactory  # where its history lives (storage)
    frames: Frames = field(default_factory=Frames)
    acts_as: str | None = None  # the role its tools run as (the trainer: "member"); None: the caller's
    max_round_trips: int = 6  # model calls per controller call (send, confirm, pick)
    tool_choice: dict[str, Any] | None = None  # None: the API default ("auto")
    offers: Callable[[ToolSpec], bool] = _every_tool  # which of the caller's tools it shows the model
    ends_turn: Callable[[ModelResponse], bool] = _no_tool_use  # checked on each assistant message
    ends_after_tool: Callable[[ToolSpec], bool] = _declared_final  # whose run ends the turn: the declaration's
    defers_tools: bool = False  # only the tools declared `loaded` in the prompt, the rest behind tool search
    threads_of: str | None = None  # whose threads it continues (conversations.persona); None: its own name
    endpoint_prefix: str = ""  # its endpoints in logs and traces: "" → send, confirm; "trainer_" → trainer_send

    @property
    def thread_owner(self) -> str:
        """The persona its threads are stored under (agent.conversations.OWNED): MCP's are the staff copilot's."""
        return self.threads_of or self.name

    def serves(self, role: str) -> bool:
        return role in self.roles

    def tools(self, registry: ToolRegistry, role: str) -> list[ToolSpec]:
        """The caller's tools this persona offers (the registry's role filter, then the persona's own)."""
        if not self.serves(role):
            return []
        return [spec for spec in registry.for_role(role) if self.offers(spec)]

    def final_tools(self, registry: ToolRegistry, role: str) -> frozenset[str]:
        """The tools it offers the role whose run ends the turn (from their declarations, `ends_turn`)."""
        return frozenset(spec.name for spec in self.tools(registry, role) if self.ends_after_tool(spec))

    def ends_after(self, specs: Iterable[ToolSpec | None]) -> bool:
        """A round trip that ran any of these tools ends the turn."""
        return any(spec is not None and self.ends_after_tool(spec) for spec in specs)

    def loaded_tools(self, specs: Iterable[ToolSpec]) -> frozenset[str] | None:
        """The tools kept in the prompt (their declarations' `loaded`); None: every tool, none deferred."""
        return frozenset(spec.name for spec in specs if spec.loaded) if self.defers_tools else None

    def endpoint(self, kind: str) -> str:
        return f"{self.endpoint_prefix}{kind}"


@dataclass(frozen=True)
class Personas:
    """The personas one engine runs, as the composition root names them: the one a send or an answer that names
    none gets, and the ones that continue a channel's conversations whoever resolves them (MCP's: no model of
    ours follows a resolution there, the console's confirm and undo included)."""

    default: Persona
    channels: Mapping[str, Persona] = field(default_factory=dict)

    def continuing(self, channel: str | None, asked: Persona) -> Persona:
        """The persona that continues a conversation of `channel`."""
        return self.channels.get(channel, asked) if channel is not None else asked

    def channel(self, name: str) -> Persona:
        return self.channels[name]
