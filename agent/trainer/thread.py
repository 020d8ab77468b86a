"""The trainer's thread: the session's append-only event log (`trainer_events`, 000 §4.3), with knowledge.

A turn opens by writing the member's message and letting the knowledge selector (001 §3.2) deliver the
sources it needs as knowledge events; a round trip writes its tool call, its result (a compact observation,
001 §4.11) and what the tool added (fetched knowledge, the workout artifact) as events of the round trip.
The model reads `[static system][member stable prefix][events as messages]` (TRAINER.md "Context"). When the
estimated context reaches 80 % of 100k tokens a `checkpoint` event restarts it and `knowledge_in_context`
is cleared: only when a turn opens, never in the middle of one.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import structlog

from agent import events
from agent.budget import check_budget
from agent.costs import Usage
from agent.events import Event
from agent.model import ModelRequest, ModelResponse
from agent.model_facts import HistoryFacts
from agent.persona import Turn
from agent.round_trip import RoundTrip
from agent.threads import HistoryParts, Opening, ToolResult
from agent.trainer import knowledge, store
from agent.trainer.frames import knowledge_frame, session_started
from agent.trainer.messages import KnownInContext, estimated_tokens, to_messages
from agent.trainer.observe import observation
from agent.trainer.prompt import member_facts, member_prefix, trainer_system
from agent.trainer.shown import member_view, state_of
from core.errors import Conflict, NotFound
from gym.training.trainer_workouts import current_workout, note_left_out
from tools import executions
from tools.executions import ToolExecution
from tools.leaves.trainer.sources import SOURCES, load
from tools.registry import ToolSpec
from tools.runner import ToolOutcome

log = structlog.get_logger("agent.trainer")

CONTEXT_LIMIT_TOKENS = 100_000
CHECKPOINT_SHARE = 0.8
PREFIX_SOURCES = ("user_profile", "user_settings", "all_locations")  # in the member's stable prefix instead
REFUSALS = frozenset({"injury_conflict", "preference_conflict"})  # a rule refused an exercise the turn asked for


class TrainerThread:
    not_found = "session_not_found"
    last_seq = store.LAST_EVENT_SEQ

    def __init__(self, parts: HistoryParts) -> None:
        self.db, self.model, self.meter, self.settings = parts.db, parts.model, parts.meter, parts.settings
        self.tracing, self.registry = parts.tracing, parts.registry
        self.limit_tokens = CONTEXT_LIMIT_TOKENS

    def _scope(self, turn: Turn):
        return self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id)

    @staticmethod
    def _member(turn: Turn) -> uuid.UUID:
        if turn.member_id is None:
            raise NotFound("member_not_found")
        return turn.member_id

    # ---- opening a turn -----------------------------------------------------------------------------

    async def locate(self, turn: Turn, requested: uuid.UUID | None) -> None:
        member = self._member(turn)
        async with self._scope(turn) as session:
            if requested is not None:
                row = await store.get_owned(session, turn.owner(), member, requested)
                if row is None:
                    raise NotFound(self.not_found)
                if row.status == "completed":  # the member deleted it: its events stay, it takes no more turns
                    raise Conflict("session_closed")
            else:
                row = await store.latest_active(session, turn.owner(), member, datetime.now(UTC))
            if row is not None:
                turn.baseline = await store.last_seq(session, row.id)
        if row is None:
            turn.conversation_id, turn.is_new = uuid.uuid4(), True
        else:
            turn.conversation_id, turn.opened = row.id, True

    async def begin(self, turn: Turn, opening: Opening) -> AsyncIterator[Event]:
        now = datetime.now(UTC)
        async with self._scope(turn) as session:
            await check_budget(session, turn.access, now)
            if turn.is_new:
                await store.create_session(session, org_id=turn.access.org_id, member_id=self._member(turn),
                                           user_id=turn.caller.user_id, now=now, session_id=turn.conversation_id)
            else:
                await self._checkpoint_if_full(session, turn)
            row = await store.require_owned(session, turn.owner(), self._member(turn), turn.conversation_id)
            await store.touch(session, row, now, title=opening.message[:80])
            context = turn_clock(turn, now)
            if opening.current_workout_id:
                context += f"<current_workout_id>{opening.current_workout_id}</current_workout_id>\n"
            await store.append(session, org_id=turn.access.org_id, session_id=turn.conversation_id,
                               type="user_message", payload={"message": opening.message, "context": context})
        turn.opened = True
        if turn.is_new:
            yield session_started(turn.conversation_id)
        async for event in self._select_knowledge(turn, opening.message):
            yield event

    async def _checkpoint_if_full(self, session, turn: Turn) -> None:
        """Between turns only: restart a context that reached 80 % of the limit at a `checkpoint` event."""
        system = await self._system(session, turn)
        context = await store.events(session, turn.conversation_id, context_only=True, since_checkpoint=True)
        messages = to_messages(context)
        if messages and estimated_tokens(messages, system) >= self.limit_tokens * CHECKPOINT_SHARE:
            await store.append(session, org_id=turn.access.org_id, session_id=turn.conversation_id,
                               type="checkpoint", payload={"summary": checkpoint_summary(context)})
            row = await store.require_owned(session, turn.owner(), self._member(turn), turn.conversation_id)
            await store.set_knowledge(session, row, {})

    # ---- knowledge ----------------------------------------------------------------------------------

    async def _select_knowledge(self, turn: Turn, message: str) -> AsyncIterator[Event]:
        async with self._scope(turn) as session:
            row = await store.require_owned(session, turn.owner(), self._member(turn), turn.conversation_id)
            in_context = dict(row.knowledge_in_context or {})
        offline = self.model.name in ("offline", "disabled")
        turn.step_span = self.tracing.step("knowledge_selection", turn.who(), turn.span, in_context=len(in_context))
        try:  # the selector's model call nests under this step
            picked, how = await knowledge.select(message, sorted(in_context),
                                                 call=None if offline else self._call(turn),
                                                 model=self.settings.summarizer_model)
            turn.step_span.set_attributes({"spotter.selected_by": how, "spotter.sources": len(picked)})
        finally:
            turn.step_span.end()
            turn.step_span = None
        picked = {k: v for k, v in picked.items() if k not in PREFIX_SOURCES}
        async with self._scope(turn) as session:
            trip = RoundTrip(session)
            frames = await self._deliver(turn, trip, picked)
            await trip.write()
        for frame in frames:
            yield frame

    def _call(self, turn: Turn):
        """The selector's model call, metered like every call and added to the session's totals."""
        async def call(request: ModelRequest) -> ModelResponse:
            response = None
            async for item in self.meter.stream(turn, self.model, request, settle=False):
                if isinstance(item, ModelResponse):
                    response = item
            assert response is not None
            usage, cost = self.meter.in_flight(turn)
            async with self._scope(turn) as session:
                trip = RoundTrip(session)
                await self.after_call(turn, trip, usage, cost)
                await self.meter.write(turn, session, along=trip.take_rows())
            await self.meter.settle(turn, written=True)
            return response
        return call

    async def _deliver(self, turn: Turn, trip: RoundTrip, picked: dict[str, dict[str, Any]], *,
                       given: dict[str, Any] | None = None) -> list[Event]:
        """Knowledge / knowledge_update events (rows of `trip`) for the picked sources the context lacks or
        that grew or changed, each read at the widest range the context holds; returns their frames."""
        now = datetime.now(UTC)
        session = trip.session
        row = await store.require_owned(session, turn.owner(), self._member(turn), turn.conversation_id)
        known = dict(row.knowledge_in_context or {})
        frames = []
        for name, asked in picked.items():
            params = knowledge.widest(known.get(name), asked)  # knowledge never narrows inside a session
            data = (given or {}).get(name) if params == asked else None
            if data is None:
                data = await load(session, turn.access.org_id, self._member(turn), name, params, now, tz=_tz(turn))
            delivery = knowledge.plan_delivery(known, name, params, data)
            if delivery is None:
                continue
            known[name] = delivery.remembered()
            if delivery.quiet:
                continue
            payload = {"source": name, "params": delivery.params}
            payload.update({"changes": delivery.changes} if delivery.changes is not None else {"data": data})
            trip.add(store.event_row(org_id=turn.access.org_id, session_id=turn.conversation_id,
                                     type="knowledge_update" if delivery.update else "knowledge", payload=payload))
            frames.append(knowledge_frame(name, SOURCES[name], delivery.params))
        await store.set_knowledge(session, row, known)
        return frames

    # ---- what the model reads -----------------------------------------------------------------------

    async def model_input(self, turn: Turn) -> tuple[list[dict[str, Any]], list[dict[str, Any]], HistoryFacts]:
        async with self._scope(turn) as session:
            prefix_data = await self._prefix_data(session, turn)
            context = await store.events(session, turn.conversation_id, context_only=True, since_checkpoint=True)
            known = (HistoryFacts(member=member_facts(prefix_data, KnownInContext(context)),
                                  outputs=await executions.outputs(session, turn.conversation_id,
                                                                   self._compacted(context)))
                     if self.model.reads_facts else HistoryFacts())  # a model that reads the prompt needs none
        turn.history = to_messages(context)
        return trainer_system(turn.locale, member_prefix(prefix_data)), turn.history, known

    def _compacted(self, context: Sequence[store.Event]) -> list[str]:
        """The tool uses whose result the context holds as a compact observation (agent/trainer/observe.py): what
        their tools returned is data the model facts carry (agent/model_facts.py `HistoryFacts.outputs`)."""
        called = {e.payload["callId"]: e.payload["toolName"] for e in context if e.type == "tool_call"}
        compact = []
        for event in context:
            if event.type != "tool_result" or event.payload.get("isError"):
                continue
            spec = self.registry.get(called.get(event.payload["callId"], "")) if self.registry is not None else None
            if spec is not None and spec.observe is not None:
                compact.append(event.payload["callId"])
        return compact

    async def _system(self, session, turn: Turn) -> list[dict[str, Any]]:
        return trainer_system(turn.locale, member_prefix(await self._prefix_data(session, turn)))

    async def _prefix_data(self, session, turn: Turn) -> dict[str, Any]:
        now = datetime.now(UTC)
        return {name: await load(session, turn.access.org_id, self._member(turn), name, {}, now)
                for name in PREFIX_SOURCES}

    async def store_repairs(self, turn: Turn, made_up: list[dict[str, Any]]) -> None:
        async with self._scope(turn) as session:
            trip = RoundTrip(session)
            for result in made_up:
                trip.add(self._event(turn, "tool_result", {"callId": result["tool_use_id"],
                                                           "result": result.get("content"), "isError": True}))
            await trip.write()

    # ---- a round trip -------------------------------------------------------------------------------

    def _event(self, turn: Turn, type: str, payload: dict[str, Any]):
        return store.event_row(org_id=turn.access.org_id, session_id=turn.conversation_id, type=type,
                               payload=payload)

    def assistant(self, turn: Turn, trip: RoundTrip, response: ModelResponse) -> uuid.UUID | None:
        """llm_request / llm_response (observability, no text), then one tool_call per tool use (the answer's
        text rides on the first); an answer without a tool is logged as `error no_tool_use`."""
        tool_uses = [b for b in response.content if b.get("type") == "tool_use"]
        text = "".join(b.get("text", "") for b in response.content if b.get("type") == "text").strip()
        trip.add(self._event(turn, "llm_request", {"model": response.model, "messages": len(turn.history),
                                                   "iteration": turn.round_trips}),
                 self._event(turn, "llm_response", {"stopReason": response.stop_reason,
                                                    "usage": events.usage_payload(response.usage),
                                                    "tool": tool_uses[0]["name"] if tool_uses else None}))
        if not tool_uses:
            trip.add(self._event(turn, "error", {"code": "no_tool_use", "iteration": turn.round_trips}))
            log.warning("agent.trainer.no_tool_use", trace_id=turn.trace_id)
            return None
        for n, use in enumerate(tool_uses):
            payload = {"callId": use["id"], "toolName": use["name"], "arguments": use.get("input") or {}}
            if text and n == 0:
                payload["text"] = text
            trip.add(self._event(turn, "tool_call", payload))
        return None

    def results(self, turn: Turn, trip: RoundTrip, results: Sequence[ToolResult]) -> None:
        """Each result with what the member saw of it (the views the persona's hooks showed this turn,
        agent/trainer/frames.py), so a reopened session shows it again."""
        views = state_of(turn).shown
        for result in results:
            trip.add(self._result(turn, result.tool_use_id, result.name, result.output, result.error,
                                  shown=views.pop(result.tool_use_id, None)))

    def _result(self, turn: Turn, call_id: str, name: str, output: dict[str, Any] | None, error: dict | None,
                shown: dict[str, Any] | None = None):
        if error is not None:
            return self._event(turn, "tool_result", {"callId": call_id, "result": error, "isError": True})
        spec = self.registry.get(name) if self.registry is not None else None
        marks = spec.member_text if spec is not None else None
        payload = {"callId": call_id, "result": observation(spec, output or {}, marks), "isError": False}
        view = shown or member_view(spec.speaks if spec is not None else None, output or {}, turn.locale)
        if view is not None:
            payload["shown"] = view  # what the member saw: a reopened session shows it again
        return self._event(turn, "tool_result", payload)

    async def after_tool(self, turn: Turn, trip: RoundTrip, spec: ToolSpec, outcome: ToolOutcome) -> list[Event]:
        output = outcome.output or {}
        if spec.artifact == "knowledge":  # what the member's stable prefix holds is in context already
            loaded = {k: v for k, v in output.get("sources", {}).items() if k not in PREFIX_SOURCES}
            return await self._deliver(turn, trip, {k: v["params"] for k, v in loaded.items()},
                                       given={k: v["data"] for k, v in loaded.items()})
        if spec.artifact == "workout" and output.get("workoutId"):
            workout = await load(trip.session, turn.access.org_id, self._member(turn), "current_workout", {},
                                 datetime.now(UTC))
            title = workout.get("title") if isinstance(workout, dict) else None
            trip.add(self._event(turn, "workout", {
                "workoutId": output["workoutId"], "title": title,
                "summary": "\n".join(str(line) for line in output.get("exercises", []))}))
            row = await store.require_owned(trip.session, turn.owner(), self._member(turn),
                                            turn.conversation_id)
            row.current_workout_key = output["workoutId"]
            await self._note_left_out(turn, trip.session)
        return []

    async def _note_left_out(self, turn: Turn, session) -> None:
        """The exercises the rules refused earlier in this turn stay named on the workout it built (TRAINER.md: the
        card and the reply say what was left out and why)."""
        context = await store.events(session, turn.conversation_id, context_only=True, since_checkpoint=True)
        opened = max((i for i, e in enumerate(context) if e.type == "user_message"), default=0)
        refused = [item for e in context[opened:] if e.type == "tool_result" and e.payload.get("isError")
                   and isinstance(result := e.payload.get("result"), dict) and result.get("code") in REFUSALS
                   for item in (result.get("data") or {}).get("refused") or [] if isinstance(item, dict)]
        workout = await current_workout(session, turn.access.org_id, self._member(turn)) if refused else None
        if workout is not None:
            note_left_out(workout, refused)

    async def after_call(self, turn: Turn, trip: RoundTrip, usage: Usage, cost_usd_micros: int) -> None:
        tokens = (usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.cache_write_5m_tokens
                  + usage.cache_write_1h_tokens)
        trip.add(store.costs_row(turn.conversation_id, tokens=tokens, cached=usage.cache_read_tokens,
                                 cost=cost_usd_micros))

    async def resumed(self, turn: Turn, trip: RoundTrip, executions: Sequence[ToolExecution]) -> None:
        for row in executions:
            name = f"{row.router}__{row.action}"
            if row.status == "succeeded":
                trip.add(self._result(turn, row.tool_use_id, name, row.output, None))
            else:
                trip.add(self._result(turn, row.tool_use_id, name, None, row.error or {
                    "code": row.status, "message": f"The tool call ended as {row.status}.", "hint": None}))


def _tz(turn: Turn) -> ZoneInfo:
    """The gym's timezone: what "today" means for the member (the nutrition plan's meals)."""
    return ZoneInfo(turn.access.timezone)


def turn_clock(turn: Turn, now: datetime) -> str:
    """The member's local time, ahead of their words (dates for schedules and expiring preferences)."""
    from zoneinfo import ZoneInfo

    local = now.astimezone(ZoneInfo(turn.access.timezone))
    return f"<turn_context>\nNow: {local.isoformat(timespec='minutes')} ({turn.access.timezone})\n</turn_context>\n"


def checkpoint_summary(context: list[store.Event]) -> str:
    """What carries over a checkpoint (001 §3.4.3): the member's recent requests and the current workout."""
    asks = [e.payload["message"][:300] for e in context if e.type == "user_message"][-5:]
    workouts = [e.payload for e in context if e.type == "workout"]
    lines = ["Earlier in this session the member asked:", *(f"- {a}" for a in asks)]
    if workouts:
        lines += [f"Current workout {workouts[-1]['workoutId']}:", workouts[-1].get("summary", "")]
    lines.append("Knowledge was reset; load what you need again.")
    return "\n".join(lines)
