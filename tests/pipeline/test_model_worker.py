"""`python -m pipeline.worker` processes against the fake Anthropic server: a keyed worker drives runs with
the model-backed agents (an unkeyed one with the offline agents); a keyed worker killed while the CHEF's
model call is in flight is replaced and the new one finishes the run once; a run whose job was lost between
its commit and its enqueue is re-queued exactly once by the reconciler and finished."""

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

import pytest
from sqlalchemy import text

from gym import members
from gym.nutrition import runs
from pipeline import jobs
from pipeline.driver import Driver
from pipeline.jobs import Worker
from pipeline.offline import OfflineAgents
from tests.fakes.anthropic_server import Held, Reply, Text
from tests.gym.nutrition import samples
from tests.pipeline.model_script import agents_asked, by_agent

ROOT = Path(__file__).resolve().parents[2]
QUEUE = f"nutrition_worker_test_{uuid.uuid4().hex[:8]}"  # this module's own queue: no other worker takes it
CHAIN = ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
         "chef_processing", "coach_processing", "output_ready"]
DAY = 24 * 3600


@pytest.fixture(autouse=True)
def _clean(clean_fake_model):
    return clean_fake_model


async def _run(db, factory, **intake):
    org = await factory.org()
    owner = await factory.user(org, "owner", name="Maya Owner")
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
        run = await runs.start_run(session, org.id, member_id=member.id, intake=samples.intake(**intake),
                                   created_by=owner.id)
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
    assert len(stored) == 6 and max(outputs.values()) == 1  # no agent output twice
    assert [e.data["to"] for e in events if e.kind == "state"] == CHAIN


def _tail(log: Path) -> str:
    return log.read_text()[-2000:]


def _spawn(embedded_pg, embedded_redis, fake, log: Path, *extra: str, key: str = "sk-test-fake"):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "APP_ENV": "test", "AGENT_MODEL_PROVIDER": "anthropic",
           "ANTHROPIC_API_KEY": key, "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_MAX_RETRIES": "0",
           "NUTRITION_AGENTS": "auto", "NUTRITION_RECONCILE_SECONDS": "0"}
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
        db, factory, embedded_pg, embedded_redis, clean_fake_model, tmp_path) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org, run_id = await _run(db, factory)
    await jobs.enqueue(embedded_pg.url(), org.id, run_id, entrypoint=QUEUE)
    log = tmp_path / "worker.log"
    await _exit(_spawn(embedded_pg, embedded_redis, fake, log, "--drain"), log)
    await _finished_once(db, org, run_id)
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]


async def test_spotter_worker_uses_the_model_agents_with_a_key(db, factory, embedded_pg, embedded_redis,
                                                               clean_fake_model, tmp_path) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org, run_id = await _run(db, factory)
    await jobs.enqueue(embedded_pg.url(), org.id, run_id, entrypoint=QUEUE)
    log = tmp_path / "spotter-worker.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "APP_ENV": "test", "DATABASE_URL": embedded_pg.url(),
           "REDIS_URL": embedded_redis.url, "NUTRITION_QUEUE": QUEUE, "AGENT_MODEL_PROVIDER": "anthropic",
           "ANTHROPIC_API_KEY": "sk-test-fake", "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_MAX_RETRIES": "0",
           "NUTRITION_AGENTS": "auto", "NUTRITION_RECONCILE_SECONDS": "0"}
    proc = _popen([sys.executable, "-m", "api.cli", "worker", "--heartbeat", "5"], env, log)
    try:
        await _wait_for(db, org, run_id, "output_ready", proc, log)
    finally:
        _stop(proc)
    assert proc.returncode == 0, _tail(log)
    await _finished_once(db, org, run_id)
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]


async def test_an_unkeyed_worker_process_uses_the_offline_agents(
        db, factory, embedded_pg, embedded_redis, clean_fake_model, tmp_path) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org, run_id = await _run(db, factory)
    await jobs.enqueue(embedded_pg.url(), org.id, run_id, entrypoint=QUEUE)
    log = tmp_path / "worker.log"
    await _exit(_spawn(embedded_pg, embedded_redis, fake, log, "--drain", key=""), log)
    await _finished_once(db, org, run_id)
    assert fake.requests == []


async def test_a_keyed_worker_killed_mid_call_is_replaced_and_the_run_finishes_once(
        db, factory, embedded_pg, embedded_redis, clean_fake_model, tmp_path) -> None:
    fake = clean_fake_model
    held = Held(Reply(Text("too late")))
    fake.respond_with(by_agent(CHEF=[held]))
    org, run_id = await _run(db, factory)
    await jobs.enqueue(embedded_pg.url(), org.id, run_id, entrypoint=QUEUE)
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


async def _jobs_of(db, run_id: uuid.UUID) -> int:
    async with db.owner() as session:
        return int(await session.scalar(text(
            "SELECT count(*) FROM pgqueuer WHERE status IN ('queued', 'picked') "
            "AND convert_from(payload, 'UTF8')::jsonb ->> 'run_id' = :r"), {"r": str(run_id)}))


async def test_a_run_whose_enqueue_was_lost_is_requeued_exactly_once_and_finished(db, factory) -> None:
    org, run_id = await _run(db, factory)
    await jobs.enqueue(db.url, org.id, run_id, entrypoint=QUEUE)
    async with db.owner() as session:  # the crash: the run committed, its job never made it
        await session.execute(text("DELETE FROM pgqueuer WHERE convert_from(payload, 'UTF8')::jsonb ->> 'run_id' "
                                   "= :r"), {"r": str(run_id)})
        await session.execute(text("UPDATE nutrition_runs SET updated_at = now() - interval '2 days' "
                                   "WHERE id = :r"), {"r": run_id})
    assert await _jobs_of(db, run_id) == 0
    reconcilers = [Worker(db, OfflineAgents(), entrypoint=QUEUE, reconcile_every=DAY, stale_after=DAY)
                   for _ in range(3)]
    found = await asyncio.gather(*(worker.reconcile() for worker in reconcilers))
    assert sorted(len(f) for f in found) == [0, 0, 1] and run_id in [r for f in found for r in f]
    assert await _jobs_of(db, run_id) == 1  # exactly once, however many reconcilers raced
    await Worker(db, OfflineAgents(), entrypoint=QUEUE).run(drain=True)
    await _finished_once(db, org, run_id)
    assert await reconcilers[0].reconcile() == []  # a finished run is never re-queued


async def test_a_worker_reconciles_at_start_but_leaves_fresh_and_waiting_runs_alone(db, factory) -> None:
    org, run_id = await _run(db, factory)  # no job at all, and stale: a crash long ago
    fresh_org, fresh_id = await _run(db, factory)  # no job yet, just committed: its enqueue may be on the way
    paused_org, paused_id = await _run(db, factory, menstrual_status="amenorrhea")
    assert await Driver(db, OfflineAgents()).run_until_rest(paused_org.id, paused_id) == "paused_physician"
    async with db.owner() as session:  # the referral awaits the user: no worker is needed
        await session.execute(text("UPDATE nutrition_runs SET updated_at = now() - interval '2 days' "
                                   "WHERE id IN (:r, :p)"), {"r": run_id, "p": paused_id})
    await Worker(db, OfflineAgents(), entrypoint=QUEUE, reconcile_every=DAY, stale_after=DAY).run(drain=True)
    await _finished_once(db, org, run_id)
    assert await _state(db, fresh_org, fresh_id) == "intake_pending"
    assert await _state(db, paused_org, paused_id) == "paused_physician"
    assert await _jobs_of(db, fresh_id) == await _jobs_of(db, paused_id) == 0
