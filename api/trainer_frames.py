"""The trainer's JSON bodies (TRAINER.md "HTTP") and its documented stream, whose frames the engine declares
(agent/trainer/frames.py); the chat body lists the turn's `message` and `question` frames in shapes derived from
those frames' declarations (`frame_body`), so a field is declared once, on the frame."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from msgspec import NODEFAULT, Struct

from agent.events import Event
from agent.trainer.frames import QuestionFrame, TrainerFrame, TrainerMessage
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


def frame_body(frame: type[Event], name: str) -> type[Struct]:
    """`frame`'s own fields, in its order, as a body's struct: camelCase like the frame, without its `type` tag and
    without what every frame carries (`Event`'s `turnId`). A body cannot inherit them: a msgspec struct has one
    base with fields, and a frame's is `Event`."""
    every_frame = {field.name for field in msgspec.structs.fields(Event)}
    own = [_declared(field) for field in msgspec.structs.fields(frame) if field.name not in every_frame]
    return msgspec.defstruct(name, own, rename="camel", module=__name__)


def _declared(field: msgspec.structs.FieldInfo) -> tuple[str, Any] | tuple[str, Any, Any]:
    """A field as `defstruct` takes it: (name, type), and its default when it has one."""
    if field.required:
        return field.name, field.type
    if field.default_factory is not NODEFAULT:
        return field.name, field.type, msgspec.field(default_factory=field.default_factory)
    return field.name, field.type, field.default


if TYPE_CHECKING:  # mypy cannot follow a derived class; no code builds one, `shape()` converts the frames' data
    ChatMessage: TypeAlias = Struct
    ChatQuestion: TypeAlias = Struct
else:
    ChatMessage = frame_body(TrainerMessage, "ChatMessage")
    ChatQuestion = frame_body(QuestionFrame, "ChatQuestion")


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
