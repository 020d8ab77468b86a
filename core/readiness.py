"""The readiness probe: Postgres and Redis checked over connections of their own.

`/health` (readiness) must not queue behind the request pool: at 200 concurrent turns every pooled
connection is busy for seconds and a ping through that pool times out, so a load balancer would pull a
busy but healthy instance. The probe keeps one Postgres connection (as the app role, so it proves what
the service needs) and one Redis connection, both outside the pools requests use; concurrent probes
wait for each other, never for a turn. `/health/live` (liveness) does no I/O at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Literal

import redis.asyncio as aioredis
from sqlalchemy import text

from core.database import APP_ROLE, make_engine

State = Literal["up", "down"]


class Readiness:
    def __init__(self, database_url: str, redis_url: str, *, timeout: float = 2.0) -> None:
        self.timeout = timeout
        self.engine = make_engine(database_url, role=APP_ROLE, pool_size=1, max_overflow=0)
        self.redis = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
            redis_url, max_connections=1, timeout=timeout))

    async def _postgres(self) -> bool:
        async with self.engine.connect() as conn:
            return (await conn.scalar(text("SELECT 1"))) == 1

    async def _redis(self) -> bool:
        return bool(await self.redis.ping())

    async def _state(self, probe: Callable[[], Awaitable[bool]]) -> State:
        try:
            return "up" if await asyncio.wait_for(probe(), timeout=self.timeout) else "down"
        except Exception:  # unreachable, refused, timed out: all mean not ready
            return "down"

    async def check(self) -> dict[str, State]:
        postgres, redis = await asyncio.gather(self._state(self._postgres), self._state(self._redis))
        return {"postgres": postgres, "redis": redis}

    async def close(self) -> None:
        await self.redis.aclose()
        await self.engine.dispose()
