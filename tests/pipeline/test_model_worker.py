"""`python -m pipeline.worker` processes against the fake Anthropic server: a keyed worker drives runs with
the model-backed agents (an unkeyed one with the offline agents); a keyed worker killed while the CHEF's
model call is in flight is replaced and the new one finishes the run once. Runs are started as the service
starts them: recorded and queued in one transaction."""

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

import asyncpg
import pytest
from pgqueuer import Queries

from core.database import Database
from gym import members
from gym.freezes import ENTRYPOINT as FREEZES
from gym.job_queue import entrypoint_for
from gym.messages import ENTRYPOINT as MESSAGES
from gym.nutrition import runs
from gym.nutrition.queue import queue_info
from gym.nutrition.service import NutritionService
from pipeline.jobs import dsn_of
from tests.fakes.anthropic_server import Held, Reply, Text
from tests.gym.nutrition import samples
from tests.pipeline.model_script import agents_asked, by_agent

ROOT = Path(__file__).resolve().parents[2]
QUEUE = f"nutrition_worker_test_{uuid.uuid4().hex[:8]}"  # this module's own queue: no other worker takes it
CHAIN = ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
         "chef_processing", "coach_processing", "output_ready"]


@pytest.fixture(autouse=True)
def _clean(clean_fake_model):
    return clean_fake_model


@pytest.fixture(scope="module")
async def queued_db(embedded_pg) -> AsyncIterator[Database]:
    """The service's database handle as `api.resources` builds it, its runs queued on this module's queue."""
    database = Database(embedded_pg.url(), pool_size=2, session_info=queue_info(QUEUE))
    yield database
    await database.dispose()


async def _run(queued_db, factory, **intake):
    org = await factory.org()
    owner = await factory.user(org, "owner", name="Maya Owner")
    async with queued_db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
        run = await NutritionService(session, org.id).start_run(member.id, samples.intake(**intake),
                                                                started_by=owner.id)
    return org, run.id


async def _state(db, org, run_id) -> str:
    async with db.scope(org_id=org.id) as session:
        return (await runs.get_run(session, org.id, run_id)).state


async def _finished_once(db, org, run_id) -> None:
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        stored = await runs.messages(session, run)
        events = await runs.events_after(session, run)
    assert run.state == "output_ready"
    outputs = Counter((m.run_version, m.from_agent, m.data_type) for m in stored)
    assert len(stored) == 7 and max(outputs.values()) == 1  # the intake and six outputs, none twice
    assert [e.data["to"] for e in events if e.kind == "state"] == CHAIN


def _tail(log: Path) -> str:
    return log.read_text()[-2000:]


def _spawn(embedded_pg, embedded_redis, fake, log: Path, *extra: str, key: str = "sk-test-fake"):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "APP_ENV": "test", "AGENT_MODEL_PROVIDER": "anthropic",
           "ANTHROPIC_API_KEY": key, "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_MAX_RETRIES": "0",
           "NUTRITION_AGENTS": "auto"}
    return _popen([sys.executable, "-m", "pipeline.worker", "--database-url", embedded_pg.url(),
                   "--redis-url", embedded_redis.url, "--queue", QUEUE, *extra], env, log)


def _popen(argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("ab") as sink:
        return subprocess.Popen(argv, env=env, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)


async def _exit(proc: subprocess.Popen, log: Path) -> None:
    code = await asyncio.to_thread(proc.wait, 120)
    assert code == 0, _tail(log)


async def _wait_for(db, org, run_id, wanted: str, proc: subprocess.Popen, log: Path, limit_s: float = 90) -> None:
    deadline = time.monotonic() + limit_s
    while (state := await _state(db, org, run_id)) != wanted:
        assert proc.poll() is None, f"worker exited with {proc.returncode}: {_tail(log)}"
        assert time.monotonic() < deadline, f"run stuck in {state}: {_tail(log)}"
        await asyncio.sleep(0.2)


def _stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def test_a_keyed_worker_process_drives_the_run_with_the_model_agents(
        db, queued_db, factory, embedded_pg, embedded_redis, clean_fake_model, tmp_path) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org, run_id = await _run(queued_db, factory)
    log = tmp_path / "worker.log"
    await _exit(_spawn(embedded_pg, embedded_redis, fake, log, "--drain"), log)
    await _finished_once(db, org, run_id)
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]


