"""The service's Redis clients, with the timeouts that keep an unreachable Redis a quick, clear failure.

redis-py's defaults (5 s socket timeouts, three retries with backoff up to 10 s) make one command against a
frozen Redis take half a minute, and every turn waits that long before it can answer 503. Here a command gives
up after `REDIS_TIMEOUT_SECONDS`, and a broken connection (Redis restarted) is retried once, at once, on a new one.
"""

from __future__ import annotations

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError


def connect(url: str, *, timeout: float, decode_responses: bool = True) -> aioredis.Redis:
    return aioredis.from_url(url, decode_responses=decode_responses, socket_timeout=timeout,
                             socket_connect_timeout=timeout,
                             retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)))
