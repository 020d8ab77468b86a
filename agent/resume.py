"""Resume a suspended turn (confirm / pick) and undo a write through its declared inverse.

Resolution is atomic across processes: the pending row is claimed with one UPDATE ... WHERE
status = 'pending'; the loser gets 409 tool_already_resolved. Once no tool use of the assistant message
is pending, one merged tool_result message is appended and the model loop resumes.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import anyio
from pydantic import ValidationError
from sqlalchemy import Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from agent import conversations, events
from agent.budget import UNMETERED, check_budget
from agent.dispatch import ToolDispatcher, ToolUse
from agent.orchestrator import Orchestrator
from agent.persona import Persona, Turn
from agent.policy import can_undo
from agent.round_trip import RoundTrip
from agent.turns import TurnStore, TurnStream, end_turn_span
from core.database import Database
from core.errors import Conflict, InvalidInput, NotFound, ServiceError
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools import executions
from tools.errors import failure
from tools.executions import ToolExecution
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolOutcome


def _answered(last_seq: Any) -> Select:
    """The conversation (if it is the caller's: agent.conversations.OWNED), one of its tool uses and the thread's
    last seq (`last_seq`, the persona's thread's), in one statement: confirm and pick read it on every answer."""
    return (select(conversations.Conversation, ToolExecution, last_seq)
            .outerjoin(ToolExecution, (ToolExecution.conversation_id == conversations.Conversation.id)
                       & (ToolExecution.tool_use_id == bindparam("tool_use_id")))
            .where(conversations.Conversation.id == bindparam("id"), conversations.OWNED))


@dataclass(frozen=True)
class Answer:
    """A person's answer to a suspended turn (confirm, pick) or an undo: who, where, which tool use."""

    access: OrgAccess
    caller: Caller
    locale: str
    trace_id: str
    kind: str  # confirm | pick | undo
    thread_id: uuid.UUID
    tool_use_id: str
    persona: Persona | None = None  # None: the engine's default (its `personas.default`)
    member_id: uuid.UUID | None = None

    def owner(self) -> conversations.Owner:
        """Whose thread the answer may resolve (agent.conversations.OWNED): the caller's, of this persona."""
        assert self.persona is not None, "the resumer names the default persona first"
        return conversations.Owner(self.access.org_id, self.caller.user_id, self.persona.thread_owner)


Check = Callable[[ToolExecution, ToolSpec], None]
Resolve = Callable[[Turn, ToolExecution, ToolSpec, RoundTrip], AsyncIterator[events.Event]]


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
        self._answered: dict[str, Select] = {}  # per persona (built once)

    @classmethod
    def on(cls, loop: Orchestrator) -> Resumer:
        """The resumer of a loop: its dispatcher, its turn store."""
        return cls(loop=loop, db=loop.db, registry=loop.registry, dispatcher=loop.dispatcher, store=loop.store,
                   settings=loop.settings)

    def _named(self, answer: Answer) -> Answer:
        """The answer with its persona named (the engine's default when the caller named none)."""
        return answer if answer.persona is not None else dataclasses.replace(answer, persona=self.loop.personas.default)

    def _persona(self, answer: Answer) -> Persona:
        return answer.persona or self.loop.personas.default

    async def _answer(self, answer: Answer, check: Check, resolve: Resolve) -> TurnStream:
        """Take the thread's lock, then resolve the answer in one transaction (`_claim_and_resolve`); the
        stream sends what that produced and hands the turn back to the loop."""
        answer = self._named(answer)
        _known_shape(answer.tool_use_id)
        turn_id = uuid.uuid4()
        try:
            lock = await self.loop.take_lock(answer.thread_id, wait_seconds=self.settings.agent_answer_wait_seconds,
                                             token=str(turn_id))
        except Conflict:  # busy: an answer that could never be taken says why rather than "busy"
            await self._diagnose(answer, check)
            raise
        try:
            turn, claimed, produced, settled = await self._claim_and_resolve(answer, check, resolve, turn_id)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await lock.release()
            raise

        async def body(t: Turn) -> AsyncIterator[events.Event]:
            if isinstance(produced, Exception):  # refused before anything ran (the daily cap): the claim rolled back
                raise produced
            for event in produced:
                yield event
            async for event in self._continue(t, claimed.message_id, settled):
                yield event

        return self.loop.stream(turn, lock, body)

    async def _find(self, session: AsyncSession, answer: Answer,
                    ) -> tuple[conversations.Conversation, ToolExecution | None, ToolSpec | None, int]:
        """The caller's thread (else 404, the persona's thread's code), its tool use, that tool's spec and the
        thread's last seq."""
        persona = self._persona(answer)
        thread = self.loop.history(persona)
        if persona.name not in self._answered:
            self._answered[persona.name] = _answered(thread.last_seq)
        found = (await session.execute(self._answered[persona.name], {
            "id": answer.thread_id, **answer.owner().params(), "tool_use_id": answer.tool_use_id})).first()
        if found is None:
            raise NotFound(thread.not_found)
        conversation, row, last_seq = found
        spec = self.registry.lookup(row.router, row.action) if row is not None else None
        return conversation, row, spec, int(last_seq or 0)

    @staticmethod
    def _checked(row: ToolExecution | None, spec: ToolSpec | None, check: Check) -> tuple[ToolExecution, ToolSpec]:
        if row is None or spec is None:
            raise NotFound("tool_execution_not_found")
        check(row, spec)
        return row, spec

    async def _diagnose(self, answer: Answer, check: Check) -> None:
        """Raise the answer's own error, if it has one (read only)."""
        async with self.db.scope(org_id=answer.access.org_id, user_id=answer.caller.user_id) as session:
            _, row, spec, _ = await self._find(session, answer)
        self._checked(row, spec, check)

    async def _claim_and_resolve(self, answer: Answer, check: Check, resolve: Resolve, turn_id: uuid.UUID,
                                 ) -> tuple[Turn, ToolExecution, list[events.Event] | Exception, bool]:
        """One transaction: find the pending tool use, check it (a problem is raised after the commit, so the
        stale rows it expired stay expired), claim it, resolve it (the tool and its execution row, in a
        savepoint) and, when nothing else of its answer is left, write the tool results through the thread.
        Returns the turn, the claimed row, the frames to send (or the daily cap's refusal, the claim rolled
        back) and whether the results were written (False while another tool use of the answer is pending)."""
        problem: ServiceError | None = None
        access, conversation_id = answer.access, answer.thread_id
        try:
            async with self.db.scope(org_id=access.org_id, user_id=answer.caller.user_id) as session:
                conversation, found, found_spec, baseline = await self._find(session, answer)
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
                    turn = self._turn(answer, conversation, turn_id)
                    turn.baseline = baseline
                    if access.daily_cap_usd_micros != UNMETERED:  # an unmetered org has nothing to read
                        try:
                            await check_budget(session, access, datetime.now(UTC))
                        except Exception as exc:
                            raise _Refused(turn, claimed, exc) from None  # rolls the claim back: answer later
                    trip = RoundTrip(session)
                    produced = [event async for event in resolve(turn, claimed, spec, trip)]
                    settled = await self._settle(turn, trip, claimed)
                    await trip.write()
        except _Refused as refused:
            return refused.turn, refused.claimed, refused.error, False
        if problem is not None:
            raise problem
        assert claimed is not None
        return turn, claimed, produced, settled

    def _turn(self, answer: Answer, conversation: conversations.Conversation,
              turn_id: uuid.UUID | None = None) -> Turn:
        persona = self.loop.personas.continuing(conversation.channel, self._persona(answer))
        turn = self.loop.new_turn(persona, access=answer.access, caller=answer.caller, locale=answer.locale,
                                  trace_id=answer.trace_id, kind=answer.kind, conversation_id=conversation.id,
                                  member_id=answer.member_id)
        if turn_id is not None:
            turn.turn_id = turn_id
        turn.conversation, turn.opened = conversation, True
        self.loop.trace(turn)
        return turn

    def _awaited(self, turn: Turn, claimed: ToolExecution, spec: ToolSpec, resolution: str) -> None:
        """The person's wait for this answer, as a span of the resuming trace linked to the suspended turn."""
        self.loop.tracing.awaited(turn.who(), turn.span, name=spec.name, tool_use_id=claimed.tool_use_id,
                                  kind="pick" if claimed.kind == "user_picker" else "confirmation",
                                  resolution=resolution, since=claimed.created_at, suspended_in=claimed.trace_parent)

    # ---- confirm ------------------------------------------------------------------------------------

    async def open_confirm(self, answer: Answer, *, approved: bool, edited_input: dict[str, Any] | None) -> TurnStream:
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
                          trip: RoundTrip) -> AsyncIterator[events.Event]:
            edited = approved and edited_input is not None and edited_input != claimed.input
            self._awaited(t, claimed, spec, "edited" if edited else "approved" if approved else "rejected")
            if not approved:
                error = failure("rejected_by_user", t.locale, detail="The user rejected this action; it did not run.",
                                hint="Do not retry unless the user asks again.", tool=spec.name)
                await executions.finish(trip.session, claimed.id, status="rejected_by_user", error=error,
                                        now=datetime.now(UTC))
                for event in self.dispatcher.completed(t, claimed.tool_use_id, spec.router, spec.action,
                                                       events.failed(error), spec):
                    yield event
                return
            raw = edited_input if edited_input is not None else claimed.input
            use = ToolUse(claimed.tool_use_id, raw, claimed.message_id, claimed.position)
            async for event in self.dispatcher.run_with_events(t, self.loop.history(t.persona), spec, use, trip, [],
                                                               execution_id=claimed.id, edited=edited):
                yield event

        return await self._answer(answer, check, resolve)

    # ---- pick ---------------------------------------------------------------------------------------

    async def open_pick(self, answer: Answer, *, picked_id: str) -> TurnStream:
        def check(row: ToolExecution, spec: ToolSpec) -> None:
            if row.kind != "user_picker":
                raise NotFound("tool_execution_not_found", detail="this is a confirmation, not a pick")
            if row.status != "pending":
                raise Conflict("tool_already_resolved")
            if picked_id not in _candidates(row):
                raise InvalidInput("invalid_pick")

        async def resolve(t: Turn, claimed: ToolExecution, spec: ToolSpec,
                          trip: RoundTrip) -> AsyncIterator[events.Event]:
            self._awaited(t, claimed, spec, "picked")
            candidates = _candidates(claimed)
            output = {"pickedId": picked_id, "pickedLabel": candidates[picked_id].get("label"),
                      "kind": (claimed.input or {}).get("kind")}
            await executions.finish(trip.session, claimed.id, status="succeeded", output=output,
                                    now=datetime.now(UTC), duration_ms=0)
            for event in self.dispatcher.completed(t, claimed.tool_use_id, spec.router, spec.action,
                                                   ToolOutcome(ok=True, output=output, error=None, duration_ms=0),
                                                   spec):
                yield event

        return await self._answer(answer, check, resolve)

    # ---- the rest of the answer, then the loop ------------------------------------------------------

    async def _settle(self, turn: Turn, trip: RoundTrip, claimed: ToolExecution) -> bool:
        """When no tool use of the answer is pending or running: their results written through the thread
        (True); otherwise False."""
        session = trip.session
        if claimed.message_id is not None:
            rows = await executions.for_message(session, claimed.message_id)
        else:  # an answer with one tool use and no message row (the trainer's event log)
            found = await executions.get(session, turn.conversation_id, claimed.tool_use_id)
            rows = [found] if found is not None else []
        if any(r.status in ("pending", "running") for r in rows):
            return False
        await self.loop.history(turn.persona).resumed(turn, trip, rows)
        return True

    async def _continue(self, turn: Turn, message_id: uuid.UUID | None, settled: bool) -> AsyncIterator[events.Event]:
        """Later pending tools of the same answer, in order (unless all are settled); then the loop."""
        if not settled:
            assert message_id is not None
            async for event in self.dispatcher.resume_rest(turn, self.loop.history(turn.persona), message_id):
                yield event
            if turn.suspended:
                return
            async with self.store.scope(turn) as session:
                trip = RoundTrip(session)
                rows = await executions.for_message(session, message_id)
                if any(r.status in ("pending", "running") for r in rows):
                    return  # another resolver is still working on this answer; it will resume the loop
                await self.loop.history(turn.persona).resumed(turn, trip, rows)
                await trip.write()
        async for event in self.loop.drive(turn):
            yield event

    # ---- undo ---------------------------------------------------------------------------------------

    async def undo(self, answer: Answer) -> dict[str, Any]:
        answer = self._named(answer)
        access, caller, tool_use_id = answer.access, answer.caller, answer.tool_use_id
        _known_shape(tool_use_id)
        async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            conversation = await conversations.get_owned(session, answer.owner(), answer.thread_id)
            if conversation is None:
                raise NotFound(self.loop.history(self._persona(answer)).not_found)
            original = await executions.get(session, answer.thread_id, tool_use_id)
        if original is None:
            raise NotFound("tool_execution_not_found")
        turn = self._turn(answer, conversation)
        spec = self.registry.lookup(original.router, original.action)
        if not can_undo(self.registry, spec, turn.access.role, succeeded=original.status == "succeeded"):
            raise InvalidInput("not_undoable")
        if not can_undo(self.registry, spec, turn.access.role, succeeded=True,
                        ran_at=original.resolved_at or original.created_at, now=datetime.now(UTC)):
            raise InvalidInput("not_undoable", detail="Undo lasts 24 hours; this ran earlier")
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
        async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            await executions.record(session, id=inverse_id, org_id=access.org_id, conversation_id=answer.thread_id,
                                    message_id=None, tool_use_id=f"undo_{tool_use_id}_{inverse_id.hex[:8]}",
                                    router=inverse.router, action=inverse.action, kind="normal",
                                    confirm=inverse.confirm, input=inverse_input, status="running",
                                    actor_user_id=caller.user_id, undoes=original.id)
            if not await executions.claim_undo(session, original.id, inverse_id):
                raise Conflict("already_undone")  # leaving the scope rolls the inverse row back
        audit = {"undoes_audit_log_id": str(original.audit_log_id) if original.audit_log_id else None,
                 "undoes_tool_use_id": tool_use_id}
        self.loop.trace(turn)
        try:
            outcome = await self.dispatcher.run(turn, inverse, ToolUse(f"undo_{tool_use_id}", inverse_input), None,
                                                execution_id=inverse_id, undoes=original.id, audit_metadata=audit)
        finally:
            end_turn_span(self.loop.observability, turn, None)
        if not outcome.ok:
            async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
                await executions.release_undo(session, original.id)
            raise InvalidInput("not_undoable", detail=(outcome.error or {}).get("message"))
        return {"ok": True, "undoneToolUseId": tool_use_id,
                "inverse": {"router": inverse.router, "action": inverse.action, "output": outcome.output}}


def _known_shape(tool_use_id: str) -> None:
    """A tool use id the model or the service could have made: printable, at most 100 characters (a NUL or a
    control character is never one: 404, before any query)."""
    if not tool_use_id or len(tool_use_id) > 100 or not tool_use_id.isprintable():
        raise NotFound("tool_execution_not_found")


def _candidates(row: ToolExecution) -> dict[str, dict]:
    return {str(c.get("id")): c for c in (row.input or {}).get("candidates", [])}


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc']) or 'input'}: {err['msg']}"
