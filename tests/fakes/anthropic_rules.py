"""The fake Anthropic server's model of the API: request validation as the real API does it, token counts,
and the deterministic prompt cache (the accounting the server's module docstring describes)."""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any

from tests.fakes import tool_search

_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_TTL_SECONDS = {"5m": 300.0, "1h": 3600.0}


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def count_tokens(piece: Any) -> int:
    """The fake's deterministic token count: a quarter of the canonical JSON length, rounded up."""
    return math.ceil(len(canonical_json(piece)) / 4)


def _blocks(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return content if isinstance(content, list) else []


def _prefix(body: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any], Any]]:
    """(place, block without cache_control, cache_control or None) in cacheable prefix order."""
    tools = body.get("tools") or []
    places: list[tuple[dict[str, Any], Any]] = [({"tool": i}, t) for i, t in enumerate(tools)
                                                if not tool_search.is_deferred(t)]  # not in the prompt
    places += [({"system": i}, b) for i, b in enumerate(_blocks(body.get("system")))]
    for i, message in enumerate(body["messages"]):
        places += [({"message": i, "role": message["role"]},
                    tool_search.expanded(b, tools) if _type_of(b) == "tool_search_tool_result" else b)
                   for b in _blocks(message["content"])]
    out = []
    for place, block in places:
        bare = {k: v for k, v in block.items() if k != "cache_control"}
        out.append((place, bare, block.get("cache_control")))
    return out


def _type_of(block: Any) -> Any:
    return block.get("type") if isinstance(block, dict) else None


def _ttl(cache_control: dict[str, Any]) -> str:
    return cache_control.get("ttl", "5m")


def validate_request(body: Any) -> str | None:
    """The reason the real API would answer 400 invalid_request_error, or None when it would accept."""
    if not isinstance(body, dict):
        return "request body must be a JSON object"
    for name in ("model", "max_tokens", "messages"):
        if name not in body:
            return f"{name}: Field required"
    if not isinstance(body["model"], str) or not body["model"]:
        return "model: Input should be a non-empty string"
    if type(body["max_tokens"]) is not int or body["max_tokens"] < 1:
        return "max_tokens: Input should be an integer of at least 1"
    if not isinstance(body["messages"], list) or not body["messages"]:
        return "messages: at least one message is required"
    return (_check_tools(body.get("tools")) or _check_system(body.get("system"))
            or _check_messages(body["messages"]) or _check_tool_pairing(body["messages"])
            or _check_cache_control(body))


def _check_tools(tools: Any) -> str | None:
    if tools is None:
        return None
    if not isinstance(tools, list):
        return "tools: Input should be a valid list"
    names = [t.get("name") if isinstance(t, dict) else None for t in tools]
    for i, name in enumerate(names):
        if not isinstance(name, str) or not _TOOL_NAME.fullmatch(name):
            return f"tools.{i}.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'"
    if len(set(names)) != len(names):
        return "tools: Tool names must be unique."
    return tool_search.check_tools(tools)


def _check_system(system: Any) -> str | None:
    if system is None or isinstance(system, str):
        return None
    if not isinstance(system, list):
        return "system: Input should be a valid string or list of text blocks"
    for i, block in enumerate(system):
        if not isinstance(block, dict) or block.get("type") != "text" or not isinstance(
                block.get("text"), str):
            return f"system.{i}: system blocks must be text blocks"
        if not block["text"]:
            return f"system.{i}: text content blocks must be non-empty"
    return None


def _check_messages(messages: list[Any]) -> str | None:
    for i, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ("user", "assistant"):
            return f"messages.{i}.role: Input should be 'user' or 'assistant'"
        if i == 0 and role != "user":
            return 'messages: first message must use the "user" role'
        if i > 0 and messages[i - 1]["role"] == role:
            return (f'messages: roles must alternate between "user" and "assistant", '
                    f'but messages.{i - 1} and messages.{i} are both "{role}"')
        content = message.get("content")
        if not isinstance(content, str | list):
            return f"messages.{i}.content: Input should be a valid string or list"
        final_assistant = role == "assistant" and i == len(messages) - 1
        if not content and not final_assistant:
            return (f"messages.{i}: all messages must have non-empty content "
                    "except for the optional final assistant message")
        for j, block in enumerate(_blocks(content)):
            if not isinstance(block, dict) or not isinstance(block.get("type"), str):
                return f"messages.{i}.content.{j}: a content block must be an object with a type"
            if block["type"] == "text" and (not isinstance(block.get("text"), str) or not block["text"]):
                return f"messages.{i}.content.{j}: text content blocks must be non-empty"
    return None


