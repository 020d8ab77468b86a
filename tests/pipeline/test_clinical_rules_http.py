"""Issue 37 item 5 through the front door (uvicorn + httpx, the in-process worker with the offline agents):
NUTRITION.md's "Clinical rules in code". PAR-Q+'s seven questions in the intake pause the run before SCIENTIST on
any "yes"; a minor gets no deficit and no creatine (under 16 waits for a referral first); a target weight under
BMI 18.5 is refused with the lowest healthy weight; pregnancy or breastfeeding, once the referral is acknowledged,
gets no deficit and no creatine, whether the intake or a later question says so; peri- and post-menopausal women
are planned for without a referral and without luteal logic.

On the code before this change every test here fails: the intake had no `screening` and no menopausal statuses
(422), 14- to 17-year-olds and pregnant members got cuts with creatine, and targets at BMI 16.9 or 17.5 were planned.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.gym.nutrition import samples
from tests.pipeline.issue25 import detail, follow, states
from tests.pipeline.run_setup import nutrition_base, signed_in_member

# a beginner woman who wants to lose 8 kg (BMI 25.7 -> 22.8): -0.5 kg/week for an adult
CUT: dict[str, Any] = {**samples.INTAKE, "current_weight_kg": 70.0, "target_weight_kg": 62.0,
                       "appetite_level": "normal", "screening": samples.NO_SCREENING}
PREGNANT = {**CUT, "medical_history": {"medications": [], "conditions": ["pregnant (14 weeks)", "heart failure"],
                                       "injuries": []}}


async def _start(client, db, factory, intake: dict[str, Any]):
    """(user, run URL, frames until the run rests)."""
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    started = await client.post(f"{nutrition_base(org)}/runs", json={"intake": intake}, headers=user.headers)
    assert started.status_code == 202, started.text
    url = f"{nutrition_base(org)}/runs/{started.json()['runId']}"
    return user, url, await follow(client, url, user.headers)


def _physician(frames) -> list[tuple[str, str]]:
    return [(d["pipelineAction"], d["urgency"]) for _, kind, d in frames if kind == "physician"]


async def _acknowledged(client, url: str, user, frames) -> dict[str, Any]:
    """The run's detail once the referral is acknowledged and the run has finished."""
    resumed = await client.post(f"{url}/referral-acknowledged", headers=user.headers)
    assert resumed.status_code == 202, resumed.text
    assert states(await follow(client, url, user.headers, after=frames[-1][0]))[-1] == "output_ready"
    return await detail(client, url, user.headers)


def _supplements(shown: dict[str, Any]) -> list[str]:
    return [s["supplement"] for s in shown["outputs"]["nutrition_strategy"]["supplement_protocol"]]


def _no_cut_no_creatine(shown: dict[str, Any], *notes: str) -> None:
    targets = shown["outputs"]["macro_targets"]
    assert targets["weekly_weight_target_kg"] == 0.0  # planned as maintenance
    assert targets["target_intake_kcal"] >= targets["tdee_kcal"] - 5  # no deficit
    assert targets["client_constraints"]["supplements_excluded"] == ["creatine", "stimulants"]
    assert _supplements(shown) == []
    program_input = shown["outputs"]["training_program"]
    assert "creatine" not in str(program_input).lower()
    assert shown["clinicalNotes"] == [*notes, "no_supplements"]


@pytest.mark.parametrize("question", sorted(samples.NO_SCREENING))
async def test_any_screening_yes_pauses_the_run_before_scientist(client, db, factory, question) -> None:
    user, url, frames = await _start(client, db, factory, {**CUT, "screening": {**samples.NO_SCREENING,
                                                                                 question: True}})
    assert states(frames) == ["intake_pending", "scientist_processing", "paused_physician", "paused_physician"]
    assert _physician(frames) == [("pause_pending_referral", "soon")]
    shown = await detail(client, url, user.headers)
    assert shown["outputs"]["macro_targets"] is None  # nothing planned before the referral
    assert shown["medicalContext"][-1]["floor_reasons"] == ["parq_screening"]
    after = await _acknowledged(client, url, user, frames)
    assert after["outputs"]["macro_targets"]["weekly_weight_target_kg"] == -0.5  # an adult's cut, once reviewed


async def test_screening_all_no_plans_at_once_and_a_missing_answer_is_422(client, db, factory) -> None:
    user, url, frames = await _start(client, db, factory, CUT)
    assert states(frames)[-1] == "output_ready" and _physician(frames) == []
    partial = {**CUT, "screening": {k: v for k, v in samples.NO_SCREENING.items() if k != "other_reason"}}
    org_url = url.rsplit("/runs/", 1)[0]
    refused = await client.post(f"{org_url}/runs", json={"intake": partial}, headers=user.headers)
    assert (refused.status_code, refused.json()["code"]) == (422, "validation_failed")
    assert [e["field"] for e in refused.json()["errors"]] == ["screening.other_reason"]


