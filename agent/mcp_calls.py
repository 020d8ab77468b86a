"""The MCP channel's calls on the one engine: a tool call, an approval answered inline, an undo, a status read.

A `tools/call` from an assistant connected over MCP is one assistant answer with one tool use in the session's
conversation (channel `mcp`): the conversation's lock, the daily cap's pre-check, then the engine's dispatcher
runs it (RBAC, validation, audit) or suspends it for a person (the confirm policy), in one transaction with the
call's metering — the same frames and rows a console turn writes, so the console shows the call as an action
card. An approval answered in the MCP client and an undo go through the engine's resumer, the path the
console's confirm and undo endpoints take; nothing here decides who may do what.

Metering: the model that chose the call is the client's, so no tokens are ours to count. Each call that reaches
the engine is booked in `ai_usage_daily` as one turn costing MCP_CALL_COST_USD_MICROS (default $0.001), and is
refused once the day's spend reached the cap, as a console turn is: a metered org's cap is then also a ceiling
on what assistants do over MCP (lite, $1: 1,000 calls a day with nothing else spent). A resolution (approve,
reject) is part of the call it answers and costs nothing more; an undo, as in the console, is never refused for
the cap and costs nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from agent import conversations, events
from agent.budget import check_budget
from agent.conversations import MCP_CHANNEL
from agent.costs import Usage
from agent.model import ModelResponse
from agent.orchestrator import Orchestrator
from agent.persona import Turn
from agent.policy import can_undo
from agent.resume import Answer, Resumer
from agent.round_trip import RoundTrip
from agent.turns import TurnStream
from agent.usage import record_turn
from core.errors import NotFound, ServiceError
from core.i18n import error_message
from core.settings import Settings
from core.tenancy import Caller, OrgAccess
from tools import executions
from tools.executions import ToolExecution
from tools.registry import Described, ToolRegistry, ToolSpec


@dataclass(frozen=True)
class McpWho:
    """Who calls, where, in which language, under which trace."""

    access: OrgAccess
    caller: Caller
    locale: str
    trace_id: str


@dataclass(frozen=True)
class CallResult:
    """What became of a call: `succeeded`, `failed` (the typed error), `pending` (awaits a person's approval),
    `running` (someone is resolving it), or `refused` before anything was stored (the cap, a busy session)."""

    status: str
    tool: str
    execution_id: uuid.UUID | None = None
    conversation_id: uuid.UUID | None = None
    output: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    summary: Described | None = None  # pending: the action in words (and its lines), in the caller's language
    undoable: bool = False


class McpCalls:
    def __init__(self, *, loop: Orchestrator, resumer: Resumer, settings: Settings) -> None:
        self.loop, self.resumer, self.settings = loop, resumer, settings
        self.persona = loop.personas.channel(MCP_CHANNEL)  # the MCP persona (agent/mcp_persona.py), as composed

    @property
    def registry(self) -> ToolRegistry:
        return self.loop.registry

    def tools(self, role: str) -> list[ToolSpec]:
        """The caller's tools over MCP: the registry's for the role, as the MCP persona offers them."""
        return self.persona.tools(self.loop.registry, role)

    def spec(self, name: str) -> ToolSpec | None:
        return self.loop.registry.get(name)

    # ---- a tool call ---------------------------------------------------------------------------------

    async def call(self, who: McpWho, conversation_id: uuid.UUID, title: str | None, name: str,
                   arguments: dict[str, Any]) -> CallResult:
        """Run (or suspend) one tool call in the session's conversation, created with `title` on its first call."""
        loop = self.loop
        try:
            lock = await loop.take_lock(conversation_id, wait_seconds=self.settings.agent_answer_wait_seconds)
        except ServiceError as exc:
            return self.refused(who, name, exc)
        turn = loop.new_turn(self.persona, access=who.access, caller=who.caller, locale=who.locale, trace_id=who.trace_id,
                             kind="call", conversation_id=conversation_id)
        loop.trace(turn)
        tool_use_id = f"mcp_{uuid.uuid4().hex}"
        use = {"type": "tool_use", "id": tool_use_id, "name": name, "input": arguments}

        async def body(t: Turn) -> AsyncIterator[events.Event]:
            thread = loop.history(self.persona)
            async with loop.store.scope(t) as session:
                now = datetime.now(UTC)
                await check_budget(session, t.access, now)
                t.conversation = await conversations.get_owned(session, t.owner(), conversation_id) \
                    or await conversations.create(
                    session, t.access.org_id, t.caller.user_id, conversation_id, title=title, channel=MCP_CHANNEL)
                t.opened = True
                trip = RoundTrip(session)
                message_id = thread.assistant(t, trip, ModelResponse(content=[use], stop_reason="tool_use",
                                                                     usage=Usage(), model=self.persona.name))
                async for event in loop.dispatcher.process(t, thread, trip, message_id, [use]):
                    for ready in trip.emit(event):
                        yield ready
                await record_turn(session, org_id=t.access.org_id, user_id=t.caller.user_id, day=now.date(),
                                  usage=Usage(), cost_usd_micros=self.settings.mcp_call_cost_usd_micros, turns=1,
                                  along=trip.take_rows())
            for event in trip.committed():
                yield event

        refused = await _refusal(loop.stream(turn, lock, body), name)
        return refused or await self._result(who, conversation_id, tool_use_id)

    # ---- answers to a pending call, its undo and its state ------------------------------------------

    async def decide(self, who: McpWho, execution_id: uuid.UUID, *, approved: bool) -> CallResult:
        """Approve or reject a pending call through the resumer (the console's confirm path): the atomic claim
        makes it run at most once, whoever answers first; a later answer reads what became of it."""
        row = await self._owned(who, execution_id)
        name = f"{row.router}__{row.action}"
        try:
            stream = await self.resumer.open_confirm(self._answer(who, "confirm", row), approved=approved,
                                                     edited_input=None)
        except ServiceError as exc:
            if exc.code != "tool_already_resolved":
                return self.refused(who, name, exc)
        else:  # refused in the stream (the cap): the claim rolled back, the call still waits
            refused = await _refusal(stream, name)
            if refused is not None:
                return replace(refused, execution_id=row.id, conversation_id=row.conversation_id)
        return await self._result(who, row.conversation_id, row.tool_use_id)

    async def undo(self, who: McpWho, execution_id: uuid.UUID) -> dict[str, Any]:
        """Undo one of the caller's calls through the resumer (the console's undo path); raises its refusals."""
        row = await self._owned(who, execution_id)
        return await self.resumer.undo(self._answer(who, "undo", row))

    async def status(self, who: McpWho, execution_id: uuid.UUID) -> CallResult:
        row = await self._owned(who, execution_id)
        return await self._result(who, row.conversation_id, row.tool_use_id)

    def refused(self, who: McpWho, name: str, exc: ServiceError) -> CallResult:
        """A refusal before anything ran, in the people's words of its code."""
        return CallResult("refused", name, error={"code": exc.code,
                                                  "message": error_message(exc.code, who.locale, **exc.params)})

    # ---- reading ------------------------------------------------------------------------------------

    def _answer(self, who: McpWho, kind: str, row: ToolExecution) -> Answer:
        return Answer(who.access, who.caller, who.locale, who.trace_id, kind, row.conversation_id, row.tool_use_id,
                      persona=self.persona)

    async def _owned(self, who: McpWho, execution_id: uuid.UUID) -> ToolExecution:
        """One of the caller's own tool executions in this org (any channel), else 404."""
        async with self.loop.db.scope(org_id=who.access.org_id, user_id=who.caller.user_id) as session:
            row = await session.scalar(
                select(ToolExecution).join(conversations.Conversation,
                                           conversations.Conversation.id == ToolExecution.conversation_id)
                .where(ToolExecution.id == execution_id, ToolExecution.org_id == who.access.org_id,
                       conversations.Conversation.user_id == who.caller.user_id))
        if row is None:
            raise NotFound("tool_execution_not_found")
        return row

    async def _result(self, who: McpWho, conversation_id: uuid.UUID, tool_use_id: str) -> CallResult:
        """The call as stored: its execution row is the one account of what happened."""
        async with self.loop.db.scope(org_id=who.access.org_id, user_id=who.caller.user_id) as session:
            row = await executions.get(session, conversation_id, tool_use_id)
        if row is None:
            raise NotFound("tool_execution_not_found")
        name = f"{row.router}__{row.action}"
        spec = self.spec(name)
        result = CallResult(row.status, name, execution_id=row.id, conversation_id=conversation_id)
        if row.status == "succeeded":
            output = {k: v for k, v in (row.output or {}).items() if k != "_editedInput"}
            undoable = row.undone_by is None and can_undo(self.loop.registry, spec, who.access.role, succeeded=True,
                                                          ran_at=row.resolved_at or row.created_at,
                                                          now=datetime.now(UTC))
            return replace(result, output=output, undoable=undoable)
        if row.status == "pending":
            summary = None
            if spec is not None:
                summary = await self.loop.runner.describe(spec, row.input or {}, access=who.access,
                                                          caller=who.caller, locale=who.locale)
            return replace(result, summary=summary)
        if row.status == "running":
            return result
        return replace(result, error=_people(row, who.locale))


async def _refusal(stream: TurnStream, name: str) -> CallResult | None:
    """Run the turn's stream to its end; the refusal it ended with (its `error` frame), if any."""
    failed = [event async for event in stream.events() if isinstance(event, events.ErrorFrame)]
    if not failed:
        return None
    return CallResult("refused", name, error={"code": failed[0].code, "message": failed[0].message})


def _people(row: ToolExecution, locale: str) -> dict[str, Any]:
    """The stored error; one that ended without a tool's words (expired, superseded) gets its people's words."""
    error = dict(row.error or {"code": row.status})
    if row.status in ("expired", "superseded"):
        error["message"] = error_message(row.status, locale)
    return error
