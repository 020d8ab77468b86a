"""The per-conversation turn lock in Redis: one turn (send, confirm or pick) at a time.

The lock is a short lease that its holder renews while the turn runs (every third of the lease), so a
turn of any length keeps it and a holder that dies (kill -9) frees the conversation within one lease.
Renewal stops after `max_hold_seconds` in any case, so a stream that is never consumed (and so never
releases) cannot hold a conversation forever.

Redis away (stopped, frozen): taking the lock raises (the request answers 503 service_unavailable); a release
that fails never fails the turn, it is retried in the background every `RELEASE_RETRY_SECONDS` until it lands
or the lease would have lapsed anyway, so the conversation is free again as soon as Redis is back, not a whole
lease later.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid

import redis.asyncio as aioredis
import structlog

log = structlog.get_logger("agent.locks")

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end
"""
DEFAULT_LEASE_SECONDS = 15.0
RELEASE_WAIT_SECONDS = 2.0
RELEASE_RETRY_SECONDS = 0.2
_RETRIES: set[asyncio.Task[None]] = set()  # background releases in flight (a task nobody holds may be collected)
MAX_HOLD_SECONDS = 3600.0  # far beyond the longest turn: 6 round trips x 120 s x 3 attempts is 36 min


def lock_key(conversation_id: object) -> str:
    return f"spotter:turn:{conversation_id}"


async def holder(redis: aioredis.Redis, conversation_id: object) -> str | None:
    """The token of the conversation's lock while a turn holds it (a turn's id), else None."""
    token = await redis.get(lock_key(conversation_id))
    return token.decode() if isinstance(token, bytes) else token


class TurnLock:
    def __init__(self, redis: aioredis.Redis, conversation_id: object, *,
                 lease_seconds: float = DEFAULT_LEASE_SECONDS, max_hold_seconds: float = MAX_HOLD_SECONDS,
                 token: str | None = None) -> None:
        self.redis = redis
        self.key = lock_key(conversation_id)
        self.token = token or uuid.uuid4().hex  # a turn's lock holds its turn id: the thread's running turn
        self.lease_ms = max(1, int(lease_seconds * 1000))
        self.max_hold_seconds = max_hold_seconds
        self.held = False
        self.expires_at = 0.0  # monotonic time the lease lapses unless renewed
        self._renewal: asyncio.Task[None] | None = None
        self._released = asyncio.Event()

    async def acquire(self, wait_seconds: float = 0.0) -> bool:
        deadline = time.monotonic() + wait_seconds
        while True:
            started = time.monotonic()
            if await self.redis.set(self.key, self.token, nx=True, px=self.lease_ms):
                self.held, self.expires_at = True, started + self.lease_ms / 1000
                self._renewal = asyncio.create_task(self._renew())
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.05)

    async def _renew(self) -> None:
        """Push the lease forward every third of it until released; stop if someone else holds the key.

        It stops on the `_released` event rather than on cancellation alone: a cancel that lands inside a
        Redis call can come back as a connection error, which the retry below would otherwise swallow."""
        give_up = time.monotonic() + self.max_hold_seconds
        while time.monotonic() < give_up and not self._released.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._released.wait(), self.lease_ms / 3000)
            if self._released.is_set():
                return
            started = time.monotonic()
            try:
                renewed = await self.redis.eval(_RENEW, 1, self.key, self.token, self.lease_ms)
            except Exception:  # Redis away for a moment: try again next period, the lease has slack
                log.warning("agent.lock.renew_failed")
                continue
            if not renewed:
                log.warning("agent.lock.lost")
                return
            self.expires_at = started + self.lease_ms / 1000

    async def release(self) -> None:
        self._released.set()
        if self._renewal is not None:
            renewal, self._renewal = self._renewal, None
            renewal.cancel()
            # Bounded: the renewal ends at its next step once `_released` is set; never wait on it forever.
            await asyncio.wait({renewal}, timeout=RELEASE_WAIT_SECONDS)
        if self.held:
            self.held = False
            try:
                await self.redis.eval(_RELEASE, 1, self.key, self.token)
            except Exception:  # Redis away: free the conversation as soon as it is back
                log.warning("agent.lock.release_failed")
                task = asyncio.get_running_loop().create_task(self._release_later())
                _RETRIES.add(task)
                task.add_done_callback(_RETRIES.discard)

    async def _release_later(self) -> None:
        """Retry the release until it lands or the lease has lapsed by itself (then there is nothing to free)."""
        while time.monotonic() < self.expires_at:
            await asyncio.sleep(RELEASE_RETRY_SECONDS)
            try:
                await self.redis.eval(_RELEASE, 1, self.key, self.token)
                return
            except Exception:
                continue
