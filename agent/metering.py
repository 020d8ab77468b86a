"""One model call, metered: reserve its cost against the daily cap, stream it, book what the provider billed.

The call in flight lives on the turn (`turn.open_call`) so that whoever ends the turn can settle it: the
stream itself when it finishes or fails, or the turn's finalizer when the client left mid-stream and the
stream was abandoned. A call that never finished still costs what `message_start` and the last
`message_delta` reported, and each settled call is written to `ai_usage_daily` before the next call
starts, so the next call's budget check (in this turn or a concurrent one) sees it. A caller that has a
transaction of its own after the call (the orchestrator's round trip) writes the usage in it
(`stream(settle=False)`, `write`, then `settle(written=True)` once it committed): one transaction per
round trip instead of two; if that transaction rolls back, a plain `settle` later writes it after all.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import anyio
import structlog
from opentelemetry.trace import Span
from sqlalchemy.ext.asyncio import AsyncSession

from agent.budget import UNMETERED, Reservation, Reservations, estimate_call_micros
from agent.costs import PriceBook, Usage
from agent.model import Billed, ModelClient, ModelRequest, ModelResponse, TextDelta
from agent.tracing import Tracing, Who
from agent.usage import record_turn
from core import row_inserts
from core.database import Database
from core.row_inserts import Row
from core.settings import Settings
from core.tenancy import Caller, OrgAccess

log = structlog.get_logger("agent.metering")


@dataclass
class OpenCall:
    """A started model call: its reservation and what it has been billed so far."""

    reservation: Reservation | None
    model: str
    usage: Usage


class Metered(Protocol):
    """What a turn carries for metering (agent.persona.Turn)."""

    access: OrgAccess
    caller: Caller
    usage: Usage
    cost_usd_micros: int
    model_calls: int
    round_trips: int
    open_call: OpenCall | None

    def who(self) -> Who: ...

    def trace_parent(self) -> Span | None: ...


class Meter:
    def __init__(self, *, db: Database, redis: Any, prices: PriceBook, settings: Settings,
                 tracing: Tracing | None = None) -> None:
        self.db, self.prices = db, prices
        self.tracing = tracing or Tracing.off()
        # a reservation outlives the longest call (every retry timing out), then lapses if its process died
        hold = settings.anthropic_timeout * (settings.anthropic_max_retries + 1) + 60
        self.reservations = Reservations(redis, hold_seconds=hold)

    async def stream(self, turn: Metered, model: ModelClient, request: ModelRequest, *,
                     settle: bool = True) -> AsyncGenerator[TextDelta | ModelResponse, None]:
        """The model's stream with `Billed` consumed here; raises agent_budget_exceeded before a call the
        budget cannot take. With `settle=False` a call that finished stays open for the caller to `write`
        in its own transaction and then `settle(written=True)`; a call that failed is settled here."""
        await self.open(turn, request)
        span = self.tracing.chat(turn.who(), turn.trace_parent(), model=request.model,
                                 round_trip=turn.round_trips or None)
        self.tracing.content(span, "gen_ai.input.messages", request.messages)
        finished, response = False, None
        try:
            async for item in model.stream(request):
                if isinstance(item, Billed | ModelResponse) and turn.open_call is not None:
                    turn.open_call.usage = item.usage
                if isinstance(item, ModelResponse):
                    response = item
                if not isinstance(item, Billed):
                    yield item
            finished = True
        except BaseException as exc:
            self.tracing.failed(span, type(exc).__name__)
            raise
        finally:
            usage, cost = self.in_flight(turn)
            self.tracing.finish_chat(span, response_model=response.model if response else None,
                                     stop_reason=response.stop_reason if response else None,
                                     input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
                                     cache_read=usage.cache_read_tokens, cache_write=usage.cache_creation_tokens,
                                     cost_usd_micros=cost)
            if response is not None:
                self.tracing.content(span, "gen_ai.output.messages", response.content)
            span.end()
            if settle or not finished:
                with anyio.CancelScope(shield=True):
                    await self.settle(turn)

    async def open(self, turn: Metered, request: ModelRequest) -> None:
        await self.settle(turn)  # never two calls of one turn in flight
        reservation = None
        if turn.access.daily_cap_usd_micros != UNMETERED:  # an unmetered org reserves nothing
            estimate = estimate_call_micros(self.prices, request.model, request)
            async with self.db.scope(org_id=turn.access.org_id, user_id=turn.caller.user_id) as session:
                reservation = await self.reservations.reserve(session, turn.access, estimate, datetime.now(UTC))
        turn.open_call = OpenCall(reservation, request.model, Usage())
        turn.model_calls += 1

    def in_flight(self, turn: Metered) -> tuple[Usage, int]:
        """The usage and cost of the call in flight (nothing when none is)."""
        call = turn.open_call
        if call is None:
            return Usage(), 0
        return call.usage, self.prices.cost_usd_micros(call.model, call.usage)

    async def write(self, turn: Metered, session: AsyncSession, *, turns: int = 0,
                    along: Sequence[Row] = ()) -> None:
        """Write the usage of the call in flight (and `turns`) to `ai_usage_daily` in the caller's transaction,
        in one statement with `along` (rows of the caller's); once that committed,
        `settle(turn, written=True)`."""
        call = turn.open_call
        if call is None:
            for row in along:
                await session.execute(*row_inserts.statements.get([row]))
            return
        await record_turn(session, org_id=turn.access.org_id, user_id=turn.caller.user_id,
                          day=datetime.now(UTC).date(), usage=call.usage,
                          cost_usd_micros=self.prices.cost_usd_micros(call.model, call.usage), turns=turns,
                          along=along)

    async def settle(self, turn: Metered, *, written: bool = False) -> None:
        """Book the call in flight on the turn and in `ai_usage_daily` (unless `written` already in a
        committed transaction), then drop its reservation. Idempotent."""
        call, turn.open_call = turn.open_call, None
        if call is None:
            return
        cost = self.prices.cost_usd_micros(call.model, call.usage)
        turn.usage = turn.usage + call.usage
        turn.cost_usd_micros += cost
        try:
            if not written and call.usage != Usage():
                await self._record(turn.access.org_id, turn.caller.user_id, call.usage, cost)
        except Exception:
            log.exception("agent.usage.record_failed")
        finally:
            try:
                await self.reservations.release(call.reservation)
            except Exception:  # it lapses on its own after hold_seconds
                log.warning("agent.budget.release_failed")

    async def _record(self, org_id: uuid.UUID, user_id: uuid.UUID, usage: Usage, cost: int) -> None:
        async with self.db.scope(org_id=org_id, user_id=user_id) as session:
            await record_turn(session, org_id=org_id, user_id=user_id, day=datetime.now(UTC).date(), usage=usage,
                              cost_usd_micros=cost, turns=0)
