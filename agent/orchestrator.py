"""The turn loop, one for every persona: open the turn, drive the model (≤ the persona's round trips), finalize.

`open_send` does everything that can still answer with an HTTP error (the thread's ownership, the turn lock);
the returned `TurnStream` yields the SSE events and always ends with exactly one `done`. Where the turn's
messages live is the persona's history (agent.persona.History); tool uses go to the dispatcher
(agent/dispatch.py); suspension is plain data, pending rows in `ai_tool_executions` that resume
(agent/resume.py) picks up. The per-user turn rate limit lives in the API layer.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

import anyio
import structlog
from pydantic import BaseModel

from agent import events
from agent.costs import PriceBook, Usage
from agent.dispatch import ToolDispatcher
from agent.errors import AgentError
from agent.first_frames import FirstFrames
from agent.locks import TurnLock
from agent.metering import Meter
from agent.model import ModelClient, ModelResponse, TextDelta
from agent.model_facts import HistoryFacts, ModelFacts, local_minute
from agent.observability import Observability
from agent.persona import History, Persona, Personas, Turn
from agent.policy import undoable_names
from agent.replay import guard, synthesized_results, validate_replay
from agent.request import build_request, tool_definitions
from agent.round_trip import RoundTrip
from agent.threads import AmbientFinder, Compactor, HistoryParts, Opening
from agent.turns import TitleScheduler, TurnStore, TurnStream
from core.database import Database
from core.errors import Conflict
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools import executions
from tools.registry import ToolRegistry, ToolSpec
from tools.runner import ToolRunner

log = structlog.get_logger("agent.orchestrator")

Body = Callable[[Turn], AsyncIterator[events.Event]]


class Orchestrator:
    def __init__(self, *, db: Database, redis: Any, model: ModelClient, registry: ToolRegistry, runner: ToolRunner,
                 prices: PriceBook, settings: Settings, personas: Personas, observability: Observability | None = None,
                 ambient: AmbientFinder | None = None, compactor: Compactor | None = None,
                 titles: TitleScheduler | None = None) -> None:
        self.db, self.redis, self.model, self.registry, self.runner = db, redis, model, registry, runner
        self.prices, self.settings, self.personas = prices, settings, personas
        self.observability = observability or Observability()
        self.titles = titles
        self.store = TurnStore(db)
        self.tracing = self.observability.tracing
        self.meter = Meter(db=db, redis=redis, prices=prices, settings=settings, tracing=self.tracing)
        self.dispatcher = ToolDispatcher(registry=registry, runner=runner, store=self.store, settings=settings,
                                         observability=self.observability)
        self.parts = HistoryParts(db=db, model=model, meter=self.meter, settings=settings, tracing=self.tracing,
                                 ambient=ambient, compactor=compactor, registry=registry)
        self._histories: dict[str, History] = {}
        self._tools: dict[tuple[str, str], tuple[list[ToolSpec], list[dict[str, Any]]]] = {}
        self._undoable: dict[tuple[str, str], frozenset[str]] = {}  # per persona and role, as the tools say
        self._inputs: dict[tuple[str, str], Mapping[str, type[BaseModel]]] = {}  # their declared input models
        slots = settings.agent_max_concurrent_turns  # model loops at once in this process (0: no limit)
        self._slots = asyncio.Semaphore(slots) if slots else None
        self.first_frames = FirstFrames()  # new turns' first frames before running turns' next model calls

    def history(self, persona: Persona) -> History:
        """The persona's history over this engine's parts (built once per persona)."""
        if persona.name not in self._histories:
            self._histories[persona.name] = persona.history(self.parts)
        return self._histories[persona.name]

    def new_turn(self, persona: Persona, *, access: OrgAccess, caller: Caller, locale: str, trace_id: str,
                 kind: str, conversation_id: uuid.UUID, member_id: uuid.UUID | None = None,
                 prompt_length: int = 0) -> Turn:
        """A turn of `persona`; its tools run in the role the persona acts as (the trainer's: member)."""
        if persona.acts_as is not None and access.role != persona.acts_as:
            access = dataclasses.replace(access, role=persona.acts_as)
        return Turn(access=access, caller=caller, locale=locale, trace_id=trace_id, endpoint=persona.endpoint(kind),
                    conversation_id=conversation_id, persona=persona, member_id=member_id,
                    prompt_length=prompt_length)

    # ---- opening a turn -----------------------------------------------------------------------------

    async def open_send(self, *, persona: Persona | None = None, access: OrgAccess, caller: Caller, locale: str,
                        trace_id: str, opening: Opening, thread_id: uuid.UUID | None,
                        member_id: uuid.UUID | None = None) -> TurnStream:
        """A send of `persona` (None: the engine's default, `personas.default`)."""
        persona = persona or self.personas.default
        turn = self.new_turn(persona, access=access, caller=caller, locale=locale, trace_id=trace_id, kind="send",
                             conversation_id=thread_id or uuid.uuid4(), member_id=member_id,
                             prompt_length=len(opening.message))
        turn.opening = opening
        turn.start_token = self.first_frames.begin()
        thread = self.history(persona)
        try:
            await thread.locate(turn, thread_id)
            lock = await self.take_lock(turn.conversation_id, token=str(turn.turn_id))
        except BaseException:
            self._started(turn)
            raise
        self.trace(turn)

        async def body(t: Turn) -> AsyncIterator[events.Event]:
            if self.model.name == "disabled":
                raise AgentError("agent_disabled")
            async for event in thread.begin(t, opening):
                yield event
            async for event in self.drive(t):
                yield event

        return TurnStream(turn, lock, body, finalize=self.finalize, observability=self.observability,
                          titles=self.titles, first_frame=lambda: self._started(turn))

    def trace(self, turn: Turn) -> None:
        """Start the turn's `invoke_agent` span (its trace id the request's); the turn's stream ends it."""
        turn.span = self.tracing.agent(turn.who(), trace_id=turn.trace_id, endpoint=turn.endpoint)

    async def take_lock(self, conversation_id: uuid.UUID, wait_seconds: float = 0.0, *,
                        token: str | None = None) -> TurnLock:
        """The thread's turn lock (409 conversation_busy when another turn holds it); a turn's holds its id."""
        lock = TurnLock(self.redis, conversation_id, lease_seconds=self.settings.agent_turn_lock_lease_seconds,
                        token=token)
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

    # ---- the model loop -----------------------------------------------------------------------------

    def tools_for(self, persona: Persona, role: str) -> tuple[list[ToolSpec], list[dict[str, Any]]]:
        """The persona's tools for the role and their cached definitions (built once per persona and role)."""
        key = (persona.name, role)
        if key not in self._tools:
            specs = persona.tools(self.registry, role)
            self._undoable[key] = undoable = undoable_names(self.registry, specs, role)
            self._inputs[key] = MappingProxyType({spec.name: spec.input_model for spec in specs})
            self._tools[key] = (specs, tool_definitions(specs, persona.loaded_tools(specs), undoable=undoable))
        return self._tools[key]

    def facts(self, turn: Turn, known: HistoryFacts | None) -> ModelFacts:
        """What the turn's prompt says in words, as data (agent/model_facts.py): never sent over the wire. The
        tools' declared inputs and what the history `known` holds (the member prefix, the outputs behind compact
        observations) come as they are."""
        key = (turn.persona.name, turn.access.role)
        known = known or HistoryFacts()
        return ModelFacts(persona=turn.persona.name, locale=turn.locale, role=turn.access.role,
                          now=local_minute(turn.started, turn.access.timezone),
                          undoable=self._undoable.get(key, frozenset()), member=known.member,
                          inputs=self._inputs.get(key, MappingProxyType({})), outputs=known.outputs)

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
        persona, thread = turn.persona, self.history(turn.persona)
        specs, tools = self.tools_for(persona, turn.access.role)
        self._started(turn)  # its own start is over (a follow-up turn sends no frame before its first call)
        for _ in range(persona.max_round_trips):
            await self.first_frames.let_starting_turns_first()
            system, history, known = await thread.model_input(turn)
            history = await self._guarded(turn, thread, history)
            turn.round_trips += 1
            request = build_request(model=self.settings.agent_model, specs=specs, access=turn.access,
                                    messages=history, max_tokens=self.settings.agent_max_tokens, tools_cache=tools,
                                    system=system, tool_choice=persona.tool_choice,
                                    facts=self.facts(turn, known) if self.model.reads_facts else None)
            streamed: list[str] = []
            response: ModelResponse | None = None
            # What streamed is kept until the round trip's transaction commits: a client that leaves (or a
            # failure) after the last text delta, before the commit, still finds the text it saw.
            async with self._keeping(turn, thread, streamed):
                async for item in self.meter.stream(turn, self.model, request, settle=False):
                    if isinstance(item, TextDelta):
                        streamed.append(item.text)
                        if persona.frames.streams_text:
                            yield events.text_delta(item.text)
                    else:
                        response = item
                assert response is not None
                tool_uses = [b for b in response.content if b.get("type") == "tool_use"]
                # One transaction per round trip: every inline tool (each in a savepoint), then last (so the
                # shared usage row is locked only until the commit) the call's usage and the turn's count, in
                # one statement that also inserts the round trip's rows (RoundTrip). Rolled back, the call is
                # settled on its own by the next call or the finalizer.
                ended = persona.ends_turn(response)
                async with self.store.scope(turn) as session:
                    trip = RoundTrip(session)
                    message_id = thread.assistant(turn, trip, response)
                    for event in trip.emit(*persona.frames.answered(message_id, response.stop_reason)):
                        yield event
                    if ended:
                        text = "".join(b.get("text", "") for b in response.content if b.get("type") == "text").strip()
                        for event in trip.emit(*persona.frames.reply_without_tools(turn, text)):
                            yield event
                    else:
                        async for event in self.dispatcher.process(turn, thread, trip, message_id, tool_uses):
                            for ready in trip.emit(event):
                                yield ready
                    usage, cost = self.meter.in_flight(turn)
                    await thread.after_call(turn, trip, usage, cost)
                    await self.meter.write(turn, session, turns=0 if turn.counted else 1, along=trip.take_rows())
            for event in trip.committed():
                yield event
            turn.counted = True
            await self.meter.settle(turn, written=True)
            if ended or turn.suspended or persona.ends_after(self.registry.get(b["name"]) for b in tool_uses):
                return

    @contextlib.asynccontextmanager
    async def _keeping(self, turn: Turn, thread: History, streamed: list[str]) -> AsyncIterator[None]:
        """Keep what streamed as an interrupted assistant message when the block does not complete (the replay
        guard handles anything left dangling). A failure to keep it never hides the block's own."""
        try:
            yield
        except BaseException:
            if streamed:
                with anyio.CancelScope(shield=True):
                    try:
                        await self._keep_interrupted(turn, thread, "".join(streamed))
                    except Exception as exc:
                        log.warning("agent.turn.interrupted_text_lost", error_type=type(exc).__name__)
            raise

    async def _keep_interrupted(self, turn: Turn, thread: History, text: str) -> None:
        async with self.store.scope(turn) as session:
            trip = RoundTrip(session)
            thread.assistant(turn, trip, ModelResponse(content=[{"type": "text", "text": text}],
                                                       stop_reason="interrupted", usage=Usage(),
                                                       model=self.settings.agent_model))
            await trip.write()

    async def _guarded(self, turn: Turn, thread: History, history: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The history as the model may read it: a broken one is repaired (and the repair stored, so it is
        reported once), or the turn fails `replay_integrity_violation` when no repair makes it valid."""
        ok, _ = validate_replay(history)
        if ok:
            return history
        reasons = await self._repair_reasons(turn)
        step = self.tracing.step("replay_repair", turn.who(), turn.span, violations=len(validate_replay(history)[1]))

        def report(event: dict) -> None:
            self.observability.emit("agent.replay.violation", trace_id=turn.trace_id,
                                    org_id=str(turn.access.org_id), **event)

        try:
            repaired = guard(history, reasons=reasons, on_violation=report)
        except (AssertionError, ValueError) as exc:  # repair could not make it valid: never send it
            self.tracing.failed(step, "replay_integrity_violation")
            step.end()
            raise AgentError("replay_integrity_violation") from exc
        made_up = synthesized_results(history, repaired)
        if made_up:
            await thread.store_repairs(turn, made_up)
        step.set_attribute("spotter.results_made_up", len(made_up))
        step.end()
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
                  "persona": turn.persona.name, **events.usage_payload(turn.usage, turn.cost_usd_micros),
                  "modelCalls": turn.model_calls, "roundTrips": turn.round_trips, "suspended": turn.suspended,
                  "durationMs": int((datetime.now(UTC) - turn.started).total_seconds() * 1000)}
        if failed_code:
            self.observability.emit("agent.turn.failed", errorCode=failed_code, **fields)
        else:
            self.observability.emit("agent.turn.completed", **fields)
