"""The `ai_tool_executions` store: one row per tool use, its status, and the atomic claims on it.

Status: pending → running → succeeded | failed; pending → rejected_by_user | superseded | expired.
Claims are single UPDATE ... WHERE status = 'pending' RETURNING statements, so two processes racing to
resolve the same tool use cannot both win.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ForeignKey,
    Insert,
    String,
    Table,
    UniqueConstraint,
    and_,
    bindparam,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core import row_inserts
from core.database import Base, rowcount
from core.mixins import CreatedAt, OrgRow
from core.row_inserts import Row, binds
from tools.storable import storable

TERMINAL = frozenset({"succeeded", "failed", "rejected_by_user", "superseded", "expired"})


class ToolExecution(OrgRow, CreatedAt, Base):
    __tablename__ = "ai_tool_executions"
    __table_args__ = (
        UniqueConstraint("conversation_id", "tool_use_id", name="uq_ai_tool_executions_tool_use"),
    )

    conversation_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    message_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("conversation_messages.id", ondelete="CASCADE"))
    tool_use_id: Mapped[str] = mapped_column(String(100))
    position: Mapped[int] = mapped_column(default=0)
    router: Mapped[str] = mapped_column(String(60))
    action: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(20), default="normal")
    confirm: Mapped[str] = mapped_column(String(20), default="never")
    input: Mapped[dict[str, Any]] = mapped_column(JSONB(none_as_null=True), default=dict)
    output: Mapped[dict[str, Any] | None] = mapped_column(JSONB(none_as_null=True))
    error: Mapped[dict[str, Any] | None] = mapped_column(JSONB(none_as_null=True))
    status: Mapped[str] = mapped_column(String(20))
    actor_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    audit_log_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("audit_logs.id", ondelete="SET NULL"))
    undone_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("ai_tool_executions.id", ondelete="SET NULL"))
    undoes: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("ai_tool_executions.id", ondelete="SET NULL"))
    duration_ms: Mapped[int | None]
    resolved_at: Mapped[datetime | None]
    trace_parent: Mapped[str | None] = mapped_column(String(55))  # the suspending turn's span (traceparent)


async def record(session: AsyncSession, *, along: Sequence[Row] = (), **values: Any) -> uuid.UUID:
    """Insert an execution row (values are ToolExecution columns), after the rows `along` it (its audit row);
    returns its id."""
    row = execution_row(values)
    for other in along:
        await session.execute(*row_inserts.statements.get([other]))
    await session.execute(*row_inserts.statements.get([row]))
    return row.values["id"]


_ROW_COLUMNS = ("id", "org_id", "conversation_id", "message_id", "tool_use_id", "position", "router", "action", "kind",
                "confirm", "input", "output", "error", "status", "actor_user_id", "audit_log_id", "duration_ms",
                "resolved_at", "undoes", "trace_parent")
_ROW_DEFAULTS = {"message_id": None, "position": 0, "kind": "normal", "confirm": "never", "output": None,
                 "error": None, "actor_user_id": None, "audit_log_id": None, "undoes": None, "duration_ms": None,
                 "resolved_at": None, "trace_parent": None}


def _execution_insert(prefix: str, ordinal: int) -> Insert:
    return insert(ToolExecution.__table__).values(binds(ToolExecution.__table__, prefix, _ROW_COLUMNS))  # type: ignore[arg-type]


def execution_row(values: dict[str, Any]) -> Row:
    """One execution row (ToolExecution columns; its input storable: a NUL the model sent is stored
    replaced) for a caller that sends it itself, alone or with other rows (core.row_inserts)."""
    unknown = values.keys() - set(_ROW_COLUMNS)
    if unknown:  # the template binds these columns only: anything else would be dropped silently
        raise ValueError(f"not execution row columns: {sorted(unknown)}")
    return Row(_execution_insert, {**_ROW_DEFAULTS, **values, "id": values.get("id") or uuid.uuid4(),
                                   "input": storable(values.get("input") or {})})


# Built once (bind parameters): confirm, pick and resume read them on every answer. The updates below are Core
# statements, which leave rows already loaded in a session as they were: these reads refresh them.
_BY_TOOL_USE = (select(ToolExecution).where(ToolExecution.conversation_id == bindparam("conversation_id"),
                                            ToolExecution.tool_use_id == bindparam("tool_use_id"))
                .execution_options(populate_existing=True))
_OF_MESSAGE = (select(ToolExecution).where(ToolExecution.message_id == bindparam("message_id"))
               .order_by(ToolExecution.position).execution_options(populate_existing=True))


async def get(session: AsyncSession, conversation_id: uuid.UUID, tool_use_id: str) -> ToolExecution | None:
    return await session.scalar(_BY_TOOL_USE, {"conversation_id": conversation_id, "tool_use_id": tool_use_id})


async def for_message(session: AsyncSession, message_id: uuid.UUID) -> list[ToolExecution]:
    return list((await session.scalars(_OF_MESSAGE, {"message_id": message_id})).all())


async def for_conversation(session: AsyncSession, conversation_id: uuid.UUID) -> list[ToolExecution]:
    return list((await session.scalars(select(ToolExecution).where(
        ToolExecution.conversation_id == conversation_id).order_by(ToolExecution.created_at,
                                                                   ToolExecution.position))).all())


EDITED = "_editedInput"  # an output's mark: the person edited the input before approving (agent/dispatch.py)


async def outputs(session: AsyncSession, conversation_id: uuid.UUID, tool_use_ids: Sequence[str]) -> dict[str, Any]:
    """The outputs of these tool uses that succeeded, by tool use id, as their tools returned them (one statement,
    none for no ids)."""
    if not tool_use_ids:
        return {}
    rows = await session.execute(select(ToolExecution.tool_use_id, ToolExecution.output).where(
        ToolExecution.conversation_id == conversation_id, ToolExecution.tool_use_id.in_(tool_use_ids),
        ToolExecution.status == "succeeded"))
    return {use: {k: v for k, v in (output or {}).items() if k != EDITED} for use, output in rows}


# The answers' updates, built once (bind parameters; the hot path sends them on every confirm, pick and send).
# Core statements on the table: an ORM-enabled UPDATE runs SQLAlchemy's bulk-update machinery (session
# synchronization, entity loading), ~0.5 ms more per statement than the statement itself.
_TABLE: Table = ToolExecution.__table__  # type: ignore[assignment]
_CLAIM = (update(_TABLE)
          .where(_TABLE.c.id == bindparam("w_execution_id"), _TABLE.c.status == "pending",
                 _TABLE.c.created_at > bindparam("w_cutoff"))
          .values(status="running").returning(*_TABLE.c))
_FINISHED = binds(_TABLE, "w_", ("status", "output", "error", "duration_ms", "audit_log_id", "resolved_at"))
_FINISH = update(_TABLE).where(_TABLE.c.id == bindparam("w_execution_id")).values(_FINISHED)
_FINISH_EDITED = (update(_TABLE).where(_TABLE.c.id == bindparam("w_execution_id"))
                  .values({**_FINISHED, **binds(_TABLE, "w_", ("input",))}))
_EXPIRE = (update(_TABLE)
           .where(_TABLE.c.conversation_id == bindparam("w_conversation_id"), _TABLE.c.status == "pending",
                  _TABLE.c.created_at <= bindparam("w_cutoff"))
           .values(status="expired", resolved_at=bindparam("w_now"),
                   error={"code": "expired", "message": "This request expired before anyone answered it."}))
_SUPERSEDE = (update(_TABLE)
              .where(_TABLE.c.conversation_id == bindparam("w_conversation_id"), _TABLE.c.status == "pending")
              .values(status="superseded", resolved_at=bindparam("w_now"),
                      error={"code": "superseded", "message": "The user sent a new message instead."})
              .returning(_TABLE.c.tool_use_id))


def _claimed(result: Any) -> ToolExecution | None:
    """The claimed row as a (detached) ToolExecution, or None when someone else won."""
    row = result.first()
    return None if row is None else ToolExecution(**row._mapping)


async def claim_pending(session: AsyncSession, execution_id: uuid.UUID, *, pending_ttl: int,
                        now: datetime) -> ToolExecution | None:
    """Atomically move one pending, unexpired execution to running; None when someone else won."""
    return _claimed(await session.execute(_CLAIM, {"w_execution_id": execution_id,
                                                   "w_cutoff": now - timedelta(seconds=pending_ttl)}))


# Expiry of the conversation's stale pending rows rides with the claim: one statement (the two UPDATEs touch
# disjoint rows, either side of the cutoff).
_EXPIRE_AND_CLAIM = _CLAIM.add_cte(_EXPIRE.returning(_TABLE.c.id).cte("expired"))


async def expire_and_claim(session: AsyncSession, conversation_id: uuid.UUID, execution_id: uuid.UUID, *,
                           pending_ttl: int, now: datetime) -> ToolExecution | None:
    """`expire_stale` and `claim_pending` in one statement."""
    return _claimed(await session.execute(_EXPIRE_AND_CLAIM, {"w_execution_id": execution_id,
                                                              "w_conversation_id": conversation_id, "w_now": now,
                                                              "w_cutoff": now - timedelta(seconds=pending_ttl)}))


async def finish(session: AsyncSession, execution_id: uuid.UUID, *, status: str, output: dict | None = None,
                 error: dict | None = None, input: dict | None = None, duration_ms: int | None = None,
                 audit_log_id: uuid.UUID | None = None, now: datetime, along: Sequence[Row] = ()) -> None:
    """The execution's outcome; the rows `along` it (its audit row) ride as CTEs of the same statement."""
    values: dict[str, Any] = {"w_execution_id": execution_id, "w_status": status, "w_output": output, "w_error": error,
                              "w_duration_ms": duration_ms, "w_audit_log_id": audit_log_id, "w_resolved_at": now}
    if input is not None:
        values["w_input"] = input
    main = ("finish", lambda: _FINISH) if input is None else ("finish_edited", lambda: _FINISH_EDITED)
    if along:
        stmt, params = row_inserts.statements.get(along, main=main)
        await session.execute(stmt, {**params, **values})
    else:
        await session.execute(main[1](), values)


