"""Issue 37 item 5's supplements rule for model agents, over HTTP against the fake Anthropic server: for a minor (or
in pregnancy or breastfeeding) creatine and stimulants are refused in code on NUTRITIONIST's and COACH's outputs,
the agent re-runs with the constraint, and its first answer is never stored. On the code before this change the
17-year-old's strategy kept creatine and the program its pre-workout."""

from __future__ import annotations

from typing import Any

from tests.gym.nutrition import samples
from tests.pipeline.issue25 import detail, follow, member, start, states
from tests.pipeline.model_script import agent_of, agents_asked, by_agent, call_of, submit

MINOR = {**samples.INTAKE, "age": 17}


def _with_creatine(payload: dict[str, Any]) -> None:
    payload["supplement_protocol"] = [{"supplement": "Creatine monohydrate", "dose": "5 g", "timing": "daily"}]


def _with_preworkout(payload: dict[str, Any]) -> None:
    payload["recovery_protocol"] = [*payload["recovery_protocol"], "A pre-workout 30 minutes before each session"]


def _requests_of(fake, agent: str) -> list[dict[str, Any]]:
    return [call_of(r.body) for r in fake.requests if agent_of(r.body) == agent]


async def test_creatine_and_a_pre_workout_for_a_minor_are_refused_and_re_run(http, db, factory,
                                                                              clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent(NUTRITIONIST=[submit(_with_creatine)], COACH=[submit(_with_preworkout)]))
    org = await factory.org()
    user, _ = await member(db, factory, org)
    url = await start(http, org, user.headers, MINOR)
    frames = await follow(http, url, user.headers)
    assert states(frames)[-1] == "output_ready"
    assert agents_asked(fake) == ["NUTRITIONIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH", "COACH"]
    first, again = _requests_of(fake, "NUTRITIONIST")
    assert first["inputs"]["macro_targets"]["client_constraints"]["supplements_excluded"] == ["creatine", "stimulants"]
    assert "supplement_protocol[0] names creatine" in again["constraint"]
    coach_first, coach_again = _requests_of(fake, "COACH")
    assert coach_first["inputs"]["training_input"]["client_data"]["supplements_excluded"] == ["creatine", "stimulants"]
    assert "names stimulants" in coach_again["constraint"]
    assert [(d["rule"], d["agents"]) for _, kind, d in frames if kind == "conflict"] == [
        (2, ["SCIENTIST", "NUTRITIONIST"]), (2, ["SCIENTIST", "COACH"])]
    shown = await detail(http, url, user.headers)
    assert shown["outputs"]["nutrition_strategy"]["supplement_protocol"] == []
    assert "pre-workout" not in str(shown["outputs"]["training_program"]).lower()
    assert shown["clinicalNotes"] == ["no_supplements"]  # a gain: no deficit was wanted


async def test_an_adult_may_be_advised_creatine(http, db, factory, clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent(NUTRITIONIST=[submit(_with_creatine)]))
    org = await factory.org()
    user, _ = await member(db, factory, org)
    url = await start(http, org, user.headers, samples.INTAKE)
    assert states(await follow(http, url, user.headers))[-1] == "output_ready"
    assert agents_asked(fake) == ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]
    shown = await detail(http, url, user.headers)
    assert shown["outputs"]["nutrition_strategy"]["supplement_protocol"][0]["supplement"] == "Creatine monohydrate"
    assert shown["clinicalNotes"] == []
