"""The turn loop for a persona: open the turn, drive the model (≤ the persona's round trips), finalize.

`open_send` does everything that can still answer with an HTTP error (conversation ownership, the turn
lock); the returned `TurnStream` yields the SSE events and always ends with exactly one `done`. Tool uses
go to the dispatcher (agent/dispatch.py); suspension is plain data, pending rows in `ai_tool_executions`
that resume (agent/resume.py) picks up. The per-user turn rate limit lives in the API layer.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import anyio
import structlog

from agent import conversations, events
from agent.budget import check_budget
from agent.conversations import Conversation
from agent.costs import PriceBook
from agent.dispatch import ToolDispatcher
from agent.errors import AgentError
from agent.first_frames import FirstFrames
from agent.locks import TurnLock
from agent.metering import Meter
from agent.model import ModelClient, ModelResponse, TextDelta
from agent.observability import Observability
from agent.persona import STAFF_COPILOT, Persona
from agent.replay import guard, synthesized_results, validate_replay
from agent.request import build_request, tool_definitions, turn_context, user_turn_content
from agent.turns import TitleScheduler, Turn, TurnStore, TurnStream
from core.database import Database
from core.errors import Conflict, NotFound
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools import executions
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolRunner
from tools.storable import storable

log = structlog.get_logger("agent.orchestrator")

AmbientFinder = Callable[[uuid.UUID, str], Awaitable[str | None]]
Compactor = Callable[[Conversation, list[conversations.Message]], Awaitable[bool]]  # True: it compacted
Body = Callable[[Turn], AsyncIterator[events.Event]]


class Orchestrator:
    def __init__(self, *, db: Database, redis: Any, model: ModelClient, registry: ToolRegistry, runner: ToolRunner,
                 prices: PriceBook, settings: Settings, persona: Persona = STAFF_COPILOT,
                 observability: Observability | None = None, ambient: AmbientFinder | None = None,
                 compactor: Compactor | None = None, titles: TitleScheduler | None = None) -> None:
        self.db, self.redis, self.model, self.registry, self.runner = db, redis, model, registry, runner
        self.prices, self.settings, self.persona = prices, settings, persona
        self.observability = observability or Observability()
        self.ambient, self.compactor, self.titles = ambient, compactor, titles
        self.store = TurnStore(db)
        self.meter = Meter(db=db, redis=redis, prices=prices, settings=settings)
        self.dispatcher = ToolDispatcher(registry=registry, runner=runner, store=self.store, settings=settings,
                                         observability=self.observability)
        self._tools_by_role: dict[str, tuple[list[ToolSpec], list[dict[str, Any]]]] = {}
        slots = settings.agent_max_concurrent_turns  # model loops at once in this process (0: no limit)
        self._slots = asyncio.Semaphore(slots) if slots else None
        self.first_frames = FirstFrames()  # new turns' first frames before running turns' next model calls

    # ---- opening a turn -----------------------------------------------------------------------------

    async def open_send(self, *, access: OrgAccess, caller: Caller, locale: str, trace_id: str, message: str,
                        conversation_id: uuid.UUID | None, page_context: dict | None) -> TurnStream:
        turn = Turn(access=access, caller=caller, locale=locale, trace_id=trace_id, endpoint="send",
                    conversation_id=conversation_id or uuid.uuid4(), is_new=conversation_id is None,
                    prompt_length=len(message))
        turn.start_token = self.first_frames.begin()
        try:
            if conversation_id is not None:
                async with self.store.scope(turn) as session:
                    turn.conversation = await conversations.get_owned(session, access.org_id, conversation_id,
                                                                      caller.user_id)
                if turn.conversation is None:
                    raise NotFound("conversation_not_found")
            lock = await self.take_lock(turn.conversation_id)
        except BaseException:
            self._started(turn)
            raise

        async def body(t: Turn) -> AsyncIterator[events.Event]:
            async for event in self._send_body(t, message, page_context):
                yield event

        return TurnStream(turn, lock, body, finalize=self.finalize, observability=self.observability,
                          titles=self.titles, first_frame=lambda: self._started(turn))

    async def take_lock(self, conversation_id: uuid.UUID, wait_seconds: float = 0.0) -> TurnLock:
        lock = TurnLock(self.redis, conversation_id, lease_seconds=self.settings.agent_turn_lock_lease_seconds)
        if not await lock.acquire(wait_seconds):
            raise Conflict("conversation_busy")
        return lock

    def _started(self, turn: Turn) -> None:
        """The turn is no longer starting (agent.first_frames): its first frame, its first model call, or its end."""
        if turn.start_token is not None:
            self.first_frames.end(turn.start_token)
            turn.start_token = None

    def stream(self, turn: Turn, lock: TurnLock, body: Body) -> TurnStream:
        """The SSE side of a turn whose lock is held: `body`'s events, then finalize and `done`."""
        return TurnStream(turn, lock, body, finalize=self.finalize, observability=self.observability,
                          titles=self.titles)

    # ---- send ---------------------------------------------------------------------------------------

    async def _send_body(self, turn: Turn, message: str, page_context: dict | None) -> AsyncIterator[events.Event]:
        if self.model.name == "disabled":
            raise AgentError("agent_disabled")
        now = datetime.now(UTC)
        ambient = await self._ambient(turn, message)
        content = user_turn_content(message, turn=turn_context(turn.access, turn.caller, turn.locale, now),
                                    page_context=page_context, ambient=ambient)
        # One transaction: the budget check, older pending tool uses superseded, the user message, and the
        # history read back. A new conversation is created in it too: a first turn that fails here leaves
        # nothing behind.
        async with self.store.scope(turn) as session:
            await check_budget(session, turn.access, now)
            if turn.conversation is None:
                conversation = await conversations.start(session, turn.access.org_id, turn.caller.user_id,
                                                         turn.conversation_id, title=_title_from(message),
                                                         content=content, page_context=page_context)
                rows = None  # a new conversation's history is the message just written (nothing to read back)
            else:
                conversation = turn.conversation
                superseded = await executions.supersede_pending(session, turn.conversation_id,
                                                                pending_ttl=self.settings.pending_ttl, now=now)
                if superseded:
                    log.info("agent.tool.superseded", count=len(superseded))
                rows = await conversations.append_and_read(session, conversation, "user", content,
                                                           page_context=page_context, touch=True)
        turn.conversation = conversation
        if rows is None:
            turn.history = [{"role": "user", "content": storable(content)}]
            yield events.conversation_started(turn.conversation_id)
        else:
            turn.history = conversations.to_model_messages(rows)
            if self.compactor is not None and await self.compactor(turn.conversation, rows):
                await self.store.load_history(turn)
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

    # ---- the model loop -----------------------------------------------------------------------------

    def tools_for(self, role: str) -> tuple[list[ToolSpec], list[dict[str, Any]]]:
        """The persona's tools for the role and their cached definitions (built once per role)."""
        if role not in self._tools_by_role:
            specs = self.persona.tools(self.registry, role)
            self._tools_by_role[role] = (specs, tool_definitions(specs, self.persona.loaded_tools))
        return self._tools_by_role[role]

    async def drive(self, turn: Turn) -> AsyncIterator[events.Event]:
        """At most the persona's round trips; stops when the persona's turn ends or on a suspension. With
        AGENT_MAX_CONCURRENT_TURNS set, it runs in one of the process's turn slots, waiting for one if all are
        taken."""
        if self._slots is None:
            async for event in self._drive(turn):
                yield event
            return
        async with self._slots:
            async for event in self._drive(turn):
                yield event

    async def _drive(self, turn: Turn) -> AsyncIterator[events.Event]:
        persona = self.persona
        specs, tools = self.tools_for(turn.access.role)
        self._started(turn)  # its own start is over (a follow-up turn sends no frame before its first call)
        for _ in range(persona.max_round_trips):
            await self.first_frames.let_starting_turns_first()
            history = await self._guarded(turn)
            request = build_request(model=self.settings.agent_model, specs=specs, access=turn.access,
                                    messages=history, max_tokens=self.settings.agent_max_tokens, tools_cache=tools,
                                    system=persona.system(turn.access), tool_choice=persona.tool_choice)
            streamed: list[str] = []
            response: ModelResponse | None = None
            try:
                async for item in self.meter.stream(turn, self.model, request, settle=False):
                    if isinstance(item, TextDelta):
                        streamed.append(item.text)
                        yield events.text_delta(item.text)
                    else:
                        response = item
            except BaseException:
                if streamed:  # keep what streamed; the replay guard handles anything left dangling
                    with anyio.CancelScope(shield=True):
                        await self.store.persist_assistant(turn, [{"type": "text", "text": "".join(streamed)}],
                                                           "interrupted", None)
                raise
            assert response is not None
            tool_uses = [b for b in response.content if b.get("type") == "tool_use"]
            # One transaction per round trip: every inline tool (each in a savepoint), then last (so the shared
            # usage row is locked only until the commit) the call's usage and the turn's count, in one
            # statement that also inserts the round trip's rows: the assistant message, the execution rows
            # (inline and pending) and the merged tool_result message. Rolled back, the call is settled on its
            # own by the next call or the finalizer.
            ended = persona.ends_turn(response)
            frames = events.AfterCommit()
            async with self.store.scope(turn) as session:
                turn.unwritten.clear()
                message_id = await self.store.persist_assistant(turn, response.content, response.stop_reason,
                                                                response.usage, later=True)
                yield events.message_done(message_id, response.stop_reason)
                if not ended:
                    async for event in self.dispatcher.process(turn, message_id, tool_uses, session):
                        if frames.now(event):
                            yield event
                await self.meter.write(turn, session, turns=0 if turn.counted else 1,
                                       along=self.store.take_unwritten(turn))
            for event in frames.committed():
                yield event
            turn.counted = True
            await self.meter.settle(turn, written=True)
            if ended or turn.suspended or persona.ends_after([b["name"] for b in tool_uses]):
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
            repaired = guard(turn.history, reasons=reasons, on_violation=report)
        except (AssertionError, ValueError) as exc:  # repair could not make it valid: never send it
            raise AgentError("replay_integrity_violation") from exc
        made_up = synthesized_results(turn.history, repaired)
        if made_up:  # stored, so the violation is reported once, not every round trip and every later turn
            async with self.store.scope(turn) as session:
                await conversations.store_tool_results(session, turn.conversation_id, made_up)
        turn.history = repaired
        return repaired

    async def _repair_reasons(self, turn: Turn) -> dict[str, str]:
        async with self.store.scope(turn) as session:
            rows = await executions.for_conversation(session, turn.conversation_id)
        mapping = {"superseded": "superseded", "expired": "expired", "rejected_by_user": "rejected_by_user"}
        return {row.tool_use_id: mapping[row.status] for row in rows if row.status in mapping}

    # ---- finalize -----------------------------------------------------------------------------------

    async def finalize(self, turn: Turn, failed_code: str | None) -> None:
        await self.meter.settle(turn)  # a call abandoned mid-stream still costs what it was billed
        await self.store.count_turn(turn)
        fields = {"trace_id": turn.trace_id, "org_id": str(turn.access.org_id), "endpoint": turn.endpoint,
                  **events.usage_payload(turn.usage, turn.cost_usd_micros),
                  "modelCalls": turn.model_calls, "suspended": turn.suspended,
                  "durationMs": int((datetime.now(UTC) - turn.started).total_seconds() * 1000)}
        if failed_code:
            self.observability.emit("agent.turn.failed", errorCode=failed_code, **fields)
        else:
            self.observability.emit("agent.turn.completed", **fields)


def _title_from(message: str) -> str:
    line = " ".join(message.split())
    return line if len(line) <= 60 else line[:57].rstrip() + "..."