async def expire_stale(session: AsyncSession, conversation_id: uuid.UUID, *, pending_ttl: int,
                       now: datetime) -> int:
    """Pending executions older than PENDING_TTL read `expired` (never `rejected`)."""
    result = await session.execute(_EXPIRE, {"w_conversation_id": conversation_id, "w_now": now,
                                             "w_cutoff": now - timedelta(seconds=pending_ttl)})
    return rowcount(result)


_EXPIRE_THEN_SUPERSEDE = (_SUPERSEDE.where(_TABLE.c.created_at > bindparam("w_cutoff"))
                          .add_cte(_EXPIRE.returning(_TABLE.c.id).cte("expired")))


async def supersede_pending(session: AsyncSession, conversation_id: uuid.UUID, *, pending_ttl: int,
                            now: datetime) -> list[str]:
    """The user typed instead of clicking: a pending execution past PENDING_TTL becomes `expired`, every other
    one `superseded` (one statement: the two UPDATEs touch disjoint rows); returns the superseded tool use ids."""
    result = await session.execute(_EXPIRE_THEN_SUPERSEDE, {"w_conversation_id": conversation_id, "w_now": now,
                                                            "w_cutoff": now - timedelta(seconds=pending_ttl)})
    return list(result.scalars().all())


async def claim_undo(session: AsyncSession, original_id: uuid.UUID, inverse_id: uuid.UUID) -> bool:
    """Atomically link the inverse run to the original; False when it was already undone."""
    result = await session.execute(
        update(ToolExecution)
        .where(and_(ToolExecution.id == original_id, ToolExecution.undone_by.is_(None)))
        .values(undone_by=inverse_id)
        .returning(ToolExecution.id))
    return result.scalars().first() is not None


async def release_undo(session: AsyncSession, original_id: uuid.UUID) -> None:
    """The inverse failed: the original can be undone again."""
    await session.execute(update(ToolExecution).where(ToolExecution.id == original_id).values(undone_by=None))
