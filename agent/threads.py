"""Where a persona's conversation lives: the one seam between the engine and a persona's storage.

The engine (agent/orchestrator.py, agent/dispatch.py, agent/resume.py) drives every persona the same way;
a `History` says where the turns it drives are stored and how the model reads them back. The staff copilot's
is a conversation of messages (agent/conversation_thread.py); the trainer's an append-only event log with
knowledge and checkpoints (agent/trainer/thread.py). Writes that belong to a round trip are rows added to its
`RoundTrip`, sent once with the round trip's last statement. What a person sees of a tool is not a history's
business but the persona's hooks' (agent.persona.Frames); what the two share of one turn is `turn.state`.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from agent.costs import Usage
from agent.events import Event
from agent.model import ModelResponse
from agent.model_facts import HistoryFacts
from agent.round_trip import RoundTrip
from agent.turns import Opening, Turn  # Opening is the engine's, named here too (where a history begins)
from tools.executions import ToolExecution
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolOutcome

if TYPE_CHECKING:
    from agent.metering import Meter
    from agent.model import ModelClient
    from agent.tracing import Tracing
    from core.database import Database
    from core.settings import Settings

AmbientFinder = Callable[[uuid.UUID, str], Awaitable[str | None]]
Compactor = Callable[[Any, list[Any]], Awaitable[bool]]  # (conversation, its messages) -> True: it compacted


@dataclass(frozen=True)
class HistoryParts:
    """The engine's parts a history may use (a persona's `history` factory builds its history over them)."""

    db: Database
    model: ModelClient
    meter: Meter
    settings: Settings
    tracing: Tracing
    ambient: AmbientFinder | None = None
    compactor: Compactor | None = None
    registry: ToolRegistry | None = None  # what tool results carry member-written text (core/member_text.py)


@dataclass(frozen=True)
class ToolResult:
    """One tool use's result as the model will read it."""

    tool_use_id: str
    name: str
    output: dict[str, Any] | None
    error: dict[str, Any] | None


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
