"""Durable runs on PgQueuer (Postgres job queue; see README "Durable runs" for the comparison).

A job says only "advance run R of org O". Enqueuing never dedupes (a wake-up can't be lost), and a
job first takes a session-level advisory lock on its run, so across processes exactly one worker
drives a run at a time; a worker that dies releases the lock with its connection, and PgQueuer
re-picks its job once the heartbeat goes stale. The driver resumes from the run's stored state.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import timedelta

import asyncpg
import structlog
from pgqueuer import AsyncpgDriver, Job, Queries, QueueManager
from pgqueuer.types import QueueExecutionMode

from core.database import Database
from core.settings import Settings
from pipeline.agents import Agents
from pipeline.driver import Driver, Limits
from pipeline.reconcile import payload_of, requeue_orphans

ENTRYPOINT = "nutrition_run"
log = structlog.get_logger("pipeline.jobs")


def dsn_of(database_url: str) -> str:
    """asyncpg's DSN for the SQLAlchemy URL (the queue runs on the owner connection)."""
    return database_url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def enqueue(database_url: str, org_id: uuid.UUID, run_id: uuid.UUID, *, entrypoint: str = ENTRYPOINT) -> None:
    """Queue a wake-up for the run (after start, check-in or acknowledgement)."""
    conn = await asyncpg.connect(dsn_of(database_url))
    try:
        await Queries(AsyncpgDriver(conn)).enqueue(entrypoint, payload_of(org_id, run_id))
    finally:
        await conn.close()


class Worker:
    """Claims nutrition-run jobs and drives each run until it rests; with `reconcile_every` it also
    re-queues, at start and on that interval, runs that need a worker and have no job
    (`pipeline.reconcile`: the crash between a run's commit and its enqueue)."""

    def __init__(self, db: Database, agents: Agents, limits: Limits | None = None, *,
                 entrypoint: str = ENTRYPOINT, reconcile_every: float | None = None,
                 stale_after: float = 60.0) -> None:
        self.db = db
        self.entrypoint = entrypoint
        self.reconcile_every, self.stale_after = reconcile_every, stale_after
        self.driver = Driver(db, agents, limits)
        self.dsn = dsn_of(db.url)
        self.manager: QueueManager | None = None

    async def _advance(self, job: Job) -> None:
        data = json.loads(job.payload or b"{}")
        org_id, run_id = uuid.UUID(data["org_id"]), uuid.UUID(data["run_id"])
        lock = await asyncpg.connect(self.dsn)
        try:
            await lock.execute("SELECT pg_advisory_lock(hashtextextended($1, 0))", str(run_id))
            state = await self.driver.run_until_rest(org_id, run_id)
            log.info("pipeline.run_rested", run_id=str(run_id), state=state)
        finally:
            await lock.close()  # closing the session releases the advisory lock

    @classmethod
    def from_settings(cls, db: Database, agents: Agents, settings: Settings, limits: Limits | None = None) -> Worker:
        """The service's worker (in `spotter serve` or `spotter worker`): its queue, and reconciling every
        NUTRITION_RECONCILE_SECONDS (0 = never) runs untouched that long."""
        every = settings.nutrition_reconcile_seconds
        return cls(db, agents, limits, entrypoint=settings.nutrition_queue, reconcile_every=every or None,
                   stale_after=every)

    async def reconcile(self) -> list[uuid.UUID]:
        """Re-queue this worker's share of orphaned runs now (see `pipeline.reconcile`)."""
        conn = await asyncpg.connect(self.dsn)
        try:
            found = await requeue_orphans(conn, self.entrypoint, stale_after_s=self.stale_after)
        finally:
            await conn.close()
        if found:
            log.warning("pipeline.runs_requeued", count=len(found), run_ids=[str(r) for r in found])
        return found

    async def _reconcile_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.reconcile()
            except Exception:  # the next tick tries again; the queue keeps serving meanwhile
                log.exception("pipeline.reconcile_failed")

    async def run(self, *, heartbeat: timedelta = timedelta(seconds=30), drain: bool = False,
                  dequeue_timeout: timedelta = timedelta(seconds=5)) -> None:
        ticker: asyncio.Task[None] | None = None
        if self.reconcile_every:
            await self.reconcile()
            if not drain:
                ticker = asyncio.create_task(self._reconcile_forever(self.reconcile_every))
        conn = await asyncpg.connect(self.dsn)
        try:
            self.manager = QueueManager(Queries(AsyncpgDriver(conn)))
            self.manager.entrypoint(self.entrypoint)(self._advance)
            mode = QueueExecutionMode.drain if drain else QueueExecutionMode.continuous
            await self.manager.run(dequeue_timeout=dequeue_timeout, mode=mode, heartbeat_timeout=heartbeat)
        finally:
            if ticker is not None:
                ticker.cancel()
            await conn.close()

    def stop(self) -> None:
        if self.manager is not None:
            self.manager.shutdown.set()


def start_in_process(worker: Worker) -> asyncio.Task[None]:
    """`spotter serve` runs one worker inside the server's loop by default."""
    return asyncio.create_task(worker.run(), name="nutrition-worker")