def _check_tool_pairing(messages: list[dict[str, Any]]) -> str | None:
    """Each assistant tool_use is answered first thing in the next user message, and nothing else is."""
    for i, message in enumerate(messages):
        blocks = _blocks(message["content"])
        if message["role"] == "assistant":
            asked = [b.get("id") for b in blocks if b["type"] == "tool_use"]
            following = _blocks(messages[i + 1]["content"]) if i + 1 < len(messages) else []
            answered = {b.get("tool_use_id") for b in following if b["type"] == "tool_result"}
            missing = [str(x) for x in asked if x not in answered]
            if missing:
                return (f"messages.{i + 1}: `tool_use` ids were found without `tool_result` blocks "
                        f"immediately after: {', '.join(missing)}")
            continue
        kinds = [b["type"] for b in blocks]
        leading = next((j for j, kind in enumerate(kinds) if kind != "tool_result"), len(kinds))
        if "tool_result" in kinds[leading:]:
            return f"messages.{i}: tool_result blocks must come first in the content, before any other block"
        previous = _blocks(messages[i - 1]["content"]) if i > 0 else []
        asked_ids = {b.get("id") for b in previous if b["type"] == "tool_use"}
        for j, block in enumerate(blocks):
            if block["type"] == "tool_result" and block.get("tool_use_id") not in asked_ids:
                return (f"messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` blocks: "
                        f"{block.get('tool_use_id')}. Each `tool_result` block must have a corresponding "
                        "`tool_use` block in the previous message.")
    return None


def _check_cache_control(body: dict[str, Any]) -> str | None:
    marks = [cc for _, _, cc in _prefix(body) if cc is not None]
    for cc in marks:
        if not isinstance(cc, dict) or cc.get("type") != "ephemeral" or _ttl(cc) not in _TTL_SECONDS:
            return "cache_control: Input should be {'type': 'ephemeral', 'ttl': '5m' | '1h'}"
    if len(marks) > 4:
        return f"A maximum of 4 blocks with cache_control may be provided. Found {len(marks)}."
    ttls = [_ttl(cc) for cc in marks]
    if "5m" in ttls and "1h" in ttls[ttls.index("5m"):]:
        return "a ttl='1h' cache_control block must not come after a ttl='5m' one"
    return None


class PromptCache:
    """Prefix fingerprints written by earlier requests, and the usage a new request is billed."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[float, float]] = {}  # fingerprint -> (written at, ttl seconds)
        self._swept_at: float | None = None

    def clear(self) -> None:
        self._entries.clear()
        self._swept_at = None

    def _live(self, fingerprint: str, now: float) -> bool:
        entry = self._entries.get(fingerprint)
        return entry is not None and now - entry[0] < entry[1]

    def account(self, body: dict[str, Any], now: float) -> dict[str, Any]:
        """Bill `body`'s input tokens against the cache, then write its breakpoints."""
        if self._swept_at is None or not 0 <= now - self._swept_at < 1.0:  # expired entries go once a second
            self._entries = {fp: e for fp, e in self._entries.items() if now - e[0] < e[1]}
            self._swept_at = now
        prefix = _prefix(body)
        tokens = [count_tokens(bare) for _, bare, _ in prefix]
        hasher = hashlib.sha256(canonical_json(body["model"]).encode())
        fingerprints = []
        for place, bare, _ in prefix:
            hasher.update(canonical_json([place, bare]).encode() + b"\n")
            fingerprints.append(hasher.copy().hexdigest())
        marks = [(k, _TTL_SECONDS[_ttl(cc)]) for k, (_, _, cc) in enumerate(prefix) if cc is not None]
        last = marks[-1][0] if marks else -1
        hit = max((k for k in range(last + 1) if self._live(fingerprints[k], now)), default=-1)
        created = {300.0: 0, 3600.0: 0}
        start = hit + 1
        for k, ttl in marks:
            if k >= start:
                created[ttl] += sum(tokens[start:k + 1])
                start = k + 1
        if hit >= 0:
            self._entries[fingerprints[hit]] = (now, self._entries[fingerprints[hit]][1])
        for k, ttl in marks:
            self._entries[fingerprints[k]] = (now, ttl)
        return {"input_tokens": sum(tokens[last + 1:]),
                "cache_creation_input_tokens": created[300.0] + created[3600.0],
                "cache_read_input_tokens": sum(tokens[:hit + 1]),
                "cache_creation": {"ephemeral_5m_input_tokens": created[300.0],
                                   "ephemeral_1h_input_tokens": created[3600.0]}}
