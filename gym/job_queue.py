"""A job on the job queue (PgQueuer), inserted in the caller's open transaction.

PgQueuer's own `Queries.enqueue` over the session's connection (its documented "enqueue inside a transaction"): the
job and the write that needs it commit together or not at all, so a worker never wakes for rows it cannot see yet,
and no row that needs a worker is left without a job. A job carries ids only, never what a person wrote.
"""

from __future__ import annotations

from datetime import timedelta

from pgqueuer import Queries
from sqlalchemy.ext.asyncio import AsyncSession


async def enqueue(session: AsyncSession, entrypoint: str, payload: bytes, *,
                  execute_after: timedelta | None = None) -> None:
    """Queue `payload` for `entrypoint` in the session's transaction (call it after the write it belongs to)."""
    connection = (await (await session.connection()).get_raw_connection()).driver_connection
    if connection is None or not connection.is_in_transaction():
        raise RuntimeError("a job is queued inside the transaction that needs it (write first)")
    await Queries.from_asyncpg_connection(connection).enqueue(entrypoint, payload, execute_after=execute_after)
