"""Re-queue runs that need a worker but have no job: the crash between a run's commit and its enqueue.

A run's job is queued once the transaction that made it workable commits (start, check-in, referral
acknowledgement). A process that dies in between leaves the run in an active state with nothing to
wake it. Every worker reconciles at start and on an interval: in one transaction on the owner
connection, under a transaction-level advisory lock (so concurrent reconcilers take turns and each
sees the jobs the previous one queued), it finds the runs that
- are in a state a worker moves (`intake_pending`, a processing state, or `paused_physician` with the
  physician not yet asked: never one awaiting the user's acknowledgement),
- were last touched more than `stale_after` seconds ago (an enqueue a few ms behind its commit is not
  a crash), and
- have no queued or picked job on any queue,
and queues exactly one job for each, in that same transaction.
"""

from __future__ import annotations

import json
import uuid

import asyncpg
from pgqueuer import AsyncpgDriver, Queries

from gym.nutrition.states import AGENT_OF_STATE, State

LOCK_KEY = "pipeline.reconcile"
WORKABLE = sorted([State.INTAKE_PENDING.value, *(state.value for state in AGENT_OF_STATE)])



def payload_of(org_id: uuid.UUID, run_id: uuid.UUID) -> bytes:
    """A job's payload: which run of which org to advance (nothing a user wrote)."""
    return json.dumps({"org_id": str(org_id), "run_id": str(run_id)}).encode()


ORPHANS = """
SELECT r.org_id, r.id FROM nutrition_runs r
WHERE (r.state = ANY($1::text[])
       OR (r.state = 'paused_physician'
           AND r.plan -> 'physician' ->> 'query' IS NOT NULL
           AND coalesce((r.plan -> 'physician' ->> 'awaiting_user')::boolean, false) = false))
  AND r.updated_at < now() - make_interval(secs => $2)
  AND NOT EXISTS (
      SELECT 1 FROM pgqueuer q
      WHERE q.status IN ('queued', 'picked')
        AND convert_from(q.payload, 'UTF8')::jsonb ->> 'run_id' = r.id::text)
ORDER BY r.updated_at
LIMIT $3
"""


async def requeue_orphans(conn: asyncpg.Connection, entrypoint: str, *, stale_after_s: float,
                          limit: int = 500) -> list[uuid.UUID]:
    """Queue one job for each run that needs a worker and has none; returns the runs re-queued."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", LOCK_KEY)
        rows = await conn.fetch(ORPHANS, WORKABLE, float(stale_after_s), limit)
        if rows:
            await Queries(AsyncpgDriver(conn)).enqueue([entrypoint] * len(rows),
                                                       [payload_of(row["org_id"], row["id"]) for row in rows])
    return [row["id"] for row in rows]
