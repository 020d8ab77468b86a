"""The trainer's turn: the TRAINER persona on the shared engine pieces (Turn, TurnStream, TurnLock, Meter,
budget, registry, runner, observability, the replay check), with `trainer_events` as its store and the
events → messages conversion of 000 §4.3 as its context builder.

`open_send` does what can still answer with an HTTP error (session ownership → 404, the turn lock → 409); the
stream then runs: user_message event, knowledge selection, at most 10 forced single-tool iterations ending on
coach__idle / coach__message_ask_user, and exactly one `done {sessionId, iterations, usage}`.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import structlog

from agent import events
from agent.budget import check_budget
from agent.costs import PriceBook
from agent.errors import AgentError
from agent.events import Event
from agent.locks import TurnLock
from agent.metering import Meter
from agent.model import ModelClient, ModelRequest, ModelResponse
from agent.observability import Observability
from agent.replay import validate_replay
from agent.request import tool_definitions, with_cached_tail
from agent.trainer import store
from agent.trainer.context import TrainerContext
from agent.trainer.frames import done_frame, message_frame, question_frame, status_frame
from agent.trainer.observe import observation
from agent.trainer.persona import MEMBER_ROLE, TRAINER
from agent.turns import Turn, TurnStore, TurnStream
from core.database import Database
from core.errors import Conflict, NotFound
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools import executions
from tools.registry import ToolRegistry
from tools.runner import ToolRunner

log = structlog.get_logger("agent.trainer")


@dataclasses.dataclass
class TrainerTurn(Turn):
    member_id: uuid.UUID | None = None  # always set by open_send (a default only for dataclass ordering)
    iterations: int = 0
    messages: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # the `message` frames, for chat
    question: dict[str, Any] | None = None

    @property
    def member(self) -> uuid.UUID:
        if self.member_id is None:
            raise AgentError("member_profile_required", status=403)
        return self.member_id


class TrainerAgent:
    def __init__(self, *, db: Database, redis: Any, model: ModelClient, registry: ToolRegistry, runner: ToolRunner,
                 prices: PriceBook, settings: Settings, observability: Observability | None = None) -> None:
        self.db, self.redis, self.model, self.registry, self.runner = db, redis, model, registry, runner
        self.settings, self.persona = settings, TRAINER
        self.observability = observability or Observability()
        self.meter = Meter(db=db, redis=redis, prices=prices, settings=settings)
        self.specs = self.persona.tools(registry, MEMBER_ROLE)
        self.tool_defs = tool_definitions(self.specs)
        self.turns = TurnStore(db)
        self.context = TrainerContext(db=db, model=model, meter=self.meter, settings=settings)

    def scope(self, turn: Turn):
        return self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id)

    async def open_send(self, *, access: OrgAccess, caller: Caller, member_id: uuid.UUID, locale: str, trace_id: str,
                        message: str, session_id: uuid.UUID | None,
                        current_workout_id: str | None = None) -> TurnStream:
        member_access = dataclasses.replace(access, role=MEMBER_ROLE)  # a staff user here acts as the member
        now = datetime.now(UTC)
        is_new = False
        async with self.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            if session_id is not None:
                row = await store.get_owned(session, access.org_id, member_id, session_id)
                if row is None:
                    raise NotFound("session_not_found")
            else:
                row = await store.latest_active(session, access.org_id, member_id, now)
        if row is None:
            session_id, is_new = uuid.uuid4(), True
        else:
            session_id = row.id
        turn = TrainerTurn(access=member_access, caller=caller, locale=locale, trace_id=trace_id, endpoint="trainer",
                           conversation_id=session_id, is_new=is_new, prompt_length=len(message), member_id=member_id)
        lock = TurnLock(self.redis, session_id, lease_seconds=self.settings.agent_turn_lock_lease_seconds)
        if not await lock.acquire(0.0):
            raise Conflict("conversation_busy")

        async def body(t: Turn) -> AsyncIterator[Event]:
            async for event in self._body(t, message, current_workout_id):  # type: ignore[arg-type]
                yield event

        return TurnStream(turn, lock, body, finalize=self.finalize, observability=self.observability, titles=None,
                          done=lambda t: done_frame(t))

    async def _body(self, turn: TrainerTurn, message: str, current_workout_id: str | None) -> AsyncIterator[Event]:
        if self.model.name == "disabled":
            raise AgentError("agent_disabled")
        now = datetime.now(UTC)
        async with self.scope(turn) as session:
            await check_budget(session, turn.access, now)
            if turn.is_new:
                await store.create_session(session, org_id=turn.access.org_id, member_id=turn.member,
                                           user_id=turn.caller.user_id, now=now, session_id=turn.conversation_id)
        if not turn.is_new:
            await self.context.maybe_checkpoint(turn)
        async with self.scope(turn) as session:
            row = await store.require_owned(session, turn.access.org_id, turn.member, turn.conversation_id)
            await store.touch(session, row, now, title=message[:80])
            payload: dict[str, Any] = {"message": message, "context": turn_clock(turn.access, now)}
            if current_workout_id:
                payload["context"] += f"<current_workout_id>{current_workout_id}</current_workout_id>\n"
            await store.append(session, org_id=turn.access.org_id, session_id=turn.conversation_id,
                               type="user_message", payload=payload)
        turn.conversation = True  # type: ignore[assignment]  # the session exists: `done` names it
        if turn.is_new:
            yield Event("session_started", {"sessionId": str(turn.conversation_id)})
        async for event in self.context.select_knowledge(turn, message):
            yield event
        async for event in self.drive(turn):
            yield event

    async def drive(self, turn: TrainerTurn) -> AsyncIterator[Event]:
        for _ in range(self.persona.max_round_trips):
            turn.iterations += 1
            system, messages = await self.context.build(turn)
            ok, reason = validate_replay(messages)
            if not ok:
                raise AgentError("replay_integrity_violation")
            request = ModelRequest(model=self.settings.agent_model, system=system, tools=self.tool_defs,
                                   messages=with_cached_tail(messages), max_tokens=self.settings.agent_max_tokens,
                                   tool_choice=self.persona.tool_choice)
            await self._log(turn, "llm_request", {"model": request.model, "messages": len(messages),
                                                  "iteration": turn.iterations})
            response = await self._call(turn, request)
            tool_uses = [b for b in response.content if b.get("type") == "tool_use"]
            await self._log(turn, "llm_response", {"stopReason": response.stop_reason, "usage": events.usage_payload(
                response.usage), "tool": tool_uses[0]["name"] if tool_uses else None})
            if not tool_uses:  # shown as a message and logged, never a crash
                text = "".join(b.get("text", "") for b in response.content if b.get("type") == "text").strip()
                await self._log(turn, "error", {"code": "no_tool_use", "iteration": turn.iterations})
                log.warning("agent.trainer.no_tool_use", trace_id=turn.trace_id)
                if text:
                    frame = message_frame(text, [])
                    turn.messages.append(frame.data)
                    yield frame
                return
            use = tool_uses[0]
            ended = False
            async for event in self._run_tool(turn, use, response):
                if event.type in ("question", "confirmation_pending"):
                    ended = True
                yield event
            if ended or self.persona.ends_after([use["name"]]):
                return

    async def _call(self, turn: TrainerTurn, request: ModelRequest) -> ModelResponse:
        cost_before = turn.cost_usd_micros
        response: ModelResponse | None = None
        async for item in self.meter.stream(turn, self.model, request):
            if isinstance(item, ModelResponse):
                response = item
        assert response is not None
        used = response.usage
        async with self.scope(turn) as session:
            await store.add_costs(session, turn.conversation_id, tokens=_tokens(used),
                                  cached=used.cache_read_tokens, cost=turn.cost_usd_micros - cost_before)
        return response

    async def _run_tool(self, turn: TrainerTurn, use: dict[str, Any], response: ModelResponse) -> AsyncIterator[Event]:
        name, call_id, raw = use["name"], use["id"], use.get("input") or {}
        text = "".join(b.get("text", "") for b in response.content if b.get("type") == "text").strip()
        await self._log(turn, "tool_call", {"callId": call_id, "toolName": name, "arguments": raw,
                                            **({"text": text} if text else {})})
        spec = self.registry.get(name)
        router, _, action = name.partition("__")
        yield status_frame(name, "start", turn.locale)
        yield events.tool_started(call_id, router, action, raw)
        if spec is None or spec not in self.specs:
            error = {"code": "unknown_tool", "message": f"No tool {name}.", "hint": "Use one of the listed tools."}
            await self._result(turn, call_id, error, is_error=True)
            yield status_frame(name, "error", turn.locale)
            yield events.tool_completed(call_id, router, action, events.failed(error), inverse_available=False)
            return
        if spec.confirm != "never":  # a pending execution the confirm endpoint resolves
            async with self.scope(turn) as session:
                await executions.record(session, **execution_row(turn, spec, call_id, raw, status="pending"))
            yield events.confirmation_pending(call_id, router, action, raw, spec.confirm)
            return
        async for event in self.run_and_report(turn, spec, call_id, raw):
            yield event

    async def run_and_report(self, turn: TrainerTurn, spec, call_id: str, raw: dict[str, Any], *,
                             execution_id: uuid.UUID | None = None) -> AsyncIterator[Event]:
        """Run one tool, record its execution (undo reads it), append its result, and emit its frames."""
        name, router, action = spec.name, spec.router, spec.action

        async def record(session, outcome) -> None:
            done = {"status": "succeeded", "output": outcome.output, "duration_ms": outcome.duration_ms,
                    "audit_log_id": outcome.audit_log_id}
            if execution_id is not None:
                await executions.finish(session, execution_id, now=datetime.now(UTC), **done)
            else:
                await executions.record(session, **execution_row(turn, spec, call_id, raw, **done))

        outcome = await self.runner.run(spec, raw, access=turn.access, caller=turn.caller, locale=turn.locale,
                                        conversation_id=turn.conversation_id, on_success=record)
        if not outcome.ok and execution_id is not None:
            async with self.scope(turn) as session:
                await executions.finish(session, execution_id, status="failed", error=outcome.error,
                                        now=datetime.now(UTC))
        if not outcome.ok:
            await self._result(turn, call_id, outcome.error, is_error=True)
            yield status_frame(name, "error", turn.locale)
            yield events.tool_completed(call_id, router, action, outcome, inverse_available=False)
            return
        output = outcome.output or {}
        await self._result(turn, call_id, observation(name, output), is_error=False)
        async for event in self.context.after_tool(turn, name, output):
            yield event
        yield status_frame(name, "done", turn.locale)
        yield events.tool_completed(call_id, router, action, outcome, inverse_available=spec.inverse is not None)
        if name == "coach__message_notify_user":
            frame = message_frame(output["content"], output.get("attachments", []))
            turn.messages.append(frame.data)
            yield frame
        elif name == "coach__message_ask_user":
            frame = question_frame(output["content"], output.get("options", []))
            turn.question = frame.data
            yield frame

    async def _result(self, turn: TrainerTurn, call_id: str, result: Any, *, is_error: bool) -> None:
        await self._log(turn, "tool_result", {"callId": call_id, "result": result, "isError": is_error})

    async def _log(self, turn: TrainerTurn, type: str, payload: dict[str, Any]) -> None:
        async with self.scope(turn) as session:
            await store.append(session, org_id=turn.access.org_id, session_id=turn.conversation_id, type=type,
                               payload=payload)

    async def finalize(self, turn: Turn, failed_code: str | None) -> None:
        await self.meter.settle(turn)
        await self.turns.count_turn(turn)  # the turn in ai_usage_daily, as the staff copilot's
        fields = {"trace_id": turn.trace_id, "org_id": str(turn.access.org_id), "endpoint": turn.endpoint,
                  **events.usage_payload(turn.usage, turn.cost_usd_micros), "modelCalls": turn.model_calls,
                  "iterations": getattr(turn, "iterations", 0)}
        if failed_code is None:
            self.observability.emit("agent.turn.completed", **fields)
        else:
            self.observability.emit("agent.turn.failed", code=failed_code, **fields)


def turn_clock(access: OrgAccess, now: datetime) -> str:
    """The member's local time, ahead of their words (dates for schedules and expiring preferences)."""
    from zoneinfo import ZoneInfo

    local = now.astimezone(ZoneInfo(access.timezone))
    return f"<turn_context>\nNow: {local.isoformat(timespec='minutes')} ({access.timezone})\n</turn_context>\n"


def execution_row(turn: Turn, spec, call_id: str, raw: dict[str, Any], **values: Any) -> dict[str, Any]:
    """An `ai_tool_executions` row of a trainer tool (the session shares its id with the conversation)."""
    row = {"org_id": turn.access.org_id, "conversation_id": turn.conversation_id, "message_id": None,
           "tool_use_id": call_id, "position": 0, "router": spec.router, "action": spec.action, "kind": spec.kind,
           "confirm": spec.confirm, "input": raw, "status": "pending", "actor_user_id": turn.caller.user_id}
    row.update(values)
    if row["status"] != "pending":
        row["resolved_at"] = datetime.now(UTC)
    return row


def _tokens(usage) -> int:
    return (usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.cache_write_5m_tokens
            + usage.cache_write_1h_tokens)
