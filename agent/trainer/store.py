"""The trainer's session store: `trainer_sessions` and the append-only `trainer_events` (TRAINER.md "The loop").

A session shares its id with a `conversations` row (the engine's tool executions hang off it). Events are only
ever inserted: `seq` is the next number of the session, and an insert that loses a race on
`UNIQUE(session_id, seq)` is retried with the next one inside a savepoint. Sessions idle for 24 h are closed
(status `expired`) when the member's latest session is looked up.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from sqlalchemy import (
    BigInteger,
    ForeignKey,
    Insert,
    Integer,
    String,
    Table,
    UniqueConstraint,
    Update,
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from agent import conversations
from core.database import Base, rowcount
from core.errors import NotFound
from core.mixins import CreatedAt, OrgRow, OrgScoped
from core.row_inserts import Row, binds
from tools.storable import storable

PERSONA = "trainer"  # the persona its threads record (agent/trainer/persona.py's name)
SESSION_IDLE = timedelta(hours=24)
CONTEXT_TYPES = frozenset({"user_message", "tool_call", "tool_result", "knowledge", "knowledge_update", "workout",
                           "checkpoint"})
OBSERVABILITY_TYPES = frozenset({"llm_request", "llm_response", "error"})
EVENT_TYPES = CONTEXT_TYPES | OBSERVABILITY_TYPES
MAX_INSERT_ATTEMPTS = 25


class TrainerSession(OrgScoped, CreatedAt, Base):
    __tablename__ = "trainer_sessions"

    # its conversation's id (no default of its own: not UUIDPrimaryKey's)
    id: Mapped[uuid.UUID] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"), primary_key=True,
                                          sort_order=-10)
    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(12), default="active")
    title: Mapped[str | None] = mapped_column(String(200))
    knowledge_in_context: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    current_workout_key: Mapped[str | None] = mapped_column(String(20))
    total_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    cached_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    cost_usd_micros: Mapped[int] = mapped_column(BigInteger, default=0)
    last_activity_at: Mapped[datetime] = mapped_column(server_default=func.now())


class TrainerEvent(OrgRow, CreatedAt, Base):
    __tablename__ = "trainer_events"
    __table_args__ = (UniqueConstraint("session_id", "seq", name="uq_trainer_events_seq"),)

    session_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("trainer_sessions.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)


@dataclass(frozen=True)
class Event:
    """One stored event as the context builder reads it."""

    seq: int
    type: str
    payload: dict[str, Any]


async def create_session(session: AsyncSession, *, org_id: uuid.UUID, member_id: uuid.UUID, user_id: uuid.UUID,
                         now: datetime, session_id: uuid.UUID | None = None) -> TrainerSession:
    """A new active session (and the conversation row that shares its id, recording the trainer persona)."""
    conversation = await conversations.create(session, org_id, user_id, session_id, persona=PERSONA)
    row = TrainerSession(id=conversation.id, org_id=org_id, member_id=member_id, user_id=user_id, status="active",
                         knowledge_in_context={}, total_tokens=0, cached_tokens=0, cost_usd_micros=0,
                         created_at=now, last_activity_at=now)
    session.add(row)
    await session.flush()
    return row


# The seq of a session's last event, correlated to the conversation row that shares the session's id.
LAST_EVENT_SEQ = (select(func.coalesce(func.max(TrainerEvent.seq), 0))
                  .where(TrainerEvent.session_id == conversations.Conversation.id).scalar_subquery())


async def last_seq(session: AsyncSession, session_id: uuid.UUID) -> int:
    """The seq of the session's last event (0: none yet)."""
    return int(await session.scalar(select(func.coalesce(func.max(TrainerEvent.seq), 0))
                                     .where(TrainerEvent.session_id == session_id)) or 0)


# The member's sessions whose thread is the owner's, of the trainer persona (agent.conversations.OWNED's params).
_MEMBERS = (select(TrainerSession).join(conversations.Conversation, conversations.Conversation.id == TrainerSession.id)
            .where(TrainerSession.member_id == bindparam("member_id"), conversations.OWNED))
