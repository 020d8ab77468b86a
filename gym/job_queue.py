"""A job on the job queue (PgQueuer), inserted in the caller's open transaction.

PgQueuer's own `Queries.enqueue` over the session's connection (its documented "enqueue inside a transaction"): the
job and the write that needs it commit together or not at all, so a worker never wakes for rows it cannot see yet,
and no row that needs a worker is left without a job. A job carries ids only, never what a person wrote.
"""

from __future__ import annotations

from datetime import timedelta

from pgqueuer import Queries
from sqlalchemy.ext.asyncio import AsyncSession

DEFAULT_QUEUE = "nutrition_run"  # NUTRITION_QUEUE's default: the deployment's own entrypoint for nutrition runs
QUEUE_INFO = "nutrition_queue"  # the Session.info key naming the deployment's queue (`api.resources`, `Database`)


def entrypoint_for(queue: str | None, job: str) -> str:
    """The entrypoint of one deployment's `job` (the outbox's messages, the freezes' status changes).

    NUTRITION_QUEUE names a deployment's queue; its other jobs are named after it (`<queue>.<job>`, the bare
    `job` for the default queue), so a worker serving queue Q takes Q's jobs and never another deployment's,
    and `--drain` waits only for its own."""
    return job if not queue or queue == DEFAULT_QUEUE else f"{queue}.{job}"


def session_entrypoint(session: AsyncSession, job: str) -> str:
    """`entrypoint_for` the queue this session's Database names."""
    return entrypoint_for(session.info.get(QUEUE_INFO), job)


async def enqueue(session: AsyncSession, entrypoint: str, payload: bytes, *,
                  execute_after: timedelta | None = None) -> None:
    """Queue `payload` for `entrypoint` in the session's transaction (call it after the write it belongs to)."""
    connection = (await (await session.connection()).get_raw_connection()).driver_connection
    if connection is None or not connection.is_in_transaction():
        raise RuntimeError("a job is queued inside the transaction that needs it (write first)")
    await Queries.from_asyncpg_connection(connection).enqueue(entrypoint, payload, execute_after=execute_after)
