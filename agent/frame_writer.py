"""A running turn's frames, appended to its Redis Stream (agent/turn_log.py) in order and exactly once.

The engine never waits on Redis for a frame: `append` numbers the frame and buffers it; one task per turn
writes what is buffered in one pipelined round trip (many text deltas become one round trip under load). A
write that fails is retried with backoff with the same entry ids, so a retry whose first try did land is refused
by Redis ("equal or smaller") rather than stored twice. After `done` the stream and its owner are kept
`KEEP_SECONDS` and the live lease is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import structlog

from agent import turn_log
from agent.events import Event
from agent.turn_log import TurnKeys

log = structlog.get_logger("agent.frame_writer")

RETRY_FIRST_S, RETRY_MAX_S, GIVE_UP_S = 0.1, 2.0, 60.0
_ALREADY_THERE = "equal or smaller"  # XADD's refusal of an id at or below the stream's last: it landed before


class FrameWriter:
    def __init__(self, redis: Any, turn_id: Any, *, opened: bool = False) -> None:
        self.redis, self.turn_id, self.keys = redis, str(turn_id), TurnKeys(turn_id)
        self.seq = 0
        self._buffer: list[tuple[int, str, bytes]] = []
        self._wake = asyncio.Event()
        self._closing = False
        self._opened, self._opened_written = opened, opened
        self._task = asyncio.create_task(self._flush(), name=f"turn-frames-{self.turn_id}")

    def append(self, event: Event) -> None:
        """Number the frame and queue it; the first frame names the turn (`turnId`)."""
        self.seq += 1
        data = event.encoded(turn_id=self.turn_id) if self.seq == 1 else event.encoded()
        self._buffer.append((self.seq, event.type, data))
        self._wake.set()

    def opened(self) -> None:
        """The turn's thread now exists (a reader sealing a lost turn names it in `done`)."""
        self._opened = True

    async def close(self) -> None:
        """Write what is left (the last frame is `done`), then stop."""
        self._closing = True
        self._wake.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._task), GIVE_UP_S + 5)

    async def _flush(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._buffer = self._buffer, []
            if batch:
                await self._write(batch)
            if self._closing and not self._buffer:
                return

    async def _write(self, batch: list[tuple[int, str, bytes]]) -> None:
        delay, waited = RETRY_FIRST_S, 0.0
        while True:
            try:
                await self._send(batch)
                return
            except Exception as exc:
                if waited >= GIVE_UP_S:
                    log.error("agent.turn.frames_lost", turn_id=self.turn_id, frames=len(batch),
                              error_type=type(exc).__name__)
                    return
                log.warning("agent.turn.frames_retry", turn_id=self.turn_id, error_type=type(exc).__name__)
                await asyncio.sleep(delay)
                waited += delay
                delay = min(delay * 2, RETRY_MAX_S)

    async def _send(self, batch: list[tuple[int, str, bytes]]) -> None:
        ended = batch[-1][1] == "done"
        async with self.redis.pipeline(transaction=False) as pipe:
            for seq, kind, data in batch:
                pipe.xadd(self.keys.frames, {"e": kind, "d": data}, id=f"{seq}-0", maxlen=turn_log.MAX_FRAMES,
                          approximate=True)
            pipe.expire(self.keys.frames, turn_log.KEEP_SECONDS)
            pipe.expire(self.keys.meta, turn_log.KEEP_SECONDS)
            if self._opened and not self._opened_written:
                pipe.hset(self.keys.meta, "opened", "1")
            if ended:
                pipe.delete(self.keys.alive)
            results = await pipe.execute(raise_on_error=False)
        for result in results:
            if isinstance(result, Exception) and _ALREADY_THERE not in str(result):
                raise result
        self._opened_written = self._opened
