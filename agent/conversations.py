"""The conversation store: conversations, their messages (Anthropic content blocks), and replay reads.

A conversation records the persona it belongs to (`staff_copilot`, `trainer`: a trainer session shares its id
with one) and its owner; `OWNED` is the one rule every lookup of a thread applies (list, detail, send, confirm,
pick, undo), so a staff endpoint never reaches a member's trainer session, nor the reverse.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ForeignKey,
    Insert,
    String,
    UniqueConstraint,
    Update,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core import row_inserts
from core.database import Base
from core.mixins import CreatedAt, OrgRow
from core.row_inserts import Row, binds
from tools.storable import storable

STAFF_PERSONA = "staff_copilot"  # agent/copilot.py's name; the column's default (the MCP's conversations too)
CONSOLE_CHANNEL, MCP_CHANNEL = "console", "mcp"  # where a conversation came from (migration 0028)


class Conversation(OrgRow, CreatedAt, Base):
    __tablename__ = "conversations"

    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    title: Mapped[str | None] = mapped_column(String(200))
    persona: Mapped[str] = mapped_column(String(20), server_default=STAFF_PERSONA)
    channel: Mapped[str] = mapped_column(String(20), server_default=CONSOLE_CHANNEL)
    # no `onupdate` (unlike Timestamps'): only what a person says moves it (`append`'s touch), a title does not
    updated_at: Mapped[datetime] = mapped_column(server_default=func.now(), sort_order=11)


class Message(OrgRow, CreatedAt, Base):
    __tablename__ = "conversation_messages"
    __table_args__ = (UniqueConstraint("conversation_id", "seq", name="uq_conversation_messages_seq"),)

    conversation_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    seq: Mapped[int]
    role: Mapped[str] = mapped_column(String(20))
    content: Mapped[list[dict[str, Any]]] = mapped_column(JSONB(none_as_null=True))
    page_context: Mapped[dict[str, Any] | None] = mapped_column(JSONB(none_as_null=True))
    stop_reason: Mapped[str | None] = mapped_column(String(40))
    usage: Mapped[dict[str, Any] | None] = mapped_column(JSONB(none_as_null=True))
    fork_of: Mapped[uuid.UUID | None]  # a user message written in place of another: its slot (agent/branches.py)
    hidden_by: Mapped[uuid.UUID | None]  # a replaced alternative's row: the user message it starts from


ACTIVE = Message.hidden_by.is_(None)
"""On the path the model and the console read (not a replaced alternative)."""


async def create(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID,
                 conversation_id: uuid.UUID | None = None, title: str | None = None, *,
                 persona: str = STAFF_PERSONA, channel: str = CONSOLE_CHANNEL) -> Conversation:
    conversation = Conversation(id=conversation_id or uuid.uuid4(), org_id=org_id, user_id=user_id,
                                title=title[:200] if title else None, persona=persona, channel=channel)
    session.add(conversation)
    await session.flush()
    return conversation


def _conversation_insert() -> Insert:
    return insert(Conversation.__table__).values(  # type: ignore[arg-type]
        binds(Conversation.__table__, "c_", ("id", "org_id", "user_id", "title", "persona")))  # type: ignore[arg-type]


async def start(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID, conversation_id: uuid.UUID, *,
                title: str | None, content: list[dict[str, Any]], page_context: dict | None = None,
                persona: str = STAFF_PERSONA) -> Conversation:
    """A new conversation and its first (user) message, in one statement."""
    conversation = Conversation(id=conversation_id, org_id=org_id, user_id=user_id,
                                title=title[:200] if title else None, persona=persona)
    first = message_row(conversation, "user", content, message_id=uuid.uuid4(), page_context=page_context)
    stmt, params = row_inserts.statements.get([first], main=("conversations", _conversation_insert))
    params.update({"c_id": conversation.id, "c_org_id": org_id, "c_user_id": user_id, "c_title": conversation.title,
                   "c_persona": persona})
    await session.execute(stmt, params)
    return conversation


# The one ownership rule of a thread, with bind parameters `org_id`, `user_id`, `persona` (`Owner.params`).
OWNED = ((Conversation.org_id == bindparam("org_id")) & (Conversation.user_id == bindparam("user_id"))
         & (Conversation.persona == bindparam("persona")))


@dataclass(frozen=True)
class Owner:
    """Whose threads a lookup may see: this user's, in this org, of this persona."""

    org_id: uuid.UUID
    user_id: uuid.UUID
    persona: str

    def params(self) -> dict[str, Any]:
        return {"org_id": self.org_id, "user_id": self.user_id, "persona": self.persona}


