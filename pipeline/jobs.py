"""Durable runs on PgQueuer (Postgres job queue; see README "Durable runs" for the comparison).

A job says only "advance run R of org O"; it is queued in the transaction that records the run
(`gym.nutrition.queue`). Enqueuing never dedupes (a wake-up can't be lost), and a job first takes a
session-level advisory lock on its run, so across processes exactly one worker drives a run at a time.
The driver resumes from the run's stored state, so a job may run again safely:
- a worker that dies releases the lock with its connection, and PgQueuer re-picks its job once the
  heartbeat goes stale;
- a job whose handler raises (the database went away mid-step, say) is retried by PgQueuer with backoff
  (`retrying`), past the run's own 180 s deadline, after which the driver ends the run in `error`; a job that
  still fails then is held (`failed` in the queue, with its traceback in `pgqueuer_log`) for an operator.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from datetime import timedelta

import asyncpg
import structlog
from pgqueuer import AsyncpgDriver, Job, Queries, QueueManager
from pgqueuer.executors import DatabaseRetryEntrypointExecutor, EntrypointExecutorParameters
from pgqueuer.types import QueueExecutionMode

from agent.tracing import Tracing
from core.database import Database
from core.settings import Settings
from gym.freezes import ENTRYPOINT as FREEZES
from gym.job_queue import entrypoint_for
from gym.messages import ENTRYPOINT as MESSAGES
from gym.nutrition.queue import ENTRYPOINT, run_of
from pipeline.agents import Agents
from pipeline.driver import Driver, Limits
from pipeline.freeze_jobs import FreezeStatus
from pipeline.outbox import Outbox
from pipeline.senders import sender_for

log = structlog.get_logger("pipeline.jobs")

DEFAULT_CONCURRENCY = 8  # WORKER_CONCURRENCY's default


def dsn_of(database_url: str) -> str:
    """asyncpg's DSN for the SQLAlchemy URL (the queue runs on the owner connection)."""
    return database_url.replace("postgresql+asyncpg://", "postgresql://", 1)


def retrying(parameters: EntrypointExecutorParameters) -> DatabaseRetryEntrypointExecutor:
    """A job whose handler raised is queued again after 1, 2, 4, ... 60 s: eight attempts span about four
    minutes, longer than a run's 180 s deadline."""
    return DatabaseRetryEntrypointExecutor(parameters, max_attempts=8, initial_delay=timedelta(seconds=1),
                                           max_delay=timedelta(seconds=60))


class Worker:
    """Claims nutrition-run jobs of its queue (entrypoint) and drives each run until it rests; `also` serves more
    entrypoints on the same queue manager (the outbox's `member_messages`, pipeline/outbox.py; the freezes'
    `membership_freezes`, pipeline/freeze_jobs.py)."""

    def __init__(self, db: Database, agents: Agents, limits: Limits | None = None, *,
                 entrypoint: str = ENTRYPOINT, tracing: Tracing | None = None,
                 also: Mapping[str, Callable[[Job], Awaitable[None]]] | None = None,
                 concurrency: int = DEFAULT_CONCURRENCY) -> None:
        self.db = db
        self.entrypoint, self.concurrency = entrypoint, concurrency
        self.also = dict(also or {})
        self.driver = Driver(db, agents, limits, tracing=tracing)
        self.dsn = dsn_of(db.url)
        self.manager: QueueManager | None = None

    async def _advance(self, job: Job) -> None:
        org_id, run_id = run_of(job.payload)
        lock = await asyncpg.connect(self.dsn)
        try:
            await lock.execute("SELECT pg_advisory_lock(hashtextextended($1, 0))", str(run_id))
            state = await self.driver.run_until_rest(org_id, run_id)
            log.info("pipeline.run_rested", run_id=str(run_id), state=state)
        finally:
            await lock.close()  # closing the session releases the advisory lock

    @classmethod
    def from_settings(cls, db: Database, agents: Agents, settings: Settings, limits: Limits | None = None, *,
                      tracing: Tracing | None = None) -> Worker:
        """The service's worker (in `spotter serve` or `spotter worker`), on NUTRITION_QUEUE, and the outbox's
        messages to members to the configured sender; its runs' agents are spans of one trace per run version when
        `tracing` exports. It runs at most WORKER_CONCURRENCY jobs at once."""
        outbox = Outbox(db, sender_for(settings))
        return cls(db, agents, limits, entrypoint=settings.nutrition_queue, tracing=tracing,
                   also={entrypoint_for(settings.nutrition_queue, MESSAGES): outbox.handle,
                         entrypoint_for(settings.nutrition_queue, FREEZES): FreezeStatus(db).handle},
                   concurrency=settings.worker_concurrency)

    async def run(self, *, heartbeat: timedelta = timedelta(seconds=30), drain: bool = False,
                  dequeue_timeout: timedelta = timedelta(seconds=5)) -> None:
        conn = await asyncpg.connect(self.dsn)
        try:
            self.manager = queue_manager(conn, {self.entrypoint: self._advance, **self.also})
            await serve_queue(self.manager, heartbeat=heartbeat, drain=drain, dequeue_timeout=dequeue_timeout,
                              concurrency=self.concurrency)
        finally:
            await conn.close()

    def stop(self) -> None:
        if self.manager is not None:
            self.manager.shutdown.set()


def queue_manager(conn: asyncpg.Connection, handlers: Mapping[str, Callable[[Job], Awaitable[None]]]) -> QueueManager:
    """How every worker of the service serves its queues (entrypoint → handler): retried with backoff, a job that
    keeps failing held for an operator. The order jobs come in is the queue's (priority, then id): fair between
    gyms because each job is enqueued behind its own org's backlog (gym/job_queue.py)."""
    manager = QueueManager(Queries(AsyncpgDriver(conn)))
    for entrypoint, handler in handlers.items():
        manager.entrypoint(entrypoint, on_failure="hold", executor_factory=retrying)(handler)
    return manager


async def serve_queue(manager: QueueManager, *, heartbeat: timedelta = timedelta(seconds=30), drain: bool = False,
                      dequeue_timeout: timedelta = timedelta(seconds=5),
                      concurrency: int = DEFAULT_CONCURRENCY) -> None:
    """Run the queue: at most `concurrency` jobs at once (WORKER_CONCURRENCY), taken in batches of half that as
    slots free up. Unbounded, a worker would take every queued job at once and the order of the queue (its
    fairness between gyms) would mean nothing."""
    mode = QueueExecutionMode.drain if drain else QueueExecutionMode.continuous
    batch = max(1, concurrency // 2)
    await manager.run(dequeue_timeout=dequeue_timeout, mode=mode, heartbeat_timeout=heartbeat, batch_size=batch,
                      max_concurrent_tasks=max(concurrency, 2 * batch))


def start_in_process(worker: Worker) -> asyncio.Task[None]:
    """`spotter serve` runs one worker inside the server's loop by default."""
    return asyncio.create_task(worker.run(), name="nutrition-worker")
