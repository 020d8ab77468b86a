"""Message and block builders for replay-guard tests (Anthropic Messages shapes)."""

from __future__ import annotations

import json
from typing import Any

from agent.replay import (
    validate_replay,
)


def user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


def assistant(content: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": content}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(tool_id: str, name: str = "find_member", **inputs: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": inputs}


def tool_result(tool_id: str, content: Any = "ok", **extra: Any) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_id, "content": content, **extra}


def kinds(messages: list[dict[str, Any]]) -> set[str]:
    return {v.kind for v in validate_replay(messages)[1]}


def assert_valid(messages: list[dict[str, Any]]) -> None:
    ok, violations = validate_replay(messages)
    assert ok, violations


def payload(block: dict[str, Any]) -> dict[str, Any]:
    """The {code, message, hint} body of a synthesized tool_result."""
    assert block["type"] == "tool_result" and block["is_error"] is True
    return json.loads(block["content"])
