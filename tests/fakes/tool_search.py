"""The fake's emulation of Anthropic's tool search (server tool `tool_search_tool_bm25` / `_regex`).

Tools sent with ``defer_loading: true`` are not part of the prompt: they cost no tokens and take no place in
the cached prefix until a search returns a ``tool_reference`` to them, which the API expands inline where
the ``tool_search_tool_result`` block sits in the conversation. A scripted `ToolSearch` renders, in one
assistant message, the two blocks the real API returns::

    {"type": "server_tool_use", "id": "srvtoolu_…", "name": "tool_search_tool_bm25", "input": {"query": …}}
    {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_…",
     "content": {"type": "tool_search_tool_search_result",
                 "tool_references": [{"type": "tool_reference", "tool_name": …}, …]}}

A scripted `ToolUse` of a deferred tool that no search in the conversation (or earlier in the same reply)
referenced is refused: the real model cannot call a tool it has not loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SEARCH_TOOL_TYPES = ("tool_search_tool_bm25", "tool_search_tool_regex")


@dataclass(frozen=True)
class ToolSearch:
    """A tool search the model runs; `references` None means every deferred tool whose name or description
    holds all the query's words (at most 5)."""

    query: str
    references: tuple[str, ...] | None = None
    id: str | None = None


def is_search_tool(tool: dict[str, Any]) -> bool:
    return str(tool.get("type", "")).startswith(SEARCH_TOOL_TYPES)


def is_deferred(tool: dict[str, Any]) -> bool:
    return tool.get("defer_loading") is True


def check_tools(tools: list[dict[str, Any]]) -> str | None:
    """What the real API refuses about deferred tools."""
    deferred = [t for t in tools if is_deferred(t)]
    if not deferred:
        return None
    if not any(is_search_tool(t) for t in tools):
        return "tools: defer_loading requires a tool search tool (tool_search_tool_bm25 or _regex)"
    if len(deferred) == len(tools):
        return "tools: at least one tool must not be deferred"
    if any(t.get("cache_control") for t in deferred):
        return "tools: cache_control cannot be set on a tool with defer_loading"
    return None


def search_tool_name(body: dict[str, Any]) -> str | None:
    return next((t["name"] for t in body.get("tools") or [] if is_search_tool(t)), None)


def render(search: ToolSearch, body: dict[str, Any], tool_id: str) -> list[dict[str, Any]]:
    """The server_tool_use block and its tool_search_tool_result, as the real API returns them."""
    deferred = {t["name"]: t for t in body.get("tools") or [] if is_deferred(t)}
    if search.references is not None:
        names = [n for n in search.references if n in deferred]
    else:
        words = search.query.lower().split()
        names = [n for n, t in deferred.items()
                 if all(w in (n + " " + str(t.get("description", ""))).lower() for w in words)][:5]
    references = [{"type": "tool_reference", "tool_name": n} for n in names]
    return [{"type": "server_tool_use", "id": tool_id, "name": search_tool_name(body) or "tool_search_tool_bm25",
             "input": {"query": search.query}},
            {"type": "tool_search_tool_result", "tool_use_id": tool_id,
             "content": {"type": "tool_search_tool_search_result", "tool_references": references}}]


def referenced(blocks: list[Any]) -> set[str]:
    """Tool names the tool_search_tool_result blocks among `blocks` loaded."""
    names: set[str] = set()
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "tool_search_tool_result":
            content = block.get("content") or {}
            names |= {r.get("tool_name") for r in content.get("tool_references") or []}
    return names


def expanded(block: dict[str, Any], tools: list[dict[str, Any]]) -> dict[str, Any]:
    """A tool_search_tool_result as the model reads it: the referenced definitions inline (for tokens and
    the cache fingerprint)."""
    names = referenced([block])
    return {**block, "_loaded": [t for t in tools if is_deferred(t) and t.get("name") in names]}


def unloaded_call(body: dict[str, Any], rendered: list[dict[str, Any]]) -> str | None:
    """The name of a tool_use in `rendered` that targets a deferred tool nothing has loaded yet."""
    deferred = {t["name"] for t in body.get("tools") or [] if is_deferred(t)}
    loaded: set[str] = set()
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, list):
            loaded |= referenced(content)
    for block in rendered:
        loaded |= referenced([block])
        if block.get("type") == "tool_use" and block.get("name") in deferred and block["name"] not in loaded:
            return block["name"]
    return None