# Built once (bind parameters): the turn path reads them on every send, confirm and pick.
_OWNED = select(Conversation).where(Conversation.id == bindparam("id"), OWNED)
_ANCHOR = (select(func.max(Message.seq)).where(Message.conversation_id == bindparam("conversation_id"),
                                               Message.role == "system_note", ACTIVE).scalar_subquery())
_SINCE_ANCHOR = (select(Message).where(Message.conversation_id == bindparam("conversation_id"), ACTIVE,
                                       Message.seq >= func.coalesce(_ANCHOR, 0)).order_by(Message.seq))


async def get_owned(session: AsyncSession, owner: Owner, conversation_id: uuid.UUID) -> Conversation | None:
    """The thread if it is the owner's, of the owner's persona (anyone or anything else: None → 404)."""
    return await session.scalar(_OWNED, {"id": conversation_id, **owner.params()})


# The seq of a conversation's last message, read along with the conversation (a turn starting now begins after it).
LAST_SEQ = (select(func.coalesce(func.max(Message.seq), 0)).where(Message.conversation_id == Conversation.id)
            .scalar_subquery())
_OWNED_AT = select(Conversation, LAST_SEQ).where(Conversation.id == bindparam("id"), OWNED)


async def get_owned_at(session: AsyncSession, owner: Owner, conversation_id: uuid.UUID,
                       ) -> tuple[Conversation | None, int]:
    """`get_owned`, with the seq of the conversation's last message, in one statement."""
    found = (await session.execute(_OWNED_AT, {"id": conversation_id, **owner.params()})).first()
    return (found[0], int(found[1])) if found is not None else (None, 0)


async def append(session: AsyncSession, conversation: Conversation, role: str, content: list[dict[str, Any]], *,
                 page_context: dict | None = None, stop_reason: str | None = None, usage: dict | None = None,
                 message_id: uuid.UUID | None = None, touch: bool = True) -> uuid.UUID:
    """Append a message at the next seq (the turn lock serializes writers of one conversation). A user message
    a person said moves the conversation up the list; tool results, and the first message of a conversation
    created in the same transaction (its updated_at is already now), pass `touch=False`."""
    message_id = message_id or uuid.uuid4()
    await session.execute(*row_inserts.statements.get([message_row(
        conversation, role, content, page_context=page_context, stop_reason=stop_reason, usage=usage,
        message_id=message_id)]))
    if role == "user" and touch:  # the list is ordered by the last thing a person said
        await session.execute(update(Conversation).where(Conversation.id == conversation.id)
                              .values(updated_at=func.now()))
    return message_id


_MESSAGE_COLUMNS = ("id", "org_id", "conversation_id", "role", "content", "page_context", "stop_reason", "usage",
                    "fork_of")


def _message_insert(prefix: str, ordinal: int) -> Insert:
    """The INSERT of a message at the next seq; the `ordinal`-th message of one statement takes the seq after
    the earlier ones (every CTE of a statement reads the same snapshot)."""
    table = Message.__table__
    values: dict[str, Any] = dict(binds(table, prefix, _MESSAGE_COLUMNS))  # type: ignore[arg-type]
    values["seq"] = (select(func.coalesce(func.max(table.c.seq), 0) + 1 + ordinal)
                     .where(table.c.conversation_id == values["conversation_id"]).scalar_subquery())
    return insert(table).values(values)  # type: ignore[arg-type]


def message_row(conversation: Conversation, role: str, content: list[dict[str, Any]], *,
                message_id: uuid.UUID, page_context: dict | None = None, stop_reason: str | None = None,
                usage: dict | None = None, fork_of: uuid.UUID | None = None) -> Row:
    """A message at the next seq, for a caller that sends it itself (with other rows: core.row_inserts)."""
    return Row(_message_insert, {"id": message_id, "org_id": conversation.org_id, "conversation_id": conversation.id,
                                 "role": role, "content": storable(content), "page_context": page_context,
                                 "stop_reason": stop_reason, "usage": usage, "fork_of": fork_of})


async def store_tool_results(session: AsyncSession, conversation_id: uuid.UUID, results: list[dict[str, Any]]) -> int:
    """Put each tool_result first in the user message that follows the assistant message that asked for it
    (a replay repair made permanent); returns how many were stored."""
    stored = 0
    for block in reversed(results):  # each goes first, so the last one in goes in first
        asked = await session.scalar(select(Message.seq).where(
            Message.conversation_id == conversation_id, Message.role == "assistant", ACTIVE,
            Message.content.contains([{"type": "tool_use", "id": block["tool_use_id"]}])).limit(1))
        if asked is None:
            continue
        row = (await session.execute(select(Message.id, Message.content).where(
            Message.conversation_id == conversation_id, Message.role == "user", ACTIVE, Message.seq > asked)
            .order_by(Message.seq).limit(1))).first()
        if row is None:
            continue
        rest = [b for b in row.content if not (b.get("type") == "tool_result"
                                               and b.get("tool_use_id") == block["tool_use_id"])]
        await session.execute(update(Message).where(Message.id == row.id).values(content=[block, *rest]))
        stored += 1
    return stored


