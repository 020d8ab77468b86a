"""A run's job on the job queue (PgQueuer), enqueued in the transaction that records the run.

A job says only "advance run R of org O" (`{org_id, run_id}`, nothing a user wrote). It is inserted with
PgQueuer's own `Queries.enqueue` over the caller's connection, inside the caller's open transaction (PgQueuer's
documented "enqueue inside a transaction"), so the run's new state and its job commit together or not at all:
a worker never wakes for a run it cannot see yet, and no run that needs a worker is ever left without a job.
Controllers and the `nutrition__*` tools both get here through `gym.nutrition.service`.

Which queue (PgQueuer entrypoint) the job goes to travels with the session: `info["nutrition_queue"]`, which
the service's `Database` puts on every session it opens (NUTRITION_QUEUE, `api.resources`). A session without
it refuses to queue rather than guess: a job on a queue no worker serves would strand the run. Jobs are fair between
gyms (gym/job_queue.py): a run's job queues behind its own org's queued jobs, not the other gyms'.
"""

from __future__ import annotations

import json
import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from gym.job_queue import DEFAULT_QUEUE, QUEUE_INFO, enqueue

ENTRYPOINT = DEFAULT_QUEUE


def queue_info(entrypoint: str) -> dict[str, str]:
    """What a `Database(session_info=...)` carries so the runs its sessions record are queued on `entrypoint`."""
    return {QUEUE_INFO: entrypoint}


def payload_of(org_id: uuid.UUID, run_id: uuid.UUID) -> bytes:
    """A job's payload: which run of which org to advance."""
    return json.dumps({"org_id": str(org_id), "run_id": str(run_id)}).encode()


def run_of(payload: bytes | None) -> tuple[uuid.UUID, uuid.UUID]:
    """(org_id, run_id) of a job's payload."""
    data = json.loads(payload or b"{}")
    return uuid.UUID(data["org_id"]), uuid.UUID(data["run_id"])


async def enqueue_run(session: AsyncSession, org_id: uuid.UUID, run_id: uuid.UUID) -> None:
    """Queue a wake-up for the run in the session's transaction (after a start, a check-in that re-plans, or an
    acknowledged referral). Call it after the write it belongs to: the transaction must already be open."""
    entrypoint = session.info.get(QUEUE_INFO)
    if not entrypoint:
        raise RuntimeError("this session names no nutrition queue: open it from Database(session_info=queue_info(...))")
    await enqueue(session, entrypoint, payload_of(org_id, run_id), org_id=org_id)
