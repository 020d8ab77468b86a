"""The model-backed agents over real HTTP against the fake Anthropic server: one forced `submit_<data_type>`
tool per call, the issue's run to output_ready on scripted submit replies, validation re-runs, the
timeout retry, and every call costed in ai_usage_daily against the org's cap."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import text

from agent.costs import PriceBook
from agent.metering import Meter
from gym.nutrition import runs
from pipeline.driver import Driver, Limits
from pipeline.model_agents import ModelAgents, select_agents
from pipeline.offline import AGENTS, OfflineAgents
from tests.fakes.anthropic_server import ApiError, Held, Reply, Text, ToolUse
from tests.pipeline.run_setup import run_with_events, start_dani_run

CHAIN = ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
         "chef_processing", "coach_processing", "output_ready"]
TOOLS = {"NUTRITIONIST": "submit_nutrition_strategy", "DIETITIAN": "submit_weekly_meal_plan",
         "CHEF": "submit_recipes", "COACH": "submit_training_program", "PHYSICIAN": "submit_medical_context"}
AGENT_OF_TOOL = {tool: agent for agent, tool in TOOLS.items()}


@pytest.fixture(autouse=True)
def _clean(clean_fake_model):
    return clean_fake_model


def _agent_of(body: dict[str, Any]) -> str:
    return AGENT_OF_TOOL[body["tools"][0]["name"]]


def good_reply(body: dict[str, Any]) -> Reply:
    """What a model that follows the rules submits: the offline agent's answer to the same input."""
    call = json.loads(body["messages"][0]["content"])
    payload = AGENTS[call["agent"]](call["inputs"], call["constraint"])
    return Reply(ToolUse(TOOLS[call["agent"]], payload))


def by_agent(**overrides: list[Callable[[dict[str, Any]], Any]]) -> Callable[[dict[str, Any]], Any]:
    """A handler answering every agent well except where a per-agent override list says otherwise."""
    def handle(body: dict[str, Any]) -> Any:
        queue = overrides.get(_agent_of(body))
        return queue.pop(0)(body) if queue else good_reply(body)
    return handle




async def _spend(db, org_id, user_id) -> tuple[int, int]:
    async with db.owner() as session:
        row = (await session.execute(text(
            "SELECT coalesce(sum(cost_usd_micros), 0), coalesce(sum(output_tokens), 0) FROM ai_usage_daily "
            "WHERE org_id = :o AND user_id = :u"), {"o": org_id, "u": user_id})).one()
    return int(row[0]), int(row[1])


async def test_the_issues_run_reaches_output_ready_on_submit_replies_and_is_costed(
        db, factory, fake_model, agents) -> None:
    org, owner, run_id = await start_dani_run(db, factory)
    fake_model.respond_with(by_agent())
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "output_ready"
    run, events = await run_with_events(db, org, run_id)
    assert [e.data["to"] for e in events if e.kind == "state"] == CHAIN
    requests = fake_model.requests
    assert [_agent_of(r.body) for r in requests] == ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]
    for request in requests:  # exactly one tool, forced, whose schema is the edge's payload schema
        tool = request.body["tools"][0]
        assert len(request.body["tools"]) == 1 and request.rejected is None
        assert request.body["tool_choice"] == {"type": "tool", "name": tool["name"]}
        assert tool["input_schema"]["additionalProperties"] is False
    async with db.scope(org_id=org.id) as session:
        outputs = await runs.latest_outputs(session, run, ["nutrition_strategy", "recipes", "training_program"])
    assert all(outputs.values())
    cost, output_tokens = await _spend(db, org.id, owner.id)
    billed = sum(r.usage["output_tokens"] for r in requests)
    assert cost > 0 and output_tokens == billed > 0


async def test_no_submit_tool_then_a_non_canonical_field_is_one_rerun_then_error(db, factory, fake_model,
                                                                                   agents) -> None:
    org, _, run_id = await start_dani_run(db, factory)

    def non_canonical(body: dict[str, Any]) -> Reply:
        payload = dict(good_reply(body).blocks[0].input)
        payload["daily_calories"] = payload.pop("target_intake_kcal")
        return Reply(ToolUse("submit_nutrition_strategy", payload))

    fake_model.respond_with(by_agent(NUTRITIONIST=[lambda body: Reply(Text("Here is my strategy.")),
                                                   non_canonical]))
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "error"
    run, _ = await run_with_events(db, org, run_id)
    assert (run.error["error_type"], run.error["failing_agent"], run.error["retry_count"]) == (
        "validation_failure", "NUTRITIONIST", 1)
    assert "target_intake_kcal" in run.error["details"]
    requests = fake_model.requests
    assert [_agent_of(r.body) for r in requests] == ["NUTRITIONIST", "NUTRITIONIST"]
    rerun = json.loads(requests[1].body["messages"][0]["content"])
    assert rerun["constraint"].startswith("Your previous output failed validation: data_type")


