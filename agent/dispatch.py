"""The tool dispatcher: what happens to the tool uses of an assistant answer, for send and resume alike, for
every persona.

Normal tools run inline, each in a savepoint of the round trip's transaction; their execution rows are rows of
the round trip, so each commits with its tool's write. The first tool use that needs a person suspends the
turn with it and every later one as `pending`; resume runs what is left of the answer in order and suspends
again on the next one that needs a person. Every `tool_completed` and every pending frame is built here, with
the persona's own frames around them.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from agent import events
from agent.observability import Observability
from agent.persona import History, Turn
from agent.policy import can_undo, needs_person
from agent.round_trip import RoundTrip
from agent.threads import ToolResult
from agent.tracing import traceparent
from agent.turns import TurnStore
from core.member_text import unwrap
from core.settings import Settings
from tools import executions
from tools.errors import failure
from tools.executions import ToolExecution
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolOutcome, ToolRunner, validation_error


@dataclass(frozen=True)
class ToolUse:
    """One tool use of an assistant answer: its id, the input the model sent, where it sits in the answer."""

    tool_use_id: str
    raw_input: dict[str, Any]
    message_id: uuid.UUID | None = None
    position: int = 0

    @classmethod
    def of(cls, block: dict[str, Any], message_id: uuid.UUID | None, position: int) -> ToolUse:
        """The model's tool use; member-written text it copied out of an envelope (core/member_text.py) goes on
        as the member wrote it: the envelope is for the model's reading, never stored, run or shown."""
        raw = unwrap(block.get("input"))
        return cls(block["id"], raw if isinstance(raw, dict) else {}, message_id, position)


