"""Releasing the turn lock never hangs, even when a cancel lands inside the renewal's Redis call and comes
back as a connection error (seen at 200 concurrent streams: turns stuck in release for good)."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from agent.locks import TurnLock


class CancelTurnsIntoConnectionError(aioredis.Redis):
    """A real Redis client whose EVAL, when cancelled mid-call, raises ConnectionError as redis-py can."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.in_eval = asyncio.Event()
        self.stall = False

    async def eval(self, *args, **kwargs):
        if self.stall:
            self.in_eval.set()
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                raise RedisConnectionError("connection closed while cancelled") from None
        return await super().eval(*args, **kwargs)


async def test_release_returns_when_a_cancel_inside_renewal_becomes_a_connection_error(app_settings) -> None:
    client = CancelTurnsIntoConnectionError.from_url(app_settings.redis_url)
    try:
        lock = TurnLock(client, "release-test", lease_seconds=0.3)
        assert await lock.acquire()
        client.stall = True
        await asyncio.wait_for(client.in_eval.wait(), 10)  # the renewal is inside its Redis call
        client.stall = False
        release = asyncio.ensure_future(lock.release())
        done, _ = await asyncio.wait({release}, timeout=10)  # wait() never cancels what it waits on
        assert release in done, "release is still waiting on the renewal"  # before the fix: forever
        release.result()
        assert await client.exists("spotter:turn:release-test") == 0
        again = TurnLock(client, "release-test", lease_seconds=0.3)
        assert await again.acquire()
        await again.release()
    finally:
        await client.aclose()
