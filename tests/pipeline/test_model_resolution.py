"""The resolution protocol (004 §8) with the model-backed agents over real HTTP against the fake Anthropic
server: a CHEF recipe 12 % off its slot re-runs CHEF with the constraint in its request; twice off ends in
`conflict_unresolved`; a NUTRITIONIST changing calories is a rank-2 conflict."""

from __future__ import annotations

from gym.nutrition import runs
from pipeline.driver import Driver
from tests.pipeline.model_script import agent_of, agents_asked, by_agent, call_of, submit
from tests.pipeline.run_setup import run_with_events, start_dani_run


def _chef_off(factor: float):
    def change(payload) -> None:
        payload["recipes"][0]["macros_per_serving"]["calories"] = round(
            payload["recipes"][0]["macros_per_serving"]["calories"] * factor, 1)
    return submit(change)


def _requests_of(fake, agent: str) -> list[dict]:
    return [call_of(r.body) for r in fake.requests if agent_of(r.body) == agent]


async def test_a_chef_recipe_12_percent_off_reruns_the_chef_with_the_constraint(db, factory, agents,
                                                                              clean_fake_model) -> None:
    fake = clean_fake_model
    org, _, run_id = await start_dani_run(db, factory)
    fake.respond_with(by_agent(CHEF=[_chef_off(1.12)]))
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "output_ready"
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "CHEF", "COACH"]
    first, rerun = _requests_of(fake, "CHEF")
    assert first["constraint"] is None
    assert rerun["constraint"].startswith("Rule 4: DIETITIAN's output is authoritative")
    assert rerun["inputs"] == first["inputs"]  # the same authoritative slot specs
    _, events = await run_with_events(db, org, run_id)
    assert [e.data for e in events if e.kind == "conflict"] == [
        {"rule": 4, "agents": ["DIETITIAN", "CHEF"], "resolution": "rerun"}]
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        chef = [m for m in await runs.messages(session, run) if m.from_agent == "CHEF"]
    assert len(chef) == 1  # only the compliant answer is stored


async def test_a_chef_twice_off_ends_in_conflict_unresolved_with_both_reasonings(db, factory, agents,
                                                                                 clean_fake_model) -> None:
    fake = clean_fake_model
    org, _, run_id = await start_dani_run(db, factory)
    fake.respond_with(by_agent(CHEF=[_chef_off(1.12), _chef_off(1.12)]))
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "error"
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "CHEF"]  # COACH never asked
    assert "DIETITIAN's output is authoritative" in _requests_of(fake, "CHEF")[1]["constraint"]
    run, events = await run_with_events(db, org, run_id)
    error = run.error
    assert (error["error_type"], error["failing_agent"], error["recoverable"], error["retry_count"]) == (
        "conflict_unresolved", "CHEF", True, 1)
    assert (error["conflict"]["rule"], error["conflict"]["authoritative_agent"]) == (4, "DIETITIAN")
    assert set(error["conflict"]["reasoning"]) == {"DIETITIAN", "CHEF"}
    assert [e.data["resolution"] for e in events if e.kind == "conflict"] == ["rerun", "unresolved"]
    assert [e.data for e in events if e.kind == "error"] == [{
        "errorType": "conflict_unresolved", "failingAgent": "CHEF", "details": error["details"],
        "recoverable": True, "retryCount": 1}]


async def test_a_nutritionist_changing_calories_is_rejected_as_a_rank_2_conflict(db, factory, agents,
                                                                                clean_fake_model) -> None:
    fake = clean_fake_model
    org, _, run_id = await start_dani_run(db, factory)
    more = submit(lambda payload: payload.update(target_intake_kcal=2500))
    fake.respond_with(by_agent(NUTRITIONIST=[more, more]))
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "error"
    assert agents_asked(fake) == ["NUTRITIONIST", "NUTRITIONIST"]
    first, rerun = _requests_of(fake, "NUTRITIONIST")
    assert first["constraint"] is None
    assert rerun["constraint"].startswith("Rule 2: SCIENTIST's output is authoritative")
    assert "target_intake_kcal" in rerun["constraint"] and "2180" in rerun["constraint"]
    run, events = await run_with_events(db, org, run_id)
    assert [e.data["rule"] for e in events if e.kind == "conflict"] == [2, 2]
    assert (run.error["error_type"], run.error["failing_agent"]) == ("conflict_unresolved", "NUTRITIONIST")
    assert run.error["conflict"]["authoritative_agent"] == "SCIENTIST"
    async with db.scope(org_id=org.id) as session:
        stored = await runs.messages(session, run)
    assert not [m for m in stored if m.from_agent == "NUTRITIONIST"]  # the rejected strategy never travels
