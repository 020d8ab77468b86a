"""The SSE frames a turn emits, declared once: each is a typed struct whose encoding is the frame's data on the wire.

A frame's data is `{"type": <tag>, ...its fields in declared order}` (camelCase; a field left UNSET is omitted,
a None is sent as null). The API documents the streams from these same structs (api/sse.py), and the engine
builds its frames with the builders below: a frame with no declaration cannot be emitted.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec import UNSET, Struct, UnsetType

from agent.costs import Usage
from tools.registry import Described
from tools.runner import ToolOutcome

_ENCODER = msgspec.json.Encoder(enc_hook=str)  # UTF-8, compact; anything it does not know becomes its str()


class Event(Struct, rename="camel", tag_field="type", omit_defaults=True, kw_only=True):
    """One frame of a turn's stream; subclasses name their `type` with their tag."""

    turn_id: str | UnsetType = UNSET  # on a turn's first frame: the turn to reconnect to (GET .../turns/{turnId}/stream)

    @property
    def type(self) -> str:
        return str(self.__struct_config__.tag)

    @property
    def data(self) -> dict[str, Any]:
        """The frame's fields as plain JSON data (camelCase, as on the wire, without its type)."""
        data = msgspec.to_builtins(self, enc_hook=str)
        del data["type"]
        return data

    def encoded(self, turn_id: str | None = None) -> bytes:
        """The frame's data as JSON bytes, encoded once; `turn_id` (the writer's, on a turn's first frame) goes
        last, after the frame's own fields."""
        data = _ENCODER.encode(self)
        return data if turn_id is None else data[:-1] + b',"turnId":' + _ENCODER.encode(turn_id) + b"}"


class ConversationStarted(Event, tag="conversation_started"):
    """First frame of a new conversation."""

    conversation_id: str


class TextDelta(Event, tag="text_delta"):
    delta: str


class ToolStarted(Event, tag="tool_started"):
    tool_use_id: str
    router: str
    action: str
    input: dict[str, Any]


class NextStep(Struct):
    """What the person can do next after a refusal, in their words (a button's label and the message it sends)."""

    key: str
    label: str
    message: str


class ToolError(Struct, rename="camel", omit_defaults=True, kw_only=True):
    """A tool's typed failure (tools/errors.py `failure`): the stable code, the person's words, the service's
    detail and the model's hint."""

    code: str
    message: str
    detail: str | UnsetType = UNSET
    hint: str | None | UnsetType = UNSET
    next_step: NextStep | UnsetType = UNSET
    data: dict[str, Any] | UnsetType = UNSET  # the refusal's structured facts (the refused exercises...)


class ToolCompleted(Event, tag="tool_completed"):
    """`output` when ok, `error{code, message, detail, hint}` when not."""

    tool_use_id: str
    router: str
    action: str
    ok: bool
    inverse_available: bool
    duration_ms: int
    output: dict[str, Any] | None | UnsetType = UNSET
    error: ToolError | UnsetType = UNSET


class ConfirmationPending(Event, tag="confirmation_pending"):
    """The turn is suspended until the caller confirms (POST .../confirm/{toolUseId})."""

    tool_use_id: str
    router: str
    action: str
    input: dict[str, Any]
    confirm: Literal["destructive", "always"]
    summary: str | UnsetType = UNSET  # what the tool is about to do, in words, localized (beyond the spec)
    details: list[str] | UnsetType = UNSET  # the lines it is about (the members, the messages), when it has them
    input_schema: dict[str, Any] | UnsetType = UNSET  # the tool's input JSON schema, for editing (beyond the spec)


class Candidate(Struct):
    id: str
    label: str
    sublabel: str | None | UnsetType = UNSET
    detail: str | None | UnsetType = UNSET


class DisambiguationPending(Event, tag="disambiguation_pending"):
    """The turn is suspended until the caller picks a candidate (POST .../pick/{toolUseId})."""

    tool_use_id: str
    kind: str
    prompt: str
    candidates: list[Candidate]


class MessageDone(Event, tag="message_done"):
    message_id: str
    stop_reason: str | None


class TokenUsage(Struct, rename="camel"):
    """Tokens by billing bucket, as a stored message carries them."""

    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_creation_tokens: int


class TurnUsage(TokenUsage):
    """A turn's tokens with their cost, as `done` and the logs carry them."""

    cost_usd_micros: int
    cache_hit_ratio: float


