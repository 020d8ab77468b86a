"""Upstream data requests (004 §6.3) from the model-backed agents over real HTTP against the fake Anthropic
server: the one forced submit tool of an agent with an upstream agent carries an optional
`upstream_data_request`; set, the upstream agent re-runs once (with the missing fields as its constraint) and
the asker is asked again; asked twice, the run ends in `error` / `upstream_missing`."""

from __future__ import annotations

from gym.nutrition import runs
from pipeline.driver import Driver
from tests.pipeline.model_script import agent_of, agents_asked, by_agent, call_of, submit
from tests.pipeline.run_setup import run_with_events, start_dani_run

ASK = {"missing_fields": ["protein_distribution"], "from_agent": "NUTRITIONIST",
       "reason": "The strategy has no protein split per meal."}




def _asks(request: dict):
    return submit(lambda payload: payload.update(upstream_data_request=request))


async def test_a_dietitian_asking_for_upstream_data_reruns_the_nutritionist_once(db, factory, agents,
                                                                                 clean_fake_model) -> None:
    fake = clean_fake_model
    org, _, run_id = await start_dani_run(db, factory)
    fake.respond_with(by_agent(DIETITIAN=[_asks(ASK)]))
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "output_ready"
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]
    calls = [call_of(r.body) for r in fake.requests]
    assert calls[0]["constraint"] is None
    assert calls[2]["constraint"] == "DIETITIAN needs these fields: protein_distribution"
    assert calls[3]["constraint"] is None  # the asker is asked again with the re-run upstream output
    tools = {agent_of(r.body): r.body["tools"][0] for r in fake.requests}
    for agent in ("NUTRITIONIST", "DIETITIAN", "CHEF"):  # still one forced tool, with the optional field
        assert "upstream_data_request" in tools[agent]["input_schema"]["properties"]
        assert "upstream_data_request" not in tools[agent]["input_schema"]["required"]
    assert "upstream_data_request" not in tools["COACH"]["input_schema"]["properties"]
    _, events = await run_with_events(db, org, run_id)
    states = [e.data["to"] for e in events if e.kind == "state"]
    assert states[3:7] == ["dietitian_processing", "nutritionist_processing", "dietitian_processing",
                           "chef_processing"]


async def test_asking_twice_ends_in_upstream_missing(db, factory, agents, clean_fake_model) -> None:
    fake = clean_fake_model
    org, _, run_id = await start_dani_run(db, factory)
    fake.respond_with(by_agent(DIETITIAN=[_asks(ASK), _asks(ASK)]))
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "error"
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "NUTRITIONIST", "DIETITIAN"]
    run, events = await run_with_events(db, org, run_id)
    assert (run.error["error_type"], run.error["failing_agent"], run.error["recoverable"]) == (
        "upstream_missing", "NUTRITIONIST", True)
    assert "protein_distribution" in run.error["details"]
    assert [e.data["errorType"] for e in events if e.kind == "error"] == ["upstream_missing"]


async def test_a_nutritionist_asking_the_scientist_gets_the_code_rerun_then_goes_on(db, factory, agents,
                                                                                   clean_fake_model) -> None:
    fake = clean_fake_model
    org, _, run_id = await start_dani_run(db, factory)
    ask = {"missing_fields": ["fiber_g_min"], "from_agent": "SCIENTIST", "reason": "No fiber floor given."}
    fake.respond_with(by_agent(NUTRITIONIST=[_asks(ask)]))
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "output_ready"
    assert agents_asked(fake) == ["NUTRITIONIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]
    run, events = await run_with_events(db, org, run_id)
    states = [e.data["to"] for e in events if e.kind == "state"]
    assert states[2:5] == ["nutritionist_processing", "scientist_processing", "nutritionist_processing"]
    async with db.scope(org_id=org.id) as session:
        targets = [m for m in await runs.messages(session, run) if m.data_type == "macro_targets"]
    assert len(targets) == 1  # SCIENTIST's output is the same and stored once
