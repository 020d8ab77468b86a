"""SSE framing: `event: <type>\\ndata: <json>\\n\\n` for each agent event, and the documented frame types.

Each frame's data repeats its type (`{"type": <event>, ...}`), so the frames are documented as one tagged
union (`SseFrame`, discriminated by `type`) under the `text/event-stream` success response.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Literal

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from litestar.response import Stream
from msgspec import UNSET, Struct, UnsetType

from agent.events import Event

SSE_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no", "connection": "keep-alive"}
SSE_MEDIA_TYPE = "text/event-stream"


_ENCODER = msgspec.json.Encoder(enc_hook=str)  # UTF-8, compact; anything it does not know becomes its str()


def frame(event: Event) -> bytes:
    """One frame, its data encoded once straight to bytes."""
    data = _ENCODER.encode({"type": event.type, **event.data})
    return b"event: " + event.type.encode() + b"\ndata: " + data + b"\n\n"


MAX_EVENT_ID = 2**31 - 1  # event ids are int4 sequence numbers


def last_event_id(header: str | None) -> int:
    """The event id a reconnecting client names in `Last-Event-ID`, or 0 (replay everything) when the header
    is missing or is not an id this service could have sent: a decimal integer in 1..2^31-1."""
    value = (header or "").strip()
    if not value.isascii() or not value.isdigit() or len(value) > 10:
        return 0
    number = int(value)
    return number if 0 < number <= MAX_EVENT_ID else 0


def sse_response(events: AsyncIterator[Event], trace_id: str) -> Stream:
    async def body() -> AsyncIterator[bytes]:
        async for event in events:
            yield frame(event)

    return Stream(body(), media_type=SSE_MEDIA_TYPE, headers={**SSE_HEADERS, "x-trace-id": trace_id})


class _Frame(Struct, rename="camel", tag_field="type", omit_defaults=True):
    pass


class ConversationStarted(_Frame, tag="conversation_started"):
    """First frame of a new conversation."""

    conversation_id: str


class TextDelta(_Frame, tag="text_delta"):
    delta: str


class ToolStarted(_Frame, tag="tool_started"):
    tool_use_id: str
    router: str
    action: str
    input: dict[str, Any]


class ToolError(Struct):
    code: str
    message: str
    hint: str | None = None


class ToolCompleted(_Frame, tag="tool_completed"):
    """`output` when ok, `error{code, message, hint}` when not."""

    tool_use_id: str
    router: str
    action: str
    ok: bool
    inverse_available: bool
    duration_ms: int
    output: dict[str, Any] | None | UnsetType = UNSET
    error: ToolError | UnsetType = UNSET


class ConfirmationPending(_Frame, tag="confirmation_pending"):
    """The turn is suspended until the caller confirms (POST .../confirm/{toolUseId})."""

    tool_use_id: str
    router: str
    action: str
    input: dict[str, Any]
    confirm: Literal["destructive", "always"]
    summary: str | UnsetType = UNSET  # what the tool is about to do, in words, localized (beyond the spec)
    input_schema: dict[str, Any] | UnsetType = UNSET  # the tool's input JSON schema, for editing (beyond the spec)


class Candidate(Struct):
    id: str
    label: str
    sublabel: str | None | UnsetType = UNSET
    detail: str | None | UnsetType = UNSET


class DisambiguationPending(_Frame, tag="disambiguation_pending"):
    """The turn is suspended until the caller picks a candidate (POST .../pick/{toolUseId})."""

    tool_use_id: str
    kind: str
    prompt: str
    candidates: list[Candidate]


class MessageDone(_Frame, tag="message_done"):
    message_id: str
    stop_reason: str | None


class TurnUsage(Struct, rename="camel"):
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_creation_tokens: int
    cost_usd_micros: int
    cache_hit_ratio: float


class Done(_Frame, tag="done"):
    """Exactly one per stream, last, also after an `error`."""

    conversation_id: str | None
    usage: TurnUsage


class ErrorFrame(_Frame, tag="error"):
    code: str
    message: str
    trace_id: str


SseFrame = (ConversationStarted | TextDelta | ToolStarted | ToolCompleted | ConfirmationPending
            | DisambiguationPending | MessageDone | Done | ErrorFrame)

STREAM_DESCRIPTION = (
    "An SSE stream of `event: <type>` / `data: <json>` frames. Types: conversation_started, text_delta, "
    "tool_started, tool_completed, confirmation_pending, disambiguation_pending, message_done, done, error. "
    "Every stream ends with exactly one `done`, also after an `error`.")


def stream_response() -> dict[int, ResponseSpec]:
    """The 200 of a streaming operation: `text/event-stream` whose frames' data is an `SseFrame`."""
    return {200: ResponseSpec(data_container=SseFrame, media_type=SSE_MEDIA_TYPE,  # type: ignore[arg-type]
                              description=STREAM_DESCRIPTION, generate_examples=False)}
