"""Resume a suspended turn (confirm / pick) and undo a write through its declared inverse.

Resolution is atomic across processes: the pending row is claimed with one UPDATE ... WHERE
status = 'pending'; the loser gets 409 tool_already_resolved. Once no tool use of the assistant message
is pending, one merged tool_result message is appended and the model loop resumes.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

import anyio
from pydantic import ValidationError
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from agent import conversations, events
from agent.budget import UNMETERED, check_budget
from agent.dispatch import ToolDispatcher
from agent.orchestrator import Orchestrator
from agent.policy import can_undo
from agent.turns import Turn, TurnStore, TurnStream, tool_result_block
from core.database import Database
from core.errors import Conflict, InvalidInput, NotFound, ServiceError
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools import executions
from tools.executions import ToolExecution
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolOutcome

# The conversation (if it is the caller's) and one of its tool uses, in one statement: confirm and pick read it
# on every answer.
_ANSWERED = (select(conversations.Conversation, ToolExecution)
             .outerjoin(ToolExecution, (ToolExecution.conversation_id == conversations.Conversation.id)
                        & (ToolExecution.tool_use_id == bindparam("tool_use_id")))
             .where(conversations.Conversation.id == bindparam("id"),
                    conversations.Conversation.org_id == bindparam("org_id"),
                    conversations.Conversation.user_id == bindparam("user_id")))


Check = Callable[[ToolExecution, ToolSpec], None]
Resolve = Callable[[Turn, ToolExecution, ToolSpec, AsyncSession], AsyncIterator[events.Event]]


class _Refused(Exception):
    """Refused after the claim (the daily cap): leaves the transaction so the claim rolls back."""

    def __init__(self, turn: Turn, claimed: ToolExecution, error: Exception) -> None:
        self.turn, self.claimed, self.error = turn, claimed, error


class Resumer:
    """confirm / pick / undo: resolve what a person answered, then hand the turn back to the loop."""

    def __init__(self, *, loop: Orchestrator, db: Database, registry: ToolRegistry, dispatcher: ToolDispatcher,
                 store: TurnStore, settings: Settings) -> None:
        self.loop, self.db, self.registry = loop, db, registry
        self.dispatcher, self.store, self.settings = dispatcher, store, settings

    @classmethod
    def on(cls, loop: Orchestrator) -> Resumer:
        """The resumer of a loop: its dispatcher, its turn store."""
        return cls(loop=loop, db=loop.db, registry=loop.registry, dispatcher=loop.dispatcher, store=loop.store,
                   settings=loop.settings)

    async def _answer(self, access: OrgAccess, caller: Caller, locale: str, trace_id: str, endpoint: str,
                      conversation_id: uuid.UUID, tool_use_id: str, check: Check, resolve: Resolve) -> TurnStream:
        """Take the conversation's lock, then resolve the answer in one transaction (`_claim_and_resolve`); the
        stream sends what that produced and hands the turn back to the loop."""
        try:
            lock = await self.loop.take_lock(conversation_id,
                                           wait_seconds=self.settings.agent_answer_lock_wait_seconds)
        except Conflict:  # busy: an answer that could never be taken says why rather than "busy"
            await self._diagnose(access, caller, conversation_id, tool_use_id, check)
            raise
        try:
            turn, claimed, produced, history = await self._claim_and_resolve(
                access, caller, locale, trace_id, endpoint, conversation_id, tool_use_id, check, resolve)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await lock.release()
            raise

        async def body(t: Turn) -> AsyncIterator[events.Event]:
            if isinstance(produced, Exception):  # refused before anything ran (the daily cap): the claim rolled back
                raise produced
            for event in produced:
                yield event
            async for event in self._continue(t, claimed.message_id, history):
                yield event

        return self.loop.stream(turn, lock, body)

    async def _find(self, session: AsyncSession, access: OrgAccess, caller: Caller, conversation_id: uuid.UUID,
                    tool_use_id: str) -> tuple[conversations.Conversation, ToolExecution | None, ToolSpec | None]:
        """The caller's conversation (else 404 conversation_not_found), its tool use and that tool's spec."""
        found = (await session.execute(_ANSWERED, {"id": conversation_id, "org_id": access.org_id,
                                                   "user_id": caller.user_id, "tool_use_id": tool_use_id})).first()
        if found is None:
            raise NotFound("conversation_not_found")
        conversation, row = found
        return conversation, row, self.registry.lookup(row.router, row.action) if row is not None else None

    @staticmethod
    def _checked(row: ToolExecution | None, spec: ToolSpec | None, check: Check) -> tuple[ToolExecution, ToolSpec]:
        if row is None or spec is None:
            raise NotFound("tool_execution_not_found")
        check(row, spec)
        return row, spec

    async def _diagnose(self, access: OrgAccess, caller: Caller, conversation_id: uuid.UUID, tool_use_id: str,
                        check: Check) -> None:
        """Raise the answer's own error, if it has one (read only)."""
        async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            _, row, spec = await self._find(session, access, caller, conversation_id, tool_use_id)
        self._checked(row, spec, check)

    async def _claim_and_resolve(self, access: OrgAccess, caller: Caller, locale: str, trace_id: str, endpoint: str,
                                 conversation_id: uuid.UUID, tool_use_id: str, check: Check, resolve: Resolve,
                                 ) -> tuple[Turn, ToolExecution, list[events.Event] | Exception,
                                            list[conversations.Message] | None]:
        """One transaction: find the pending tool use, check it (a problem is raised after the commit, so the
        stale rows it expired stay expired), claim it, resolve it (the tool and its execution row, in a
        savepoint) and, when nothing else of its message is left, write the merged tool results and read the
        history back. Returns the turn, the claimed row, the frames to send (or the daily cap's refusal, the
        claim rolled back) and the history (None while another tool use of the message is pending)."""
        problem: ServiceError | None = None
        try:
            async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
                conversation, found, found_spec = await self._find(session, access, caller, conversation_id,
                                                                   tool_use_id)
                claimed = None
                try:
                    row, spec = self._checked(found, found_spec, check)
                except ServiceError as exc:
                    problem = exc  # no claim ran to expire the conversation's stale rows: expire them alone
                    await executions.expire_stale(session, conversation_id, pending_ttl=self.settings.pending_ttl,
                                                  now=datetime.now(UTC))
                else:  # the claim expires the conversation's stale rows in the same statement
                    claimed = await executions.expire_and_claim(session, conversation_id, row.id,
                                                                pending_ttl=self.settings.pending_ttl,
                                                                now=datetime.now(UTC))
                    if claimed is None:
                        problem = Conflict("tool_already_resolved")
                if claimed is not None:
                    turn = self._turn(access, caller, locale, trace_id, endpoint, conversation)
                    if access.daily_cap_usd_micros != UNMETERED:  # an unmetered org has nothing to read
                        try:
                            await check_budget(session, access, datetime.now(UTC))
                        except Exception as exc:
                            raise _Refused(turn, claimed, exc) from None  # rolls the claim back: answer later
                    produced = [event async for event in resolve(turn, claimed, spec, session)]
                    history = await self._settled_history(session, turn, claimed.message_id)
        except _Refused as refused:
            return refused.turn, refused.claimed, refused.error, None
        if problem is not None:
            raise problem
        assert claimed is not None
        return turn, claimed, produced, history

    def _turn(self, access: OrgAccess, caller: Caller, locale: str, trace_id: str, endpoint: str,
              conversation: conversations.Conversation) -> Turn:
        return Turn(access=access, caller=caller, locale=locale, trace_id=trace_id, endpoint=endpoint,
                    conversation_id=conversation.id, conversation=conversation)

    # ---- confirm ------------------------------------------------------------------------------------

    async def open_confirm(self, *, access: OrgAccess, caller: Caller, locale: str, trace_id: str,
                           conversation_id: uuid.UUID, tool_use_id: str, approved: bool,
                           edited_input: dict[str, Any] | None) -> TurnStream:
        def check(row: ToolExecution, spec: ToolSpec) -> None:
            if row.kind == "user_picker":
                raise NotFound("tool_execution_not_found", detail="this is a pick, not a confirmation")
            if row.status != "pending":
                raise Conflict("tool_already_resolved")
            if approved and edited_input is not None:
                try:
                    spec.input_model.model_validate(edited_input)
                except ValidationError as exc:
                    raise InvalidInput("validation_failed", detail=_first_error(exc)) from None

        async def resolve(t: Turn, claimed: ToolExecution, spec: ToolSpec,
                          session: AsyncSession) -> AsyncIterator[events.Event]:
            if not approved:
                error = {"code": "rejected_by_user", "message": "The user rejected this action; it did not run.",
                         "hint": "Do not retry unless the user asks again."}
                await executions.finish(session, claimed.id, status="rejected_by_user", error=error,
                                        now=datetime.now(UTC))
                yield self.dispatcher.completed(t, claimed.tool_use_id, spec.router, spec.action,
                                                events.failed(error), spec)
                return
            raw = edited_input if edited_input is not None else claimed.input
            edited = edited_input is not None and edited_input != claimed.input
            async for event in self.dispatcher.run_with_events(t, spec, claimed.tool_use_id, raw, [],
                                                               message_id=claimed.message_id,
                                                               position=claimed.position, execution_id=claimed.id,
                                                               edited=edited, session=session):
                yield event

        return await self._answer(access, caller, locale, trace_id, "confirm", conversation_id, tool_use_id, check,
                                  resolve)

    # ---- pick ---------------------------------------------------------------------------------------

    async def open_pick(self, *, access: OrgAccess, caller: Caller, locale: str, trace_id: str,
                        conversation_id: uuid.UUID, tool_use_id: str, picked_id: str) -> TurnStream:
        def check(row: ToolExecution, spec: ToolSpec) -> None:
            if row.kind != "user_picker":
                raise NotFound("tool_execution_not_found", detail="this is a confirmation, not a pick")
            if row.status != "pending":
                raise Conflict("tool_already_resolved")
            if picked_id not in _candidates(row):
                raise InvalidInput("invalid_pick")

        async def resolve(t: Turn, claimed: ToolExecution, spec: ToolSpec,
                          session: AsyncSession) -> AsyncIterator[events.Event]:
            candidates = _candidates(claimed)
            output = {"pickedId": picked_id, "pickedLabel": candidates[picked_id].get("label"),
                      "kind": (claimed.input or {}).get("kind")}
            await executions.finish(session, claimed.id, status="succeeded", output=output, now=datetime.now(UTC),
                                    duration_ms=0)
            yield self.dispatcher.completed(t, claimed.tool_use_id, spec.router, spec.action,
                                            ToolOutcome(ok=True, output=output, error=None, duration_ms=0), spec)

        return await self._answer(access, caller, locale, trace_id, "pick", conversation_id, tool_use_id, check,
                                  resolve)

    # ---- the rest of the message, then the loop -----------------------------------------------------

    async def _settled_history(self, session: AsyncSession, turn: Turn,
                               message_id: uuid.UUID | None) -> list[conversations.Message] | None:
        """When no tool use of the message is pending or running: its merged results appended and the history
        read back; otherwise None."""
        assert message_id is not None
        rows = await executions.for_message(session, message_id)
        if any(r.status in ("pending", "running") for r in rows):
            return None
        assert turn.conversation is not None
        return await conversations.append_and_read(session, turn.conversation, "user",
                                                   [tool_result_block(row) for row in rows])

    async def _continue(self, turn: Turn, message_id: uuid.UUID | None,
                        history: list[conversations.Message] | None) -> AsyncIterator[events.Event]:
        """Later pending tools of the same assistant message, in order (unless `history` says none is left);
        then the loop."""
        assert message_id is not None
        if history is None:
            async for event in self.dispatcher.resume_rest(turn, message_id):
                yield event
            if turn.suspended:
                return
            async with self.store.scope(turn) as session:
                history = await self._settled_history(session, turn, message_id)
            if history is None:
                return  # another resolver is still working on this message; it will resume the loop
        turn.history = conversations.to_model_messages(history)
        async for event in self.loop.drive(turn):
            yield event

    # ---- undo ---------------------------------------------------------------------------------------

    async def undo(self, *, access: OrgAccess, caller: Caller, locale: str, trace_id: str,
                   conversation_id: uuid.UUID, tool_use_id: str) -> dict[str, Any]:
        async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            conversation = await conversations.get_owned(session, access.org_id, conversation_id, caller.user_id)
            if conversation is None:
                raise NotFound("conversation_not_found")
            original = await executions.get(session, conversation_id, tool_use_id)
        if original is None:
            raise NotFound("tool_execution_not_found")
        spec = self.registry.lookup(original.router, original.action)
        if not can_undo(self.registry, spec, access.role, succeeded=original.status == "succeeded"):
            raise InvalidInput("not_undoable")
        assert spec is not None and spec.inverse is not None
        if original.undone_by is not None:
            raise Conflict("already_undone")
        inverse = self.registry.get(spec.inverse.name)
        try:
            inverse_input = spec.inverse.build_input(original.output or {})
        except (KeyError, TypeError):
            raise InvalidInput("not_undoable", detail="the original output has no id to undo") from None
        assert inverse is not None
        inverse_id = uuid.uuid4()
        turn = self._turn(access, caller, locale, trace_id, "undo", conversation)
        async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            await executions.record(session, id=inverse_id, org_id=access.org_id, conversation_id=conversation_id,
                                    message_id=None, tool_use_id=f"undo_{tool_use_id}_{inverse_id.hex[:8]}",
                                    router=inverse.router, action=inverse.action, kind="normal",
                                    confirm=inverse.confirm, input=inverse_input, status="running",
                                    actor_user_id=caller.user_id, undoes=original.id)
            if not await executions.claim_undo(session, original.id, inverse_id):
                raise Conflict("already_undone")  # leaving the scope rolls the inverse row back
        audit = {"undoes_audit_log_id": str(original.audit_log_id) if original.audit_log_id else None,
                 "undoes_tool_use_id": tool_use_id}
        outcome = await self.dispatcher.run(turn, inverse, f"undo_{tool_use_id}", inverse_input, message_id=None,
                                            position=0, execution_id=inverse_id, undoes=original.id,
                                            audit_metadata=audit)
        if not outcome.ok:
            async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
                await executions.release_undo(session, original.id)
            raise InvalidInput("not_undoable", detail=(outcome.error or {}).get("message"))
        return {"ok": True, "undoneToolUseId": tool_use_id,
                "inverse": {"router": inverse.router, "action": inverse.action, "output": outcome.output}}


def _candidates(row: ToolExecution) -> dict[str, dict]:
    return {str(c.get("id")): c for c in (row.input or {}).get("candidates", [])}


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc']) or 'input'}: {err['msg']}"
