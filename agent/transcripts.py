"""Conversation list and detail for the dashboard: messages with their tool calls reconstructed.

The bodies are declared here, where they are assembled (camelCase on the wire); the API answers and documents
them as they are."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from msgspec import UNSET, Struct, UnsetType
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


class ConversationSummary(Struct, rename="camel"):
    id: str
    title: str | None
    created_at: str
    updated_at: str
    channel: str = "console"  # console | mcp: an assistant's calls over MCP (labelled "via MCP")


class ConversationList(Struct, rename="camel"):
    items: list[ConversationSummary]


class ToolCall(Struct, rename="camel", omit_defaults=True):
    """A tool execution shown on its assistant message; pickers also carry their prompt and candidates."""

    tool_use_id: str
    router: str
    action: str
    status: str
    input: dict[str, Any] | None
    output: dict[str, Any] | None
    error: dict[str, Any] | None
    confirm: str | None
    kind: str
    duration_ms: int | None
    undone: bool
    inverse_available: bool
    prompt: str | None | UnsetType = UNSET
    candidates: list[dict[str, Any]] | UnsetType = UNSET
    summary: str | UnsetType = UNSET  # a pending confirmation: the action in words, localized (beyond the spec)
    input_schema: dict[str, Any] | UnsetType = UNSET  # a pending confirmation: the tool's input JSON schema
    resolved_by: str | UnsetType = UNSET  # a resolved confirmation: who approved or rejected it
    resolved_at: str | UnsetType = UNSET  # and when (ISO 8601)
    undo_until: str | UnsetType = UNSET  # an undoable write: the end of its Undo window (ISO 8601)


class ConversationMessage(Struct, rename="camel", omit_defaults=True, kw_only=True):
    id: str
    role: str
    text: str
    stop_reason: str | None | UnsetType = UNSET  # absent on system notes
    tool_calls: list[ToolCall]
    created_at: str
    # a user message Regenerate or Edit replaced or wrote (beyond the spec): its slot's user message ids in the
    # order written, this one among them; `regenerated` when they all say the same words
    alternatives: list[str] | UnsetType = UNSET
    regenerated: bool | UnsetType = UNSET


class RunningTurn(Struct, rename="camel"):
    """A turn still running on the thread: its frames follow at GET .../turns/{turnId}/stream (from seq 0: the
    thread shows what it held before the turn, and a send's own message)."""

    turn_id: str
    kind: str  # send | confirm | pick

    @classmethod
    def of(cls, record: TurnRecord | None) -> RunningTurn | None:
        return cls(turn_id=str(record.turn_id), kind=record.kind) if record is not None else None


class ConversationDetail(Struct, rename="camel"):
    id: str
    title: str | None
    created_at: str
    updated_at: str
    messages: list[ConversationMessage]
    running_turn: RunningTurn | None = None
    channel: str = "console"  # console | mcp: an assistant's calls over MCP (no composer: chat elsewhere)


def _iso(value: datetime) -> str:
    return value.isoformat()


async def list_conversations(session: AsyncSession, owner: conversations.Owner) -> ConversationList:
    rows = await conversations.list_for_user(session, owner)
    return ConversationList(items=[ConversationSummary(id=str(c.id), title=c.title, created_at=_iso(c.created_at),
                                                       updated_at=_iso(c.updated_at), channel=c.channel)
                                   for c in rows])


def _tool_call(row: executions.ToolExecution, registry: ToolRegistry, role: str,
               names: dict[uuid.UUID, str] | None = None) -> ToolCall:
    spec = registry.lookup(row.router, row.action)
    ran_at = row.resolved_at or row.created_at
    undoable = row.undone_by is None and can_undo(registry, spec, role, succeeded=row.status == "succeeded",
                                                  ran_at=ran_at, now=datetime.now(UTC))
    call = ToolCall(
        tool_use_id=row.tool_use_id, router=row.router, action=row.action, status=row.status, input=row.input,
        output={k: v for k, v in (row.output or {}).items() if k != "_editedInput"} if row.output is not None else None,
        error=row.error, confirm=row.confirm, kind=row.kind, duration_ms=row.duration_ms,
        undone=row.undone_by is not None, inverse_available=undoable)
    until = undo_until(ran_at) if undoable else None
    if until is not None:
        call.undo_until = _iso(until)
    if row.confirm != "never" and row.status not in ("pending", "running", "superseded", "expired"):
        # a decided confirmation says who decided and when ("Approved by Maya · 14:02")
        resolved_by = (names or {}).get(row.actor_user_id) if row.actor_user_id else None
        if resolved_by is not None:
            call.resolved_by = resolved_by
        if row.resolved_at is not None:
            call.resolved_at = _iso(row.resolved_at)
    if row.kind == "user_picker":
        call.prompt = (row.input or {}).get("prompt")
        call.candidates = (row.input or {}).get("candidates", [])
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
                              running: TurnRecord | None = None) -> ConversationDetail:
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
    by_message: dict[uuid.UUID | None, list[ToolCall]] = {}
    found = await executions.for_conversation(session, conversation_id)
    names = await _user_names(session, {e.actor_user_id for e in found if e.actor_user_id and e.confirm != "never"})
    for execution in found:
        call = _tool_call(execution, registry, role, names)
        spec = registry.lookup(execution.router, execution.action)
        if execution.status == "pending" and execution.kind != "user_picker" and spec is not None:
            call.input_schema = spec.input_schema()
            said = await describe(spec, execution.input or {}) if describe is not None else None
            summary = events.described(said).get("summary")
            if summary is not None:
                call.summary = summary
        by_message.setdefault(execution.message_id, []).append(call)
    forks = await branches.alternatives(session, conversation_id, rows)
    messages: list[ConversationMessage] = []
    for row in rows:
        if row.role == "user" and not _opens_turn(row):
            continue  # tool results are shown on their tool calls
        if row.role == "system_note":
            messages.append(ConversationMessage(id=str(row.id), role="system_note", text=user_text(row.content),
                                                tool_calls=[], created_at=_iso(row.created_at)))
            continue
        text = user_text(row.content) if row.role == "user" else "".join(
            b.get("text", "") for b in row.content if b.get("type") == "text")
        message = ConversationMessage(id=str(row.id), role=row.role, text=text, stop_reason=row.stop_reason,
                                      tool_calls=by_message.get(row.id, []), created_at=_iso(row.created_at))
        if row.id in forks:  # Regenerate / Edit kept what they replaced: the console flips between them
            message.alternatives, message.regenerated = forks[row.id]
        messages.append(message)
    return ConversationDetail(id=str(conversation.id), title=conversation.title,
                              created_at=_iso(conversation.created_at), updated_at=_iso(conversation.updated_at),
                              channel=conversation.channel, messages=messages, running_turn=RunningTurn.of(running))


def _opens_turn(row: conversations.Message) -> bool:
    """A person's message (not a message carrying tool results)."""
    return row.role == "user" and not all(b.get("type") == "tool_result" for b in row.content)
