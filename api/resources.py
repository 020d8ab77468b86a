"""The long-lived clients a running service holds, built once from settings and handed to handlers."""

from __future__ import annotations

from dataclasses import dataclass

import redis.asyncio as aioredis

from agent.composition import AgentServices, build_agent
from api.auth import DevKeys, JwtVerifier, build_verifier
from core import redis_clients
from core.database import Database
from core.readiness import Readiness
from core.settings import Settings
from gym.nutrition.queue import queue_info


@dataclass
class Resources:
    settings: Settings
    db: Database
    redis: aioredis.Redis
    verifier: JwtVerifier
    dev_keys: DevKeys | None
    agent: AgentServices
    readiness: Readiness

    async def close(self) -> None:
        await self.agent.close()
        await self.readiness.close()
        await self.redis.aclose()
        await self.db.dispose()


async def open_resources(settings: Settings) -> Resources:
    if not settings.database_url or not settings.redis_url:
        raise RuntimeError("DATABASE_URL and REDIS_URL must be resolved before the app starts "
                           "(`spotter serve` starts embedded servers when they are unset)")
    verifier, dev_keys = build_verifier(settings)
    db = Database(settings.database_url, session_info=queue_info(settings.nutrition_queue))
    redis = redis_clients.connect(settings.redis_url, timeout=settings.redis_timeout_seconds)
    return Resources(settings=settings, db=db, redis=redis, verifier=verifier, dev_keys=dev_keys,
                     agent=build_agent(settings, db, redis),
                     readiness=Readiness(settings.database_url, settings.redis_url))
