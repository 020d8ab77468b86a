"""The nutrition__* staff tools through the real runner, per role: a confirmed start records the run and
queues its job in the tool's own transaction (a worker then drives it to output_ready; a rolled-back start
leaves neither), the plan reads back, a check-in answers its adjustment, clearance lifts the medical block;
tenancy holds."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import date

import pytest
from sqlalchemy import text

from core.database import Database
from gym import members
from gym.nutrition import runs
from gym.nutrition.queue import queue_info
from pipeline.driver import Driver
from pipeline.jobs import Worker
from pipeline.offline import OfflineAgents
from tests.gym.nutrition import samples
from tests.tools.harness import REGISTRY, ToolHarness, access_for, caller_for
from tools.runner import ToolRunner

QUEUE = f"nutrition_run_tools_{uuid.uuid4().hex[:8]}"  # this module's own queue: no app worker takes its jobs
FIRST_CHECKIN = {"weight_kg": 56.4, "waist_cm": 68.5, "hip_cm": 92.5}


@pytest.fixture(scope="module")
async def queued_db(embedded_pg) -> AsyncIterator[Database]:
    """The service's database handle as `api.resources` builds it, its runs queued on this module's queue."""
    database = Database(embedded_pg.url(), pool_size=2, session_info=queue_info(QUEUE))
    yield database
    await database.dispose()


@pytest.fixture
def tools(queued_db) -> ToolHarness:
    return ToolHarness(ToolRunner(queued_db))


async def _gym(db, factory):
    org = await factory.org()
    owner = await factory.user(org, "owner")
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
    return org, owner, member.id


async def _queued(db, run_id: str) -> int:
    async with db.owner() as session:
        return int(await session.scalar(text(
            "SELECT count(*) FROM pgqueuer WHERE entrypoint = :e AND convert_from(payload, 'UTF8') LIKE :r"),
            {"e": QUEUE, "r": f"%{run_id}%"}))


async def _finished_run(db, org, member_id):
    async with db.scope(org_id=org.id) as session:
        run = await runs.start_run(session, org.id, member_id=member_id, intake=samples.intake(), created_by=None)
    assert await Driver(db, OfflineAgents()).run_until_rest(org.id, run.id) == "output_ready"
    return run.id


async def test_a_coach_starts_a_run_queued_in_its_transaction_and_a_worker_finishes_it(db, factory,
                                                                                        tools) -> None:
    org, owner, member_id = await _gym(db, factory)
    coach = await factory.user(org, "coach")
    out = await tools.ok("nutrition__start_run", {"membershipId": str(member_id), "intake": samples.INTAKE},
                         org=org, user=coach)
    assert (out["state"], out["version"]) == ("intake_pending", 1)
    assert await _queued(db, out["id"]) == 1
    async with db.owner() as session:
        audit = (await session.execute(text(
            "SELECT action, resource_id FROM audit_logs WHERE org_id = :o"), {"o": org.id})).all()
    assert audit == [("nutrition.run.start", out["id"])]
    again = await tools.fails("nutrition__start_run", {"membershipId": str(member_id), "intake": samples.INTAKE},
                              code="run_in_progress", org=org, user=owner)
    assert again
    await Worker(db, OfflineAgents(), entrypoint=QUEUE).run(drain=True)
    plan = await tools.ok("nutrition__get_plan", {"membershipId": str(member_id)}, org=org, user=coach)
    assert plan["found"] and plan["plan"]["run"]["state"] == "output_ready"
    assert plan["plan"]["outputs"]["macro_targets"]["target_intake_kcal"] == 2180


class Crash(Exception):
    """The process dying after the tool ran, before its transaction committed."""


async def test_a_start_whose_transaction_never_commits_leaves_neither_run_nor_job(db, factory, queued_db) -> None:
    """The run and its job commit together: the crash between them that a reconciler used to sweep up cannot
    happen (the tool runs in the caller's transaction, as the agent's confirm does)."""
    org, owner, member_id = await _gym(db, factory)
    runner, spec = ToolRunner(queued_db), REGISTRY.get("nutrition__start_run")
    assert spec is not None
    with pytest.raises(Crash):
        async with queued_db.scope(org_id=org.id, user_id=owner.id) as session:
            outcome = await runner.run(spec, {"membershipId": str(member_id), "intake": samples.INTAKE},
                                       access=access_for(org, "owner"), caller=caller_for(owner), session=session)
            assert outcome.ok and outcome.output is not None
            assert await _queued(db, outcome.output["id"]) == 0  # not visible before the commit
            raise Crash
    async with db.owner() as session:
        left = await session.scalar(text("SELECT count(*) FROM nutrition_runs WHERE org_id = :o"), {"o": org.id})
    assert left == 0 and await _queued(db, outcome.output["id"]) == 0


async def test_a_failed_start_queues_nothing_and_names_the_problem(db, factory, tools) -> None:
    org, owner, member_id = await _gym(db, factory)
    bad = {**samples.INTAKE, "daily_calories": 1700}
    error = await tools.fails("nutrition__start_run", {"membershipId": str(member_id), "intake": bad},
                              code="validation_failed", org=org, user=owner)
    assert "use 'target_intake_kcal'" in error["detail"]
    await tools.fails("nutrition__start_run", {"membershipId": str(uuid.uuid4()), "intake": samples.INTAKE},
                      code="member_not_found", org=org, user=owner)
    async with db.owner() as session:
        count = await session.scalar(text("SELECT count(*) FROM pgqueuer WHERE entrypoint = :e AND "
                                          "convert_from(payload, 'UTF8') LIKE :o"), {"e": QUEUE, "o": f"%{org.id}%"})
    assert count == 0


async def test_roles_each_tool_allows(db, factory, tools) -> None:
    org, _, member_id = await _gym(db, factory)
    desk = await factory.user(org, "front_desk")
    coach = await factory.user(org, "coach")
    await tools.fails("nutrition__start_run", {"membershipId": str(member_id), "intake": samples.INTAKE},
                      code="forbidden_for_role", org=org, user=desk)
    await tools.fails("nutrition__submit_checkin", {"membershipId": str(member_id), "checkin": FIRST_CHECKIN},
                      code="forbidden_for_role", org=org, user=desk)
    await tools.fails("nutrition__record_medical_clearance", {"membershipId": str(member_id)},
                      code="forbidden_for_role", org=org, user=coach)
    await tools.fails("nutrition__get_plan", {"membershipId": str(member_id)}, code="forbidden_for_role", org=org,
                      user=desk)  # front desk reads no health data (NUTRITION.md "Who uses it")
    assert await tools.ok("nutrition__get_plan", {"membershipId": str(member_id)}, org=org, user=coach) == {
        "found": False, "medicalHold": False}


async def test_a_checkin_through_the_tool_answers_its_adjustment(db, factory, tools) -> None:
    org, _, member_id = await _gym(db, factory)
    coach = await factory.user(org, "coach")
    await tools.fails("nutrition__submit_checkin", {"membershipId": str(member_id), "checkin": FIRST_CHECKIN},
                      code="run_not_ready", org=org, user=coach)
    run_id = await _finished_run(db, org, member_id)
    out = await tools.ok("nutrition__submit_checkin", {"membershipId": str(member_id), "checkin": FIRST_CHECKIN},
                         org=org, user=coach)
    assert out["runId"] == str(run_id) and out["version"] == 1
    assert out["adjustment"]["adjustment_type"] is None and out["adjustment"]["triggers_fired"] == []
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        assert len(await runs.checkin_history(session, run)) == 1


async def test_clearance_by_an_owner_lifts_the_block_after_a_medical_abort(db, factory, tools) -> None:
    org, owner, member_id = await _gym(db, factory)
    async with db.scope(org_id=org.id) as session:
        run = await runs.start_run(session, org.id, member_id=member_id,
                                   intake=samples.intake(medical_history={"medications": ["insulin"],
                                                                          "conditions": [], "injuries": []}),
                                   created_by=None)
    assert await Driver(db, OfflineAgents()).run_until_rest(org.id, run.id) == "error"
    start = {"membershipId": str(member_id), "intake": samples.INTAKE}
    await tools.fails("nutrition__start_run", start, code="medical_clearance_required", org=org, user=owner)
    cleared = await tools.ok("nutrition__record_medical_clearance",
                             {"membershipId": str(member_id), "note": "cleared by Dr. Levi"}, org=org, user=owner)
    assert cleared["membershipId"] == str(member_id)
    async with db.owner() as session:
        audited = await session.scalar(text(
            "SELECT resource_id FROM audit_logs WHERE org_id = :o AND action = 'nutrition.clearance.record'"),
            {"o": org.id})
    assert audited == cleared["id"]
    assert (await tools.ok("nutrition__start_run", start, org=org, user=owner))["state"] == "intake_pending"


async def test_staff_of_another_org_see_no_plan(db, factory, tools) -> None:
    org, _, member_id = await _gym(db, factory)
    await _finished_run(db, org, member_id)
    other = await factory.org()
    stranger = await factory.user(other, "owner")
    assert await tools.ok("nutrition__get_plan", {"membershipId": str(member_id)}, org=other, user=stranger) == {
        "found": False, "medicalHold": False}
    await tools.fails("nutrition__submit_checkin", {"membershipId": str(member_id), "checkin": FIRST_CHECKIN},
                      code="run_not_ready", org=other, user=stranger)
