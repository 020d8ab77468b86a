"""The trainer's JSON bodies (TRAINER.md "HTTP") and its documented stream, whose frames the engine declares
(agent/trainer/frames.py)."""

from __future__ import annotations

from typing import Any

from litestar.openapi.datastructures import ResponseSpec
from msgspec import Struct

from agent.trainer.frames import TrainerFrame
from agent.trainer.store import TrainerSessionBody
from agent.transcripts import RunningTurn
from api.sse import TURN_FRAME_ID, event_stream

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
