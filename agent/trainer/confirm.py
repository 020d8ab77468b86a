"""Confirming a trainer tool that waited for the member (calendar__delete_scheduled_workout): approve runs it,
reject records `rejected_by_user`; either way its tool_result is appended and the loop continues, streamed
like a send (TRAINER.md "HTTP": confirm is SSE, as the staff confirm)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from agent.events import Event
from agent.locks import TurnLock
from agent.trainer import store
from agent.trainer.frames import done_frame, status_frame
from agent.trainer.loop import MEMBER_ROLE, TrainerAgent, TrainerTurn
from agent.turns import Turn, TurnStream
from core.errors import Conflict, NotFound
from core.tenancy import Caller, OrgAccess
from tools import executions


async def open_confirm(agent: TrainerAgent, *, access: OrgAccess, caller: Caller, member_id: uuid.UUID, locale: str,
                       trace_id: str, session_id: uuid.UUID, tool_use_id: str, approved: bool) -> TurnStream:
    import dataclasses

    async with agent.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
        if await store.get_owned(session, access.org_id, member_id, session_id) is None:
            raise NotFound("session_not_found")
        row = await executions.get(session, session_id, tool_use_id)
    if row is None:
        raise NotFound("tool_execution_not_found")
    if row.status != "pending":
        raise Conflict("tool_already_resolved")
    spec = agent.registry.lookup(row.router, row.action)
    if spec is None:
        raise NotFound("tool_execution_not_found")
    turn = TrainerTurn(access=dataclasses.replace(access, role=MEMBER_ROLE), caller=caller, locale=locale,
                       trace_id=trace_id, endpoint="trainer_confirm", conversation_id=session_id, member_id=member_id)
    turn.conversation = True  # type: ignore[assignment]
    lock = TurnLock(agent.redis, session_id, lease_seconds=agent.settings.agent_turn_lock_lease_seconds)
    if not await lock.acquire(0.0):
        raise Conflict("conversation_busy")

    async def body(t: Turn) -> AsyncIterator[Event]:
        now = datetime.now(UTC)
        async with agent.scope(t) as session:
            claimed = await executions.claim_pending(session, row.id, pending_ttl=agent.settings.pending_ttl, now=now)
            if claimed is None:
                raise Conflict("tool_already_resolved")
            if not approved:
                error = {"code": "rejected_by_user", "message": "The member declined.", "hint": "Ask what instead."}
                await executions.finish(session, row.id, status="rejected_by_user", error=error, now=now)
                await store.append(session, org_id=t.access.org_id, session_id=session_id, type="tool_result",
                                   payload={"callId": tool_use_id, "result": error, "isError": True})
        if approved:
            async for event in agent.run_and_report(t, spec, tool_use_id, dict(row.input or {}),  # type: ignore[arg-type]
                                                    execution_id=row.id):
                yield event
        else:
            yield status_frame(spec.name, "error", t.locale)
        async for event in agent.drive(t):  # type: ignore[arg-type]
            yield event

    return TurnStream(turn, lock, body, finalize=agent.finalize, observability=agent.observability, titles=None,
                      done=done_frame)
