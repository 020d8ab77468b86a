"""What a test scripts the fake Anthropic server to do: replies (text, tool uses), API errors, dropped
streams, held answers; and what it records of each request."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from tests.fakes.tool_search import ToolSearch

_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error",
                500: "api_error", 529: "overloaded_error"}


@dataclass(frozen=True)
class Text:
    """A text block of a scripted reply, streamed as `chunks` text_delta events."""

    text: str
    chunks: int = 1


@dataclass(frozen=True)
class ToolUse:
    """A tool_use block; streamed as input_json_delta pieces (at least two). `id` None means generated."""

    name: str
    input: dict[str, Any]
    id: str | None = None
    chunks: int = 2


class Reply:
    """One scripted assistant turn."""

    def __init__(self, *blocks: Text | ToolUse | ToolSearch, stop_reason: str | None = None,
                 output_tokens: int | None = None) -> None:
        if not all(isinstance(b, Text | ToolUse | ToolSearch) for b in blocks):
            raise TypeError(f"Reply takes Text, ToolUse and ToolSearch blocks, got {blocks!r}")
        self.blocks = blocks
        uses_tools = any(isinstance(b, ToolUse) for b in blocks)
        self.stop_reason = stop_reason or ("tool_use" if uses_tools else "end_turn")
        self.output_tokens = output_tokens

    def __repr__(self) -> str:
        return f"Reply({', '.join(map(repr, self.blocks))}, stop_reason={self.stop_reason!r})"


@dataclass(frozen=True)
class ApiError:
    """An error answer in the real envelope; a 429 carries `retry-after` (1 s unless set, floats allowed)."""

    status: int
    message: str | None = None
    retry_after: float | None = None
    error_type: str | None = None  # the envelope's error.type; by default the one the status implies

    @property
    def type(self) -> str:
        if self.error_type is not None:
            return self.error_type
        return _ERROR_TYPES.get(self.status, "api_error" if self.status >= 500 else "invalid_request_error")


@dataclass(frozen=True)
class DropStream:
    """Start a 200 answer, then drop the connection after `after_events` SSE events, before message_stop.

    A non-streaming request gets half of its JSON body instead, then the same drop. With `clean` the
    body ends properly (a well-formed HTTP response) instead: the stream just stops short of
    message_stop, as a proxy that closes an idle upstream does. With `error` (an error type such as
    "overloaded_error") the stream ends with an SSE `error` event of that type instead, as the real API
    reports failures that happen after the 200.
    """

    after_events: int = 3
    blocks: tuple[Text | ToolUse, ...] = (Text("this reply is cut off before it ends", chunks=4),)
    clean: bool = False
    error: str | None = None


@dataclass(frozen=True)
class RecordedRequest:
    """One request as it arrived; `rejected` is why the fake refused it, `usage` what it billed."""

    body: dict[str, Any]
    headers: dict[str, str]
    rejected: str | None
    usage: dict[str, Any]


Turn = Reply | ApiError | DropStream


class Held:
    """A `respond_with` handler whose answer waits until the test calls `release()`: a model slower than any
    budget, without a clock in the test. `arrived` is set when a request reaches it. It holds the fake's
    server thread, so release it (then `wait_for_requests`) before the test ends; after `limit` seconds it
    answers anyway, so a test that forgets fails instead of hanging."""

    def __init__(self, turn: Turn, *, limit: float = 60.0) -> None:
        self.turn, self.limit = turn, limit
        self.arrived = threading.Event()
        self._released = threading.Event()

    def __call__(self, body: dict[str, Any]) -> Turn:
        self.arrived.set()
        self._released.wait(self.limit)
        return self.turn

    def release(self) -> None:
        self._released.set()
