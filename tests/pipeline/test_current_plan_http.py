"""Issue 25 item 5 through the front door: a new run does not replace the member's current plan until it reaches
output_ready. A new run that is aborted on medical advice, or fails, leaves the previous plan current in the runs
list, the staff's nutrition__get_plan and the trainer's nutrition_plan source; the aborted run's detail hides its
calorie and macro targets from the member and says what happens next (a locale key); staff still see them."""

from __future__ import annotations

from typing import Any

from tests.fakes.anthropic_server import Held, Reply, Text, ToolUse
from tests.gym.nutrition import samples
from tests.pipeline.issue25 import base, detail, follow, member, start, states
from tests.pipeline.model_script import TOOLS, agent_of, good_reply
from tests.sse import sse
from tests.trainer.scripted import Trainer

BULIMIA = {**samples.INTAKE, "medical_history": {"medications": [], "conditions": ["bulimia"], "injuries": []}}
M = {"waist_cm": 68.5, "hip_cm": 92.5}


def _by_id(listed: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {run["runId"]: run for run in listed}


async def test_an_aborted_new_run_leaves_the_plan_current_and_hides_its_targets_from_the_member(
        client, db, factory, fake_model) -> None:
    fake_model.reset()
    org = await factory.org()
    coach = await factory.user(org, role="coach")
    user, member_id = await member(db, factory, org)
    plan_url = await start(client, org, user.headers, samples.INTAKE)
    assert states(await follow(client, plan_url, user.headers))[-1] == "output_ready"
    new_url = await start(client, org, coach.headers, BULIMIA, member_id=member_id)
    assert states(await follow(client, new_url, coach.headers))[-1] == "error"
    plan_id, new_id = plan_url.rsplit("/", 1)[1], new_url.rsplit("/", 1)[1]

    listed = _by_id((await client.get(f"{base(org)}/runs", headers=user.headers)).json()["runs"])
    assert (listed[plan_id]["current"], listed[plan_id]["supersededAt"], listed[plan_id]["readyVersion"]) == (
        True, None, 1)
    assert (listed[new_id]["current"], listed[new_id]["terminatedMedical"]) == (False, True)

    aborted = await detail(client, new_url, user.headers)  # the member reads the aborted run
    assert aborted["outputs"] == {name: None for name in ("macro_targets", "nutrition_strategy", "weekly_meal_plan",
                                                          "recipes", "training_program")}
    assert aborted["adjustments"] == [] and aborted["display"] == {"units": "metric"}
    assert aborted["notice"] == {"code": "medical_hold", "key": "console.nutrition.notice.medicalHold",
                                 "targetsHidden": True}
    assert "target_intake_kcal" not in str(aborted) and aborted["medicalContext"][0]["pipeline_action"] == "abort"
    staff = await detail(client, new_url, coach.headers)
    assert staff["outputs"]["macro_targets"] is None  # the intake's red flag stopped the run before SCIENTIST planned
    assert staff["notice"]["key"] == "console.nutrition.notice.medicalHoldStaff"
    assert (await detail(client, plan_url, user.headers))["outputs"]["macro_targets"]["target_intake_kcal"] == 2180

    fake_model.queue(Reply(ToolUse("nutrition__get_plan", {"membershipId": str(member_id)}, id="toolu_plan")),
                     Reply(Text("Here is Dani's plan.")))
    turn = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "Dani's plan?"},
                     headers=coach.headers)
    [got] = turn.of("tool_completed")
    assert got["ok"] is True, got
    assert got["output"]["plan"]["run"]["runId"] == plan_id and got["output"]["newerRun"]["runId"] == new_id
    assert got["output"]["medicalHold"] is True

    fake_model.reset()
    Trainer(fake_model, [Reply(ToolUse("data__fetch_data", {"sources": {"nutrition_plan": {}}}, id="f1")),
                         Reply(ToolUse("coach__idle", {}, id="i1"))])
    result = await sse(client, f"/organizations/{org.id}/trainer/messages",
                       json_body={"message": "what should I eat today?"}, headers=user.headers)
    fetched = next(c for c in result.of("tool_completed") if c["toolUseId"] == "f1")
    source = fetched["output"]["sources"]["nutrition_plan"]["data"]
    assert (source["hasPlan"], source["state"], source["medicalHold"]) == (True, "output_ready", True)
    assert source["targets"]["target_intake_kcal"] == 2180
    fake_model.reset()


async def test_a_new_run_is_not_the_plan_until_ready_and_a_failed_one_leaves_the_plan_current(
        http, db, factory, clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(good_reply)
    org = await factory.org()
    user, _ = await member(db, factory, org)
    plan_url = await start(http, org, user.headers, samples.INTAKE)
    assert states(await follow(http, plan_url, user.headers))[-1] == "output_ready"
    plan_id = plan_url.rsplit("/", 1)[1]

    bad = Reply(ToolUse(TOOLS["NUTRITIONIST"], {"protein_g": "lots"}))  # not a nutrition_strategy
    held = Held(bad)
    nutritionist_calls: list[int] = []

    def handler(body: dict[str, Any]) -> Any:
        if agent_of(body) != "NUTRITIONIST":
            return good_reply(body)
        nutritionist_calls.append(1)
        return held(body) if len(nutritionist_calls) == 1 else bad

    fake.respond_with(handler)
    new_url = await start(http, org, user.headers, {**samples.INTAKE, "appetite_level": "normal"})
    assert held.arrived.wait(30)  # the new run is at NUTRITIONIST
    listed = _by_id((await http.get(f"{base(org)}/runs", headers=user.headers)).json()["runs"])
    assert listed[plan_id]["current"] is True and listed[plan_id]["supersededAt"] is None
    assert listed[new_url.rsplit("/", 1)[1]]["current"] is False
    busy = await http.post(f"{plan_url}/checkins", headers=user.headers, json={"weight_kg": 56.4, **M})
    assert (busy.status_code, busy.json()["code"]) == (409, "run_in_progress")  # one run works at a time
    held.release()

    frames = await follow(http, new_url, user.headers)
    error = next(d for _, kind, d in frames if kind == "error")
    assert (error["errorType"], error["failingAgent"]) == ("validation_failure", "NUTRITIONIST")
    listed = _by_id((await http.get(f"{base(org)}/runs", headers=user.headers)).json()["runs"])
    assert listed[plan_id]["current"] is True and listed[plan_id]["supersededAt"] is None
    assert (await detail(http, plan_url, user.headers))["outputs"]["recipes"] is not None
    checkin = await http.post(f"{plan_url}/checkins", headers=user.headers, json={"weight_kg": 56.4, **M})
    assert checkin.status_code == 202, checkin.text  # the current plan takes check-ins again

    fake.respond_with(good_reply)
    newest = await start(http, org, user.headers, {**samples.INTAKE, "appetite_level": "normal"})
    assert states(await follow(http, newest, user.headers))[-1] == "output_ready"
    listed = _by_id((await http.get(f"{base(org)}/runs", headers=user.headers)).json()["runs"])
    assert listed[newest.rsplit("/", 1)[1]]["current"] is True
    assert listed[plan_id]["current"] is False and listed[plan_id]["supersededAt"] is not None
