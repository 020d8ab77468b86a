"""Jobs on PgQueuer, fair between gyms: every job names its org, and a new job queues behind its own org's backlog.

PgQueuer dequeues by priority (highest first), then by id. A job is enqueued with priority `-rank`, where `rank`
is how many jobs of the same org are still queued on its entrypoint (`job_queue_rank`, migration 0030): each org's
first waiting job has priority 0, its second -1, and so on, so the workers take one job of every waiting org before
a second of any. A gym that enqueues fifty times the others' work only delays itself; the others wait about one of
its jobs longer than without it (bench/queue_fairness.py). The job's org rides in its headers (`{"org": ...}`),
never in anything a user wrote.
"""

from __future__ import annotations

import uuid

import asyncpg
from pgqueuer import Queries

ORG_HEADER = "org"
_RANK = "SELECT job_queue_rank($1, $2)"


async def enqueue_fair(connection: asyncpg.Connection, entrypoint: str, org_id: uuid.UUID, payload: bytes) -> int:
    """Queue a job for `org_id` behind that org's own queued jobs, over an asyncpg connection (inside the caller's
    transaction when there is one); returns its priority."""
    rank = await connection.fetchval(_RANK, entrypoint, str(org_id))
    priority = -int(rank or 0)
    await Queries.from_asyncpg_connection(connection).enqueue(entrypoint, payload, priority=priority,
                                                              headers={ORG_HEADER: str(org_id)})
    return priority
