"""Which dependency a failure says is down: the one reading of "Redis or Postgres is unreachable".

A request that meets an unreachable Redis or Postgres answers 503 `service_unavailable` with `Retry-After`
(api/errors.py), and a stream that meets one mid-turn ends with that code (agent/errors.py); both ask here.
Only failures to reach the server count: a refused or dropped connection, a timeout, a server shutting down or
out of connections, the pool exhausted. A bad statement or a constraint is the caller's or ours, never an outage.
"""

from __future__ import annotations

from typing import Literal

Dependency = Literal["redis", "postgres"]
RETRY_AFTER_SECONDS = 5  # what a 503 tells a client to wait: the service recovers within that of the return
_CHAIN_LIMIT = 8


def _postgres_error(exc: BaseException) -> bool:
    import asyncpg.exceptions as pg
    from sqlalchemy import exc as sa

    if isinstance(exc, sa.TimeoutError):  # no pooled connection came free: the server is unreachable or swamped
        return True
    if isinstance(exc, sa.DBAPIError) and exc.connection_invalidated:  # SQLAlchemy read it as a disconnect
        return True
    return isinstance(exc, pg.PostgresConnectionError | pg.CannotConnectNowError | pg.TooManyConnectionsError
                      | pg.AdminShutdownError | pg.CrashShutdownError)


def _raised_by_postgres_driver(exc: BaseException) -> bool:
    """A bare OSError (refused, no socket, timed out) from the driver connecting: asyncpg raises them unwrapped."""
    tb = exc.__traceback__
    while tb is not None:
        if str(tb.tb_frame.f_globals.get("__name__", "")).split(".")[0] in ("asyncpg", "sqlalchemy"):
            return True
        tb = tb.tb_next
    return False


def down_dependency(exc: BaseException) -> Dependency | None:
    """'redis' or 'postgres' when `exc` (or what caused it) is a failure to reach that server, else None."""
    from redis import exceptions as redis_errors

    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < _CHAIN_LIMIT:
        if isinstance(current, redis_errors.ConnectionError | redis_errors.TimeoutError):
            return "redis"
        if _postgres_error(current):
            return "postgres"
        if isinstance(current, OSError) and _raised_by_postgres_driver(current):
            return "postgres"
        orig = getattr(current, "orig", None)  # SQLAlchemy's wrapper names the driver's error here
        current = orig if isinstance(orig, BaseException) else (current.__cause__ or current.__context__)
        seen += 1
    return None
