"""The orchestrator over real Postgres with the offline agents (and a scripted fake at the model
boundary): the initial run, physician outcomes, conflicts, validation re-runs and timeouts."""

from __future__ import annotations

from datetime import date

import pytest

from core.errors import Conflict
from gym import members
from gym.nutrition import lifecycle, runs
from gym.nutrition.envelope import parse_envelope
from pipeline.driver import Driver, Limits
from pipeline.offline import OfflineAgents
from tests.gym.nutrition import samples
from tests.pipeline.fakes import ScriptedAgents, edit, hang

CHAIN = ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
         "chef_processing", "coach_processing", "output_ready"]
OUTPUTS = ["macro_targets", "nutrition_strategy", "weekly_meal_plan", "recipes", "training_program"]


async def _start(db, factory, **intake_changes):
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
        run = await runs.start_run(session, org.id, member_id=member.id, intake=samples.intake(**intake_changes),
                                   created_by=None)
    return org, member.id, run.id


async def _events(db, org, run_id):
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        return run, list(await runs.events_after(session, run))


def _states(events) -> list[str]:
    return [e.data["to"] for e in events if e.kind == "state"]


async def test_the_issues_intake_runs_in_order_to_output_ready(db, factory) -> None:
    org, _, run_id = await _start(db, factory)
    assert await Driver(db, OfflineAgents()).run_until_rest(org.id, run_id) == "output_ready"
    run, events = await _events(db, org, run_id)
    assert _states(events) == CHAIN
    assert events[-1].kind == "done" and events[-1].data == {"state": "output_ready"}
    assert run.last_completed_agent == "COACH" and run.version == 1
    async with db.scope(org_id=org.id) as session:
        stored = await runs.messages(session, run)
        outputs = await runs.latest_outputs(session, run, OUTPUTS)
    for message in stored:  # every envelope validates as 004 §2 + its edge schema
        parse_envelope({"message_id": str(message.id), "from_agent": message.from_agent,
                        "to_agent": message.to_agent, "data_type": message.data_type, "payload": message.payload,
                        "pipeline_run_id": str(run.id), "timestamp": message.created_at.isoformat(),
                        "version": message.schema_version, "run_version": message.run_version})
    assert [(m.from_agent, m.data_type) for m in stored] == [
        ("INTAKE", "intake_data"), ("SCIENTIST", "macro_targets"), ("SCIENTIST", "training_input"), ("NUTRITIONIST", "nutrition_strategy"),
        ("DIETITIAN", "weekly_meal_plan"), ("CHEF", "recipes"), ("COACH", "training_program")]
    t = outputs["macro_targets"]
    assert (t["bmr_kcal"], t["tdee_kcal"], t["target_intake_kcal"], t["protein_g"], t["fat_g"], t["carbs_g"],
            t["fiber_g_min"], t["hydration_L"]) == (1292, 1906, 2180, 101, 61, 307, 31, 2.5)
    assert all(outputs[name] is not None for name in OUTPUTS)
    assert len(outputs["weekly_meal_plan"]["weekly_template"]) == 7


async def test_amenorrhea_pauses_for_a_referral_and_the_acknowledge_resumes(db, factory) -> None:
    org, member_id, run_id = await _start(db, factory, menstrual_status="amenorrhea")
    driver = Driver(db, OfflineAgents())
    assert await driver.run_until_rest(org.id, run_id) == "paused_physician"
    run, events = await _events(db, org, run_id)
    physician = [e.data for e in events if e.kind == "physician"]
    assert physician == [{"urgency": "soon", "pipelineAction": "pause_pending_referral", "referralNeeded": True,
                          "referralTarget": "sports medicine physician or gynecologist"}]
    assert _states(events)[-2:] == ["paused_physician", "paused_physician"] and events[-1].kind == "done"
    assert run.previous_state == "scientist_processing"
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(Conflict):
            await runs.start_run(session, org.id, member_id=member_id, intake=samples.intake(), created_by=None)
        await lifecycle.acknowledge_referral(session, org.id, run_id)
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    run, events = await _events(db, org, run_id)
    assert _states(events)[1:4] == ["scientist_processing", "paused_physician", "paused_physician"]
    assert _states(events)[4:] == CHAIN[1:]
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(Conflict) as again:
            await lifecycle.acknowledge_referral(session, org.id, run_id)
    assert again.value.code == "referral_not_pending"


