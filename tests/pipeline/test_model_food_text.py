"""Issue 37 item 2 with the model-backed agents against the fake Anthropic server, through HTTP (`spotter serve`
with a key): a food named only in free text fails the agent's validation like a served one. A model CHEF whose
recipe step says "top with grilled shrimp" for a vegetarian is re-run with the reason; twice, the run ends in
`conflict_unresolved` and the plan never reaches the member. A NUTRITIONIST tactic "peanut butter on toast" for a
member who wrote "nut allergy" is re-run the same way; a Russian step naming shrimp is caught too."""

from __future__ import annotations

from datetime import date

from gym import members
from tests.gym.nutrition import samples
from tests.pipeline.model_script import agent_of, agents_asked, by_agent, call_of, submit
from tests.pipeline.run_setup import nutrition_base
from tests.sse import frames_with_ids

VEGETARIAN = {**samples.INTAKE, "diet_pattern": "vegetarian", "food_aversions": []}


async def _start(http, db, factory, intake) -> tuple[str, dict]:
    org = await factory.org()
    user = await factory.user(org, role="member", name="Noa")
    async with db.scope(org_id=org.id) as session:
        await members.create_member(session, org.id, first_name="Noa", user_id=user.id, joined_at=date(2026, 1, 5))
    got = await http.post(f"{nutrition_base(org)}/runs", json={"intake": intake}, headers=user.headers)
    assert got.status_code == 202, got.text
    return f"{nutrition_base(org)}/runs/{got.json()['runId']}", user.headers


def _add_step(step: str):
    return submit(lambda payload: payload["recipes"][0]["instructions"].append(step))


def _requests_of(fake, agent: str) -> list[dict]:
    return [call_of(r.body) for r in fake.requests if agent_of(r.body) == agent]


async def test_a_chef_step_naming_shrimp_for_a_vegetarian_is_rerun_with_the_reason(http, db, factory,
                                                                                  clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent(CHEF=[_add_step("Top with grilled shrimp.")]))
    url, headers = await _start(http, db, factory, VEGETARIAN)
    frames = await frames_with_ids(http, f"{url}/events", headers)
    assert frames[-1][2] == {"type": "done", "state": "output_ready"}
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "CHEF", "COACH"]
    rerun = _requests_of(fake, "CHEF")[1]["constraint"]
    assert "'shrimp' is not vegetarian" in rerun
    plan = (await http.get(url, headers=headers)).json()["outputs"]["recipes"]["recipes"]
    assert not [s for r in plan for s in r["instructions"] if "shrimp" in s.lower()]


async def test_a_chef_that_names_shrimp_twice_is_refused(http, db, factory, clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent(CHEF=[_add_step("Top with grilled shrimp."), _add_step("Посыпьте креветками.")]))
    url, headers = await _start(http, db, factory, VEGETARIAN)
    frames = await frames_with_ids(http, f"{url}/events", headers)
    [error] = [d for _, kind, d in frames if kind == "error"]
    assert (error["errorType"], error["failingAgent"]) == ("conflict_unresolved", "CHEF")
    assert "креветками" in error["details"]
    assert "COACH" not in agents_asked(fake)
    detail = (await http.get(url, headers=headers)).json()
    assert detail["outputs"]["recipes"] is None  # nothing the CHEF wrote reached the member


async def test_a_nutritionist_tactic_naming_peanut_butter_is_rerun_for_a_nut_allergy(http, db, factory,
                                                                                    clean_fake_model) -> None:
    fake = clean_fake_model
    tactic = submit(lambda payload: payload["hardgainer_tactics"].append("Peanut butter on toast before bed"))
    fake.respond_with(by_agent(NUTRITIONIST=[tactic]))
    url, headers = await _start(http, db, factory, {**samples.INTAKE, "allergies": ["nut allergy"],
                                                     "food_aversions": []})
    frames = await frames_with_ids(http, f"{url}/events", headers)
    assert frames[-1][2] == {"type": "done", "state": "output_ready"}
    assert agents_asked(fake)[:2] == ["NUTRITIONIST", "NUTRITIONIST"]
    assert "'peanut butter' carries the allergen peanut" in _requests_of(fake, "NUTRITIONIST")[1]["constraint"]


async def test_a_coach_note_naming_a_whey_shake_for_a_vegan_is_rerun(http, db, factory, clean_fake_model) -> None:
    """COACH serves no food, but a food its text names must be one the member may eat too."""
    fake = clean_fake_model

    def whey(payload) -> None:
        payload["program"]["sessions"][0]["exercises"][0]["notes"] = "Drink a whey protein shake right after"

    fake.respond_with(by_agent(COACH=[submit(whey)]))
    url, headers = await _start(http, db, factory, {**samples.INTAKE, "diet_pattern": "vegan", "food_aversions": []})
    frames = await frames_with_ids(http, f"{url}/events", headers)
    assert frames[-1][2] == {"type": "done", "state": "output_ready"}
    assert agents_asked(fake)[-2:] == ["COACH", "COACH"]
    assert "'whey protein' is not vegan" in _requests_of(fake, "COACH")[1]["constraint"]