async def test_a_missing_submit_tool_is_rerun_once_and_the_run_goes_on(db, factory, fake_model, agents) -> None:
    org, _, run_id = await start_dani_run(db, factory)
    fake_model.respond_with(by_agent(CHEF=[lambda body: Reply(Text("Recipes coming up!"))]))
    assert await Driver(db, agents).run_until_rest(org.id, run_id) == "output_ready"
    assert [_agent_of(r.body) for r in fake_model.requests] == ["NUTRITIONIST", "DIETITIAN", "CHEF", "CHEF", "COACH"]


async def test_a_dietitian_that_never_answers_is_retried_once_then_errors(db, factory, fake_model, agents) -> None:
    org, _, run_id = await start_dani_run(db, factory)
    held = Held(Reply(Text("too late")))
    fake_model.respond_with(by_agent(DIETITIAN=[held, held]))
    driver = Driver(db, agents, Limits(agent_seconds=0.5, physician_seconds=0.5, run_seconds=60))
    try:
        assert await driver.run_until_rest(org.id, run_id) == "error"
    finally:
        held.release()
    await asyncio.to_thread(fake_model.wait_for_requests, 3)
    run, _ = await run_with_events(db, org, run_id)
    error = run.error
    assert (error["error_type"], error["failing_agent"], error["timeout_duration_ms"], error["retry_count"]) == (
        "timeout", "DIETITIAN", 500, 1)
    assert error["pipeline_run_id"] == str(run_id) and len(error["input_hash"]) == 64
    assert [_agent_of(r.body) for r in fake_model.requests] == ["NUTRITIONIST", "DIETITIAN", "DIETITIAN"]


async def test_a_spent_daily_cap_refuses_the_call_before_it_reaches_the_model(db, factory, fake_model,
                                                                              agents) -> None:
    org, _, run_id = await start_dani_run(db, factory, budget=0)
    fake_model.respond_with(by_agent())
    driver = Driver(db, agents, Limits(agent_seconds=5, physician_seconds=5, run_seconds=60))
    assert await driver.run_until_rest(org.id, run_id) == "error"
    run, _ = await run_with_events(db, org, run_id)
    assert (run.error["error_type"], run.error["failing_agent"], run.error["retry_count"]) == (
        "timeout", "NUTRITIONIST", 1)  # 004 §6 has no other type for an agent that gives no answer
    assert run.error["details"] == ("NUTRITIONIST gave no answer, twice: the organization's daily AI budget is "
                                    "spent (agent_budget_exceeded)")  # said as what it is, not as a timeout
    assert fake_model.requests == []


async def test_a_failing_provider_is_retried_once_then_reported_as_such(db, factory, fake_model, agents) -> None:
    org, _, run_id = await start_dani_run(db, factory)
    fake_model.respond_with(by_agent(DIETITIAN=[lambda body: ApiError(529), lambda body: ApiError(529)]))
    driver = Driver(db, agents, Limits(agent_seconds=5, physician_seconds=5, run_seconds=60))
    assert await driver.run_until_rest(org.id, run_id) == "error"
    assert [_agent_of(r.body) for r in fake_model.requests] == ["NUTRITIONIST", "DIETITIAN", "DIETITIAN"]
    run, events = await run_with_events(db, org, run_id)
    assert (run.error["error_type"], run.error["failing_agent"], run.error["retry_count"]) == (
        "timeout", "DIETITIAN", 1)
    assert run.error["details"] == "DIETITIAN gave no answer, twice: the model provider failed (provider_overloaded)"
    assert len(run.error["input_hash"]) == 64
    assert [e.data["details"] for e in events if e.kind == "error"] == [run.error["details"]]


def test_the_model_agents_are_selected_only_with_a_real_provider(db, app_settings, model) -> None:
    meter = Meter(db=db, redis=None, prices=PriceBook({}), settings=app_settings)
    keyed = app_settings.model_copy(update={"nutrition_agents": "auto"})
    assert isinstance(select_agents(keyed, db, model, meter), ModelAgents)
    for settings in (app_settings, keyed.model_copy(update={"anthropic_api_key": None}),
                     keyed.model_copy(update={"agent_model_provider": "offline"})):
        assert isinstance(select_agents(settings, db, model, meter), OfflineAgents)