async def messages_since_anchor(session: AsyncSession, conversation_id: uuid.UUID) -> list[Message]:
    """Messages from the latest system_note (compaction anchor) forward, or all of them."""
    return list((await session.scalars(_SINCE_ANCHOR, {"conversation_id": conversation_id})).all())


def _touch(prefix: str, ordinal: int) -> Update:
    return (update(Conversation).where(Conversation.id == bindparam(prefix + "conversation_id"))
            .values(updated_at=func.now()))


async def append_and_read(session: AsyncSession, conversation: Conversation, role: str, content: list[dict[str, Any]],
                          *, page_context: dict | None = None, touch: bool = False,
                          fork_of: uuid.UUID | None = None) -> list[Message]:
    """`append` then `messages_since_anchor`, as one statement: the message (and, with `touch`, the
    conversation's updated_at) ride as data-modifying CTEs of the read. The read sees the snapshot from before
    them, so the new message is added to what it returns as it was written (its seq: the last one's + 1; the
    turn lock serializes writers, and the anchor's messages run to the conversation's highest seq)."""
    message_id = uuid.uuid4()
    rows = [message_row(conversation, role, content, message_id=message_id, page_context=page_context,
                        fork_of=fork_of)]
    if touch:
        rows.append(Row(_touch, {"conversation_id": conversation.id}))
    stmt, params = row_inserts.statements.get(rows, main=("since_anchor", lambda: _SINCE_ANCHOR))
    history = list((await session.scalars(stmt, {**params, "conversation_id": conversation.id})).all())
    written = rows[0].values
    history.append(Message(id=message_id, org_id=conversation.org_id, conversation_id=conversation.id,
                           seq=history[-1].seq + 1 if history else 1, role=role, content=written["content"],
                           page_context=page_context, fork_of=fork_of))
    return history


def to_model_messages(rows: list[Message]) -> list[dict[str, Any]]:
    """Stored rows → Messages API history. A system_note (summary) leads the first user message."""
    messages: list[dict[str, Any]] = []
    carry: list[dict[str, Any]] = []
    for row in rows:
        if row.role == "system_note":
            summary = "".join(b.get("text", "") for b in row.content if b.get("type") == "text")
            carry = [{"type": "text", "text": f"<conversation_summary>\n{summary}\n</conversation_summary>"}]
            continue
        content = list(row.content)
        if carry and row.role == "user":
            results = [b for b in content if b.get("type") == "tool_result"]
            rest = [b for b in content if b.get("type") != "tool_result"]
            content, carry = results + carry + rest, []
        if messages and messages[-1]["role"] == row.role == "user":
            # e.g. the tool results of a loop that hit its round-trip limit, then the next user turn
            messages[-1] = {"role": "user", "content": list(messages[-1]["content"]) + content}
        else:
            messages.append({"role": row.role, "content": content})
    if carry:
        messages.append({"role": "user", "content": carry})
    return messages


async def all_messages(session: AsyncSession, conversation_id: uuid.UUID) -> list[Message]:
    """The messages on the conversation's path (replaced alternatives left out), in order."""
    rows = await session.scalars(select(Message).where(Message.conversation_id == conversation_id, ACTIVE)
                                 .order_by(Message.seq))
    return list(rows.all())


async def list_for_user(session: AsyncSession, owner: Owner, limit: int = 50) -> list[Conversation]:
    rows = await session.scalars(select(Conversation).where(OWNED)
                                 .order_by(Conversation.updated_at.desc(), Conversation.created_at.desc())
                                 .limit(limit), owner.params())
    return list(rows.all())


async def set_title(session: AsyncSession, conversation_id: uuid.UUID, title: str) -> None:
    await session.execute(update(Conversation).where(Conversation.id == conversation_id,
                                                     Conversation.title.is_(None)).values(title=title[:200]))


async def rename(session: AsyncSession, conversation: Conversation, title: str) -> Conversation:
    """A title the person chose (replaces the one taken from the first message)."""
    conversation.title = " ".join(title.split())[:200]
    await session.flush()
    return conversation


async def remove(session: AsyncSession, conversation: Conversation) -> None:
    """Delete a conversation; its messages and tool executions go with it (ON DELETE CASCADE)."""
    await session.execute(delete(Conversation).where(Conversation.id == conversation.id))
