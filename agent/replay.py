"""Replay-integrity guard: check and repair a Messages API history before it is sent to the model.

A stored conversation can drift from what the Messages API accepts: a picker or confirmation
``tool_use`` the user never answered (they typed instead), a crash between the assistant turn and its
tool results, a compaction or storage bug. ``guard`` finds such drift, reports it without PII and
hands back a repaired copy; synthesized results are ``is_error`` tool results the model can act on.

Scope: roles other than ``user``/``assistant`` and tool_use ids repeated across messages are not
checked; the system prompt travels outside ``messages`` and ids come from the API.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Message = dict[str, Any]
Block = dict[str, Any]

ORPHANED_TOOL_USE = "orphaned_tool_use"
ORPHANED_TOOL_RESULT = "orphaned_tool_result"
TOOL_RESULT_NOT_FIRST = "tool_result_not_first"
ROLE_ALTERNATION = "role_alternation"
EMPTY_CONTENT = "empty_content"

RESUMED_TEXT = "(conversation resumed)"
DEFAULT_REASON = "interrupted"

# reason code -> (message, hint) shown to the model in the synthesized tool_result.
REASONS: Mapping[str, tuple[str, str]] = {
    "superseded": (
        "The user sent a new message instead of answering this; do not assume it ran.",
        "Re-ask or re-plan if still needed.",
    ),
    "rejected_by_user": (
        "The user declined this action; it did not run.",
        "Do not retry it unless the user asks again; offer an alternative if useful.",
    ),
    "expired": (
        "This request expired before the user answered; it did not run.",
        "Ask again if it is still needed.",
    ),
    "interrupted": (
        "This tool call was interrupted before its result was recorded; its outcome is unknown.",
        "Check the current state before retrying, and tell the user if it matters.",
    ),
}

# Block types reported by name in snapshots; anything else is reported as "other".
_SNAPSHOT_TYPES = frozenset(
    {
        "text",
        "image",
        "document",
        "tool_use",
        "tool_result",
        "thinking",
        "redacted_thinking",
        "server_tool_use",
        "web_search_tool_result",
        "search_result",
    }
)


@dataclass(frozen=True)
class Violation:
    """One way a history breaks the Messages API rules; ``index`` is the offending message."""

    kind: str
    index: int
    tool_use_id: str | None = None


# --- small predicates shared by validation and repair -------------------------------------------


def _blocks(content: Any) -> list[Any]:
    """Content as a list of blocks (a string becomes one text block; None becomes nothing)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return content
    return []


def _type(block: Any) -> Any:
    return block.get("type") if isinstance(block, dict) else None


def _is_empty_text(block: Any) -> bool:
    """A text block the API rejects: missing, empty or whitespace-only text."""
    if _type(block) != "text":
        return False
    text = block.get("text")
    return not isinstance(text, str) or not text.strip()


def _is_empty_content(content: Any) -> bool:
    if isinstance(content, str):
        return not content.strip()
    return not isinstance(content, list) or not content


def _is_misplaced(block: Any, role: Any) -> bool:
    """A tool block on the wrong side: tool_use from the user or tool_result from the assistant."""
    kind = _type(block)
    return (kind == "tool_use" and role != "assistant") or (kind == "tool_result" and role != "user")


def _tool_use_ids(message: Message | None) -> list[str]:
    if message is None or message.get("role") != "assistant":
        return []
    return [b.get("id") for b in _blocks(message.get("content")) if _type(b) == "tool_use"]


def _result_ids(message: Message | None) -> set[str]:
    if message is None or message.get("role") != "user":
        return set()
    return {b.get("tool_use_id") for b in _blocks(message.get("content")) if _type(b) == "tool_result"}


def _at(messages: list[Message], i: int) -> Message | None:
    return messages[i] if 0 <= i < len(messages) else None


# --- validation ---------------------------------------------------------------------------------