async def test_a_17_year_old_gets_maintenance_and_no_creatine_instead_of_a_cut(client, db, factory) -> None:
    user, url, frames = await _start(client, db, factory, {**CUT, "age": 17})
    assert states(frames)[-1] == "output_ready" and _physician(frames) == []
    _no_cut_no_creatine(await detail(client, url, user.headers), "minor_no_deficit")


@pytest.mark.parametrize("age", [14, 15])
async def test_under_16_waits_for_a_referral_then_gets_no_cut_and_no_creatine(client, db, factory, age) -> None:
    user, url, frames = await _start(client, db, factory, {**CUT, "age": age})
    assert states(frames)[-1] == "paused_physician"
    assert _physician(frames) == [("pause_pending_referral", "soon")]
    assert (await detail(client, url, user.headers))["medicalContext"][-1]["floor_reasons"] == ["under_16"]
    _no_cut_no_creatine(await _acknowledged(client, url, user, frames), "minor_no_deficit")


@pytest.mark.parametrize(("current", "target", "field"), [
    (48.5, 46.0, "target_weight_kg"),  # BMI 17.8 -> 16.9
    (50.9, 47.6, "target_weight_kg"),  # BMI 18.7 -> 17.5
    (56.2, 45.0, "target_weight_lb"),  # the target in pounds (99.2 lb)
])
async def test_a_target_under_bmi_18_5_is_refused_with_the_lowest_healthy_weight(client, db, factory, current,
                                                                                  target, field) -> None:
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    intake = {**CUT, "current_weight_kg": current, "target_weight_kg": target}
    if field == "target_weight_lb":
        intake.pop("target_weight_kg")
        intake["target_weight_lb"] = round(target / 0.45359237, 1)
    refused = await client.post(f"{nutrition_base(org)}/runs", json={"intake": intake}, headers=user.headers)
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["code"] == "target_below_healthy_range"
    assert body["errors"] == [{"field": field, "code": "target_below_healthy_range", "lowestHealthyWeightKg": 50.4,
                               "lowestHealthyWeightLb": 111.2}]  # 18.5 × 1.65² = 50.37 kg, rounded up
    assert "50.4" in body["message"]
    listed = await client.get(f"{nutrition_base(org)}/runs", headers=user.headers)
    assert listed.json()["runs"] == []  # nothing stored
    at_the_floor = await client.post(f"{nutrition_base(org)}/runs", headers=user.headers, json={
        "intake": {**CUT, "current_weight_kg": current, "target_weight_kg": 50.4}})
    assert at_the_floor.status_code == 202, at_the_floor.text


async def test_pregnancy_with_heart_failure_acknowledged_gets_no_cut_and_no_creatine(client, db, factory) -> None:
    """The issue's case: after the referral is acknowledged the plan was a -0.5 kg/week cut at 1,330 kcal with
    creatine."""
    user, url, frames = await _start(client, db, factory, PREGNANT)
    assert _physician(frames) == [("pause_pending_referral", "soon")]
    _no_cut_no_creatine(await _acknowledged(client, url, user, frames), "pregnancy_no_deficit")


async def test_breastfeeding_told_in_a_question_re_plans_without_a_cut_or_creatine(client, db, factory) -> None:
    user, url, frames = await _start(client, db, factory, CUT)
    before = await detail(client, url, user.headers)
    assert before["outputs"]["macro_targets"]["weekly_weight_target_kg"] == -0.5
    assert _supplements(before) == ["creatine monohydrate"]
    asked = await client.post(f"{url}/health-questions", headers=user.headers,
                              json={"query": "I'm still breastfeeding my 4 month old, is the cut ok?"})
    assert (asked.json()["pipeline_action"], asked.json()["urgency"]) == ("pause_pending_referral", "soon")
    paused = await follow(client, url, user.headers, after=frames[-1][0])
    assert states(paused)[-1] == "paused_physician"
    after = await _acknowledged(client, url, user, paused)
    assert after["run"]["version"] == 2
    _no_cut_no_creatine(after, "pregnancy_no_deficit")


@pytest.mark.parametrize(("status", "luteal"), [("postmenopausal", False), ("perimenopausal", False),
                                                ("regular", True)])
async def test_menopause_is_planned_without_a_referral_or_luteal_logic(client, db, factory, status, luteal) -> None:
    user, url, frames = await _start(client, db, factory, {**CUT, "age": 55, "menstrual_status": status})
    assert states(frames)[-1] == "output_ready" and _physician(frames) == []
    sent = await client.post(f"{url}/checkins", headers=user.headers, json={
        "weight_kg": 69.6, "waist_cm": 80.0, "hip_cm": 100.0, "cycle_phase": "luteal"})
    assert sent.status_code == 202, sent.text
    assert ("cycle_adjustment" in str(sent.json()["adjustment"])) is luteal
