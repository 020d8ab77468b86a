"""One controller call's turn at work: its SSE side (`TurnStream`), its transactions (`TurnStore`) and the tool
results it hands the model.

`TurnStream` runs a body of events, maps a failure to one `error` event, always finalizes and releases the
turn lock, and ends with exactly one `done` (the persona's). The turn itself (`Turn`) is declared with the
persona it runs, whose hooks take it (agent/persona.py); where its messages are written is the persona's
history (agent.persona.History).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any

import anyio
import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from agent import events
from agent.conversations import Conversation
from agent.costs import Usage
from agent.errors import classify
from agent.locks import TurnLock
from agent.observability import Observability
from agent.persona import Turn
from agent.tracing import traceparent
from agent.usage import record_turn
from core.database import Database
from core.errors import ServiceError
from core.i18n import error_message
from core.member_text import Marks, wrap
from tools import executions

log = structlog.get_logger("agent.turns")

TitleScheduler = Callable[[Conversation], None]  # starts titling in the background; never blocks, never raises
Finalizer = Callable[[Turn, str | None], Awaitable[None]]


class TurnStream:
    """The SSE side of a turn: runs `body`, maps failures to `error`, always finalizes and ends with `done`."""

    def __init__(self, turn: Turn, lock: TurnLock, body: Callable[[Turn], AsyncIterator[events.Event]], *,
                 finalize: Finalizer, observability: Observability, titles: TitleScheduler | None,
                 first_frame: Callable[[], None] | None = None) -> None:
        self.turn, self.lock, self.body = turn, lock, body
        self.finalize, self.observability, self.titles = finalize, observability, titles
        self.first_frame = first_frame  # called once: at the first frame, or at the end of a stream without one

    async def events(self) -> AsyncIterator[events.Event]:
        turn, obs = self.turn, self.observability
        obs.emit("agent.turn.started", trace_id=turn.trace_id, org_id=str(turn.access.org_id),
                 endpoint=turn.endpoint, promptLength=turn.prompt_length, conversation_id=str(turn.conversation_id))
        failed_code: str | None = None
        try:
            async for event in self.body(turn):
                self._first_frame()
                yield event
        except Exception as exc:
            failed_code = classify(exc)
            if failed_code == "internal":
                log.exception("agent.turn.crashed", error_type=type(exc).__name__)
                span_parent = traceparent(turn.span)
                obs.capture_exception(exc, trace_id=turn.trace_id, org_id=str(turn.access.org_id),
                                      endpoint=turn.endpoint, code=failed_code,
                                      span_id=span_parent.split("-")[2] if span_parent else None)
            yield events.error(failed_code, error_message(failed_code, turn.locale, **_params(exc)), turn.trace_id)
        except BaseException:  # cancelled: an explicit stop or a shutdown (agent/turn_runner.py sends the `done`)
            failed_code = "aborted"
            raise
        finally:
            self._first_frame()
            with anyio.CancelScope(shield=True):
                await self.finalize(turn, failed_code)
                await self.lock.release()
                end_turn_span(obs, turn, failed_code)
        if self.titles is not None and turn.is_new and failed_code is None and turn.conversation is not None:
            self.titles(turn.conversation)
        yield turn.persona.frames.done(turn)  # the persona's `done`: the trainer's names the session

    async def discard(self) -> None:
        """The turn will not run (it could not be registered): finalize it as aborted and release its lock."""
        self._first_frame()
        try:
            await self.finalize(self.turn, "aborted")
        finally:
            await self.lock.release()
            end_turn_span(self.observability, self.turn, "aborted")

    def _first_frame(self) -> None:
        call = self.first_frame
        if call is not None:
            self.first_frame = None
            call()


def end_turn_span(observability: Observability, turn: Turn, failed_code: str | None) -> None:
    """End the turn's `invoke_agent` span with its totals (and its failure code)."""
    span, turn.span = turn.span, None
    if span is None:
        return
    span.set_attributes({"gen_ai.usage.input_tokens": turn.usage.input_tokens + turn.usage.cache_read_tokens
                         + turn.usage.cache_creation_tokens, "gen_ai.usage.output_tokens": turn.usage.output_tokens,
                         "gen_ai.usage.cache_read.input_tokens": turn.usage.cache_read_tokens,
                         "gen_ai.usage.cache_creation.input_tokens": turn.usage.cache_creation_tokens,
                         "spotter.cost_usd_micros": turn.cost_usd_micros, "spotter.model_calls": turn.model_calls,
                         "spotter.round_trips": turn.round_trips, "spotter.suspended": turn.suspended})
    if failed_code is not None:
        observability.tracing.failed(span, failed_code)
    span.end()


def _params(exc: BaseException) -> dict[str, Any]:
    return dict(exc.params) if isinstance(exc, ServiceError) else {}


class TurnStore:
    """A turn's transactions (under the caller's org and user) and its count in `ai_usage_daily`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def scope(self, turn: Turn) -> AbstractAsyncContextManager[AsyncSession]:
        """A transaction under the caller's org and user (row-level security)."""
        return self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id)

    async def count_turn(self, turn: Turn) -> None:
        """Count the turn in `ai_usage_daily` unless a round trip already did (each model call's usage is
        booked by agent.metering); never fails the turn."""
        if not turn.model_calls or turn.counted:
            return
        try:
            async with self.scope(turn) as session:
                await record_turn(session, org_id=turn.access.org_id, user_id=turn.caller.user_id,
                                  day=datetime.now(UTC).date(), usage=Usage(), cost_usd_micros=0)
        except Exception:
            log.exception("agent.usage.record_failed")


def result_block(tool_use_id: str, output: dict | None, error: dict | None,
                 marks: Marks | None = None) -> dict[str, Any]:
    """A tool_result block: the output as JSON (the member-written text `marks` names in its envelope), or
    `is_error` with {code, message, hint}."""
    if error is not None:
        return {"type": "tool_result", "tool_use_id": tool_use_id, "is_error": True,
                "content": json.dumps(error, ensure_ascii=False, default=str)}
    return {"type": "tool_result", "tool_use_id": tool_use_id,
            "content": json.dumps(wrap(output or {}, marks), ensure_ascii=False, default=str)}


def tool_result_block(row: executions.ToolExecution, marks: Marks | None = None) -> dict[str, Any]:
    """The tool_result the model reads for one stored execution."""
    if row.status == "succeeded":
        output = dict(row.output or {})
        if output.pop("_editedInput", False):
            output = {"note": "The user edited the input before approving; the tool ran with the edited input "
                              "shown here.", "input": row.input, "result": output}
            marks = {"result": marks} if marks else None
        return result_block(row.tool_use_id, output, None, marks)
    return result_block(row.tool_use_id, None, row.error or {
        "code": row.status, "message": f"The tool call ended as {row.status}.", "hint": None})