_OWNED = _MEMBERS.where(TrainerSession.id == bindparam("id"))


async def get_owned(session: AsyncSession, owner: conversations.Owner, member_id: uuid.UUID,
                    session_id: uuid.UUID) -> TrainerSession | None:
    """The session if it is this member's and its thread the owner's, of the trainer persona (the one rule:
    agent.conversations.OWNED); anyone or anything else: None → 404 session_not_found."""
    return await session.scalar(_OWNED, {"id": session_id, "member_id": member_id, **owner.params()})


async def require_owned(session: AsyncSession, owner: conversations.Owner, member_id: uuid.UUID,
                        session_id: uuid.UUID) -> TrainerSession:
    """The member's session, or 404 session_not_found."""
    row = await get_owned(session, owner, member_id, session_id)
    if row is None:
        raise NotFound("session_not_found")
    return row


async def expire_idle(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, now: datetime) -> int:
    """Close the member's active sessions idle for 24 h or more."""
    result = await session.execute(update(TrainerSession).where(
        TrainerSession.org_id == org_id, TrainerSession.member_id == member_id, TrainerSession.status == "active",
        TrainerSession.last_activity_at <= now - SESSION_IDLE).values(status="expired"))
    return rowcount(result)


async def latest_active(session: AsyncSession, owner: conversations.Owner, member_id: uuid.UUID,
                        now: datetime) -> TrainerSession | None:
    """The session a send without `sessionId` continues (000 §7.6): the owner's newest active one, after expiry."""
    await expire_idle(session, owner.org_id, member_id, now)
    return await session.scalar(
        _MEMBERS.where(TrainerSession.status == "active").order_by(TrainerSession.last_activity_at.desc()).limit(1),
        {"member_id": member_id, **owner.params()})


async def list_sessions(session: AsyncSession, owner: conversations.Owner, member_id: uuid.UUID, *,
                        limit: int = 10) -> list[TrainerSession]:
    rows = await session.scalars(
        _MEMBERS.order_by(TrainerSession.last_activity_at.desc(), TrainerSession.created_at.desc()).limit(limit),
        {"member_id": member_id, **owner.params()})
    return list(rows)


async def complete(session: AsyncSession, row: TrainerSession) -> None:
    row.status = "completed"
    await session.flush()


async def touch(session: AsyncSession, row: TrainerSession, now: datetime, *, title: str | None = None) -> None:
    row.last_activity_at = now
    if title and not row.title:
        row.title = title[:200]
    await session.flush()


async def add_costs(session: AsyncSession, session_id: uuid.UUID, *, tokens: int, cached: int, cost: int) -> None:
    """Add one model call's usage to the session totals (an UPDATE, so concurrent bookings never lose one)."""
    await session.execute(update(TrainerSession).where(TrainerSession.id == session_id).values(
        total_tokens=TrainerSession.total_tokens + tokens, cached_tokens=TrainerSession.cached_tokens + cached,
        cost_usd_micros=TrainerSession.cost_usd_micros + cost))


async def set_knowledge(session: AsyncSession, row: TrainerSession, knowledge: dict[str, Any]) -> None:
    row.knowledge_in_context = dict(knowledge)
    await session.flush()


async def append(session: AsyncSession, *, org_id: uuid.UUID, session_id: uuid.UUID, type: str,
                 payload: dict[str, Any]) -> int:
    """Insert one event with the session's next seq; a lost race on the unique seq is retried. Returns the seq."""
    if type not in EVENT_TYPES:
        raise ValueError(f"unknown trainer event type {type!r}")
    for _ in range(MAX_INSERT_ATTEMPTS):
        seq = (await session.scalar(select(func.max(TrainerEvent.seq)).where(
            TrainerEvent.session_id == session_id)) or 0) + 1
        try:
            async with session.begin_nested():
                session.add(TrainerEvent(org_id=org_id, session_id=session_id, seq=seq, type=type,
                                         payload=storable(payload)))
                await session.flush()
            return seq
        except IntegrityError:
            continue
    raise RuntimeError("trainer event seq contention")


