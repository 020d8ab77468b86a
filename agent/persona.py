"""A persona: what makes one agent different from another on the same engine, as configuration, with the
hooks it is run through and the turn they are handed.

The engine drives every persona the same way (lock, budget, replay guard, streaming, tools, confirm, pick,
undo, finalize); a persona only says who it serves, what its system prompt is, which of the caller's tools
it offers, how many model round trips one controller call may make, the `tool_choice` it sends, what ends a
turn, where its history lives (`history`: a factory of `History` over the engine's parts, storage only) and its
hooks: the frames it adds around the engine's own and what a person sees of a finished tool (`frames`). What a
tool is (loaded, final, what it shows) is on the tool's declaration, never here. The staff copilot is
agent/copilot.py; the member's trainer agent/trainer/persona.py. The engine imports none of them: the
composition root (agent/composition.py) names the `Personas` it runs. A new persona is a new module of
configuration (docs/recipes/add-a-persona.md).

`Turn`, `Persona` and its hooks' interfaces (`Frames`, `History`) are declared here together because they name
each other: a turn carries its persona, whose hooks take the turn. Everything they are built from sits below
(agent/threads.py: what a history is built over and handed; agent/round_trip.py: one transaction's rows and
frames); the engine parts that use them sit above (agent/turns.py: a turn's stream and transactions;
agent/orchestrator.py, agent/dispatch.py, agent/resume.py).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from opentelemetry.trace import Span

from agent import events
from agent.conversations import Conversation, Owner
from agent.costs import Usage
from agent.events import Event
from agent.metering import OpenCall
from agent.model import ModelResponse
from agent.model_facts import HistoryFacts
from agent.round_trip import RoundTrip
from agent.threads import HistoryParts, Opening, ToolResult
from agent.tracing import Who
from core.tenancy import Caller, OrgAccess
from tools.executions import ToolExecution
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolOutcome

SystemPrompt = Callable[[OrgAccess], list[dict[str, Any]]]


def _every_tool(spec: ToolSpec) -> bool:
    return True


def _declared_final(spec: ToolSpec) -> bool:
    return spec.ends_turn


def _no_tool_use(response: ModelResponse) -> bool:
    """The Messages API's own end: anything but a stop for tool use, or a tool_use stop without tool uses."""
    return response.stop_reason != "tool_use" or not any(b.get("type") == "tool_use" for b in response.content)


class TurnState:
    """What a persona's history and hooks keep of one turn between them (the trainer's: the member views its
    tools showed, for the results it stores); each persona subclasses it, the engine never reads it."""


@dataclass
class Turn:
    """Everything one controller call needs, plus what it accumulates (usage, suspension). Whatever is one
    persona's own lives in `state`, never in a field of its own."""

    access: OrgAccess  # the role is the one the persona acts as (the trainer: member)
    caller: Caller
    locale: str
    trace_id: str
    endpoint: str
    conversation_id: uuid.UUID  # the thread's id: a conversation, or a trainer session (which shares it)
    persona: Persona  # whose turn it is: its hooks take this turn (declared together in this module)
    turn_id: uuid.UUID = field(default_factory=uuid.uuid4)  # its frames' stream (agent/turn_log.py), its lock's token
    baseline: int = 0  # the thread's last seq before this turn wrote anything (a reopened thread shows up to it)
    conversation: Conversation | None = None  # the thread's conversations row (every thread has one)
    member_id: uuid.UUID | None = None  # the member a member-facing persona serves
    opening: Opening | None = None  # what the person sent to open it (None: a confirm, pick or undo)
    state: TurnState | None = None  # the persona's own (its history's and hooks'), made by them
    is_new: bool = False
    opened: bool = False  # the thread exists (its first message was written)
    usage: Usage = field(default_factory=Usage)
    cost_usd_micros: int = 0
    model_calls: int = 0
    round_trips: int = 0  # the persona's model round trips in this call (not the knowledge selector's)
    history: list[dict[str, Any]] = field(default_factory=list)
    suspended: bool = False
    prompt_length: int = 0
    open_call: OpenCall | None = None  # the model call in flight (agent.metering)
    counted: bool = False  # the turn is counted in ai_usage_daily (with its first call's usage)
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    start_token: int | None = None  # counted as starting (agent.first_frames) until its first frame or model call
    span: Span | None = None  # its `invoke_agent` span (agent/tracing.py), ended when the turn is
    step_span: Span | None = None  # a step in progress (knowledge selection, compaction): model calls nest under it

    def who(self) -> Who:
        """What every span of the turn carries."""
        return Who(org_id=str(self.access.org_id), conversation_id=str(self.conversation_id),
                   persona=self.persona.name, role=self.access.role)

    def owner(self) -> Owner:
        """Whose thread this turn may use (agent.conversations.OWNED)."""
        return Owner(self.access.org_id, self.caller.user_id, self.persona.thread_owner)

    def trace_parent(self) -> Span | None:
        return self.step_span if self.step_span is not None else self.span


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


class History(Protocol):
    """A persona's history, storage only: how a turn opens it, what the model reads, how a round trip is
    written. Frames it yields or returns say only what it stored (a thread started, knowledge in context)."""

    not_found: str  # the error code for a thread the caller may not use
    last_seq: Any  # SQL: the seq of the thread's last message or event, correlated to conversations.id

    async def locate(self, turn: Turn, requested: uuid.UUID | None) -> None:
        """Before the stream opens (errors still answer HTTP): the thread this turn continues or starts
        (`turn.conversation_id`, `turn.is_new`) and where it stands (`turn.baseline`: its last seq, what a reopened
        thread shows while the turn runs); 404 `not_found` when `requested` is not the caller's."""

    def begin(self, turn: Turn, opening: Opening) -> AsyncIterator[Event]:
        """In the stream: the daily cap checked, the person's message written (a new thread created in that
        same transaction), and the thread's opening frames."""

    async def model_input(self, turn: Turn) -> tuple[list[dict[str, Any]], list[dict[str, Any]], HistoryFacts | None]:
        """(system blocks, messages, what it knows of them as data: the member prefix's facts, the outputs behind
        compact observations; agent/model_facts.py) for the next model call."""

    async def store_repairs(self, turn: Turn, made_up: list[dict[str, Any]]) -> None:
        """Keep the tool results the replay guard made up, so a violation is repaired once."""

    def assistant(self, turn: Turn, trip: RoundTrip, response: ModelResponse) -> uuid.UUID | None:
        """The model's answer as rows of the round trip; the id tool executions hang off (None: none)."""

    def results(self, turn: Turn, trip: RoundTrip, results: Sequence[ToolResult]) -> None:
        """The tool results of one assistant answer, as rows of the round trip."""

    async def after_tool(self, turn: Turn, trip: RoundTrip, spec: ToolSpec, outcome: ToolOutcome) -> list[Event]:
        """What a tool that succeeded adds to the history besides its result, as its declaration says
        (`spec.artifact`: the current workout, delivered knowledge): rows of the round trip, and the frames
        announcing what was stored."""

    async def after_call(self, turn: Turn, trip: RoundTrip, usage: Usage, cost_usd_micros: int) -> None:
        """A model call's usage and cost, for the thread's own totals (rows of the round trip)."""

    async def resumed(self, turn: Turn, trip: RoundTrip, executions: Sequence[ToolExecution]) -> None:
        """Every tool use of an answer is resolved (confirm / pick): their results written, the history the
        next model call reads made current."""


HistoryFactory = Callable[[HistoryParts], History]


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
