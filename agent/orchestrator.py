"""The turn: budget pre-check, user turn, model loop (≤ 6 round trips), tools inline or suspended, finalize.

`open_send` does everything that can still answer with an HTTP error (conversation ownership, the turn
lock); the returned `TurnStream` yields the SSE events and always ends with exactly one `done`.
Suspension is plain data: pending tool uses are rows in `ai_tool_executions`; resume (agent/resume.py)
picks them up from there.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import anyio
import structlog
from pydantic import ValidationError

from agent import conversations, events
from agent.budget import check_budget
from agent.context import build_request, tool_definitions, turn_context, user_turn_content
from agent.conversations import Conversation
from agent.costs import PriceBook, Usage
from agent.errors import AgentError, classify
from agent.locks import TurnLock
from agent.metering import Meter, OpenCall
from agent.model import ModelClient, ModelResponse, TextDelta
from agent.observability import Observability
from agent.replay import guard, validate_replay
from agent.usage import record_turn
from core.database import Database
from core.errors import Conflict, NotFound, ServiceError
from core.i18n import error_message
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools import executions
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolOutcome, ToolRunner, validation_error

log = structlog.get_logger("agent.orchestrator")

MAX_ROUND_TRIPS = 6
AmbientFinder = Callable[[uuid.UUID, str], Awaitable[str | None]]
Compactor = Callable[[Conversation], Awaitable[None]]
TitleScheduler = Callable[[Conversation], None]  # starts titling in the background; never blocks, never raises


@dataclass
class Turn:
    """Everything one controller call needs, plus what it accumulates (usage, suspension)."""

    access: OrgAccess
    caller: Caller
    locale: str
    trace_id: str
    endpoint: str
    conversation_id: uuid.UUID
    conversation: Conversation | None = None
    is_new: bool = False
    usage: Usage = field(default_factory=Usage)
    cost_usd_micros: int = 0
    model_calls: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    suspended: bool = False
    prompt_length: int = 0
    open_call: OpenCall | None = None  # the model call in flight (agent.metering)
    started: datetime = field(default_factory=lambda: datetime.now(UTC))


class TurnStream:
    """The SSE side of a turn: runs `body`, maps failures to `error`, always finalizes and ends with `done`."""

    def __init__(self, orchestrator: Orchestrator, turn: Turn, lock: TurnLock,
                 body: Callable[[Turn], AsyncIterator[events.Event]]) -> None:
        self.orchestrator, self.turn, self.lock, self.body = orchestrator, turn, lock, body

    async def events(self) -> AsyncIterator[events.Event]:
        turn, obs = self.turn, self.orchestrator.observability
        obs.emit("agent.turn.started", trace_id=turn.trace_id, org_id=str(turn.access.org_id),
                 endpoint=turn.endpoint, promptLength=turn.prompt_length, conversation_id=str(turn.conversation_id))
        failed_code: str | None = None
        try:
            async for event in self.body(turn):
                yield event
        except Exception as exc:
            failed_code = classify(exc)
            if failed_code == "internal":
                log.exception("agent.turn.crashed", error_type=type(exc).__name__)
                obs.capture_exception(exc, trace_id=turn.trace_id, org_id=str(turn.access.org_id),
                                      endpoint=turn.endpoint, code=failed_code)
            yield events.error(failed_code, error_message(failed_code, turn.locale, **_params(exc)), turn.trace_id)
        except BaseException:  # CancelledError / GeneratorExit: the client left, nothing more can be sent
            failed_code = "aborted"
            raise
        finally:
            with anyio.CancelScope(shield=True):
                await self.orchestrator.finalize(turn, failed_code)
                await self.lock.release()
        titles = self.orchestrator.titles
        if titles is not None and turn.is_new and failed_code is None and turn.conversation is not None:
            titles(turn.conversation)
        yield events.done(turn.conversation_id if turn.conversation else None, turn.usage, turn.cost_usd_micros)


def _params(exc: BaseException) -> dict[str, Any]:
    return dict(exc.params) if isinstance(exc, ServiceError) else {}


class Orchestrator:
    def __init__(self, *, db: Database, redis: Any, model: ModelClient, registry: ToolRegistry, runner: ToolRunner,
                 prices: PriceBook, settings: Settings, observability: Observability | None = None,
                 ambient: AmbientFinder | None = None, compactor: Compactor | None = None,
                 titles: TitleScheduler | None = None) -> None:
        self.db, self.redis, self.model, self.registry, self.runner = db, redis, model, registry, runner
        self.prices, self.settings = prices, settings
        self.observability = observability or Observability()
        self.ambient, self.compactor, self.titles = ambient, compactor, titles
        self._tools_by_role: dict[str, tuple[list[ToolSpec], list[dict[str, Any]]]] = {}
        self.meter = Meter(db=db, redis=redis, prices=prices, settings=settings)

    # ---- entry points -------------------------------------------------------------------------------

    async def open_send(self, *, access: OrgAccess, caller: Caller, locale: str, trace_id: str, message: str,
                        conversation_id: uuid.UUID | None, page_context: dict | None) -> TurnStream:
        turn = Turn(access=access, caller=caller, locale=locale, trace_id=trace_id, endpoint="send",
                    conversation_id=conversation_id or uuid.uuid4(), is_new=conversation_id is None,
                    prompt_length=len(message))
        if conversation_id is not None:
            async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
                turn.conversation = await conversations.get_owned(session, access.org_id, conversation_id,
                                                                  caller.user_id)
            if turn.conversation is None:
                raise NotFound("conversation_not_found")
        await self.check_rate(caller)
        lock = await self.take_lock(turn.conversation_id)

        async def body(t: Turn) -> AsyncIterator[events.Event]:
            async for event in self._send_body(t, message, page_context):
                yield event

        return TurnStream(self, turn, lock, body)

    async def check_rate(self, caller: Caller) -> None:
        """A per-user fixed window on new turns (AGENT_RATE_LIMIT_PER_MINUTE; 0 turns it off)."""
        limit = self.settings.turn_rate_limit
        if limit <= 0:
            return
        window = int(datetime.now(UTC).timestamp() // 60)
        key = f"spotter:rate:{caller.user_id}:{window}"
        count = await self.redis.incr(key)
        if count == 1:
            await self.redis.expire(key, 120)
        if count > limit:
            raise AgentError("rate_limited", status=429)

    async def take_lock(self, conversation_id: uuid.UUID, wait_seconds: float = 0.0) -> TurnLock:
        lock = TurnLock(self.redis, conversation_id, lease_seconds=self.settings.agent_turn_lock_lease_seconds)
        if not await lock.acquire(wait_seconds):
            raise Conflict("conversation_busy")
        return lock

    # ---- send ---------------------------------------------------------------------------------------

    async def _send_body(self, turn: Turn, message: str, page_context: dict | None) -> AsyncIterator[events.Event]:
        if self.model.name == "disabled":
            raise AgentError("agent_disabled")
        now = datetime.now(UTC)
        async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as session:
            await check_budget(session, turn.access, now)
            if turn.conversation is None:
                turn.conversation = await conversations.create(session, turn.access.org_id, turn.caller.user_id,
                                                               turn.conversation_id)
            else:
                superseded = await executions.supersede_pending(session, turn.conversation_id, now=now)
                await executions.expire_stale(session, turn.conversation_id,
                                              pending_ttl=self.settings.pending_ttl, now=now)
                if superseded:
                    log.info("agent.tool.superseded", count=len(superseded))
        if turn.is_new:
            yield events.conversation_started(turn.conversation_id)
        ambient = await self._ambient(turn, message)
        content = user_turn_content(message, turn=turn_context(turn.access, turn.caller, turn.locale, now),
                                    page_context=page_context, ambient=ambient)
        async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as session:
            await conversations.append(session, turn.conversation, "user", content, page_context=page_context)
            if turn.is_new:
                await conversations.set_title(session, turn.conversation_id, _title_from(message))
            if self.compactor is None:
                turn.history = conversations.to_model_messages(
                    await conversations.messages_since_anchor(session, turn.conversation_id))
        if self.compactor is not None:
            await self.compactor(turn.conversation)
            await self.load_history(turn)
        async for event in self.drive(turn):
            yield event

    async def _ambient(self, turn: Turn, message: str) -> str | None:
        if self.ambient is None:
            return None
        try:
            return await self.ambient(turn.access.org_id, message)
        except Exception:  # ambient context is best effort, never a failure
            log.warning("agent.ambient.failed")
            return None

    async def load_history(self, turn: Turn) -> None:
        async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as session:
            rows = await conversations.messages_since_anchor(session, turn.conversation_id)
        turn.history = conversations.to_model_messages(rows)

    # ---- the model loop -----------------------------------------------------------------------------

    def tools_for(self, role: str) -> tuple[list[ToolSpec], list[dict[str, Any]]]:
        """The role's tools and their cached definitions (built once per role, not per round trip)."""
        if role not in self._tools_by_role:
            specs = self.registry.for_role(role)
            self._tools_by_role[role] = (specs, tool_definitions(specs))
        return self._tools_by_role[role]

    async def drive(self, turn: Turn) -> AsyncIterator[events.Event]:
        """At most MAX_ROUND_TRIPS model calls; stops on end_turn or a suspension."""
        specs, tools = self.tools_for(turn.access.role)
        for _ in range(MAX_ROUND_TRIPS):
            history = await self._guarded(turn)
            request = build_request(model=self.settings.agent_model, specs=specs, access=turn.access,
                                    messages=history, max_tokens=self.settings.agent_max_tokens, tools_cache=tools)
            streamed: list[str] = []
            response: ModelResponse | None = None
            try:
                async for item in self.meter.stream(turn, self.model, request):
                    if isinstance(item, TextDelta):
                        streamed.append(item.text)
                        yield events.text_delta(item.text)
                    else:
                        response = item
            except BaseException:
                if streamed:  # keep what streamed; the replay guard handles anything left dangling
                    with anyio.CancelScope(shield=True):
                        await self._persist_assistant(turn, [{"type": "text", "text": "".join(streamed)}],
                                                      "interrupted", None)
                raise
            assert response is not None
            tool_uses = [b for b in response.content if b.get("type") == "tool_use"]
            # One transaction per round trip: the assistant message, every inline tool (each in a savepoint,
            # its execution row beside its write), pending rows, and the merged tool_result message.
            async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as session:
                message_id = await self._persist_assistant(turn, response.content, response.stop_reason,
                                                           response.usage, session=session)
                yield events.message_done(message_id, response.stop_reason)
                if response.stop_reason != "tool_use" or not tool_uses:
                    return
                async for event in self.process_tool_uses(turn, message_id, tool_uses, session):
                    yield event
            if turn.suspended:
                return

    async def _guarded(self, turn: Turn) -> list[dict[str, Any]]:
        ok, _ = validate_replay(turn.history)
        if ok:
            return turn.history
        reasons = await self._repair_reasons(turn)

        def report(event: dict) -> None:
            self.observability.emit("agent.replay.violation", trace_id=turn.trace_id,
                                    org_id=str(turn.access.org_id), **event)

        try:
            return guard(turn.history, reasons=reasons, on_violation=report)
        except (AssertionError, ValueError) as exc:  # repair could not make it valid: never send it
            raise AgentError("replay_integrity_violation") from exc

    async def _repair_reasons(self, turn: Turn) -> dict[str, str]:
        async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as session:
            rows = await executions.for_conversation(session, turn.conversation_id)
        mapping = {"superseded": "superseded", "expired": "expired", "rejected_by_user": "rejected_by_user"}
        return {row.tool_use_id: mapping[row.status] for row in rows if row.status in mapping}

    async def _persist_assistant(self, turn: Turn, content: list[dict], stop_reason: str | None,
                                 usage: Usage | None, session=None) -> uuid.UUID:
        assert turn.conversation is not None
        usage_json = None if usage is None else {
            "inputTokens": usage.input_tokens, "outputTokens": usage.output_tokens,
            "cacheReadTokens": usage.cache_read_tokens, "cacheCreationTokens": usage.cache_creation_tokens}
        if session is None:
            async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as own:
                message_id = await conversations.append(own, turn.conversation, "assistant", content,
                                                        stop_reason=stop_reason, usage=usage_json)
        else:
            message_id = await conversations.append(session, turn.conversation, "assistant", content,
                                                    stop_reason=stop_reason, usage=usage_json)
        turn.history.append({"role": "assistant", "content": content})
        return message_id

    # ---- tools --------------------------------------------------------------------------------------

    def spec_for(self, role: str, name: str) -> ToolSpec | None:
        spec = self.registry.get(name)
        return spec if spec is not None and spec.allows(role) else None

    async def run_tool(self, turn: Turn, spec: ToolSpec, tool_use_id: str, raw_input: dict, *,
                       message_id: uuid.UUID | None, position: int, execution_id: uuid.UUID | None = None,
                       edited: bool = False, undoes: uuid.UUID | None = None,
                       audit_metadata: dict | None = None, session=None) -> ToolOutcome:
        """Run one tool; its execution row commits in the same transaction as its write."""
        now = datetime.now(UTC)

        async def record(db_session, outcome: ToolOutcome) -> None:
            await self._record_outcome(db_session, turn, spec, tool_use_id, raw_input, outcome,
                                       message_id=message_id, position=position, execution_id=execution_id,
                                       edited=edited, undoes=undoes, now=now)

        outcome = await self.runner.run(spec, raw_input, access=turn.access, caller=turn.caller, locale=turn.locale,
                                        now=now, on_success=record, audit_metadata=audit_metadata, session=session)
        if not outcome.ok:
            if session is not None:
                await record(session, outcome)
            else:
                async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as own:
                    await record(own, outcome)
        self.observability.emit("agent.tool.executed", trace_id=turn.trace_id, org_id=str(turn.access.org_id),
                                router=spec.router, action=spec.action, durationMs=outcome.duration_ms,
                                outcome="succeeded" if outcome.ok else "failed", errorCode=outcome.error_code)
        return outcome

    async def _record_outcome(self, session, turn: Turn, spec: ToolSpec, tool_use_id: str, raw_input: dict,
                              outcome: ToolOutcome, *, message_id, position, execution_id, edited, undoes,
                              now) -> None:
        output = outcome.output
        if outcome.ok and edited:
            output = {**(outcome.output or {}), "_editedInput": True}
        status = "succeeded" if outcome.ok else "failed"
        if execution_id is not None:
            await executions.finish(session, execution_id, status=status, output=output, error=outcome.error,
                                    input=raw_input if edited else None, duration_ms=outcome.duration_ms,
                                    audit_log_id=outcome.audit_log_id, now=now)
        else:
            await executions.record(session, org_id=turn.access.org_id, conversation_id=turn.conversation_id,
                                    message_id=message_id, tool_use_id=tool_use_id, position=position,
                                    router=spec.router, action=spec.action, kind=spec.kind, confirm=spec.confirm,
                                    input=raw_input, output=output, error=outcome.error, status=status,
                                    actor_user_id=turn.caller.user_id, audit_log_id=outcome.audit_log_id,
                                    duration_ms=outcome.duration_ms, resolved_at=now, undoes=undoes)

    def inverse_available(self, spec: ToolSpec, ok: bool) -> bool:
        return ok and spec.side_effects == "write" and spec.inverse is not None

    async def process_tool_uses(self, turn: Turn, message_id: uuid.UUID, tool_uses: list[dict],
                                session) -> AsyncIterator[events.Event]:
        """Run normal tools inline; the first that needs a person suspends it and every later one."""
        pending_rows: list[dict[str, Any]] = []
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
                pending_events.append(events.tool_completed(tool_use_id, router, action, ok=False, output=None,
                                                            error=error, inverse_available=False, duration_ms=0))
                continue
            needs_person = spec.kind == "user_picker" or spec.confirm != "never"
            if turn.suspended or needs_person:
                if not turn.suspended:
                    try:
                        validated = self.runner.validate(spec, raw_input).model_dump(mode="json")
                    except ValidationError as exc:
                        error = validation_error(exc)
                        pending_rows.append(_row(turn, message_id, tool_use_id, position, spec.router, spec.action,
                                                 raw_input, status="failed", error=error, spec=spec))
                        results.append(result_block(tool_use_id, None, error))
                        pending_events.append(events.tool_completed(
                            tool_use_id, spec.router, spec.action, ok=False, output=None, error=error,
                            inverse_available=False, duration_ms=0))
                        continue
                    turn.suspended = True
                    pending_events.append(self.pending_event(spec, tool_use_id, validated))
                pending_rows.append(_row(turn, message_id, tool_use_id, position, spec.router, spec.action,
                                         raw_input, status="pending", spec=spec))
                continue
            yield events.tool_started(tool_use_id, spec.router, spec.action, raw_input)
            outcome = await self.run_tool(turn, spec, tool_use_id, raw_input, message_id=message_id,
                                          position=position, session=session)
            results.append(result_block(tool_use_id, outcome.output if outcome.ok else None, outcome.error))
            yield events.tool_completed(tool_use_id, spec.router, spec.action, ok=outcome.ok, output=outcome.output,
                                        error=outcome.error, inverse_available=self.inverse_available(spec, outcome.ok),
                                        duration_ms=outcome.duration_ms)
        for row in pending_rows:
            await executions.record(session, **row)
        if not turn.suspended:
            assert turn.conversation is not None
            await conversations.append(session, turn.conversation, "user", results)
            turn.history.append({"role": "user", "content": results})
        for event in pending_events:
            if event.type in ("confirmation_pending", "disambiguation_pending"):
                self.observability.emit(f"agent.tool.{event.type}", trace_id=turn.trace_id,
                                        org_id=str(turn.access.org_id), router=event.data.get("router"),
                                        action=event.data.get("action"))
            yield event

    def pending_event(self, spec: ToolSpec, tool_use_id: str, validated: dict) -> events.Event:
        if spec.kind == "user_picker":
            return events.disambiguation_pending(tool_use_id, validated["kind"], validated["prompt"],
                                                 [_candidate(c) for c in validated["candidates"]])
        return events.confirmation_pending(tool_use_id, spec.router, spec.action, validated, spec.confirm)

    async def append_results(self, session, turn: Turn, message_id: uuid.UUID) -> None:
        """One user message whose content starts with every tool_result of the assistant message."""
        rows = await executions.for_message(session, message_id)
        content = [tool_result_block(row) for row in rows]
        assert turn.conversation is not None
        await conversations.append(session, turn.conversation, "user", content)
        turn.history.append({"role": "user", "content": content})

    # ---- finalize -----------------------------------------------------------------------------------

    async def finalize(self, turn: Turn, failed_code: str | None) -> None:
        await self.meter.settle(turn)  # a call abandoned mid-stream still costs what it was billed
        try:
            if turn.model_calls:  # each call's usage is already booked; this counts the turn
                async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as session:
                    await record_turn(session, org_id=turn.access.org_id, user_id=turn.caller.user_id,
                                      day=datetime.now(UTC).date(), usage=Usage(), cost_usd_micros=0)
        except Exception:
            log.exception("agent.usage.record_failed")
        fields = {"trace_id": turn.trace_id, "org_id": str(turn.access.org_id), "endpoint": turn.endpoint,
                  "inputTokens": turn.usage.input_tokens, "outputTokens": turn.usage.output_tokens,
                  "cacheReadTokens": turn.usage.cache_read_tokens,
                  "cacheCreationTokens": turn.usage.cache_creation_tokens,
                  "costUsdMicros": turn.cost_usd_micros, "cacheHitRatio": turn.usage.cache_hit_ratio,
                  "modelCalls": turn.model_calls, "suspended": turn.suspended,
                  "durationMs": int((datetime.now(UTC) - turn.started).total_seconds() * 1000)}
        if failed_code:
            self.observability.emit("agent.turn.failed", errorCode=failed_code, **fields)
        else:
            self.observability.emit("agent.turn.completed", **fields)


