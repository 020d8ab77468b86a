"""Storage snapshot: rows and bytes per public table, emitted as `agent.storage.snapshot`.

Rows: an exact `count(*)` for small tables (planner estimate under 100k rows, or no estimate yet and under
64 MB on disk), `pg_class.reltuples` for the rest, so a daily snapshot never scans a big table;
`estimated` says which. Bytes: `pg_total_relation_size` (heap + indexes + TOAST). Runs as the schema owner
(row-level security would hide other orgs' rows from the app role).

Run it from cron with `spotter snapshot`, or in-process at 03:00 UTC daily with
STORAGE_SNAPSHOT_SCHEDULE=true (`daily_snapshots` in the app lifespan). With several API processes, turn
the schedule on in one of them (or use cron), or each will emit its own snapshot.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from datetime import UTC, datetime, timedelta
from typing import Any

import structlog
from sqlalchemy import text

from agent.observability import Observability
from core.database import Database

log = structlog.get_logger("agent.storage")

EXACT_BELOW_ROWS = 100_000
EXACT_BELOW_BYTES = 64 * 1024 * 1024
SNAPSHOT_HOUR_UTC = 3

_TABLES = text("""
SELECT c.relname AS name, c.reltuples::bigint AS estimate, pg_total_relation_size(c.oid) AS bytes
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
ORDER BY c.relname
""")


def _exact(estimate: int, size: int) -> bool:
    return 0 <= estimate < EXACT_BELOW_ROWS or (estimate < 0 and size < EXACT_BELOW_BYTES)


async def table_sizes(db: Database) -> list[dict[str, Any]]:
    """[{table, rows, bytes, estimated}] for every table in the public schema, by name."""
    tables: list[dict[str, Any]] = []
    async with db.owner() as session:
        for name, estimate, size in (await session.execute(_TABLES)).all():
            if _exact(int(estimate), int(size)):
                quoted = '"' + name.replace('"', '""') + '"'
                rows, estimated = int(await session.scalar(text(f"SELECT count(*) FROM public.{quoted}"))), False
            else:
                rows, estimated = max(int(estimate), 0), True
            tables.append({"table": name, "rows": rows, "bytes": int(size), "estimated": estimated})
    return tables


async def storage_snapshot(db: Database, observability: Observability) -> dict[str, Any]:
    """Measure, emit `agent.storage.snapshot`, and return the event's fields."""
    started = time.monotonic()
    tables = await table_sizes(db)
    fields = {"tables": tables, "totalBytes": sum(t["bytes"] for t in tables),
              "durationMs": int((time.monotonic() - started) * 1000)}
    observability.emit("agent.storage.snapshot", **fields)
    return fields


def next_snapshot_at(now: datetime) -> datetime:
    """The first 03:00 UTC strictly after `now` (an aware datetime)."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    now = now.astimezone(UTC)
    today = now.replace(hour=SNAPSHOT_HOUR_UTC, minute=0, second=0, microsecond=0)
    return today if today > now else today + timedelta(days=1)


async def run_daily_snapshots(db: Database, observability: Observability, now_fn: Callable[[], datetime], *,
                              sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
    """Forever: sleep until the next 03:00 UTC, take a snapshot. A failed snapshot is logged, not fatal."""
    target = next_snapshot_at(now_fn())
    while True:
        await sleep(max(0.0, (target - now_fn()).total_seconds()))
        try:
            await storage_snapshot(db, observability)
        except Exception:
            log.exception("agent.storage.snapshot_failed")
        target = next_snapshot_at(max(now_fn(), target))  # a sleep that woke early never runs twice a day


@asynccontextmanager
async def daily_snapshots(enabled: bool, db: Database, observability: Observability) -> AsyncIterator[None]:
    """The app lifespan's scheduler: runs `run_daily_snapshots` while the app is up, when `enabled`."""
    if not enabled:
        yield
        return
    task = asyncio.get_running_loop().create_task(run_daily_snapshots(db, observability, lambda: datetime.now(UTC)))
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
