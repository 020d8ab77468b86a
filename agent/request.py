"""Request building with prompt caching: tools → static prompt → org context (1 h each) → messages.

The parts that change every turn (page context, ambient context, the turn's clock) ride as leading text blocks
of the new user message, so the cached prefix stays stable; the last block of the last message carries the
4th breakpoint.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from agent.model import ModelRequest
from agent.model_facts import FACTS, ModelFacts
from agent.policy import UNDO_NOTE
from agent.prompts import STATIC_SYSTEM_PROMPT
from agent.tool_search import with_deferred
from core.tenancy import Caller, OrgAccess
from tools.registry import ToolSpec

CACHE_1H = {"type": "ephemeral", "ttl": "1h"}
CACHE_5M = {"type": "ephemeral"}
CONTEXT_TAGS = ("<turn_context>", "<page_context>", "<ambient_context>", "<conversation_summary>")


def org_context(access: OrgAccess) -> str:
    """Stable per org (no clock, no caller), so it caches across the org's staff."""
    return (f"<org_context>\nGym: {access.org_name}\nTier: {access.tier}\nTimezone: {access.timezone}\n"
            f"Default locale: {access.locale}\n</org_context>")


def turn_context(access: OrgAccess, caller: Caller, locale: str, now: datetime,
                 replaces: uuid.UUID | None = None) -> str:
    """The turn's clock, caller and locale; a Regenerate or Edit also says which message it replaces (the
    replaced answer is set aside: the model does not see it), so the request is never a replay of that one."""
    from zoneinfo import ZoneInfo

    local = now.astimezone(ZoneInfo(access.timezone))
    replaced = f"Replaces: message {replaces} (set aside; answer afresh)\n" if replaces else ""
    return (f"<turn_context>\nNow: {local.strftime('%A %Y-%m-%d %H:%M')} ({access.timezone})\n"
            f"Caller: {caller.name} ({access.role})\nReply locale: {locale}\n{replaced}</turn_context>")


def user_turn_content(text: str, *, turn: str, page_context: dict | None, ambient: str | None) -> list[dict]:
    """The persisted content of a new user turn (ARCHITECTURE.md): `<page_context>` and `<ambient_context>` first,
    the turn's clock, caller and locale next, the user's words last."""
    blocks = []
    if page_context:
        blocks.append({"type": "text", "text": "<page_context>\n" + json.dumps(page_context, ensure_ascii=False,
                                                                               sort_keys=True)[:4000]
                       + "\n</page_context>"})
    if ambient:
        blocks.append({"type": "text", "text": ambient})
    blocks += [{"type": "text", "text": turn}, {"type": "text", "text": text}]
    return blocks


def user_text(content: Any) -> str:
    """What the person typed, without our context blocks."""
    if isinstance(content, str):
        return content
    texts = [b.get("text", "") for b in content if b.get("type") == "text"
             and not b.get("text", "").startswith(CONTEXT_TAGS)]
    return "\n".join(texts)


def tool_definitions(specs: list[ToolSpec], loaded: frozenset[str] | None = None, *,
                     undoable: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The tool definitions, the last one in the prompt carrying the 1 h breakpoint; with `loaded`, the
    tools outside it are deferred behind tool search (agent/tool_search.py). The tools in `undoable` say so in
    their description (agent/policy.py, the one rule), so the model promises an Undo only for them."""
    tools = [spec.to_anthropic() for spec in specs]
    for tool in tools:
        if tool["name"] in undoable:
            tool["description"] = f"{tool['description']} {UNDO_NOTE}"
    if loaded is not None:
        return with_deferred(tools, loaded, CACHE_1H)
    if tools:
        tools[-1] = {**tools[-1], "cache_control": CACHE_1H}
    return tools


def with_cached_tail(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages with the last block of the last one carrying the 4th (5-minute) breakpoint. Only the
    last message and its block list are new; the rest is shared with `messages`, never copied (the history
    grows every round trip, and the SDK deep-copies the request it sends anyway)."""
    if not messages:
        return []
    last = messages[-1]
    content = last["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    if blocks:
        blocks[-1] = {**blocks[-1], "cache_control": CACHE_5M}
    return [*messages[:-1], {**last, "content": blocks}]


def copilot_system(access: OrgAccess) -> list[dict[str, Any]]:
    """The staff copilot's system blocks: the static prompt, then the org context (1 h breakpoints each)."""
    return [{"type": "text", "text": STATIC_SYSTEM_PROMPT, "cache_control": CACHE_1H},
            {"type": "text", "text": org_context(access), "cache_control": CACHE_1H}]


def build_request(*, model: str, specs: list[ToolSpec], access: OrgAccess, messages: list[dict[str, Any]],
                  max_tokens: int, tools_cache: list[dict[str, Any]] | None = None,
                  system: list[dict[str, Any]] | None = None,
                  tool_choice: dict[str, Any] | None = None, facts: ModelFacts | None = None) -> ModelRequest:
    """The round trip's request; `facts` ride in its metadata, which never goes over the wire."""
    return ModelRequest(model=model, system=system if system is not None else copilot_system(access),
                        tools=tools_cache if tools_cache is not None else tool_definitions(specs),
                        messages=with_cached_tail(messages), max_tokens=max_tokens, tool_choice=tool_choice,
                        metadata={FACTS: facts} if facts is not None else {})