async def test_spotter_worker_uses_the_model_agents_with_a_key(db, queued_db, factory, embedded_pg, embedded_redis,
                                                               clean_fake_model, tmp_path) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org, run_id = await _run(queued_db, factory)
    log = tmp_path / "spotter-worker.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "APP_ENV": "test", "DATABASE_URL": embedded_pg.url(),
           "REDIS_URL": embedded_redis.url, "NUTRITION_QUEUE": QUEUE, "AGENT_MODEL_PROVIDER": "anthropic",
           "ANTHROPIC_API_KEY": "sk-test-fake", "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_MAX_RETRIES": "0",
           "NUTRITION_AGENTS": "auto"}
    proc = _popen([sys.executable, "-m", "api.cli", "worker", "--heartbeat", "5"], env, log)
    try:
        await _wait_for(db, org, run_id, "output_ready", proc, log)
    finally:
        _stop(proc)
    assert proc.returncode == 0, _tail(log)
    await _finished_once(db, org, run_id)
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]


async def test_an_unkeyed_worker_process_uses_the_offline_agents(
        db, queued_db, factory, embedded_pg, embedded_redis, clean_fake_model, tmp_path) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org, run_id = await _run(queued_db, factory)
    # another deployment's jobs (the default queue's freeze and outbox jobs, due tomorrow) share the table: a worker
    # on this module's queue leaves them alone, and `--drain` does not wait for them
    others = [entrypoint_for(None, job) for job in (FREEZES, MESSAGES)]
    conn = await asyncpg.connect(dsn_of(embedded_pg.url()))
    try:
        ids = [(await Queries.from_asyncpg_connection(conn).enqueue(name, b"{}", execute_after=timedelta(days=1)))[0]
               for name in others]
        log = tmp_path / "worker.log"
        await _exit(_spawn(embedded_pg, embedded_redis, fake, log, "--drain", key=""), log)
        left = await conn.fetchval("SELECT count(*) FROM pgqueuer WHERE id = ANY($1::bigint[])", ids)
        await conn.execute("DELETE FROM pgqueuer WHERE id = ANY($1::bigint[])", ids)
    finally:
        await conn.close()
    assert left == 2 and entrypoint_for(QUEUE, FREEZES) == f"{QUEUE}.{FREEZES}"
    await _finished_once(db, org, run_id)
    assert fake.requests == []


async def test_a_keyed_worker_killed_mid_call_is_replaced_and_the_run_finishes_once(
        db, queued_db, factory, embedded_pg, embedded_redis, clean_fake_model, tmp_path) -> None:
    fake = clean_fake_model
    held = Held(Reply(Text("too late")))
    fake.respond_with(by_agent(CHEF=[held]))
    org, run_id = await _run(queued_db, factory)
    log = tmp_path / "workers.log"
    first = _spawn(embedded_pg, embedded_redis, fake, log, "--heartbeat", "1", "--agent-seconds", "120")
    try:
        assert await asyncio.to_thread(held.arrived.wait, 90), _tail(log)
        assert await _state(db, org, run_id) == "chef_processing"
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
        held.release()  # the answer goes to a dead connection
    await asyncio.to_thread(fake.wait_for_requests, 3)
    second = _spawn(embedded_pg, embedded_redis, fake, log, "--heartbeat", "1")
    try:
        await _wait_for(db, org, run_id, "output_ready", second, log)
    finally:
        _stop(second)
    await _finished_once(db, org, run_id)  # resumed at CHEF, nothing before it redone
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "CHEF", "COACH"]