def validate_replay(messages: list[Message]) -> tuple[bool, list[Violation]]:
    """Check a history against the Messages API pairing, ordering, alternation and emptiness rules."""
    violations: list[Violation] = []
    for i, message in enumerate(messages):
        role = message.get("role")
        content = message.get("content")
        previous = _at(messages, i - 1)

        if (i == 0 and role != "user") or (previous is not None and previous.get("role") == role):
            violations.append(Violation(ROLE_ALTERNATION, i))

        if _is_empty_content(content):
            violations.append(Violation(EMPTY_CONTENT, i))
        blocks = _blocks(content) if isinstance(content, list) else []
        violations.extend(Violation(EMPTY_CONTENT, i) for b in blocks if _is_empty_text(b))

        for block in blocks:
            if _is_misplaced(block, role):
                kind = ORPHANED_TOOL_USE if _type(block) == "tool_use" else ORPHANED_TOOL_RESULT
                block_id = block.get("id") if kind == ORPHANED_TOOL_USE else block.get("tool_use_id")
                violations.append(Violation(kind, i, block_id))

        if role == "assistant":
            answered = _result_ids(_at(messages, i + 1))
            violations.extend(
                Violation(ORPHANED_TOOL_USE, i, tid) for tid in _tool_use_ids(message) if tid not in answered
            )
        elif role == "user":
            violations.extend(_user_result_violations(blocks, i, set(_tool_use_ids(previous))))
    return not violations, violations


def _user_result_violations(blocks: list[Any], index: int, expected: set[str]) -> Iterable[Violation]:
    seen: set[str] = set()
    after_other = False
    for block in blocks:
        if _type(block) != "tool_result":
            after_other = True
            continue
        tid = block.get("tool_use_id")
        if tid not in expected or tid in seen:
            yield Violation(ORPHANED_TOOL_RESULT, index, tid)
        seen.add(tid)
        if after_other:
            yield Violation(TOOL_RESULT_NOT_FIRST, index, tid)


# --- repair -------------------------------------------------------------------------------------


def repair(messages: list[Message], reasons: Mapping[str, str] | None = None) -> list[Message]:
    """Return a new history that ``validate_replay`` accepts; valid histories come back equal.

    Orphaned tool_uses get a synthesized ``is_error`` result (reason from ``reasons`` by tool_use id,
    default "interrupted") placed first in the next user message. Orphaned and duplicate tool_results
    are dropped: the model cannot act on a result for a call it cannot see. Each step below is a
    no-op on valid input, which makes repair idempotent.
    """
    reasons = _checked_reasons(reasons)
    history = [copy.deepcopy(m) for m in messages]
    history = _drop_empty_and_misplaced(history)
    history = _merge_consecutive(history, "user")
    history = _fix_user_results(history)
    history = _answer_orphaned_tool_uses(history, reasons)
    history = _merge_consecutive(history, "assistant")
    if history and history[0].get("role") != "user":
        history.insert(0, {"role": "user", "content": RESUMED_TEXT})
    return history


def _checked_reasons(reasons: Mapping[str, str] | None) -> Mapping[str, str]:
    unknown = sorted({r for r in (reasons or {}).values() if r not in REASONS})
    if unknown:
        raise ValueError(f"unknown replay reason(s): {unknown}; expected one of {sorted(REASONS)}")
    return reasons or {}


def _drop_empty_and_misplaced(history: list[Message]) -> list[Message]:
    kept: list[Message] = []
    for message in history:
        content = message.get("content")
        if isinstance(content, list):
            role = message.get("role")
            content = [b for b in content if not _is_empty_text(b) and not _is_misplaced(b, role)]
            message["content"] = content
        if not _is_empty_content(content):
            kept.append(message)
    return kept


def _merge_consecutive(history: list[Message], role: str) -> list[Message]:
    merged: list[Message] = []
    for message in history:
        if merged and message.get("role") == role and merged[-1].get("role") == role:
            last = merged[-1]
            last["content"] = _blocks(last.get("content")) + _blocks(message.get("content"))
        else:
            merged.append(message)
    return merged