class ToolDispatcher:
    def __init__(self, *, registry: ToolRegistry, runner: ToolRunner, store: TurnStore, settings: Settings,
                 observability: Observability) -> None:
        self.registry, self.runner, self.store = registry, runner, store
        self.settings, self.observability = settings, observability

    def spec_for(self, turn: Turn, name: str) -> ToolSpec | None:
        """The tool named `name` if the persona offers it to the turn's role."""
        spec = self.registry.get(name)
        if spec is None or not spec.allows(turn.access.role) or not turn.persona.offers(spec):
            return None
        return spec

    def _refused(self, turn: Turn, name: str) -> dict[str, Any]:
        """Why a tool use names no tool of this turn: a tool the persona offers to some of its roles but not to
        the caller's is refused as such (the runner's words); any other name is unknown."""
        known = self.registry.get(name)
        if known is not None and turn.persona.offers(known) and known.roles & turn.persona.roles:
            refused = self.runner.refusal(known, turn.access.role, turn.locale)
            if refused is not None:
                return refused
        return failure("unknown_tool", turn.locale, detail=f"No tool named {name} is available to you.",
                       hint="Use only the tools listed for this conversation.", tool=name)

    # ---- frames -------------------------------------------------------------------------------------

    def completed(self, turn: Turn, tool_use_id: str, router: str, action: str, outcome: ToolOutcome,
                  spec: ToolSpec | None = None) -> list[events.Event]:
        """`tool_completed` (offering Undo only when the caller's role may run the inverse), then the persona's
        frames for the finished tool."""
        undoable = can_undo(self.registry, spec, turn.access.role, succeeded=outcome.ok)
        return [events.tool_completed(tool_use_id, router, action, outcome, inverse_available=undoable),
                *turn.persona.frames.tool_finished(turn, f"{router}__{action}", outcome, spec)]

    async def pending(self, turn: Turn, spec: ToolSpec, tool_use_id: str, validated: dict,
                      session: AsyncSession | None = None) -> events.Event:
        """The event that asks the person (a pick or a confirmation, with the action in words), logged as such."""
        event: events.Event
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

    async def run(self, turn: Turn, spec: ToolSpec, use: ToolUse, trip: RoundTrip | None, *,
                  execution_id: uuid.UUID | None = None, edited: bool = False, undoes: uuid.UUID | None = None,
                  audit_metadata: dict | None = None) -> ToolOutcome:
        """Run one tool; its execution row (and a write's audit row) commits with its write: in the round trip
        `trip` (a savepoint of its transaction; a new row joins the trip's rows), else in a transaction of its
        own. `execution_id`: the pending (or running) row this run finishes."""
        now = datetime.now(UTC)
        tracing = self.observability.tracing
        span = tracing.tool(turn.who(), turn.span, name=spec.name, tool_use_id=use.tool_use_id,
                            needs_person=execution_id is not None and undoes is None)
        tracing.content(span, "gen_ai.tool.call.arguments", use.raw_input)

        async def record(session: AsyncSession, outcome: ToolOutcome) -> None:
            await self._record(session, trip, turn, spec, use, outcome, execution_id=execution_id, edited=edited,
                               undoes=undoes, now=now)

        outcome: ToolOutcome | None = None
        try:
            outcome = await self.runner.run(spec, use.raw_input, access=turn.access, caller=turn.caller,
                                            locale=turn.locale, now=now, on_success=record,
                                            audit_metadata=audit_metadata, session=trip.session if trip else None,
                                            conversation_id=turn.conversation_id, carry_audit=True)
            if not outcome.ok:
                if trip is not None:
                    await record(trip.session, outcome)
                else:
                    async with self.store.scope(turn) as own:
                        await record(own, outcome)
        finally:
            if outcome is not None:
                tracing.finish_tool(span, ok=outcome.ok, error_code=outcome.error_code,
                                    duration_ms=outcome.duration_ms)
                tracing.content(span, "gen_ai.tool.call.result", outcome.output or outcome.error)
            else:
                tracing.failed(span, "internal")
            span.end()
        assert outcome is not None
        self.observability.emit("agent.tool.executed", trace_id=turn.trace_id, org_id=str(turn.access.org_id),
                                router=spec.router, action=spec.action, durationMs=outcome.duration_ms,
                                outcome="succeeded" if outcome.ok else "failed", errorCode=outcome.error_code)
        return outcome

    async def run_with_events(self, turn: Turn, thread: History, spec: ToolSpec, use: ToolUse, trip: RoundTrip,
                              outcomes: list[ToolOutcome], **run: Any) -> AsyncIterator[events.Event]:
        """The persona's frames and `tool_started`, the run, what the history adds and what the persona shows
        of it (its hooks), `tool_completed`; the outcome is appended to `outcomes`."""
        for frame in turn.persona.frames.tool_started(turn, spec):
            yield frame
        yield events.tool_started(use.tool_use_id, spec.router, spec.action, use.raw_input)
        outcome = await self.run(turn, spec, use, trip, **run)
        outcomes.append(outcome)
        added = [*await thread.after_tool(turn, trip, spec, outcome),
                 *await turn.persona.frames.after_tool(turn, trip, spec, use.tool_use_id, outcome)] if outcome.ok else []
        for frame in self.completed(turn, use.tool_use_id, spec.router, spec.action, outcome, spec):
            yield frame
        for frame in added:
            yield frame

    async def _record(self, session: AsyncSession, trip: RoundTrip | None, turn: Turn, spec: ToolSpec, use: ToolUse,
                      outcome: ToolOutcome, *, execution_id: uuid.UUID | None, edited: bool,
                      undoes: uuid.UUID | None, now: datetime) -> None:
        output = outcome.output
        if outcome.ok and edited:
            output = {**(outcome.output or {}), "_editedInput": True}
        status = "succeeded" if outcome.ok else "failed"
        audit = [outcome.audit_row] if outcome.audit_row is not None else []
        if execution_id is not None:
            await executions.finish(session, execution_id, status=status, output=output, error=outcome.error,
                                    input=use.raw_input if edited else None, duration_ms=outcome.duration_ms,
                                    audit_log_id=outcome.audit_log_id, now=now, along=audit)
            return
        row = {"org_id": turn.access.org_id, "conversation_id": turn.conversation_id, "message_id": use.message_id,
               "tool_use_id": use.tool_use_id, "position": use.position, "router": spec.router,
               "action": spec.action, "kind": spec.kind, "confirm": spec.confirm, "input": use.raw_input,
               "output": output, "error": outcome.error, "status": status, "actor_user_id": turn.caller.user_id,
               "audit_log_id": outcome.audit_log_id, "duration_ms": outcome.duration_ms, "resolved_at": now,
               "undoes": undoes}
        if trip is not None:
            trip.add(*audit, executions.execution_row(row))
        else:
            await executions.record(session, along=audit, **row)

    # ---- the tool uses of one assistant answer ------------------------------------------------------

    async def process(self, turn: Turn, thread: History, trip: RoundTrip, message_id: uuid.UUID | None,
                      tool_uses: list[dict]) -> AsyncIterator[events.Event]:
        """Run normal tools inline; the first that needs a person suspends it and every later one. Their
        execution rows and (unless suspended) their results are rows of the round trip; their frames go out in
        the order of the tool uses (ARCHITECTURE.md), a tool that fails before it runs included."""
        results: list[ToolResult] = []
        for position, block in enumerate(tool_uses):
            use = ToolUse.of(block, message_id, position)
            name = block["name"]
            spec = self.spec_for(turn, name)
            if spec is None:
                router, _, action = name.partition("__")
                error = self._refused(turn, name)
                trip.add(_row(turn, use, router, action, status="failed", error=error))
                results.append(ToolResult(use.tool_use_id, name, None, error))
                for event in self.completed(turn, use.tool_use_id, router, action, events.failed(error)):
                    yield event
                continue
            if turn.suspended or needs_person(spec):
                if not turn.suspended:
                    try:
                        validated = self.runner.validate(spec, use.raw_input).model_dump(mode="json")
                    except ValidationError as exc:
                        error = validation_error(exc, turn.locale, spec.name)
                        trip.add(_row(turn, use, spec.router, spec.action, status="failed", error=error, spec=spec))
                        results.append(ToolResult(use.tool_use_id, name, None, error))
                        for event in self.completed(turn, use.tool_use_id, spec.router, spec.action,
                                                    events.failed(error), spec):
                            yield event
                        continue
                    turn.suspended = True
                    yield await self.pending(turn, spec, use.tool_use_id, validated, trip.session)
                trip.add(_row(turn, use, spec.router, spec.action, status="pending", spec=spec,
                              trace_parent=traceparent(turn.span)))
                continue
            outcomes: list[ToolOutcome] = []
            async for event in self.run_with_events(turn, thread, spec, use, trip, outcomes):
                yield event
            outcome = outcomes[0]
            results.append(ToolResult(use.tool_use_id, name, outcome.output if outcome.ok else None, outcome.error))
        if not turn.suspended:
            thread.results(turn, trip, results)

    async def resume_rest(self, turn: Turn, thread: History, message_id: uuid.UUID) -> AsyncIterator[events.Event]:
        """Later pending tool uses of the answer, in order: normal ones run, each in a transaction of its own;
        the next that needs a person suspends the turn again (`turn.suspended`)."""
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
                trip = RoundTrip(session)
                claimed = await executions.claim_pending(session, row.id, pending_ttl=self.settings.pending_ttl,
                                                         now=datetime.now(UTC))
                if claimed is None or spec is None:
                    continue
                frames = [event async for event in self.run_with_events(
                    turn, thread, spec, ToolUse(row.tool_use_id, row.input, message_id, row.position), trip, [],
                    execution_id=row.id)]
                await trip.write()
            for event in frames:
                yield event

    def _revalidated(self, spec: ToolSpec, row: ToolExecution) -> dict:
        try:
            return self.runner.validate(spec, row.input).model_dump(mode="json")
        except ValidationError:
            return row.input


def _row(turn: Turn, use: ToolUse, router: str, action: str, *, status: str, error: dict | None = None,
         spec: ToolSpec | None = None, trace_parent: str | None = None):
    return executions.execution_row({"trace_parent": trace_parent,
        "org_id": turn.access.org_id, "conversation_id": turn.conversation_id, "message_id": use.message_id,
        "tool_use_id": use.tool_use_id, "position": use.position, "router": router, "action": action,
        "kind": spec.kind if spec else "normal", "confirm": spec.confirm if spec else "never",
        "input": use.raw_input, "error": error, "status": status, "actor_user_id": turn.caller.user_id,
        "resolved_at": None if status == "pending" else datetime.now(UTC)})


def _candidate(candidate: dict) -> dict:
    return {k: v for k, v in candidate.items() if v is not None}
