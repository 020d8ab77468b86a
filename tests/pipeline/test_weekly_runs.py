"""The weekly loop on a stored run driven by the orchestrator: after week 4's check-in, check-ins at week 5 and 6,
the versions, which agents re-run (and that re-run agents see their previous output), no_change, stall, luteal."""

from __future__ import annotations

import pytest

from core.errors import Conflict, InvalidInput
from gym import members
from gym.nutrition import runs
from gym.nutrition.errors import PayloadInvalid
from pipeline.driver import Driver, Limits
from tests.gym.nutrition import samples
from tests.pipeline.fakes import ScriptedAgents, hang
from tests.pipeline.weekly_setup import STALLED, START, M, backdate, calorie_increase, checkin, week_4


async def _ready(db, factory, *, past_week_4: bool = True):
    """A run that reached output_ready, started on START (backdated: weeks are counted from it), and (unless
    told otherwise) past its week-4 check-in."""
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=START)
        run = await runs.start_run(session, org.id, member_id=member.id, intake=samples.intake(), created_by=None)
    agents = ScriptedAgents()
    driver = Driver(db, agents)
    assert await driver.run_until_rest(org.id, run.id) == "output_ready"
    await backdate(db, run.id)
    if past_week_4:
        await week_4(db, org, run.id, driver)
    agents.calls.clear()
    return org, run.id, driver, agents


async def test_week_6_at_0_18_twice_adds_200_kcal_and_reruns_the_nutrition_chain(db, factory) -> None:
    org, run_id, driver, agents = await _ready(db, factory)
    await calorie_increase(db, org, run_id)
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    assert agents.agents_called() == ["NUTRITIONIST", "DIETITIAN", "CHEF"]
    assert all(call.previous_output is not None and call.run_version == 3 for call in agents.calls)
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        stored = await runs.messages(session, run)
        outputs = await runs.latest_outputs(session, run, ["macro_targets", "training_program"])
    assert run.version == 3
    assert outputs["macro_targets"]["target_intake_kcal"] == 2660
    by_version = {(m.run_version, m.from_agent, m.data_type) for m in stored}
    assert {(v, "COACH", "training_program") for v in (2, 3)}.isdisjoint(by_version)  # COACH keeps version 1's
    assert {(3, "NUTRITIONIST", "nutrition_strategy"), (3, "CHEF", "recipes"),
            (3, "SCIENTIST", "adjustment_result")} <= by_version


async def test_week_6_at_0_32_is_no_change_and_the_run_stays_ready(db, factory) -> None:
    org, run_id, driver, agents = await _ready(db, factory)
    await checkin(db, org, run_id, 5, 57.8, **M)
    out = await checkin(db, org, run_id, 6, 58.12)
    assert out.adjustment == {"triggers_fired": [], "adjustment_type": None, "agents_re_run": [],
                              "agents_unchanged": ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"],
                              "notes": ["Week 6: gain rate 0.32 kg/week — within target range"]}
    assert not out.needs_worker and out.version == 2
    assert await driver.run_until_rest(org.id, run_id) == "output_ready" and agents.calls == []


async def test_a_stall_of_two_lifts_for_three_checkins_reruns_coach_only(db, factory) -> None:
    org, run_id, driver, agents = await _ready(db, factory)
    await checkin(db, org, run_id, 5, 57.8, **M, **STALLED)
    await checkin(db, org, run_id, 6, 58.12, **STALLED)
    out = await checkin(db, org, run_id, 7, 58.44, **M, **STALLED)
    assert out.adjustment["triggers_fired"] == ["training_stall"] and out.version == 3
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    assert agents.agents_called() == ["COACH"]
    coach_input = agents.calls[0].inputs["training_input"]
    assert coach_input["progress_data"]["stall_detected"] is True
    assert coach_input["progress_data"]["consecutive_stall_sessions"] == 3


async def test_luteal_reruns_dietitian_and_chef_only(db, factory) -> None:
    org, run_id, driver, agents = await _ready(db, factory)
    out = await checkin(db, org, run_id, 5, 57.8, cycle_phase="luteal", cycle_day=20, **M)
    assert out.adjustment["agents_re_run"] == ["DIETITIAN", "CHEF"]
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    assert agents.agents_called() == ["DIETITIAN", "CHEF"]


async def test_checkins_are_refused_while_processing_or_when_invalid(db, factory) -> None:
    org, run_id, driver, agents = await _ready(db, factory, past_week_4=False)
    with pytest.raises(InvalidInput):
        await checkin(db, org, run_id, 5, 57.8)  # the first check-in needs waist and hips
    with pytest.raises(PayloadInvalid):
        await checkin(db, org, run_id, 5, 57.8, body_weight=57.8, **M)
    await checkin(db, org, run_id, 5, 57.8, cycle_phase="luteal", **M)
    with pytest.raises(Conflict) as busy:
        await checkin(db, org, run_id, 6, 58.1)
    assert busy.value.code == "run_in_progress"


async def test_a_red_flag_in_a_checkin_asks_the_physician(db, factory) -> None:
    org, run_id, driver, agents = await _ready(db, factory)
    out = await checkin(db, org, run_id, 5, 57.8, subjective_markers={"energy": 2, "sleep_quality": 5, "mood": 5,
                                                                         "appetite": 5}, **M)
    assert out.needs_worker and out.version == 2  # no trigger: same version, but the physician is asked
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    assert agents.agents_called() == ["PHYSICIAN"]
    assert "energy 2/10 or below" in agents.calls[0].inputs["health_query"]["query"]


async def test_a_continue_attaches_the_advice_to_the_next_agent(db, factory) -> None:
    """Energy 2/10 is a red flag with no safety floor: the PHYSICIAN may answer continue, and the run resumes where
    it paused with the advice attached to the next agent that runs (the luteal re-run's DIETITIAN) only."""
    org, run_id, driver, agents = await _ready(db, factory)
    await checkin(db, org, run_id, 5, 57.8, cycle_phase="luteal", cycle_day=20,
                  subjective_markers={"energy": 2, "sleep_quality": 5, "mood": 5, "appetite": 5}, **M)
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    assert agents.agents_called() == ["PHYSICIAN", "DIETITIAN", "CHEF"]
    assert agents.calls[1].advice["pipeline_action"] == "continue" and agents.calls[2].advice is None


async def test_an_advised_agent_that_times_out_is_retried_with_the_same_advice(db, factory) -> None:
    """NUTRITION.md: one retry with identical input. The PHYSICIAN's advice is part of the DIETITIAN's input, so
    the retry after its timeout carries it too; the advice is spent once an answer is accepted."""
    org, run_id, _, agents = await _ready(db, factory)
    agents.script["DIETITIAN"] = [hang]
    driver = Driver(db, agents, Limits(agent_seconds=0.3, physician_seconds=5, run_seconds=30))
    await checkin(db, org, run_id, 5, 57.8, cycle_phase="luteal", cycle_day=20,
                  subjective_markers={"energy": 2, "sleep_quality": 5, "mood": 5, "appetite": 5}, **M)
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    called = agents.agents_called()
    assert called[-4:] == ["PHYSICIAN", "DIETITIAN", "DIETITIAN", "CHEF"], called
    first, retry, chef = agents.calls[-3], agents.calls[-2], agents.calls[-1]
    assert first.advice is not None and first.advice["pipeline_action"] == "continue"
    assert retry.agent_input() == first.agent_input() and chef.advice is None