def _fix_user_results(history: list[Message]) -> list[Message]:
    """Drop orphaned/duplicate tool_results and move the rest first; drop user messages left empty."""
    fixed: list[Message] = []
    for i, message in enumerate(history):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            expected = set(_tool_use_ids(_at(history, i - 1)))
            results: list[Block] = []
            others: list[Any] = []
            seen: set[str] = set()
            for block in content:
                if _type(block) != "tool_result":
                    others.append(block)
                elif block.get("tool_use_id") in expected and block.get("tool_use_id") not in seen:
                    seen.add(block.get("tool_use_id"))
                    results.append(block)
            message["content"] = results + others
            if not message["content"]:
                continue
        fixed.append(message)
    return fixed


def _answer_orphaned_tool_uses(history: list[Message], reasons: Mapping[str, str]) -> list[Message]:
    out: list[Message] = []
    for i, message in enumerate(history):
        out.append(message)
        pending = [tid for tid in _tool_use_ids(message) if tid not in _result_ids(_at(history, i + 1))]
        if not pending:
            continue
        synthesized = [_synthesized_result(tid, reasons.get(tid, DEFAULT_REASON)) for tid in pending]
        following = _at(history, i + 1)
        if following is not None and following.get("role") == "user":
            following["content"] = synthesized + _blocks(following.get("content"))
        else:
            out.append({"role": "user", "content": synthesized})
    return out


def _synthesized_result(tool_use_id: str, reason: str) -> Block:
    message, hint = REASONS[reason]
    return {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "is_error": True,
        "content": json.dumps({"code": reason, "message": message, "hint": hint}),
    }


# --- reporting and the orchestrator entry point -------------------------------------------------


def snapshot(messages: list[Message]) -> list[dict[str, Any]]:
    """Roles and block types only: never text, ids, tool names or inputs."""
    shot: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        types = [_type(b) for b in _blocks(message.get("content"))]
        shot.append(
            {
                "role": role if role in ("user", "assistant") else "other",
                "blocks": [t if t in _SNAPSHOT_TYPES else "other" for t in types],
            }
        )
    return shot


def synthesized_results(messages: list[Message], repaired: list[Message]) -> list[Block]:
    """The tool_results ``repair`` made up for tool_uses nobody answered: store these with the history and
    the next replay needs no repair (a violation is then reported once, not every round trip and turn)."""
    _, violations = validate_replay(messages)
    orphaned = {v.tool_use_id for v in violations
                if v.kind == ORPHANED_TOOL_USE and messages[v.index].get("role") == "assistant"}
    return [block for message in repaired if message.get("role") == "user"
            for block in _blocks(message.get("content"))
            if _type(block) == "tool_result" and block.get("tool_use_id") in orphaned and block.get("is_error")]


def guard(
    messages: list[Message],
    *,
    reasons: Mapping[str, str] | None = None,
    on_violation: Callable[[dict[str, Any]], None] | None = None,
) -> list[Message]:
    """Return ``messages`` itself when valid; otherwise report once (PII-free) and return a repair.

    The report says ``repaired: true`` only when the repair was checked and is valid; otherwise it says
    false and the guard raises, so a history the API would refuse is never sent.
    """
    ok, violations = validate_replay(messages)
    if ok:
        return messages
    repaired = repair(messages, reasons)
    still_ok, remaining = validate_replay(repaired)
    if on_violation is not None:
        on_violation(
            {
                "violations": len(violations),
                "reasons": sorted({v.kind for v in violations}),
                "repaired": still_ok,
                "snapshot": snapshot(messages),
            }
        )
    if not still_ok:  # explicit so it survives `python -O`
        raise AssertionError(f"replay repair left violations: {sorted({v.kind for v in remaining})}")
    return repaired
