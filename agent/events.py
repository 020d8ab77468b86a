"""The SSE events a turn emits (type + camelCase data), as plain data the API layer frames."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from agent.costs import Usage
from tools.registry import Described
from tools.runner import ToolOutcome

_ENCODER = msgspec.json.Encoder(enc_hook=str)  # UTF-8, compact; anything it does not know becomes its str()


@dataclass(frozen=True)
class Event:
    type: str
    data: dict[str, Any]

    def encoded(self, **extra: Any) -> bytes:
        """The frame's data as JSON bytes, encoded once: `{"type": <event>, ...data, ...extra}`."""
        return _ENCODER.encode({"type": self.type, **self.data, **extra})


def conversation_started(conversation_id: object) -> Event:
    return Event("conversation_started", {"conversationId": str(conversation_id)})


def text_delta(delta: str) -> Event:
    return Event("text_delta", {"delta": delta})


def tool_started(tool_use_id: str, router: str, action: str, input: dict) -> Event:
    return Event("tool_started", {"toolUseId": tool_use_id, "router": router, "action": action, "input": input})


def tool_completed(tool_use_id: str, router: str, action: str, outcome: ToolOutcome, *,
                   inverse_available: bool) -> Event:
    """The one `tool_completed` builder: from a tool's outcome (ran, failed, refused, rejected or picked)."""
    data: dict[str, Any] = {"toolUseId": tool_use_id, "router": router, "action": action, "ok": outcome.ok,
                            "inverseAvailable": inverse_available, "durationMs": outcome.duration_ms}
    if outcome.ok:
        data["output"] = outcome.output
    else:
        data["error"] = outcome.error
    return Event("tool_completed", data)


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
                         summary: Described | None = None, input_schema: dict | None = None) -> Event:
    data = {"toolUseId": tool_use_id, "router": router, "action": action, "input": input, "confirm": confirm,
            **described(summary)}
    if input_schema:
        data["inputSchema"] = input_schema  # the tool's input JSON schema, for the "Edit input" form (beyond the spec)
    return Event("confirmation_pending", data)


def disambiguation_pending(tool_use_id: str, kind: str, prompt: str, candidates: list[dict]) -> Event:
    return Event("disambiguation_pending", {"toolUseId": tool_use_id, "kind": kind, "prompt": prompt,
                                            "candidates": candidates})


def message_done(message_id: object, stop_reason: str | None) -> Event:
    return Event("message_done", {"messageId": str(message_id), "stopReason": stop_reason})


def usage_payload(usage: Usage, cost_usd_micros: int | None = None) -> dict[str, Any]:
    """The one usage shape: tokens by bucket (stored on a message); with the cost, as `done` and the logs carry it."""
    payload: dict[str, Any] = {"inputTokens": usage.input_tokens, "outputTokens": usage.output_tokens,
                               "cacheReadTokens": usage.cache_read_tokens,
                               "cacheCreationTokens": usage.cache_creation_tokens}
    if cost_usd_micros is not None:
        payload.update(costUsdMicros=cost_usd_micros, cacheHitRatio=usage.cache_hit_ratio)
    return payload


def done(conversation_id: object | None, usage: Usage, cost_usd_micros: int) -> Event:
    return Event("done", {"conversationId": str(conversation_id) if conversation_id else None,
                          "usage": usage_payload(usage, cost_usd_micros)})


def error(code: str, message: str, trace_id: str) -> Event:
    return Event("error", {"code": code, "message": message, "traceId": trace_id})
