"""Turns that outlive their connection: every turn (send, confirm, pick; every persona) runs detached from the
request that opened it, its frames going to its Redis Stream (agent/turn_log.py, agent/frame_writer.py); the
request, and any later reconnect on any API process, only reads that stream.

The runner belongs to the app's lifespan, not to a request: a client that leaves changes nothing. One watcher
task per process renews the live lease of the process's turns and looks for explicit stops (a key any process
may set): a stopped turn is cancelled where it runs (the model stream closes, the assistant row keeps what
streamed, the turn is finalized and its lock released) and its `done` follows. On shutdown the runner lets
running turns finish for a grace period, then interrupts the rest with `error{turn_interrupted}` + `done`.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import structlog

from agent import events, turn_log
from agent.costs import Usage
from agent.frame_writer import FrameWriter
from agent.locks import holder
from agent.observability import Observability
from agent.persona import Persona
from agent.turn_log import TurnKeys, TurnRecord
from agent.turns import TurnStream
from core.i18n import error_message

log = structlog.get_logger("agent.turn_runner")

INTERRUPTED = "turn_interrupted"  # the turn's process stopped (shutdown, crash) before its end
STOP_POLL_S = 0.25  # how often a process looks for explicit stops of its turns
RENEW_EVERY_S = turn_log.LEASE_MS / 3000


@dataclass
class _Lost:
    """The totals a sealed turn's `done` reports: nothing known (its process took them along)."""

    conversation_id: uuid.UUID
    opened: bool
    usage: Usage = field(default_factory=Usage)
    cost_usd_micros: int = 0
    round_trips: int = 0


def _sealing(record: TurnRecord, persona: Persona, locale: str) -> turn_log.Sealing:
    error = events.error(INTERRUPTED, error_message(INTERRUPTED, locale), record.trace_id)
    done = persona.frames.done(_Lost(record.thread_id, record.opened))
    return turn_log.Sealing(first_error=error.encoded(turn_id=str(record.turn_id)), error=error.encoded(),
                            done=done.encoded())


@dataclass
class _Running:
    stream: TurnStream
    writer: FrameWriter
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    reason: str | None = None  # "stop" | "shutdown" once cancelled
    task: asyncio.Task[None] | None = None


class TurnRunner:
    def __init__(self, redis: Any, *, observability: Observability | None = None) -> None:
        self.redis, self.observability = redis, observability
        self._running: dict[uuid.UUID, _Running] = {}
        self._watcher: asyncio.Task[None] | None = None

    @property
    def running(self) -> int:
        """Turns this process is running now."""
        return len(self._running)

    async def launch(self, stream: TurnStream, kind: str) -> TurnRecord:
        """Register the turn in Redis and start it detached; returns its record (the readers' key)."""
        turn = stream.turn
        record = TurnRecord(turn_id=turn.turn_id, org_id=turn.access.org_id, user_id=turn.caller.user_id,
                            persona=turn.persona.name, thread_id=turn.conversation_id, kind=kind,
                            baseline=turn.baseline, trace_id=turn.trace_id, opened=turn.opened)
        try:
            await turn_log.register(self.redis, record)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await stream.discard()
            raise
        running = _Running(stream, FrameWriter(self.redis, record.turn_id, opened=turn.opened))
        self._running[record.turn_id] = running
        running.task = asyncio.create_task(self._run(running), name=f"turn-{record.turn_id}")
        self._ensure_watcher()
        return record

    async def _run(self, running: _Running) -> None:
        stream, writer, turn = running.stream, running.writer, running.stream.turn
        try:
            with running.scope:
                async for event in stream.events():
                    if turn.opened:
                        writer.opened()
                    writer.append(event)
            if running.scope.cancelled_caught:  # stopped or interrupted: the stream was cut before its `done`
                if running.reason == "shutdown":
                    writer.append(events.error(INTERRUPTED, error_message(INTERRUPTED, turn.locale),
                                               turn.trace_id))
                writer.append(turn.persona.frames.done(turn))
        except Exception:  # the stream maps every failure to `error`: this is a bug, still end the stream
            log.exception("agent.turn.runner_failed")
            writer.append(events.error("internal", error_message("internal", turn.locale), turn.trace_id))
            writer.append(turn.persona.frames.done(turn))
        finally:
            with anyio.CancelScope(shield=True):
                await writer.close()
            self._running.pop(turn.turn_id, None)

    async def stop(self, record: TurnRecord) -> bool:
        """Ask the turn to stop, wherever it runs; False when it had already ended."""
        last = await turn_log.last_frame(self.redis, record.turn_id)
        if last is not None and last.type == "done":
            return False
        await turn_log.request_stop(self.redis, record.turn_id)
        local = self._running.get(record.turn_id)
        if local is not None:
            self._cancel(local, "stop")
        return True

    def _cancel(self, running: _Running, reason: str) -> None:
        if running.reason is None:
            running.reason = reason
            running.scope.cancel()

    def follow(self, record: TurnRecord, persona: Persona, locale: str,
               after: int = 0) -> AsyncIterator[turn_log.Frame | None]:
        """The turn's frames after `after`, then live until `done` (None: a silent second, for keep-alives)."""
        return turn_log.follow(self.redis, record.turn_id, after, _sealing(record, persona, locale))

    async def running_on(self, thread_id: uuid.UUID) -> TurnRecord | None:
        """The turn running on a thread now (its lock names it), if any."""
        token = await holder(self.redis, thread_id)
        try:
            turn_id = uuid.UUID(token) if token else None
        except ValueError:
            return None
        record = await turn_log.record_of(self.redis, turn_id) if turn_id is not None else None
        return record if record is not None and record.thread_id == thread_id else None

    # ---- the watcher: leases and stops ---------------------------------------------------------------

    def _ensure_watcher(self) -> None:
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.create_task(self._watch(), name="turn-watcher")

    async def _watch(self) -> None:
        renewed = 0.0
        loop = asyncio.get_running_loop()
        while self._running:
            await asyncio.sleep(STOP_POLL_S)
            ids = [turn_id for turn_id, r in self._running.items() if r.reason is None]
            if not ids:
                continue
            renew = loop.time() - renewed >= RENEW_EVERY_S
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for turn_id in ids:
                        keys = TurnKeys(turn_id)
                        pipe.exists(keys.stop)
                        if renew:
                            pipe.set(keys.alive, "1", px=turn_log.LEASE_MS)
                    results = await pipe.execute()
            except Exception as exc:  # Redis away for a moment: the lease has slack, try again
                log.warning("agent.turn.watch_failed", error_type=type(exc).__name__)
                continue
            if renew:
                renewed = loop.time()
            stops = results[::2] if renew else results
            for turn_id, stop in zip(ids, stops, strict=True):
                running = self._running.get(turn_id)
                if stop and running is not None:
                    self._cancel(running, "stop")

    # ---- shutdown -------------------------------------------------------------------------------------

    async def close(self, grace_seconds: float = 30.0) -> None:
        """Let running turns end for `grace_seconds`, then interrupt the rest (`error{turn_interrupted}`)."""
        tasks = [r.task for r in self._running.values() if r.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=grace_seconds)
        for running in list(self._running.values()):
            self._cancel(running, "shutdown")
        tasks = [r.task for r in self._running.values() if r.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=10)
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watcher