async def test_abort_terminates_the_run_and_blocks_until_clearance(db, factory) -> None:
    org, member_id, run_id = await _start(db, factory, medical_history={
        "medications": [], "conditions": ["history of anorexia nervosa"], "injuries": []})
    agents = ScriptedAgents()
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "error"
    assert agents.agents_called() == ["PHYSICIAN"]  # no further agent processing
    run, events = await _events(db, org, run_id)
    assert run.terminated_medical and run.error["error_type"] == "physician_abort"
    assert [e.kind for e in events][-2:] == ["error", "done"]
    async with db.scope(org_id=org.id) as session:
        with pytest.raises(Conflict) as blocked:
            await runs.start_run(session, org.id, member_id=member_id, intake=samples.intake(), created_by=None)
        assert blocked.value.code == "medical_clearance_required"
        await runs.record_clearance(session, org.id, member_id=member_id, recorded_by=None)
        await runs.start_run(session, org.id, member_id=member_id, intake=samples.intake(), created_by=None)


def _chef_off(factor: float):
    def change(payload) -> None:
        payload["recipes"][0]["macros_per_serving"]["calories"] *= factor
    return edit(change)


async def test_a_chef_recipe_12_percent_off_reruns_chef_with_the_constraint(db, factory) -> None:
    org, _, run_id = await _start(db, factory)
    agents = ScriptedAgents(CHEF=[_chef_off(1.12)])
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "output_ready"
    chef_calls = [c for c in agents.calls if c.agent == "CHEF"]
    assert len(chef_calls) == 2 and chef_calls[0].constraint is None
    assert "DIETITIAN's output is authoritative" in chef_calls[1].constraint
    _, events = await _events(db, org, run_id)
    assert [e.data for e in events if e.kind == "conflict"] == [
        {"rule": 4, "agents": ["DIETITIAN", "CHEF"], "resolution": "rerun"}]


async def test_a_chef_twice_off_ends_in_conflict_unresolved(db, factory) -> None:
    org, _, run_id = await _start(db, factory)
    agents = ScriptedAgents(CHEF=[_chef_off(1.12), _chef_off(1.12)])
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "error"
    run, events = await _events(db, org, run_id)
    assert (run.error["error_type"], run.error["failing_agent"], run.error["recoverable"]) == (
        "conflict_unresolved", "CHEF", True)
    assert set(run.error["conflict"]["reasoning"]) == {"DIETITIAN", "CHEF"}
    assert agents.agents_called().count("COACH") == 0


async def test_a_nutritionist_changing_calories_is_a_rank_2_conflict(db, factory) -> None:
    org, _, run_id = await _start(db, factory)
    agents = ScriptedAgents(NUTRITIONIST=[edit(lambda p: p.update(target_intake_kcal=2500))] * 2)
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "error"
    run, events = await _events(db, org, run_id)
    assert [e.data["rule"] for e in events if e.kind == "conflict"] == [2, 2]
    assert run.error["conflict"]["authoritative_agent"] == "SCIENTIST"
    assert run.error["failing_agent"] == "NUTRITIONIST"


async def test_a_non_canonical_name_fails_validation_reruns_once_then_errors(db, factory) -> None:
    def rename(payload) -> None:
        payload["daily_calories"] = payload.pop("target_intake_kcal")

    org, _, run_id = await _start(db, factory)
    agents = ScriptedAgents(NUTRITIONIST=[edit(rename), edit(rename)])
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "error"
    run, _ = await _events(db, org, run_id)
    assert run.error["error_type"] == "validation_failure" and run.error["retry_count"] == 1
    second = [c for c in agents.calls if c.agent == "NUTRITIONIST"][1]
    assert "use 'target_intake_kcal'" in second.constraint


async def test_a_dietitian_that_never_answers_is_retried_once_then_errors(db, factory) -> None:
    org, _, run_id = await _start(db, factory)
    agents = ScriptedAgents(DIETITIAN=[hang, hang])
    driver = Driver(db, agents, Limits(agent_seconds=0.3, physician_seconds=0.3, run_seconds=20))
    assert await driver.run_until_rest(org.id, run_id) == "error"
    run, _ = await _events(db, org, run_id)
    error = run.error
    assert (error["error_type"], error["failing_agent"], error["timeout_duration_ms"], error["retry_count"]) == (
        "timeout", "DIETITIAN", 300, 1)
    assert error["pipeline_run_id"] == str(run_id) and len(error["input_hash"]) == 64
    dietitian = [c for c in agents.calls if c.agent == "DIETITIAN"]
    assert len(dietitian) == 2 and dietitian[0].agent_input() == dietitian[1].agent_input()  # identical input


async def test_the_whole_run_limit_stops_a_run_that_keeps_being_slow(db, factory) -> None:
    async def slow(call, good):
        import asyncio
        await asyncio.sleep(0.25)
        return good

    org, _, run_id = await _start(db, factory)
    agents = ScriptedAgents(NUTRITIONIST=[slow], DIETITIAN=[slow], CHEF=[slow], COACH=[slow])
    driver = Driver(db, agents, Limits(agent_seconds=5, physician_seconds=5, run_seconds=0.6))
    assert await driver.run_until_rest(org.id, run_id) == "error"
    run, _ = await _events(db, org, run_id)
    assert run.error["error_type"] == "timeout"
    assert len(agents.calls) <= 4
