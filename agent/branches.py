"""Alternatives in a staff conversation: Regenerate and Edit replace a user message and what followed it, and keep
the replaced rows so the person can flip back.

A *slot* is a place in the conversation where the person said something: its first user message and every user
message written in its place (`fork_of` = that first message's id). Exactly one alternative of a slot on the
conversation's path is shown; the rows of every other one carry `hidden_by` = the user message their alternative
starts from. Replacing message M hides M and every row after it on the path under M's id; showing alternative Y
hides the slot's shown alternative Z (from Z on) under Z's id and shows what was hidden under Y's id — the choices
made further down inside Y come back with it. Everything the model and the console read filters on
`hidden_by IS NULL` (agent/conversations.py), so a hidden alternative is never sent to the model again.

What was summarized (a compaction note on the path) cannot be replaced: its words live on in the summary.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from agent.conversations import ACTIVE, Message
from agent.request import user_text
from core.errors import Conflict, NotFound

NOT_REPLACEABLE = "message_not_replaceable"


@dataclass(frozen=True)
class Place:
    """A user message on the path: its id, seq and slot."""

    id: uuid.UUID
    seq: int
    slot: uuid.UUID


def _said(content: list[dict[str, Any]]) -> bool:
    """A message a person wrote (not only tool results carried back to the model)."""
    return bool(user_text(content or []).strip())


async def _summarized_through(session: AsyncSession, conversation_id: uuid.UUID) -> int:
    """The seq of the latest compaction note on the path (0: none): nothing at or before it may change."""
    return await session.scalar(select(func.coalesce(func.max(Message.seq), 0)).where(
        Message.conversation_id == conversation_id, Message.role == "system_note", ACTIVE)) or 0


async def replaceable(session: AsyncSession, conversation_id: uuid.UUID, message_id: uuid.UUID) -> Place:
    """The user message a new one may replace: on the path and after the latest summary. Else 404
    `message_not_found` (not in this conversation) or 409 `message_not_replaceable`."""
    row = (await session.execute(select(Message.id, Message.seq, Message.role, Message.content, Message.fork_of,
                                        Message.hidden_by).where(Message.conversation_id == conversation_id,
                                                                 Message.id == message_id))).first()
    if row is None:
        raise NotFound("message_not_found")
    if row.role != "user" or not _said(row.content) or row.hidden_by is not None \
            or row.seq <= await _summarized_through(session, conversation_id):
        raise Conflict(NOT_REPLACEABLE)
    return Place(row.id, row.seq, row.fork_of or row.id)


async def _hide_from(session: AsyncSession, conversation_id: uuid.UUID, place: Place) -> None:
    await session.execute(update(Message).where(Message.conversation_id == conversation_id, ACTIVE,
                                                Message.seq >= place.seq).values(hidden_by=place.id)
                          .execution_options(synchronize_session=False))


async def fork(session: AsyncSession, conversation_id: uuid.UUID, message_id: uuid.UUID) -> uuid.UUID:
    """Hide `message_id` and everything after it on the path; returns the slot the message written in its place
    belongs to (its `fork_of`). Runs under the conversation's turn lock, in the turn's first transaction."""
    place = await replaceable(session, conversation_id, message_id)
    await _hide_from(session, conversation_id, place)
    return place.slot


async def show(session: AsyncSession, conversation_id: uuid.UUID, message_id: uuid.UUID) -> None:
    """Show the alternative that starts at user message `message_id` in place of its slot's shown one."""
    target = (await session.execute(select(Message.id, Message.fork_of, Message.hidden_by).where(
        Message.conversation_id == conversation_id, Message.id == message_id, Message.role == "user"))).first()
    if target is None:
        raise NotFound("message_not_found")
    if target.hidden_by is None:
        return  # shown already
    slot = target.fork_of or target.id
    shown = (await session.execute(select(Message.id, Message.seq).where(
        Message.conversation_id == conversation_id, ACTIVE, Message.role == "user",
        or_(Message.id == slot, Message.fork_of == slot)))).first()
    if target.hidden_by != target.id or shown is None \
            or shown.seq <= await _summarized_through(session, conversation_id):
        raise Conflict(NOT_REPLACEABLE)  # hidden under another choice, or behind a summary
    await _hide_from(session, conversation_id, Place(shown.id, shown.seq, slot))
    await session.execute(update(Message).where(Message.conversation_id == conversation_id,
                                                Message.hidden_by == target.id).values(hidden_by=None)
                          .execution_options(synchronize_session=False))


async def alternatives(session: AsyncSession, conversation_id: uuid.UUID,
                       shown: list[Message]) -> dict[uuid.UUID, tuple[list[str], bool]]:
    """For each shown user message whose slot has several alternatives: their ids in the order they were
    written, and whether they all say the same words (a regenerated answer rather than an edited message)."""
    slots = {row.fork_of or row.id: row.id for row in shown if row.role == "user"}
    if not slots:
        return {}
    rows = (await session.execute(select(Message.id, Message.fork_of, Message.content).where(
        Message.conversation_id == conversation_id, Message.role == "user",
        or_(Message.id.in_(list(slots)), Message.fork_of.in_(list(slots)))).order_by(Message.seq))).all()
    grouped: dict[uuid.UUID, list[Any]] = {}
    for row in rows:
        grouped.setdefault(row.fork_of or row.id, []).append(row)
    out: dict[uuid.UUID, tuple[list[str], bool]] = {}
    for slot, members in grouped.items():
        if len(members) > 1 and slot in slots:
            words = {user_text(m.content).strip() for m in members}
            out[slots[slot]] = ([str(m.id) for m in members], len(words) == 1)
    return out



async def show_alternative(orchestrator: Any, org_id: uuid.UUID, user_id: uuid.UUID, conversation_id: uuid.UUID,
                           message_id: uuid.UUID) -> None:
    """`show` in a transaction of its own under the conversation's turn lock (a turn running: 409
    `conversation_busy`), committed before the lock is let go. `orchestrator`: agent.orchestrator.Orchestrator."""
    lock = await orchestrator.take_lock(conversation_id)
    try:
        async with orchestrator.db.scope(org_id=org_id, user_id=user_id) as session:
            await show(session, conversation_id, message_id)
    finally:
        await lock.release()
