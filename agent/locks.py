"""The per-conversation turn lock in Redis: one turn (send, confirm or pick) at a time."""

from __future__ import annotations

import asyncio
import time
import uuid

import redis.asyncio as aioredis

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end
"""


class TurnLock:
    def __init__(self, redis: aioredis.Redis, conversation_id: object, *, ttl_ms: int = 600_000) -> None:
        self.redis = redis
        self.key = f"spotter:turn:{conversation_id}"
        self.token = uuid.uuid4().hex
        self.ttl_ms = ttl_ms
        self.held = False

    async def acquire(self, wait_seconds: float = 0.0) -> bool:
        deadline = time.monotonic() + wait_seconds
        while True:
            if await self.redis.set(self.key, self.token, nx=True, px=self.ttl_ms):
                self.held = True
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.05)

    async def release(self) -> None:
        if self.held:
            self.held = False
            await self.redis.eval(_RELEASE, 1, self.key, self.token)
