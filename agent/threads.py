"""What a persona's history is built over and handed: the engine's parts (`HistoryParts`), what opened a turn
(`Opening`) and one tool use's result (`ToolResult`).

A history (agent.persona.History, declared with the turn it takes) says where the turns the engine drives
(agent/orchestrator.py, agent/dispatch.py, agent/resume.py) are stored and how the model reads them back. The
staff copilot's is a conversation of messages (agent/conversation_thread.py); the trainer's an append-only
event log with knowledge and checkpoints (agent/trainer/thread.py). Writes that belong to a round trip are rows
added to its `RoundTrip`, sent once with the round trip's last statement. What a person sees of a tool is not a
history's business but the persona's hooks' (agent.persona.Frames); what the two share of one turn is
`turn.state`.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agent.conversations import Conversation, Message
from tools.registry import ToolRegistry

if TYPE_CHECKING:
    from agent.metering import Meter
    from agent.model import ModelClient
    from agent.tracing import Tracing
    from core.database import Database
    from core.settings import Settings

AmbientFinder = Callable[[uuid.UUID, str], Awaitable[str | None]]
Compactor = Callable[[Conversation, list[Message]], Awaitable[bool]]  # (conversation, its messages) -> True: compacted


@dataclass(frozen=True)
class Opening:
    """What the person sent to open a turn, with what their client said about where they are."""

    message: str
    page_context: dict[str, Any] | None = None  # the staff console's page
    current_workout_id: str | None = None  # the member app's open workout
    replaces: uuid.UUID | None = None  # the staff console's Regenerate / Edit: the user message this one replaces


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
