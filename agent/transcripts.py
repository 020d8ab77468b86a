"""Conversation list and detail for the dashboard: messages with their tool calls reconstructed."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from agent import branches, conversations, events, turn_log
from agent.policy import can_undo, undo_until
from agent.request import user_text
from agent.turn_log import TurnRecord
from core.errors import NotFound
from tools import executions
from tools.registry import Described, ToolRegistry, ToolSpec

Describe = Callable[[ToolSpec, dict[str, Any]], Awaitable[Described | None]]


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


async def list_conversations(session: AsyncSession, owner: conversations.Owner) -> dict[str, Any]:
    rows = await conversations.list_for_user(session, owner)
    return {"items": [{"id": str(c.id), "title": c.title, "createdAt": _iso(c.created_at),
                       "updatedAt": _iso(c.updated_at)} for c in rows]}


def _tool_call(row: executions.ToolExecution, registry: ToolRegistry, role: str,
               names: dict[uuid.UUID, str] | None = None) -> dict[str, Any]:
    spec = registry.lookup(row.router, row.action)
    ran_at = row.resolved_at or row.created_at
    undoable = row.undone_by is None and can_undo(registry, spec, role, succeeded=row.status == "succeeded",
                                                  ran_at=ran_at, now=datetime.now(UTC))
    call: dict[str, Any] = {
        "toolUseId": row.tool_use_id, "router": row.router, "action": row.action, "status": row.status,
        "input": row.input, "output": {k: v for k, v in (row.output or {}).items() if k != "_editedInput"}
        if row.output is not None else None,
        "error": row.error, "confirm": row.confirm, "kind": row.kind, "durationMs": row.duration_ms,
        "undone": row.undone_by is not None,
        "inverseAvailable": undoable,
    }
    if undoable and ran_at is not None:
        call["undoUntil"] = _iso(undo_until(ran_at))
    if row.confirm != "never" and row.status not in ("pending", "running", "superseded", "expired"):
        # a decided confirmation says who decided and when ("Approved by Maya · 14:02")
        call["resolvedBy"] = (names or {}).get(row.actor_user_id) if row.actor_user_id else None
        call["resolvedAt"] = _iso(row.resolved_at)
        call = {k: v for k, v in call.items() if k not in ("resolvedBy", "resolvedAt") or v is not None}
    if row.kind == "user_picker":
        call["prompt"] = (row.input or {}).get("prompt")
        call["candidates"] = (row.input or {}).get("candidates", [])
    return call


async def _user_names(session: AsyncSession, ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    """Who approved: the users' names (or emails) by id."""
    if not ids:
        return {}
    rows = await session.execute(text("SELECT id, coalesce(nullif(name, ''), email) FROM users WHERE id = ANY(:ids)"),
                                 {"ids": list(ids)})
    return {row[0]: row[1] for row in rows}


async def conversation_detail(session: AsyncSession, owner: conversations.Owner,
                              conversation_id: uuid.UUID, registry: ToolRegistry, role: str,
                              pending_ttl: int, describe: Describe | None = None,
                              running: TurnRecord | None = None) -> dict[str, Any]:
    """The conversation as its owner sees it; `role` is theirs (Undo is offered only where it would run).
    A confirmation still pending carries the same action-in-words `summary` (via `describe`) and `inputSchema`
    as the live `confirmation_pending` frame, so a reopened card reads the same. What waited past PENDING_TTL
    is settled as `expired` first, as a new message or an answer would settle it. While a turn runs on it
    (`running`), it shows what it held before that turn (and a send's own message) and names the turn, whose
    stream brings the rest."""
    conversation = await conversations.get_owned(session, owner, conversation_id)
    if conversation is None:
        raise NotFound("conversation_not_found")
    await executions.expire_stale(session, conversation_id, pending_ttl=pending_ttl, now=datetime.now(UTC))
    rows = turn_log.before_turn(await conversations.all_messages(session, conversation_id), running, _opens_turn)
    by_message: dict[uuid.UUID | None, list[dict[str, Any]]] = {}
    found = await executions.for_conversation(session, conversation_id)
    names = await _user_names(session, {e.actor_user_id for e in found if e.actor_user_id and e.confirm != "never"})
    for execution in found:
        call = _tool_call(execution, registry, role, names)
        spec = registry.lookup(execution.router, execution.action)
        if execution.status == "pending" and execution.kind != "user_picker" and spec is not None:
            call["inputSchema"] = spec.input_schema()
            said = await describe(spec, execution.input or {}) if describe is not None else None
            if said is not None:
                call.update(events.described(said))
        by_message.setdefault(execution.message_id, []).append(call)
    forks = await branches.alternatives(session, conversation_id, rows)
    messages: list[dict[str, Any]] = []
    for row in rows:
        if row.role == "user" and not _opens_turn(row):
            continue  # tool results are shown on their tool calls
        if row.role == "system_note":
            messages.append({"id": str(row.id), "role": "system_note", "text": user_text(row.content),
                             "toolCalls": [], "createdAt": _iso(row.created_at)})
            continue
        text = user_text(row.content) if row.role == "user" else "".join(
            b.get("text", "") for b in row.content if b.get("type") == "text")
        message: dict[str, Any] = {"id": str(row.id), "role": row.role, "text": text,
                                   "stopReason": row.stop_reason, "toolCalls": by_message.get(row.id, []),
                                   "createdAt": _iso(row.created_at)}
        if row.id in forks:  # Regenerate / Edit kept what they replaced: the console flips between them
            message["alternatives"], message["regenerated"] = forks[row.id]
        messages.append(message)
    return {"id": str(conversation.id), "title": conversation.title, "createdAt": _iso(conversation.created_at),
            "updatedAt": _iso(conversation.updated_at), "messages": messages,
            "runningTurn": {"turnId": str(running.turn_id), "kind": running.kind} if running is not None else None}


def _opens_turn(row: conversations.Message) -> bool:
    """A person's message (not a message carrying tool results)."""
    return row.role == "user" and not all(b.get("type") == "tool_result" for b in row.content)
