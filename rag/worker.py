"""The outbox drainer: a background task that keeps `rag_documents` in step with the indexed tables.

Every `interval_s` (and at once after `kick()`) it drains the outbox batch by batch until a batch comes
back short. Drains run on owner sessions (see rag.index): outbox rows span orgs. A drain never raises;
when one fails (database down, embedder failing) the loop waits `error_pause_s` before the next try,
and rows that could not be embedded wait out their own back-off in the outbox.

The app lifespan starts it and stops it; tests call `rag.index.drain_outbox` directly instead.
"""

from __future__ import annotations

import asyncio
import contextlib

import structlog

from core.database import Database
from rag.embeddings import Embedder
from rag.index import DrainResult, drain_outbox, refresh_statistics

BULK_ROWS = 500  # documents drained since the last ANALYZE that make the search tables' statistics stale

log = structlog.get_logger("rag.worker")


class OutboxWorker:
    def __init__(self, db: Database, embedder: Embedder | None, *, interval_s: float = 0.5, batch: int = 64,
                 error_pause_s: float = 5.0, max_batches: int = 50) -> None:
        self.db, self.embedder = db, embedder
        self.interval_s, self.batch, self.error_pause_s = interval_s, batch, error_pause_s
        self.max_batches = max_batches  # per wake-up, so a huge backlog cannot starve the event loop's peers
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.drains = 0  # completed wake-ups, for tests and health output
        self.since_analyze = 0  # documents drained since the search tables' statistics were refreshed

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the loop on the running event loop (idempotent)."""
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="rag-outbox-worker")

    def kick(self) -> None:
        """Drain now instead of at the next tick (a write just happened, or a test wants it)."""
        self._wake.set()

    async def stop(self, grace_s: float = 5.0) -> None:
        """Cancel the loop; a drain in flight is rolled back and its rows stay for the next start."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(task, grace_s)

    async def drain_once(self) -> list[DrainResult]:
        """Drain until a batch comes back short (or `max_batches`); the results of each batch."""
        results = []
        for _ in range(self.max_batches):
            result = await drain_outbox(self.db, self.embedder, batch=self.batch)
            results.append(result)
            if result.error or result.claimed < self.batch:
                break
        return results

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval_s)
            self._wake.clear()
            try:
                results = await self.drain_once()
            except Exception:  # drain_outbox does not raise; this guards the loop against the unforeseen
                log.exception("rag.worker.failed")
                results = [DrainResult(error="unexpected")]
            self.drains += 1
            claimed = sum(r.claimed for r in results)
            self.since_analyze += claimed
            if self.since_analyze >= BULK_ROWS:  # a bulk import: fresh statistics for the search statements
                self.since_analyze = 0
                with contextlib.suppress(Exception):
                    await refresh_statistics(self.db)
            if claimed:
                log.info("rag.worker.drained", claimed=claimed, upserted=sum(r.upserted for r in results),
                         deleted=sum(r.deleted for r in results), retrying=sum(r.retrying for r in results))
            if any(r.error for r in results):
                await asyncio.sleep(self.error_pause_s)
