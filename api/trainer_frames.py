"""The trainer's SSE frames and JSON bodies (TRAINER.md "HTTP", "SSE frames"), documented like the staff ones."""

from __future__ import annotations

from typing import Any

from litestar.openapi.datastructures import ResponseSpec
from msgspec import Struct

from api.responses import RunningTurn
from api.sse import (
    TURN_FRAME_ID,
    ConfirmationPending,
    ErrorFrame,
    ToolCompleted,
    ToolStarted,
    TurnUsage,
    _Frame,
    event_stream,
)


class SessionStarted(_Frame, tag="session_started"):
    """First frame of a new trainer session."""

    session_id: str


class KnowledgeFrame(_Frame, tag="knowledge"):
    """A data source the knowledge selector loaded into the context this turn."""

    source: str
    display_name: str
    params: dict[str, Any]


class StatusFrame(_Frame, tag="status"):
    """A localized status line for a tool (000 §6.7); empty for coach messages."""

    tool: str
    phase: str
    message: str


class TrainerMessage(_Frame, tag="message"):
    """What the trainer tells the member; attachments are resolved workouts / exercises."""

    content: str
    attachments: list[dict[str, Any]]


class QuestionFrame(_Frame, tag="question"):
    """The trainer asks; the turn ends and the next message answers."""

    content: str
    options: list[str]


class TrainerDone(_Frame, tag="done"):
    """Exactly one per stream, last, also after an `error`."""

    session_id: str | None
    iterations: int
    usage: TurnUsage


TrainerFrame = (SessionStarted | KnowledgeFrame | StatusFrame | ToolStarted | ToolCompleted | TrainerMessage
                | QuestionFrame | ConfirmationPending | TrainerDone | ErrorFrame)

TRAINER_STREAM_DESCRIPTION = (
    "An SSE stream of `event: <type>` / `data: <json>` frames. Types: session_started, knowledge, status, "
    "tool_started, tool_completed, message, question, confirmation_pending, done, error. Every stream ends with "
    "exactly one `done`, also after an `error`. Every frame has an `id: <turnId>:<seq>` and the first names "
    "`turnId`: GET .../trainer/turns/{turnId}/stream with `Last-Event-ID` resumes it.")


def trainer_stream_response() -> dict[int, ResponseSpec]:
    return event_stream(TrainerFrame, TRAINER_STREAM_DESCRIPTION, id_pattern=TURN_FRAME_ID)


class ChatMessage(Struct, rename="camel"):
    content: str
    attachments: list[dict[str, Any]]


class ChatQuestion(Struct, rename="camel"):
    content: str
    options: list[str]


class TrainerChatBody(Struct, rename="camel"):
    """The same turn as the SSE endpoint, collected."""

    session_id: str | None
    messages: list[ChatMessage]
    question: ChatQuestion | None
    iterations: int


class TrainerSessionBody(Struct, rename="camel"):
    id: str
    status: str
    title: str | None
    knowledge_in_context: list[str]
    current_workout_id: str | None
    total_tokens: int
    cached_tokens: int
    cost_usd_micros: int
    created_at: str
    last_activity_at: str


class TrainerSessionList(Struct, rename="camel"):
    items: list[TrainerSessionBody]


class TrainerEventBody(Struct, rename="camel"):
    seq: int
    type: str
    payload: dict[str, Any]


class TrainerSessionDetail(Struct, rename="camel"):
    session: TrainerSessionBody
    events: list[TrainerEventBody]
    running_turn: RunningTurn | None = None
