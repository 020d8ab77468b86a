"""Runs as rows (migration 0007): FORCE'd RLS on every table, the 409 rules, the state machine on the
stored run, envelopes stored once, members seeing only their own runs, other orgs seeing nothing."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import text

from core.errors import Conflict, NotFound
from gym import members
from gym.nutrition import runs
from gym.nutrition.envelope import build_envelope
from gym.nutrition.errors import IllegalTransition
from gym.nutrition.payloads.control import PipelineErrorPayload
from gym.nutrition.states import State
from tests.gym.nutrition import samples

TABLES = ("nutrition_runs", "nutrition_messages", "nutrition_events", "nutrition_checkins",
          "nutrition_adjustments", "nutrition_medical_clearances")
CHAIN = [State.SCIENTIST_PROCESSING, State.NUTRITIONIST_PROCESSING, State.DIETITIAN_PROCESSING,
         State.CHEF_PROCESSING, State.COACH_PROCESSING, State.OUTPUT_READY]


async def _gym(db, factory, *names: str):
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        made = [await members.create_member(session, org.id, first_name=name, joined_at=date(2026, 1, 5))
                for name in names]
    return org, [m.id for m in made]


async def test_every_table_forces_rls_with_the_org_policy(db) -> None:
    async with db.owner() as session:
        rows = (await session.execute(text(
            "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, p.qual FROM pg_class c "
            "LEFT JOIN pg_policies p ON p.tablename = c.relname WHERE c.relname = ANY(:t)"), {"t": list(TABLES)})).all()
        grants = (await session.execute(text(
            "SELECT table_name, count(*) FROM information_schema.role_table_grants WHERE grantee = 'spotter_app' "
            "AND table_name = ANY(:t) GROUP BY table_name"), {"t": list(TABLES)})).all()
    assert {r.relname for r in rows} == set(TABLES)
    assert all(r.relrowsecurity and r.relforcerowsecurity and "app_current_org()" in r.qual for r in rows)
    assert {name: count for name, count in grants} == {t: 4 for t in TABLES}


async def test_start_move_along_the_chain_and_supersede(db, factory) -> None:
    org, [dani] = await _gym(db, factory, "Dani")
    async with db.scope(org_id=org.id) as session:
        run = await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        assert (run.state, run.version, run.terminated_medical) == ("intake_pending", 1, False)
        with pytest.raises(Conflict) as busy:
            await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        assert busy.value.code == "run_in_progress" and busy.value.status == 409
        for state in CHAIN:
            await runs.transition(session, run, state)
        assert (run.state, run.previous_state) == ("output_ready", "coach_processing")
        assert run.finished_at is not None
        assert (run.ready_version, runs.is_current(run)) == (1, True)
        second = await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        await session.refresh(run)
        assert run.superseded_at is None and runs.is_current(run)  # the plan stays current while the next works
        for state in CHAIN:
            await runs.transition(session, second, state)
        await session.refresh(run)
        assert run.superseded_at is not None and second.superseded_at is None and runs.is_current(second)
        events = await runs.events_after(session, run)
    assert [e.seq for e in events] == list(range(1, 8))
    assert [(e.data["from"], e.data["to"]) for e in events][:2] == [
        (None, "intake_pending"), ("intake_pending", "scientist_processing")]


async def test_an_illegal_move_raises_and_changes_nothing(db, factory) -> None:
    org, [dani] = await _gym(db, factory, "Dani")
    async with db.scope(org_id=org.id) as session:
        run = await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        with pytest.raises(IllegalTransition):
            await runs.transition(session, run, State.CHEF_PROCESSING)
        assert run.state == "intake_pending"
        assert len(await runs.events_after(session, run)) == 1


async def test_pause_remembers_where_it_paused_and_resumes_only_there(db, factory) -> None:
    org, [dani] = await _gym(db, factory, "Dani")
    async with db.scope(org_id=org.id) as session:
        run = await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        await runs.transition(session, run, State.SCIENTIST_PROCESSING)
        await runs.transition(session, run, State.PAUSED_PHYSICIAN)
        await runs.transition(session, run, State.PAUSED_PHYSICIAN)  # pause_pending_referral
        assert (run.state, run.previous_state) == ("paused_physician", "scientist_processing")
        with pytest.raises(IllegalTransition):
            await runs.transition(session, run, State.NUTRITIONIST_PROCESSING)
        await runs.transition(session, run, State.SCIENTIST_PROCESSING)
        assert run.previous_state == "paused_physician"


async def test_abort_terminates_and_blocks_new_runs_until_clearance(db, factory) -> None:
    org, [dani] = await _gym(db, factory, "Dani")
    async with db.scope(org_id=org.id) as session:
        run = await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        await runs.transition(session, run, State.SCIENTIST_PROCESSING)
        await runs.transition(session, run, State.PAUSED_PHYSICIAN)
        error = PipelineErrorPayload(error_type="physician_abort", failing_agent="SCIENTIST", details="seek care",
                                     pipeline_run_id=run.id, recoverable=False, retry_count=0)
        await runs.fail(session, run, error, terminated_medical=True)
        assert (run.state, run.terminated_medical, run.error["error_type"]) == ("error", True, "physician_abort")
        kinds = [e.kind for e in await runs.events_after(session, run)]
        assert kinds[-2:] == ["error", "done"]
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(Conflict) as blocked:
            await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        assert blocked.value.code == "medical_clearance_required"
        clearance = await runs.record_clearance(session, org.id, member_id=dani, recorded_by=None, note="GP ok")
        assert clearance.run_id == run.id
    async with db.scope(org_id=org.id) as session:
        fresh = await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        assert fresh.state == "intake_pending"


async def test_an_envelope_is_stored_once(db, factory) -> None:
    org, [dani] = await _gym(db, factory, "Dani")
    async with db.scope(org_id=org.id) as session:
        run = await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        env = build_envelope(run_id=run.id, from_agent="SCIENTIST", to_agent="NUTRITIONIST",
                             data_type="macro_targets", payload=samples.targets())
        again = build_envelope(run_id=run.id, from_agent="SCIENTIST", to_agent="NUTRITIONIST",
                               data_type="macro_targets", payload=samples.targets())
        assert await runs.store_envelope(session, run, env) is True
        assert await runs.store_envelope(session, run, env) is False  # same message
        assert await runs.store_envelope(session, run, again) is False  # same output slot, new id
        assert await runs.store_envelope(session, run, again, attempt=2) is True
        stored = await runs.messages(session, run)
        outputs = await runs.latest_outputs(session, run, ["macro_targets", "recipes"])
        frames = [e for e in await runs.events_after(session, run) if e.kind == "envelope"]
    assert [m.attempt for m in stored] == [1, 2]
    assert outputs["macro_targets"]["target_intake_kcal"] == 2180 and outputs["recipes"] is None
    assert frames[0].data == {"messageId": str(env.message_id), "fromAgent": "SCIENTIST", "toAgent": "NUTRITIONIST",
                              "dataType": "macro_targets", "runVersion": 1}


async def test_members_see_only_their_runs_and_other_orgs_see_nothing(db, factory) -> None:
    org, [dani, noa] = await _gym(db, factory, "Dani", "Noa")
    other, [stranger] = await _gym(db, factory, "Stranger")
    async with db.scope(org_id=org.id) as session:
        dani_run = await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
        noa_run = await runs.start_run(session, org.id, member_id=noa, intake=samples.intake(), created_by=None)
        assert {r.id for r in await runs.list_runs(session, org.id)} == {dani_run.id, noa_run.id}
        assert [r.id for r in await runs.list_runs(session, org.id, member_scope=dani)] == [dani_run.id]
        assert (await runs.get_run(session, org.id, dani_run.id, member_scope=dani)).id == dani_run.id
        with pytest.raises(NotFound) as hidden:
            await runs.get_run(session, org.id, noa_run.id, member_scope=dani)
        assert hidden.value.code == "run_not_found"
        with pytest.raises(NotFound):
            await runs.start_run(session, org.id, member_id=stranger, intake=samples.intake(), created_by=None)
    async with db.scope(org_id=other.id) as session:
        assert await runs.list_runs(session, org.id) == []
        with pytest.raises(NotFound):
            await runs.get_run(session, org.id, dani_run.id)
        rows = await session.execute(text("SELECT count(*) FROM nutrition_events"))
        assert rows.scalar() == 0
    async with db.scope(org_id=other.id) as session:
        with pytest.raises(Exception, match="row-level security"):
            await session.execute(text(
                "INSERT INTO nutrition_medical_clearances (org_id, member_id) VALUES (:o, :m)"),
                {"o": org.id, "m": dani})


async def test_two_active_runs_for_one_member_are_impossible_in_the_database(db, factory) -> None:
    org, [dani] = await _gym(db, factory, "Dani")
    async with db.scope(org_id=org.id) as session:
        await runs.start_run(session, org.id, member_id=dani, intake=samples.intake(), created_by=None)
    with pytest.raises(Exception, match="uq_nutrition_runs_member_active"):
        async with db.scope(org_id=org.id) as session:
            await session.execute(text(
                "INSERT INTO nutrition_runs (org_id, member_id, intake) VALUES (:o, :m, '{}')"),
                {"o": org.id, "m": dani})
    async with db.scope(org_id=org.id) as session:
        assert len(await runs.list_runs(session, org.id, member_id=dani)) == 1
