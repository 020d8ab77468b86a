"""The tool dispatcher: what happens to the tool uses of an assistant message, for send and resume alike.

Normal tools run inline (each in a savepoint of the round trip's transaction; their execution rows go in one
INSERT later in that transaction, so each row commits with its tool's write); the first tool use that needs a person suspends the turn with it and every later one as `pending`
rows; resume runs what is left of the message in order and suspends again on the next one that needs a
person. Every `tool_completed` and every pending event is built here.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from agent import events
from agent.observability import Observability
from agent.policy import can_undo, needs_person
from agent.turns import Turn, TurnStore, result_block
from core.row_inserts import Row
from core.settings import Settings
from tools import executions
from tools.executions import ToolExecution
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolOutcome, ToolRunner, validation_error


class ToolDispatcher:
    def __init__(self, *, registry: ToolRegistry, runner: ToolRunner, store: TurnStore, settings: Settings,
                 observability: Observability) -> None:
        self.registry, self.runner, self.store = registry, runner, store
        self.settings, self.observability = settings, observability

    def spec_for(self, role: str, name: str) -> ToolSpec | None:
        spec = self.registry.get(name)
        return spec if spec is not None and spec.allows(role) else None

    # ---- events -------------------------------------------------------------------------------------

    def completed(self, turn: Turn, tool_use_id: str, router: str, action: str, outcome: ToolOutcome,
                  spec: ToolSpec | None = None) -> events.Event:
        """`tool_completed`, offering Undo only when the caller's role may run the inverse."""
        undoable = can_undo(self.registry, spec, turn.access.role, succeeded=outcome.ok)
        return events.tool_completed(tool_use_id, router, action, outcome, inverse_available=undoable)

    async def pending(self, turn: Turn, spec: ToolSpec, tool_use_id: str, validated: dict,
                      session: AsyncSession | None = None) -> events.Event:
        """The event that asks the person (a pick or a confirmation, with the action in words), logged as such."""
        if spec.kind == "user_picker":
            event = events.disambiguation_pending(tool_use_id, validated["kind"], validated["prompt"],
                                                  [_candidate(c) for c in validated["candidates"]])
        else:
            summary = await self.runner.describe(spec, validated, access=turn.access, caller=turn.caller,
                                                 locale=turn.locale, session=session)
            event = events.confirmation_pending(tool_use_id, spec.router, spec.action, validated, spec.confirm,
                                                summary, spec.input_schema())
        self.observability.emit(f"agent.tool.{event.type}", trace_id=turn.trace_id, org_id=str(turn.access.org_id),
                                router=spec.router, action=spec.action)
        return event

    # ---- running one tool ---------------------------------------------------------------------------

    async def run(self, turn: Turn, spec: ToolSpec, tool_use_id: str, raw_input: dict, *,
                  message_id: uuid.UUID | None, position: int, execution_id: uuid.UUID | None = None,
                  edited: bool = False, undoes: uuid.UUID | None = None, audit_metadata: dict | None = None,
                  session: AsyncSession | None = None, rows_later: list[Row] | None = None) -> ToolOutcome:
        """Run one tool; its execution row (and a write's audit row) commits in the same transaction as its write
        (with `rows_later`, new rows are appended there for the caller to insert later in that transaction)."""
        now = datetime.now(UTC)

        async def record(db_session: AsyncSession, outcome: ToolOutcome) -> None:
            await self._record(db_session, turn, spec, tool_use_id, raw_input, outcome, message_id=message_id,
                               position=position, execution_id=execution_id, edited=edited, undoes=undoes, now=now,
                               rows_later=rows_later)

        outcome = await self.runner.run(spec, raw_input, access=turn.access, caller=turn.caller, locale=turn.locale,
                                        now=now, on_success=record, audit_metadata=audit_metadata, session=session,
                                        conversation_id=turn.conversation_id, carry_audit=True)
        if not outcome.ok:
            if session is not None:
                await record(session, outcome)
            else:
                async with self.store.scope(turn) as own:
                    await record(own, outcome)
        self.observability.emit("agent.tool.executed", trace_id=turn.trace_id, org_id=str(turn.access.org_id),
                                router=spec.router, action=spec.action, durationMs=outcome.duration_ms,
                                outcome="succeeded" if outcome.ok else "failed", errorCode=outcome.error_code)
        return outcome

    async def run_with_events(self, turn: Turn, spec: ToolSpec, tool_use_id: str, raw_input: dict,
                              outcomes: list[ToolOutcome], **run: Any) -> AsyncIterator[events.Event]:
        """`tool_started`, the run, `tool_completed`; the outcome is appended to `outcomes`."""
        yield events.tool_started(tool_use_id, spec.router, spec.action, raw_input)
        outcome = await self.run(turn, spec, tool_use_id, raw_input, **run)
        outcomes.append(outcome)
        yield self.completed(turn, tool_use_id, spec.router, spec.action, outcome, spec)

    async def _record(self, session: AsyncSession, turn: Turn, spec: ToolSpec, tool_use_id: str, raw_input: dict,
                      outcome: ToolOutcome, *, message_id: uuid.UUID | None, position: int,
                      execution_id: uuid.UUID | None, edited: bool, undoes: uuid.UUID | None,
                      now: datetime, rows_later: list[Row] | None = None) -> None:
        output = outcome.output
        if outcome.ok and edited:
            output = {**(outcome.output or {}), "_editedInput": True}
        status = "succeeded" if outcome.ok else "failed"
        audit = [outcome.audit_row] if outcome.audit_row is not None else []
        if execution_id is not None:
            await executions.finish(session, execution_id, status=status, output=output, error=outcome.error,
                                    input=raw_input if edited else None, duration_ms=outcome.duration_ms,
                                    audit_log_id=outcome.audit_log_id, now=now, along=audit)
        else:
            row = {"org_id": turn.access.org_id, "conversation_id": turn.conversation_id, "message_id": message_id,
                   "tool_use_id": tool_use_id, "position": position, "router": spec.router, "action": spec.action,
                   "kind": spec.kind, "confirm": spec.confirm, "input": raw_input, "output": output,
                   "error": outcome.error, "status": status, "actor_user_id": turn.caller.user_id,
                   "audit_log_id": outcome.audit_log_id, "duration_ms": outcome.duration_ms, "resolved_at": now,
                   "undoes": undoes}
            if rows_later is not None:
                rows_later.extend([*audit, executions.execution_row(row)])
            else:
                await executions.record(session, along=audit, **row)

    # ---- the tool uses of one assistant message -----------------------------------------------------

    async def process(self, turn: Turn, message_id: uuid.UUID, tool_uses: list[dict],
                      session: AsyncSession) -> AsyncIterator[events.Event]:
        """Run normal tools inline; the first that needs a person suspends it and every later one. The merged
        tool results and every execution row are left on the turn for the caller to send
        in this transaction (`TurnStore.take_unwritten`)."""
        pending_rows: list[Row] = []
        pending_events: list[events.Event] = []
        results: list[dict[str, Any]] = []
        for position, block in enumerate(tool_uses):
            name, tool_use_id, raw_input = block["name"], block["id"], block.get("input") or {}
            spec = self.spec_for(turn.access.role, name)
            if spec is None:
                router, _, action = name.partition("__")
                error = {"code": "unknown_tool", "message": f"No tool named {name} is available to you.",
                         "hint": "Use only the tools listed for this conversation."}
                pending_rows.append(_row(turn, message_id, tool_use_id, position, router, action, raw_input,
                                         status="failed", error=error))
                results.append(result_block(tool_use_id, None, error))
                pending_events.append(self.completed(turn, tool_use_id, router, action, events.failed(error)))
                continue
            if turn.suspended or needs_person(spec):
                if not turn.suspended:
                    try:
                        validated = self.runner.validate(spec, raw_input).model_dump(mode="json")
                    except ValidationError as exc:
                        error = validation_error(exc)
                        pending_rows.append(_row(turn, message_id, tool_use_id, position, spec.router, spec.action,
                                                 raw_input, status="failed", error=error, spec=spec))
                        results.append(result_block(tool_use_id, None, error))
                        pending_events.append(self.completed(turn, tool_use_id, spec.router, spec.action,
                                                             events.failed(error), spec))
                        continue
                    turn.suspended = True
                    pending_events.append(await self.pending(turn, spec, tool_use_id, validated, session))
                pending_rows.append(_row(turn, message_id, tool_use_id, position, spec.router, spec.action,
                                         raw_input, status="pending", spec=spec))
                continue
            outcomes: list[ToolOutcome] = []
            async for event in self.run_with_events(turn, spec, tool_use_id, raw_input, outcomes,
                                                    message_id=message_id, position=position, session=session,
                                                    rows_later=pending_rows):
                yield event
            outcome = outcomes[0]
            results.append(result_block(tool_use_id, outcome.output if outcome.ok else None, outcome.error))
        turn.unwritten.extend(pending_rows)
        if not turn.suspended:  # sent by the caller with the round trip's usage (TurnStore.take_unwritten)
            self.store.append_user_later(turn, results)
        for event in pending_events:
            yield event

    async def resume_rest(self, turn: Turn, message_id: uuid.UUID) -> AsyncIterator[events.Event]:
        """Later pending tool uses of the message, in order: normal ones run; the next that needs a person
        suspends the turn again (`turn.suspended`)."""
        async with self.store.scope(turn) as session:
            rows = await executions.for_message(session, message_id)
        for row in rows:
            if row.status != "pending":
                continue
            spec = self.registry.lookup(row.router, row.action)
            if spec is not None and needs_person(spec):
                turn.suspended = True  # the next one that needs a person: ask again, stop here
                yield await self.pending(turn, spec, row.tool_use_id, self._revalidated(spec, row))
                return
            async with self.store.scope(turn) as session:
                claimed = await executions.claim_pending(session, row.id, pending_ttl=self.settings.pending_ttl,
                                                         now=datetime.now(UTC))
            if claimed is None or spec is None:
                continue
            async for event in self.run_with_events(turn, spec, row.tool_use_id, row.input, [],
                                                    message_id=message_id, position=row.position,
                                                    execution_id=row.id):
                yield event

    def _revalidated(self, spec: ToolSpec, row: ToolExecution) -> dict:
        try:
            return self.runner.validate(spec, row.input).model_dump(mode="json")
        except ValidationError:
            return row.input


def _row(turn: Turn, message_id: uuid.UUID, tool_use_id: str, position: int, router: str, action: str,
         raw_input: dict, *, status: str, error: dict | None = None, spec: ToolSpec | None = None) -> Row:
    return executions.execution_row({
        "org_id": turn.access.org_id, "conversation_id": turn.conversation_id, "message_id": message_id,
        "tool_use_id": tool_use_id, "position": position, "router": router, "action": action,
        "kind": spec.kind if spec else "normal", "confirm": spec.confirm if spec else "never", "input": raw_input,
        "error": error, "status": status, "actor_user_id": turn.caller.user_id,
        "resolved_at": None if status == "pending" else datetime.now(UTC)})


def _candidate(candidate: dict) -> dict:
    return {k: v for k, v in candidate.items() if v is not None}