class Done(Event, tag="done"):
    """Exactly one per stream, last, also after an `error`."""

    conversation_id: str | None
    usage: TurnUsage


class ErrorFrame(Event, tag="error"):
    code: str
    message: str
    trace_id: str


StaffFrame = (ConversationStarted | TextDelta | ToolStarted | ToolCompleted | ConfirmationPending
              | DisambiguationPending | MessageDone | Done | ErrorFrame)
"""Every frame of a staff copilot turn."""


def conversation_started(conversation_id: object) -> ConversationStarted:
    return ConversationStarted(conversation_id=str(conversation_id))


def text_delta(delta: str) -> TextDelta:
    return TextDelta(delta=delta)


def tool_started(tool_use_id: str, router: str, action: str, input: dict) -> ToolStarted:
    return ToolStarted(tool_use_id=tool_use_id, router=router, action=action, input=input)


def tool_completed(tool_use_id: str, router: str, action: str, outcome: ToolOutcome, *,
                   inverse_available: bool) -> ToolCompleted:
    """The one `tool_completed` builder: from a tool's outcome (ran, failed, refused, rejected or picked)."""
    frame = ToolCompleted(tool_use_id=tool_use_id, router=router, action=action, ok=outcome.ok,
                          inverse_available=inverse_available, duration_ms=outcome.duration_ms)
    if outcome.ok:
        frame.output = outcome.output
    else:
        frame.error = msgspec.convert(outcome.error, ToolError)
    return frame


def failed(error: dict[str, Any]) -> ToolOutcome:
    """The outcome of a tool use that never ran (unknown tool, invalid input, rejected by the user)."""
    return ToolOutcome(ok=False, output=None, error=error, duration_ms=0)


def described(said: Described | None) -> dict[str, Any]:
    """A card's words: `summary`, the action in words, localized (beyond the spec; `input` stays), and `details`,
    the lines it is about (the members, the messages), when it has them."""
    if said is None or not said.summary:
        return {}
    return {"summary": said.summary, **({"details": list(said.details)} if said.details else {})}


def confirmation_pending(tool_use_id: str, router: str, action: str, input: dict, confirm: str,
                         summary: Described | None = None,
                         input_schema: dict | None = None) -> ConfirmationPending:
    return ConfirmationPending(tool_use_id=tool_use_id, router=router, action=action, input=input,
                               confirm=confirm,  # type: ignore[arg-type]  # a ToolSpec's confirm is one of the two
                               **described(summary),
                               # the tool's input JSON schema, for the "Edit input" form (beyond the spec)
                               input_schema=input_schema or UNSET)


def disambiguation_pending(tool_use_id: str, kind: str, prompt: str, candidates: list[dict]) -> DisambiguationPending:
    return DisambiguationPending(tool_use_id=tool_use_id, kind=kind, prompt=prompt,
                                 candidates=msgspec.convert(candidates, list[Candidate]))


def message_done(message_id: object, stop_reason: str | None) -> MessageDone:
    return MessageDone(message_id=str(message_id), stop_reason=stop_reason)


def token_usage(usage: Usage) -> TokenUsage:
    return TokenUsage(input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
                      cache_read_tokens=usage.cache_read_tokens, cache_creation_tokens=usage.cache_creation_tokens)


def turn_usage(usage: Usage, cost_usd_micros: int) -> TurnUsage:
    return TurnUsage(**msgspec.structs.asdict(token_usage(usage)), cost_usd_micros=cost_usd_micros,
                     cache_hit_ratio=usage.cache_hit_ratio)


def usage_payload(usage: Usage, cost_usd_micros: int | None = None) -> dict[str, Any]:
    """The one usage shape as plain data: tokens by bucket (stored on a message); with the cost, as `done` and the
    logs carry it."""
    shaped = token_usage(usage) if cost_usd_micros is None else turn_usage(usage, cost_usd_micros)
    return msgspec.to_builtins(shaped)


def done(conversation_id: object | None, usage: Usage, cost_usd_micros: int) -> Done:
    return Done(conversation_id=str(conversation_id) if conversation_id else None,
                usage=turn_usage(usage, cost_usd_micros))


def error(code: str, message: str, trace_id: str) -> ErrorFrame:
    return ErrorFrame(code=code, message=message, trace_id=trace_id)