def _event_insert(prefix: str, ordinal: int) -> Insert:
    """One event of a round trip's statement: its seq is the session's next after every event the statement
    sees (the snapshot before it) plus its place among the statement's events (`ordinal`)."""
    table = TrainerEvent.__table__
    next_seq = (select(func.coalesce(func.max(table.c.seq), 0) + (ordinal + 1))
                .where(table.c.session_id == bindparam(prefix + "session_id")).scalar_subquery())
    columns = ("id", "org_id", "session_id", "type", "payload", "created_at")
    return insert(table).values({**binds(table, prefix, columns), "seq": next_seq})  # type: ignore[arg-type]


def event_row(*, org_id: uuid.UUID, session_id: uuid.UUID, type: str, payload: dict[str, Any]) -> Row:
    """An event as a row of a round trip (agent.round_trip), numbered when the statement runs."""
    if type not in EVENT_TYPES:
        raise ValueError(f"unknown trainer event type {type!r}")
    return Row(_event_insert, {"id": uuid.uuid4(), "org_id": org_id, "session_id": session_id, "type": type,
                               "payload": storable(payload), "created_at": datetime.now(UTC)})


def _add_costs(prefix: str, ordinal: int) -> Update:
    table: Table = TrainerSession.__table__  # type: ignore[assignment]
    return (update(table).where(table.c.id == bindparam(prefix + "session_id"))
            .values(total_tokens=table.c.total_tokens + bindparam(prefix + "tokens", type_=BigInteger()),
                    cached_tokens=table.c.cached_tokens + bindparam(prefix + "cached", type_=BigInteger()),
                    cost_usd_micros=table.c.cost_usd_micros + bindparam(prefix + "cost", type_=BigInteger())))


def costs_row(session_id: uuid.UUID, *, tokens: int, cached: int, cost: int) -> Row:
    """One model call's usage added to the session totals, as a row of a round trip (an UPDATE that adds,
    so concurrent bookings never lose one)."""
    return Row(_add_costs, {"session_id": session_id, "tokens": tokens, "cached": cached, "cost": cost})


async def events(session: AsyncSession, session_id: uuid.UUID, *, context_only: bool = False,
                 since_checkpoint: bool = False) -> list[Event]:
    """The session's events in order (only those that enter the context; only from the last checkpoint on)."""
    query = select(TrainerEvent).where(TrainerEvent.session_id == session_id)
    if context_only:
        query = query.where(TrainerEvent.type.in_(CONTEXT_TYPES))
    if since_checkpoint:
        last = await session.scalar(select(func.max(TrainerEvent.seq)).where(
            TrainerEvent.session_id == session_id, TrainerEvent.type == "checkpoint"))
        if last is not None:
            query = query.where(TrainerEvent.seq >= last)
    rows = await session.scalars(query.order_by(TrainerEvent.seq))
    return [Event(seq=r.seq, type=r.type, payload=dict(r.payload)) for r in rows]


class TrainerSessionBody(msgspec.Struct, rename="camel"):
    """A trainer session as its member sees it (camelCase on the wire)."""

    id: str
    status: str
    title: str | None
    knowledge_in_context: list[str]
    current_workout_id: str | None
    total_tokens: int
    cached_tokens: int
    cost_usd_micros: int
    created_at: str
    last_activity_at: str


def session_body(row: TrainerSession) -> TrainerSessionBody:
    return TrainerSessionBody(id=str(row.id), status=row.status, title=row.title,
                       knowledge_in_context=sorted(row.knowledge_in_context),
                       current_workout_id=row.current_workout_key, total_tokens=row.total_tokens,
                       cached_tokens=row.cached_tokens, cost_usd_micros=row.cost_usd_micros,
                       created_at=row.created_at.isoformat(), last_activity_at=row.last_activity_at.isoformat())
