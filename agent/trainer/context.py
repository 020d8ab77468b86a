"""The trainer's context builder: knowledge selection before the loop, the cached request parts, the
checkpoint, and the events a tool's result adds (knowledge from fetch_data, the workout artifact).

Request layout (TRAINER.md "Context"): tools (1 h) · static system (1 h) · member stable prefix (1 h) ·
events as messages · cached tail. When the estimated context reaches 80 % of 100k tokens a `checkpoint`
event restarts it and `knowledge_in_context` is cleared, so the next turn re-sends what it needs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from agent.events import Event
from agent.metering import Meter
from agent.model import ModelClient, ModelRequest, ModelResponse
from agent.trainer import knowledge, store
from agent.trainer.frames import knowledge_frame
from agent.trainer.messages import estimated_tokens, to_messages
from agent.trainer.prompt import member_prefix, trainer_system
from core.database import Database
from core.settings import Settings
from tools.leaves.trainer.sources import SOURCES, load

CONTEXT_LIMIT_TOKENS = 100_000
CHECKPOINT_SHARE = 0.8
PREFIX_SOURCES = ("user_profile", "user_settings", "all_locations")  # in the member's stable prefix instead
WORKOUT_TOOLS = frozenset({"workout__generate_workout", "workout__swap_exercise", "workout__adjust_exercise",
                           "workout__remove_exercise"})


class TrainerContext:
    def __init__(self, *, db: Database, model: ModelClient, meter: Meter, settings: Settings) -> None:
        self.db, self.model, self.meter, self.settings = db, model, meter, settings
        self.limit_tokens = CONTEXT_LIMIT_TOKENS

    def scope(self, turn):
        return self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id)

    # ---- knowledge ----------------------------------------------------------------------------------

    async def select_knowledge(self, turn, message: str) -> AsyncIterator[Event]:
        async with self.scope(turn) as session:
            row = await store.require_owned(session, turn.access.org_id, turn.member, turn.conversation_id)
            in_context = dict(row.knowledge_in_context or {})
        offline = self.model.name in ("offline", "disabled")
        picked, how = await knowledge.select(message, sorted(in_context), call=None if offline else self._call(turn),
                                             model=self.settings.summarizer_model)
        picked = {k: v for k, v in picked.items() if k not in PREFIX_SOURCES}
        async for event in self._deliver(turn, picked, in_context):
            yield event

    def _call(self, turn):
        async def call(request: ModelRequest) -> ModelResponse:
            cost_before = turn.cost_usd_micros
            response = None
            async for item in self.meter.stream(turn, self.model, request):
                if isinstance(item, ModelResponse):
                    response = item
            assert response is not None
            async with self.scope(turn) as session:
                u = response.usage
                await store.add_costs(session, turn.conversation_id, tokens=u.input_tokens + u.output_tokens
                                      + u.cache_read_tokens + u.cache_write_5m_tokens + u.cache_write_1h_tokens,
                                      cached=u.cache_read_tokens, cost=turn.cost_usd_micros - cost_before)
            return response
        return call

    async def _deliver(self, turn, picked: dict[str, dict[str, Any]], in_context: dict[str, Any] | None = None,
                       *, given: dict[str, Any] | None = None) -> AsyncIterator[Event]:
        """Append knowledge / knowledge_update events for the picked sources the context lacks (or that grew)."""
        now = datetime.now(UTC)
        async with self.scope(turn) as session:
            row = await store.require_owned(session, turn.access.org_id, turn.member, turn.conversation_id)
            known = dict(row.knowledge_in_context or {}) if in_context is None else in_context
            frames = []
            for name, params in picked.items():
                data = (given or {}).get(name)
                if data is None:
                    data = await load(session, turn.access.org_id, turn.member, name, params, now)
                delivery = knowledge.plan_delivery(known, name, params, data)
                if delivery is None:
                    continue
                await store.append(session, org_id=turn.access.org_id, session_id=turn.conversation_id,
                                   type="knowledge_update" if delivery.update else "knowledge",
                                   payload={"source": name, "params": delivery.params, "data": data})
                known[name] = {"params": delivery.params, "hash": knowledge.data_hash(data)}
                frames.append(knowledge_frame(name, SOURCES[name], delivery.params))
            await store.set_knowledge(session, row, known)
        for frame in frames:
            yield frame

    # ---- after a tool -------------------------------------------------------------------------------

    async def after_tool(self, turn, name: str, output: dict[str, Any]) -> AsyncIterator[Event]:
        if name == "data__fetch_data":
            loaded = output.get("sources", {})
            picked = {k: v["params"] for k, v in loaded.items()}
            async for event in self._deliver(turn, picked, given={k: v["data"] for k, v in loaded.items()}):
                yield event
        elif name in WORKOUT_TOOLS and output.get("workoutId"):
            async with self.scope(turn) as session:
                await store.append(session, org_id=turn.access.org_id, session_id=turn.conversation_id,
                                   type="workout", payload={"workoutId": output["workoutId"],
                                                            "summary": "\n".join(output.get("exercises", []))})
                row = await store.require_owned(session, turn.access.org_id, turn.member, turn.conversation_id)
                row.current_workout_key = output["workoutId"]

    # ---- the request --------------------------------------------------------------------------------

    async def build(self, turn) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with self.scope(turn) as session:
            system = await self._system(session, turn)
            messages = await self._messages(session, turn, system)
        return system, messages

    async def maybe_checkpoint(self, turn) -> None:
        """At the start of a turn (before its message and knowledge): checkpoint a context that is too big."""
        async with self.scope(turn) as session:
            await self._messages(session, turn, await self._system(session, turn))

    async def _system(self, session, turn) -> list[dict[str, Any]]:
        now = datetime.now(UTC)
        prefix_data = {name: await load(session, turn.access.org_id, turn.member, name, {}, now)
                       for name in PREFIX_SOURCES}
        return trainer_system(turn.locale, member_prefix(prefix_data))

    async def _messages(self, session, turn, system: list[dict[str, Any]]) -> list[dict[str, Any]]:
        context = await store.events(session, turn.conversation_id, context_only=True, since_checkpoint=True)
        messages = to_messages(context)
        if messages and estimated_tokens(messages, system) >= self.limit_tokens * CHECKPOINT_SHARE:
            await store.append(session, org_id=turn.access.org_id, session_id=turn.conversation_id,
                               type="checkpoint", payload={"summary": checkpoint_summary(context)})
            row = await store.require_owned(session, turn.access.org_id, turn.member, turn.conversation_id)
            await store.set_knowledge(session, row, {})
            context = await store.events(session, turn.conversation_id, context_only=True, since_checkpoint=True)
            messages = to_messages(context)
        return messages


def checkpoint_summary(context: list[store.Event]) -> str:
    """What carries over a checkpoint (001 §3.4.3): the member's recent requests and the current workout."""
    asks = [e.payload["message"][:300] for e in context if e.type == "user_message"][-5:]
    workouts = [e.payload for e in context if e.type == "workout"]
    lines = ["Earlier in this session the member asked:", *(f"- {a}" for a in asks)]
    if workouts:
        lines += [f"Current workout {workouts[-1]['workoutId']}:", workouts[-1].get("summary", "")]
    lines.append("Knowledge was reset; load what you need again.")
    return "\n".join(lines)
