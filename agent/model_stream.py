"""The assistant message built from the Messages API's stream events as JSON.

The SDK's `MessageStream` turns every event into pydantic objects, copies a typed snapshot of the message and
re-parses a tool call's partial JSON on every delta: about half of the server's CPU for a model call under
load. `MessageAccumulator` follows the same rules as its `accumulate_event` (blocks appended in order, text,
thinking, signatures and citations appended, usage counts on `message_delta` overwriting the ones from
`message_start`) over the plain dicts the SDK's `AsyncStream[object]` yields, and parses a tool call's input
once, when its block stops. The SDK still sends the request, retries it, decodes the server-sent events and
raises its error classes (an `error` event included).
"""

from __future__ import annotations

import json
import math
from typing import Any

from agent.costs import Usage

# message_delta's usage counts are cumulative totals; the optional ones are absent when not applicable
_USAGE_TOTALS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "server_tool_use",
                 "output_tokens_details")
_TOOL_INPUT_BLOCKS = ("tool_use", "server_tool_use")


class StreamOrderError(RuntimeError):
    """An event arrived that the stream's order does not allow (the SDK raises the same)."""


class MessageAccumulator:
    def __init__(self) -> None:
        self.message: dict[str, Any] | None = None
        self.stopped = False
        self._json: dict[int, str] = {}

    def add(self, event: dict[str, Any]) -> str | None:
        """Apply one event; returns the text it adds to a text block, if any."""
        kind = event.get("type")
        if self.message is None:
            if kind != "message_start":
                raise StreamOrderError(f'Unexpected event order, got {kind} before "message_start"')
            message = event["message"]
            self.message = {**message, "content": [dict(b) for b in message.get("content") or []],
                            "usage": dict(message.get("usage") or {})}
            return None
        content = self.message["content"]
        if kind == "content_block_start":
            content.append(dict(event["content_block"]))
        elif kind == "content_block_delta":
            return self._delta(content[event["index"]], event["index"], event["delta"])
        elif kind == "content_block_stop":
            index = event["index"]
            partial = self._json.pop(index, "")
            if partial and content[index].get("type") in _TOOL_INPUT_BLOCKS:
                try:
                    content[index]["input"] = tool_input(partial)
                except ValueError as exc:
                    raise ValueError(f"Unable to parse tool parameter JSON from model: {exc}") from exc
        elif kind == "message_delta":
            delta, usage = event.get("delta") or {}, event.get("usage") or {}
            self.message["stop_reason"] = delta.get("stop_reason")
            self.message["stop_sequence"] = delta.get("stop_sequence")
            self.message["usage"]["output_tokens"] = usage.get("output_tokens")
            for name in _USAGE_TOTALS:
                if usage.get(name) is not None:
                    self.message["usage"][name] = usage[name]
        elif kind == "message_stop":
            self.stopped = True
        return None

    def _delta(self, block: dict[str, Any], index: int, delta: dict[str, Any]) -> str | None:
        kind, block_type = delta.get("type"), block.get("type")
        if kind == "text_delta" and block_type == "text":
            block["text"] = block.get("text", "") + delta["text"]
            return delta["text"]
        if kind == "input_json_delta" and block_type in _TOOL_INPUT_BLOCKS:
            self._json[index] = self._json.get(index, "") + delta.get("partial_json", "")
        elif kind == "citations_delta" and block_type == "text":
            block["citations"] = [*(block.get("citations") or []), delta["citation"]]
        elif kind == "thinking_delta" and block_type == "thinking":
            block["thinking"] = block.get("thinking", "") + delta["thinking"]
        elif kind == "signature_delta" and block_type == "thinking":
            block["signature"] = delta["signature"]
        return None

    @property
    def usage(self) -> Usage:
        return usage_from_json(self.message["usage"] if self.message else None)

    def blocks(self) -> list[dict[str, Any]]:
        """The content as the blocks we persist and replay: text and tool calls reduced to what the API takes
        back, every other block (server tool results, thinking) as it came, without null fields."""
        assert self.message is not None
        return [plain_block(block) for block in self.message["content"]]


def plain_block(block: dict[str, Any]) -> dict[str, Any]:
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text", "")}
    if kind == "tool_use":
        return {"type": "tool_use", "id": block["id"], "name": block["name"], "input": block.get("input") or {}}
    return _without_none(block)


def _without_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value]
    return value


def _finite_or_literal(literal: str) -> float | str:
    """A JSON number as a float, unless it is beyond one (1e309) or not one (NaN, Infinity): then its literal text,
    which the tool's schema refuses as it refuses any string, and which stores and replays as JSON can."""
    value = float(literal)
    return value if math.isfinite(value) else literal


def tool_input(text: str) -> Any:
    """A tool call's input JSON as the model wrote it, every number finite (the one place model JSON is read)."""
    return json.loads(text, parse_float=_finite_or_literal, parse_constant=str)


def usage_from_json(usage: dict[str, Any] | None) -> Usage:
    """The API's usage → our buckets; creation without a ttl breakdown is billed as 1h (never under-charge)."""
    if not usage:
        return Usage()
    creation = usage.get("cache_creation_input_tokens") or 0
    split = usage.get("cache_creation") or {}
    write_5m, write_1h = split.get("ephemeral_5m_input_tokens"), split.get("ephemeral_1h_input_tokens")
    if write_5m is None and write_1h is None:
        write_5m, write_1h = 0, creation
    return Usage(input_tokens=usage.get("input_tokens") or 0, output_tokens=usage.get("output_tokens") or 0,
                 cache_read_tokens=usage.get("cache_read_input_tokens") or 0,
                 cache_write_5m_tokens=write_5m or 0, cache_write_1h_tokens=write_1h or 0)
