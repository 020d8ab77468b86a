"""Storage snapshot: rows and bytes per public table, the 03:00 UTC schedule, and `spotter snapshot`."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text

from agent.observability import Observability
from agent.storage_snapshot import daily_snapshots, next_snapshot_at, run_daily_snapshots, storage_snapshot

REPO = Path(__file__).resolve().parents[2]


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict]] = []

    def __call__(self, event: str, fields: dict) -> None:
        self.events.append((event, fields))


@pytest.mark.parametrize(("now", "expected"), [
    (datetime(2026, 3, 10, 2, 59, 59, tzinfo=UTC), datetime(2026, 3, 10, 3, 0, tzinfo=UTC)),
    (datetime(2026, 3, 10, 3, 0, tzinfo=UTC), datetime(2026, 3, 11, 3, 0, tzinfo=UTC)),
    (datetime(2026, 3, 10, 3, 0, 0, 1, tzinfo=UTC), datetime(2026, 3, 11, 3, 0, tzinfo=UTC)),
    (datetime(2026, 12, 31, 22, 0, tzinfo=UTC), datetime(2027, 1, 1, 3, 0, tzinfo=UTC)),
    (datetime(2028, 2, 28, 4, 0, tzinfo=UTC), datetime(2028, 2, 29, 3, 0, tzinfo=UTC)),
    # 05:30 in Jerusalem (UTC+2 in winter) is 03:30 UTC: the next run is tomorrow 03:00 UTC
    (datetime(2026, 1, 15, 5, 30, tzinfo=ZoneInfo("Asia/Jerusalem")), datetime(2026, 1, 16, 3, 0, tzinfo=UTC)),
    # 04:30 in Jerusalem is 02:30 UTC: later the same UTC day
    (datetime(2026, 1, 15, 4, 30, tzinfo=ZoneInfo("Asia/Jerusalem")), datetime(2026, 1, 15, 3, 0, tzinfo=UTC)),
])
def test_next_snapshot_is_the_first_0300_utc_strictly_after_now(now, expected) -> None:
    got = next_snapshot_at(now)
    assert got == expected and got.tzinfo == UTC


def test_next_snapshot_refuses_naive_datetimes() -> None:
    with pytest.raises(ValueError):
        next_snapshot_at(datetime(2026, 3, 10, 1, 0))


async def test_snapshot_counts_rows_exactly_for_small_tables_and_reports_bytes(db, factory) -> None:
    org = await factory.org()
    await factory.user(org, "owner")
    recorder = Recorder()
    fields = await storage_snapshot(db, Observability([recorder]))

    by_name = {t["table"]: t for t in fields["tables"]}
    assert {"organizations", "users", "conversations", "conversation_messages", "ai_usage_daily"} <= set(by_name)
    async with db.owner() as session:
        organizations = await session.scalar(text("SELECT count(*) FROM organizations"))
        size = await session.scalar(text("SELECT pg_total_relation_size('conversation_messages')"))
    assert by_name["organizations"]["rows"] == organizations and by_name["organizations"]["estimated"] is False
    assert by_name["conversation_messages"]["bytes"] == size > 0
    assert fields["totalBytes"] == sum(t["bytes"] for t in fields["tables"])
    assert [event for event, _ in recorder.events] == ["agent.storage.snapshot"]
    sent = recorder.events[0][1]
    assert sent["tables"] == fields["tables"] and set(sent["tables"][0]) == {"table", "rows", "bytes", "estimated"}


async def test_daily_loop_sleeps_until_0300_utc_then_every_24_hours(db) -> None:
    clock = [datetime(2026, 5, 1, 21, 15, tzinfo=UTC)]
    slept: list[float] = []
    recorder = Recorder()

    async def sleep(seconds: float) -> None:
        if len(slept) == 3:
            raise asyncio.CancelledError
        slept.append(seconds)
        clock[0] += timedelta(seconds=seconds, milliseconds=40)  # the snapshot itself takes a moment

    with pytest.raises(asyncio.CancelledError):
        await run_daily_snapshots(db, Observability([recorder]), lambda: clock[0], sleep=sleep)

    assert slept[0] == timedelta(hours=5, minutes=45).total_seconds()
    assert slept[1] == pytest.approx(24 * 3600 - 0.04) and slept[2] == pytest.approx(24 * 3600 - 0.04)
    assert [event for event, _ in recorder.events] == ["agent.storage.snapshot"] * 3


async def test_daily_loop_survives_a_failed_snapshot(db) -> None:
    from core.database import Database

    broken = Database("postgresql+asyncpg://nobody@127.0.0.1:1/none")
    clock = [datetime(2026, 5, 1, 2, 0, tzinfo=UTC)]
    calls: list[float] = []

    async def sleep(seconds: float) -> None:
        if len(calls) == 2:
            raise asyncio.CancelledError
        calls.append(seconds)
        clock[0] += timedelta(seconds=seconds)

    with pytest.raises(asyncio.CancelledError):
        await run_daily_snapshots(broken, Observability(), lambda: clock[0], sleep=sleep)
    await broken.dispose()
    assert calls == [3600.0, 24 * 3600.0]


async def test_lifespan_scheduler_runs_only_when_enabled(db) -> None:
    before = {t for t in asyncio.all_tasks() if t.get_coro().__name__ == "run_daily_snapshots"}
    async with daily_snapshots(False, db, Observability()):
        running = {t for t in asyncio.all_tasks() if t.get_coro().__name__ == "run_daily_snapshots"}
        assert running == before
    async with daily_snapshots(True, db, Observability()):
        running = {t for t in asyncio.all_tasks() if t.get_coro().__name__ == "run_daily_snapshots"} - before
        assert len(running) == 1
        task = next(iter(running))
        await asyncio.sleep(0)
        assert not task.done()  # asleep until 03:00 UTC
    assert task.cancelled()


def test_cli_snapshot_prints_one_json_line_and_exits_0(embedded_pg, data_dir) -> None:
    env = {**os.environ, "APP_ENV": "test", "DATABASE_URL": embedded_pg.url(), "DATA_DIR": str(data_dir),
           "SENTRY_DSN": "", "POSTHOG_API_KEY": ""}
    done = subprocess.run([sys.executable, "-m", "api.cli", "snapshot"], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    payload = json.loads(lines[0])
    assert payload["event"] == "agent.storage.snapshot"
    tables = {t["table"]: t for t in payload["tables"]}
    assert tables["organizations"]["rows"] >= 1 and tables["organizations"]["bytes"] > 0
    assert "agent.storage.snapshot" in done.stderr  # the structured log line went to stderr
