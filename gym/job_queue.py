"""A job on the job queue (PgQueuer), inserted in the caller's open transaction, fair between gyms.

PgQueuer's own `Queries.enqueue` over the session's connection (its documented "enqueue inside a transaction"): the
job and the write that needs it commit together or not at all, so a worker never wakes for rows it cannot see yet,
and no row that needs a worker is left without a job. A job carries ids only, never what a person wrote.

Every job names its org (in its PgQueuer headers, `{"org": ...}`) and is enqueued behind its own org's jobs still
queued on the same entrypoint: priority = -rank, where rank is that count (`job_queue_rank`, migration 0026).
PgQueuer dequeues by priority, then id, so the workers take one waiting job of every org before a second of any: a
gym that enqueues fifty times the others' work delays itself, not them (bench/queue_fairness.py). Nutrition runs,
messages to members and freezes all come through here.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import asyncpg
from pgqueuer import Queries
from sqlalchemy.ext.asyncio import AsyncSession

ORG_HEADER = "org"
_RANK = "SELECT job_queue_rank($1, $2)"
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


async def enqueue(session: AsyncSession, entrypoint: str, payload: bytes, *, org_id: uuid.UUID,
                  execute_after: timedelta | None = None) -> None:
    """Queue `payload` for `entrypoint` in the session's transaction (call it after the write it belongs to), behind
    `org_id`'s own queued jobs."""
    connection = (await (await session.connection()).get_raw_connection()).driver_connection
    if connection is None or not connection.is_in_transaction():
        raise RuntimeError("a job is queued inside the transaction that needs it (write first)")
    await enqueue_on(connection, entrypoint, payload, org_id=org_id, execute_after=execute_after)


async def enqueue_on(connection: asyncpg.Connection, entrypoint: str, payload: bytes, *, org_id: uuid.UUID,
                     execute_after: timedelta | None = None) -> int:
    """The same over an asyncpg connection (inside its transaction when it has one); returns the job's priority."""
    rank = await connection.fetchval(_RANK, entrypoint, str(org_id))
    priority = -int(rank or 0)
    await Queries.from_asyncpg_connection(connection).enqueue(entrypoint, payload, priority=priority,
                                                              execute_after=execute_after,
                                                              headers={ORG_HEADER: str(org_id)})
    return priority
