"""The staff copilot's thread: a conversation of messages (Anthropic content blocks) in `conversation_messages`.

A turn opens with ambient context, the page context and the clock as leading blocks of the person's message
(agent/request.py), supersedes the tool uses the person typed past, and may compact a long conversation. A
round trip writes the assistant message and one user message merging every tool result; the model reads the
history kept on the turn (read back once per turn, from the latest summary on).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any

import structlog

from agent import branches, conversations, events
from agent.budget import check_budget
from agent.costs import Usage
from agent.events import Event
from agent.model import ModelResponse
from agent.persona import Turn
from agent.request import turn_context, user_turn_content
from agent.round_trip import RoundTrip
from agent.threads import HistoryParts, Opening, ToolResult
from agent.turns import result_block, tool_result_block
from core.errors import Conflict, NotFound
from tools import executions
from tools.executions import ToolExecution
from tools.registry import ToolSpec
from tools.runner import ToolOutcome
from tools.storable import storable

log = structlog.get_logger("agent.conversation_thread")


class ConversationThread:
    """The staff copilot's history (agent.persona.History)."""

    not_found = "conversation_not_found"
    last_seq = conversations.LAST_SEQ

    def __init__(self, parts: HistoryParts) -> None:
        self.db, self.settings, self.tracing = parts.db, parts.settings, parts.tracing
        self.ambient, self.compactor = parts.ambient, parts.compactor
        self.registry = parts.registry

    def _marks(self, tool: str):
        """Where the tool's output carries member-written text, for the model's copy (core/member_text.py)."""
        return self.registry.member_text(tool) if self.registry is not None else None

    def _scope(self, turn: Turn):
        return self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id)

    async def locate(self, turn: Turn, requested: uuid.UUID | None) -> None:
        replaces = _replaces(turn)
        if requested is None:
            if replaces is not None:
                raise NotFound("message_not_found")  # a new conversation has nothing to replace
            turn.conversation_id, turn.is_new = uuid.uuid4(), True
            return
        async with self._scope(turn) as session:
            turn.conversation, turn.baseline = await conversations.get_owned_at(session, turn.owner(), requested)
        if turn.conversation is None:
            raise NotFound(self.not_found)
        if turn.conversation.channel == conversations.MCP_CHANNEL:  # a record of calls no model of ours continues
            raise Conflict("mcp_conversation_read_only")
        turn.conversation_id, turn.opened = requested, True
        if replaces is not None:  # checked before the stream opens (404 / 409), done again in `begin`
            async with self._scope(turn) as session:
                await branches.replaceable(session, requested, replaces)

    async def begin(self, turn: Turn, opening: Opening) -> AsyncIterator[Event]:
        now, replaces = datetime.now(UTC), opening.replaces
        ambient = await self._ambient(turn, opening.message)
        content = user_turn_content(opening.message, turn=turn_context(turn.access, turn.caller, turn.locale, now, replaces),
                                    page_context=opening.page_context, ambient=ambient)
        # One transaction: the budget check, older pending tool uses superseded, the user message, and the
        # history read back. A new conversation is created in it too: a first turn that fails here leaves
        # nothing behind.
        async with self._scope(turn) as session:
            await check_budget(session, turn.access, now)
            if turn.conversation is None:
                conversation = await conversations.start(session, turn.access.org_id, turn.caller.user_id,
                                                         turn.conversation_id, title=_title_from(opening.message),
                                                         content=content, page_context=opening.page_context,
                                                         persona=turn.persona.name)
                rows = None  # a new conversation's history is the message just written (nothing to read back)
            else:
                conversation = turn.conversation
                superseded = await executions.supersede_pending(session, turn.conversation_id,
                                                                pending_ttl=self.settings.pending_ttl, now=now)
                if superseded:
                    log.info("agent.tool.superseded", count=len(superseded))
                slot = None
                if replaces is not None:  # Regenerate / Edit: what it replaces becomes an alternative
                    slot = await branches.fork(session, turn.conversation_id, replaces)
                rows = await conversations.append_and_read(session, conversation, "user", content,
                                                           page_context=opening.page_context, touch=True,
                                                           fork_of=slot)
        turn.conversation, turn.opened = conversation, True
        if rows is None:
            turn.history = [{"role": "user", "content": storable(content)}]
            yield events.conversation_started(turn.conversation_id)
            return
        turn.history = conversations.to_model_messages(rows)
        if self.compactor is None:
            return
        step = self.tracing.step("compaction", turn.who(), turn.span, messages=len(rows))
        try:
            compacted = await self.compactor(conversation, rows)
            step.set_attribute("spotter.compacted", compacted)
        finally:
            step.end()
        if compacted:
            async with self._scope(turn) as session:
                turn.history = conversations.to_model_messages(
                    await conversations.messages_since_anchor(session, turn.conversation_id))

    async def _ambient(self, turn: Turn, message: str) -> str | None:
        if self.ambient is None:
            return None
        step = self.tracing.step("ambient_context", turn.who(), turn.span)
        try:
            found = await self.ambient(turn.access.org_id, message)
            step.set_attribute("spotter.found", found is not None)
            return found
        except Exception as exc:  # ambient context is best effort, never a failure
            log.warning("agent.ambient.failed")
            self.tracing.failed(step, type(exc).__name__)
            return None
        finally:
            step.end()

    async def model_input(self, turn: Turn) -> tuple[list[dict[str, Any]], list[dict[str, Any]], None]:
        return turn.persona.system(turn.access), turn.history, None

    async def store_repairs(self, turn: Turn, made_up: list[dict[str, Any]]) -> None:
        async with self._scope(turn) as session:
            await conversations.store_tool_results(session, turn.conversation_id, made_up)

    def assistant(self, turn: Turn, trip: RoundTrip, response: ModelResponse) -> uuid.UUID:
        assert turn.conversation is not None
        message_id = uuid.uuid4()
        usage = None if response.stop_reason == "interrupted" else events.usage_payload(response.usage)
        trip.add(conversations.message_row(turn.conversation, "assistant", response.content, message_id=message_id,
                                           stop_reason=response.stop_reason, usage=usage))
        turn.history.append({"role": "assistant", "content": response.content})
        return message_id

    def results(self, turn: Turn, trip: RoundTrip, results: Sequence[ToolResult]) -> None:
        """One user message merging every tool result of the answer, in order."""
        assert turn.conversation is not None
        content = [result_block(r.tool_use_id, r.output, r.error, self._marks(r.name)) for r in results]
        trip.add(conversations.message_row(turn.conversation, "user", content, message_id=uuid.uuid4()))
        turn.history.append({"role": "user", "content": content})

    async def after_tool(self, turn: Turn, trip: RoundTrip, spec: ToolSpec, outcome: ToolOutcome) -> list[Event]:
        return []

    async def after_call(self, turn: Turn, trip: RoundTrip, usage: Usage, cost_usd_micros: int) -> None:
        return None

    async def resumed(self, turn: Turn, trip: RoundTrip, executions_: Sequence[ToolExecution]) -> None:
        """The merged results appended and the history read back, in the resolving transaction."""
        assert turn.conversation is not None
        rows = await conversations.append_and_read(trip.session, turn.conversation, "user",
                                                   [tool_result_block(row, self._marks(f"{row.router}__{row.action}"))
                                                    for row in executions_])
        turn.history = conversations.to_model_messages(rows)


def _replaces(turn: Turn) -> uuid.UUID | None:
    """The user message a Regenerate / Edit replaces (agent/branches.py), from what the person sent."""
    return turn.opening.replaces if turn.opening is not None else None


def _title_from(message: str) -> str:
    line = " ".join(message.split())
    return line if len(line) <= 60 else line[:57].rstrip() + "..."
