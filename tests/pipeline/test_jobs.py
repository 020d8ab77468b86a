"""Durable runs on the job queue: a queued run is driven to output_ready by a worker; a worker killed
mid-run is replaced and the new one finishes the run once (no agent output stored twice)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from datetime import date
from pathlib import Path

from sqlalchemy import text

from gym import members
from gym.nutrition import runs
from pipeline import jobs
from pipeline.jobs import Worker
from pipeline.offline import OfflineAgents
from tests.gym.nutrition import samples

ROOT = Path(__file__).resolve().parents[2]
CHAIN = ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
         "chef_processing", "coach_processing", "output_ready"]


# A queue of this test module's own: a worker of the app under test (other modules) never takes its jobs.
QUEUE = f"nutrition_run_test_{uuid.uuid4().hex[:8]}"


async def _queued_run(db, factory, embedded_pg):
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
        run = await runs.start_run(session, org.id, member_id=member.id, intake=samples.intake(), created_by=None)
    await jobs.enqueue(embedded_pg.url(), org.id, run.id, entrypoint=QUEUE)
    return org, run.id


async def _state(db, org, run_id) -> str:
    async with db.scope(org_id=org.id) as session:
        return (await runs.get_run(session, org.id, run_id)).state


def _tail(log: Path) -> str:
    return log.read_text()[-1500:]


async def _wait_for(db, org, run_id, wanted: str, proc: subprocess.Popen, log: Path, limit_s: float = 90) -> None:
    deadline = time.monotonic() + limit_s
    while (state := await _state(db, org, run_id)) != wanted:
        assert proc.poll() is None, f"worker exited with {proc.returncode}: {_tail(log)}"
        if time.monotonic() > deadline:
            async with db.owner() as session:
                failures = (await session.execute(text(
                    "SELECT traceback FROM pgqueuer_log WHERE status = 'exception'"))).scalars().all()
            raise AssertionError(f"run stuck in {state}: {_tail(log)} {failures}")
        await asyncio.sleep(0.2)


def _spawn(url: str, log: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with log.open("ab") as sink:
        return subprocess.Popen([sys.executable, str(ROOT / "tests/pipeline/worker_proc.py"), url, QUEUE, *extra],
                                env=env, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)


async def test_a_queued_run_is_driven_to_output_ready_by_a_worker(db, factory, embedded_pg) -> None:
    org, run_id = await _queued_run(db, factory, embedded_pg)
    await Worker(db, OfflineAgents(), entrypoint=QUEUE).run(drain=True)
    assert await _state(db, org, run_id) == "output_ready"


async def test_a_killed_worker_is_replaced_and_the_run_finishes_once(db, factory, embedded_pg, tmp_path) -> None:
    org, run_id = await _queued_run(db, factory, embedded_pg)
    log = tmp_path / "workers.log"
    first = _spawn(embedded_pg.url(), log, "--hang-chef")
    try:
        await _wait_for(db, org, run_id, "chef_processing", first, log)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    second = _spawn(embedded_pg.url(), log)
    try:
        await _wait_for(db, org, run_id, "output_ready", second, log)
    finally:
        second.send_signal(signal.SIGTERM)
        try:
            second.wait(timeout=30)
        except subprocess.TimeoutExpired:
            second.kill()
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        stored = await runs.messages(session, run)
        events = await runs.events_after(session, run)
    outputs = Counter((m.run_version, m.from_agent, m.data_type) for m in stored)
    assert outputs and max(outputs.values()) == 1  # no agent output twice
    assert len(stored) == 6
    assert [e.data["to"] for e in events if e.kind == "state"] == CHAIN  # resumed at CHEF, nothing redone