def _row(turn: Turn, message_id: uuid.UUID, tool_use_id: str, position: int, router: str, action: str,
         raw_input: dict, *, status: str, error: dict | None = None, spec: ToolSpec | None = None) -> dict[str, Any]:
    return {"org_id": turn.access.org_id, "conversation_id": turn.conversation_id, "message_id": message_id,
            "tool_use_id": tool_use_id, "position": position, "router": router, "action": action,
            "kind": spec.kind if spec else "normal", "confirm": spec.confirm if spec else "never",
            "input": raw_input, "error": error, "status": status, "actor_user_id": turn.caller.user_id,
            "resolved_at": None if status == "pending" else datetime.now(UTC)}


def _candidate(candidate: dict) -> dict:
    return {k: v for k, v in candidate.items() if v is not None}


def result_block(tool_use_id: str, output: dict | None, error: dict | None) -> dict[str, Any]:
    """A tool_result block: the output as JSON, or `is_error` with {code, message, hint}."""
    if error is not None:
        return {"type": "tool_result", "tool_use_id": tool_use_id, "is_error": True,
                "content": json.dumps(error, ensure_ascii=False, default=str)}
    return {"type": "tool_result", "tool_use_id": tool_use_id,
            "content": json.dumps(output or {}, ensure_ascii=False, default=str)}


def tool_result_block(row: executions.ToolExecution) -> dict[str, Any]:
    """The tool_result the model reads for one stored execution."""
    if row.status == "succeeded":
        output = dict(row.output or {})
        if output.pop("_editedInput", False):
            output = {"note": "The user edited the input before approving; the tool ran with the edited input "
                              "shown here.", "input": row.input, "result": output}
        return result_block(row.tool_use_id, output, None)
    return result_block(row.tool_use_id, None, row.error or {
        "code": row.status, "message": f"The tool call ended as {row.status}.", "hint": None})


def _title_from(message: str) -> str:
    line = " ".join(message.split())
    return line if len(line) <= 60 else line[:57].rstrip() + "..."
