"""Durable runs on the job queue: a run started through the service is queued in the same transaction (a start
that never commits leaves neither) and driven to output_ready by a worker; a worker killed mid-run is replaced
and the new one finishes the run once (no agent output stored twice); a job whose step raises is retried by the
queue and the run finishes once."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from core.database import Database
from gym import members
from gym.nutrition import runs
from gym.nutrition.queue import queue_info
from gym.nutrition.service import NutritionService
from pipeline.agents import AgentCall, Answer
from pipeline.jobs import Worker
from pipeline.offline import OfflineAgents
from tests.gym.nutrition import samples
from tests.pipeline.fakes import ScriptedAgents

ROOT = Path(__file__).resolve().parents[2]
CHAIN = ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
         "chef_processing", "coach_processing", "output_ready"]


# A queue of this test module's own: a worker of the app under test (other modules) never takes its jobs.
QUEUE = f"nutrition_run_test_{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
async def queued_db(embedded_pg) -> AsyncIterator[Database]:
    """The service's database handle as `api.resources` builds it, its runs queued on this module's queue."""
    database = Database(embedded_pg.url(), pool_size=2, session_info=queue_info(QUEUE))
    yield database
    await database.dispose()


async def _queued_run(queued_db, factory):
    org = await factory.org()
    async with queued_db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
        run = await NutritionService(session, org.id).start_run(member.id, samples.intake(), started_by=None)
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


async def test_a_queued_run_is_driven_to_output_ready_by_a_worker(db, factory, queued_db) -> None:
    org, run_id = await _queued_run(queued_db, factory)
    await Worker(db, OfflineAgents(), entrypoint=QUEUE).run(drain=True)
    assert await _state(db, org, run_id) == "output_ready"


async def test_a_killed_worker_is_replaced_and_the_run_finishes_once(db, factory, embedded_pg, queued_db,
                                                                      tmp_path) -> None:
    org, run_id = await _queued_run(queued_db, factory)
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
    assert len(stored) == 7  # the intake and six outputs
    assert [e.data["to"] for e in events if e.kind == "state"] == CHAIN  # resumed at CHEF, nothing redone


async def _jobs_of(db, run_id: uuid.UUID) -> int:
    async with db.owner() as session:
        return int(await session.scalar(text(
            "SELECT count(*) FROM pgqueuer WHERE entrypoint = :e AND status IN ('queued', 'picked') "
            "AND convert_from(payload, 'UTF8')::jsonb ->> 'run_id' = :r"), {"e": QUEUE, "r": str(run_id)}))


class Crash(Exception):
    """The process dying between the service's work and its commit."""


async def test_a_run_and_its_job_commit_together_or_not_at_all(db, factory, queued_db) -> None:
    """No crash can leave an active run without a job: a start that never commits leaves neither, a committed
    one exactly one job, which a worker takes to output_ready."""
    org = await factory.org()
    async with queued_db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
    with pytest.raises(Crash):
        async with queued_db.scope(org_id=org.id) as session:
            lost = await NutritionService(session, org.id).start_run(member.id, samples.intake(), started_by=None)
            raise Crash
    async with db.owner() as session:
        assert await session.scalar(text("SELECT count(*) FROM nutrition_runs WHERE id = :r"), {"r": lost.id}) == 0
    assert await _jobs_of(db, lost.id) == 0
    async with queued_db.scope(org_id=org.id) as session:
        run = await NutritionService(session, org.id).start_run(member.id, samples.intake(), started_by=None)
    assert await _jobs_of(db, run.id) == 1
    await Worker(db, OfflineAgents(), entrypoint=QUEUE).run(drain=True)
    assert await _state(db, org, run.id) == "output_ready"
    assert await _jobs_of(db, run.id) == 0


async def _unreachable(call: AgentCall, good: Answer) -> Answer:
    raise ConnectionResetError("the connection went away mid-step")


async def test_a_job_whose_step_fails_is_retried_by_the_queue_and_the_run_finishes_once(db, factory,
                                                                                        queued_db) -> None:
    """PgQueuer's retry (pipeline.jobs.retrying), not a reconciler, brings back a run whose job raised: the retry
    resumes where the run stood and no output is stored twice."""
    org, run_id = await _queued_run(queued_db, factory)
    agents = ScriptedAgents(CHEF=[_unreachable])
    await Worker(db, agents, entrypoint=QUEUE).run(drain=True, dequeue_timeout=timedelta(seconds=1))
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        stored = await runs.messages(session, run)
        events = await runs.events_after(session, run)
    assert run.state == "output_ready"
    assert agents.agents_called() == ["NUTRITIONIST", "DIETITIAN", "CHEF", "CHEF", "COACH"]
    outputs = Counter((m.run_version, m.from_agent, m.data_type) for m in stored)
    assert len(stored) == 7 and max(outputs.values()) == 1  # the intake and six outputs
    assert [e.data["to"] for e in events if e.kind == "state"] == CHAIN
    async with db.owner() as session:
        retried = await session.scalar(text(
            "SELECT count(*) FROM pgqueuer_log l JOIN pgqueuer_log q ON q.job_id = l.job_id AND q.status = 'queued' "
            "WHERE l.entrypoint = :e AND l.traceback::text LIKE '%went away mid-step%'"), {"e": QUEUE})
    assert retried
