"""The weekly loop through the model-backed agents over real HTTP against the fake Anthropic server: which
agents the fake was asked after each check-in, and what their requests carried (the updated upstream output,
their own previous output, the run version), after the week-4 check-in: 0.18 kg/week twice at week 6 → +200
kcal, the nutrition chain re-run and COACH unchanged, version 3; a stall → COACH only; luteal → DIETITIAN and
CHEF only."""

from __future__ import annotations

from gym import members
from gym.nutrition import runs
from pipeline.driver import Driver
from tests.gym.nutrition import samples
from tests.pipeline.model_script import agents_asked, by_agent, call_of
from tests.pipeline.weekly_setup import STALLED, START, M, backdate, calorie_increase, checkin, week_4


async def _ready(db, factory, agents, fake):
    """A run the model agents drove to output_ready, started on START and past its week-4 check-in; the fake's
    record then cleared."""
    org = await factory.org()
    owner = await factory.user(org, "owner", name="Maya Owner")
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=START)
        run = await runs.start_run(session, org.id, member_id=member.id, intake=samples.intake(),
                                   created_by=owner.id)
    fake.respond_with(by_agent())
    driver = Driver(db, agents)
    assert await driver.run_until_rest(org.id, run.id) == "output_ready"
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]
    await backdate(db, run.id)
    await week_4(db, org, run.id, driver)
    fake.reset()
    fake.respond_with(by_agent())
    return org, run.id, driver


async def _outputs(db, org, run_id, *names: str):
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        stored = await runs.messages(session, run)
        return run, stored, await runs.latest_outputs(session, run, list(names))


async def test_week_6_at_0_18_twice_reruns_the_nutrition_chain_through_the_model(db, factory, agents,
                                                                                clean_fake_model) -> None:
    fake = clean_fake_model
    org, run_id, driver = await _ready(db, factory, agents, fake)
    _, _, before = await _outputs(db, org, run_id, "nutrition_strategy", "weekly_meal_plan", "recipes")
    await calorie_increase(db, org, run_id)
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF"]  # COACH is not asked
    nutritionist, dietitian, chef = (call_of(r.body) for r in fake.requests)
    assert nutritionist["inputs"]["macro_targets"]["target_intake_kcal"] == 2660
    assert nutritionist["previous_output"] == before["nutrition_strategy"]
    assert dietitian["previous_output"] == before["weekly_meal_plan"]
    assert chef["previous_output"] == before["recipes"]
    assert dietitian["inputs"]["nutrition_strategy"]["target_intake_kcal"] == 2660
    run, stored, after = await _outputs(db, org, run_id, "nutrition_strategy", "training_program")
    assert run.version == 3 and after["nutrition_strategy"]["target_intake_kcal"] == 2660
    by_version = {(m.run_version, m.from_agent, m.data_type) for m in stored}
    assert {(v, "COACH", "training_program") for v in (2, 3)}.isdisjoint(by_version)  # COACH keeps version 1's
    assert {(3, "NUTRITIONIST", "nutrition_strategy"), (3, "DIETITIAN", "weekly_meal_plan"),
            (3, "CHEF", "recipes")} <= by_version


async def test_a_training_stall_asks_the_coach_only(db, factory, agents, clean_fake_model) -> None:
    fake = clean_fake_model
    org, run_id, driver = await _ready(db, factory, agents, fake)
    _, _, before = await _outputs(db, org, run_id, "training_program")
    await checkin(db, org, run_id, 5, 57.8, **M, **STALLED)
    await checkin(db, org, run_id, 6, 58.12, **STALLED)
    out = await checkin(db, org, run_id, 7, 58.44, **M, **STALLED)
    assert out.adjustment["triggers_fired"] == ["training_stall"] and out.version == 3
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    assert agents_asked(fake) == ["COACH"]
    [coach] = (call_of(r.body) for r in fake.requests)
    progress = coach["inputs"]["training_input"]["progress_data"]
    assert (progress["stall_detected"], progress["consecutive_stall_sessions"]) == (True, 3)
    assert coach["previous_output"] == before["training_program"]


async def test_luteal_asks_the_dietitian_and_chef_only(db, factory, agents, clean_fake_model) -> None:
    fake = clean_fake_model
    org, run_id, driver = await _ready(db, factory, agents, fake)
    _, _, before = await _outputs(db, org, run_id, "nutrition_strategy", "weekly_meal_plan")
    out = await checkin(db, org, run_id, 5, 57.8, cycle_phase="luteal", cycle_day=20, **M)
    assert out.adjustment["agents_re_run"] == ["DIETITIAN", "CHEF"] and out.version == 3
    assert await driver.run_until_rest(org.id, run_id) == "output_ready"
    assert agents_asked(fake) == ["DIETITIAN", "CHEF"]
    dietitian = call_of(fake.requests[0].body)
    assert dietitian["inputs"]["cycle_phase"] == "luteal"  # the phase the strategy's cycle_adjustments name
    assert dietitian["inputs"]["nutrition_strategy"] == before["nutrition_strategy"]  # NUTRITIONIST unchanged
    assert dietitian["previous_output"] == before["weekly_meal_plan"]
