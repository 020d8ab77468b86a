"""New turns reach their first frame before running turns make their next model call.

Under a burst a process holds more turns than its cores can move at once, and asyncio runs them in
arrival order of their next step: a new turn's start (lock, user message, `conversation_started`) waits
behind every running turn's round trips. A person whose turn has not started sees nothing; a person whose
turn is streaming already has something on screen. So while any turn of this process is between
`open_send` and its first frame, a running turn waits, at most `max_wait_s`, before its next model
call. The same work in another order: first frames come sooner, the burst takes as long as before, and a
running turn is never held longer than `max_wait_s` per model call. A start that never ends (a stream
nobody read) stops counting after `stale_s`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time

MAX_WAIT_S = 0.5
STALE_S = 5.0


class FirstFrames:
    def __init__(self, max_wait_s: float = MAX_WAIT_S, stale_s: float = STALE_S) -> None:
        self.max_wait_s, self.stale_s = max_wait_s, stale_s
        self._starting: dict[int, float] = {}  # token → when the turn began (monotonic), oldest first
        self._tokens = itertools.count()
        self._none_starting = asyncio.Event()
        self._none_starting.set()

    @property
    def starting(self) -> int:
        """Turns of this process that have not sent their first frame yet (stale ones included)."""
        return len(self._starting)

    def begin(self) -> int:
        """A turn is starting; returns the token to `end` it with."""
        token = next(self._tokens)
        self._starting[token] = time.monotonic()
        self._none_starting.clear()
        return token

    def end(self, token: int) -> None:
        """The turn sent its first frame (or ended without one). Idempotent."""
        self._starting.pop(token, None)
        if not self._starting:
            self._none_starting.set()

    async def let_starting_turns_first(self) -> None:
        """Before a model call: wait while turns are starting, at most `max_wait_s`."""
        if not self._starting:
            return
        now = time.monotonic()
        for token, began in list(self._starting.items()):  # insertion order: the oldest first
            if now - began < self.stale_s:
                break
            self.end(token)
        if self._starting:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._none_starting.wait(), self.max_wait_s)
