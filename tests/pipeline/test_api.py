"""The nutrition endpoints through the front door (uvicorn + httpx), the in-process worker driving runs
with the offline agents: 202 and the SSE stream to output_ready, replay with Last-Event-ID, tenancy,
422 naming the canonical field, and 409 after a medical abort until clearance."""

from __future__ import annotations

import pytest

from tests.gym.nutrition import samples
from tests.pipeline.run_setup import nutrition_base, signed_in_member
from tests.sse import frames_with_ids

STATES = ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
          "chef_processing", "coach_processing", "output_ready"]








async def test_a_member_starts_a_run_and_follows_it_to_output_ready(client, db, factory) -> None:
    org = await factory.org()
    user, member_id = await signed_in_member(db, factory, org)
    started = await client.post(f"{nutrition_base(org)}/runs", json={"intake": samples.INTAKE}, headers=user.headers)
    assert started.status_code == 202, started.text
    body = started.json()
    assert (body["state"], body["version"]) == ("intake_pending", 1)
    url = f"{nutrition_base(org)}/runs/{body['runId']}"
    frames = await frames_with_ids(client, f"{url}/events", user.headers)
    assert [d["to"] for _, kind, d in frames if kind == "state"] == STATES
    assert frames[-1][1:] == ("done", {"type": "done", "state": "output_ready"})
    assert [f[0] for f in frames] == list(range(1, len(frames) + 1))
    envelope = next(d for _, kind, d in frames if kind == "envelope")
    assert set(envelope) == {"type", "messageId", "fromAgent", "toAgent", "dataType", "runVersion"}

    replay = await frames_with_ids(client, f"{url}/events", {**user.headers, "last-event-id": "3"})
    assert [f[0] for f in replay] == list(range(4, len(frames) + 1))

    detail = (await client.get(url, headers=user.headers)).json()
    assert detail["run"]["state"] == "output_ready" and detail["run"]["membershipId"] == str(member_id)
    assert detail["outputs"]["macro_targets"]["target_intake_kcal"] == 2180
    assert all(detail["outputs"][name] for name in ("nutrition_strategy", "weekly_meal_plan", "recipes",
                                                     "training_program"))
    assert detail["errors"] == [] and detail["adjustments"] == []
    listed = (await client.get(f"{nutrition_base(org)}/runs", headers=user.headers)).json()["runs"]
    assert [r["runId"] for r in listed] == [body["runId"]]

    question = await client.post(f"{url}/health-questions", headers=user.headers,
                                 json={"query": "Is creatine safe while I train?"})
    assert question.status_code == 200, question.text
    assert question.json()["pipeline_action"] == "continue" and question.json()["disclaimer"]
    detail = (await client.get(url, headers=user.headers)).json()
    assert detail["run"]["state"] == "output_ready" and len(detail["medicalContext"]) == 1

    checkin = await client.post(f"{url}/checkins", headers=user.headers, json={
        "weight_kg": 56.4, "waist_cm": 68.5, "hip_cm": 92.5})
    assert checkin.status_code == 202, checkin.text
    assert checkin.json()["adjustment"]["adjustment_type"] is None and checkin.json()["version"] == 1


async def test_other_members_and_other_orgs_see_nothing(client, db, factory) -> None:
    org = await factory.org()
    dani, _ = await signed_in_member(db, factory, org)
    noa, _ = await signed_in_member(db, factory, org, "Noa")
    run_id = (await client.post(f"{nutrition_base(org)}/runs", json={"intake": samples.INTAKE},
                                headers=dani.headers)).json()["runId"]
    other_org = await factory.org()
    stranger = await factory.user(other_org, role="owner")
    hidden = await client.get(f"{nutrition_base(org)}/runs/{run_id}", headers=noa.headers)
    assert hidden.status_code == 404 and hidden.json()["code"] == "run_not_found"
    assert (await client.get(f"{nutrition_base(org)}/runs", headers=noa.headers)).json()["runs"] == []
    foreign = await client.get(f"{nutrition_base(org)}/runs/{run_id}", headers=stranger.headers)
    assert foreign.status_code == 404 and foreign.json()["code"] == "org_not_found"
    own_org = await client.get(f"/organizations/{other_org.id}/nutrition/runs/{run_id}", headers=stranger.headers)
    assert own_org.status_code == 404 and own_org.json()["code"] == "run_not_found"


@pytest.mark.parametrize(("body", "field", "code"), [
    ({}, "intake", "missing"),
    ({"membershipId": "not-a-uuid", "intake": samples.INTAKE}, "membershipId", "uuid_parsing"),
    ({"intake": samples.INTAKE, "goal": "gain"}, "goal", "extra_forbidden"),
    ({"intake": ["not", "an", "object"]}, "intake", "dict_type"),
])
async def test_a_run_body_wrong_in_shape_is_422_per_field_and_starts_nothing(client, db, factory, body, field,
                                                                            code) -> None:
    """NUTRITION.md: starting a run answers 422 `validation_failed` with per-field errors, whatever the field."""
    org = await factory.org()
    owner = await factory.user(org, role="owner")
    refused = await client.post(f"{nutrition_base(org)}/runs", json=body, headers=owner.headers)
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "validation_failed"
    assert {"field": field, "code": code} in [{k: e[k] for k in ("field", "code")} for e in refused.json()["errors"]]
    assert (await client.get(f"{nutrition_base(org)}/runs", headers=owner.headers)).json()["runs"] == []


async def test_a_non_canonical_intake_field_is_422_naming_the_canonical_one(client, db, factory) -> None:
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    intake = {**samples.INTAKE, "goal_weight": 62}
    response = await client.post(f"{nutrition_base(org)}/runs", json={"intake": intake}, headers=user.headers)
    assert response.status_code == 422 and response.json()["code"] == "validation_failed"
    [error] = response.json()["errors"]
    assert error["field"] == "goal_weight" and "target_weight_kg" in error["message"]


async def test_after_a_medical_abort_new_runs_are_409_until_clearance(client, db, factory) -> None:
    org = await factory.org()
    owner = await factory.user(org, role="owner")
    coach = await factory.user(org, role="coach")
    user, member_id = await signed_in_member(db, factory, org)
    intake = {**samples.INTAKE, "medical_history": {"medications": [], "conditions": ["bulimia"], "injuries": []}}
    run_id = (await client.post(f"{nutrition_base(org)}/runs", json={"membershipId": str(member_id), "intake": intake},
                                headers=coach.headers)).json()["runId"]
    frames = await frames_with_ids(client, f"{nutrition_base(org)}/runs/{run_id}/events", coach.headers)
    physician = next(d for _, kind, d in frames if kind == "physician")
    assert (physician["pipelineAction"], physician["urgency"]) == ("abort", "urgent")
    error = next(d for _, kind, d in frames if kind == "error")
    assert (error["errorType"], error["recoverable"]) == ("physician_abort", False)
    blocked = await client.post(f"{nutrition_base(org)}/runs", json={"intake": samples.INTAKE}, headers=user.headers)
    assert blocked.status_code == 409 and blocked.json()["code"] == "medical_clearance_required"
    refused = await client.post(f"{nutrition_base(org)}/members/{member_id}/medical-clearance", json={"note": "fine"},
                                headers=user.headers)
    assert refused.status_code == 403  # never the member themself
    noteless = await client.post(f"{nutrition_base(org)}/members/{member_id}/medical-clearance", json={},
                                 headers=coach.headers)
    assert noteless.status_code == 400  # from a clinician's note
    cleared = await client.post(f"{nutrition_base(org)}/members/{member_id}/medical-clearance",
                                json={"note": "cleared by GP"}, headers=owner.headers)
    assert cleared.status_code == 201
    again = await client.post(f"{nutrition_base(org)}/runs", json={"intake": samples.INTAKE}, headers=user.headers)
    assert again.status_code == 202


async def test_a_health_question_is_answered_for_any_intake_the_schema_allows(client, db, factory) -> None:
    """The heaviest, shortest intake /schema allows (350 kg at 100 cm, BMI 350) still gets the PHYSICIAN's answer;
    the question's user context refused a BMI over 100 with a 500 (found by schemathesis, issue 22)."""
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    intake = {**samples.INTAKE, "height_cm": 100, "current_weight_kg": 350, "target_weight_kg": 340}
    started = await client.post(f"{nutrition_base(org)}/runs", json={"intake": intake}, headers=user.headers)
    assert started.status_code == 202, started.text
    question = await client.post(f"{nutrition_base(org)}/runs/{started.json()['runId']}/health-questions",
                                 json={"query": "Is creatine safe while I train?"}, headers=user.headers)
    assert question.status_code == 200, question.text


async def test_a_check_in_on_a_superseded_run_is_409_and_changes_nothing(client, db, factory) -> None:
    """Once a newer run holds the member's plan, the old run takes no check-in (409 run_superseded): it re-ran the
    superseded plan, or, while the newer run worked, broke the one-active-run index with a 500 (schemathesis)."""
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    old = (await client.post(f"{nutrition_base(org)}/runs", json={"intake": samples.INTAKE}, headers=user.headers)).json()
    await frames_with_ids(client, f"{nutrition_base(org)}/runs/{old['runId']}/events", user.headers)
    new = (await client.post(f"{nutrition_base(org)}/runs", json={"intake": samples.INTAKE}, headers=user.headers)).json()
    await frames_with_ids(client, f"{nutrition_base(org)}/runs/{new['runId']}/events", user.headers)

    late = await client.post(f"{nutrition_base(org)}/runs/{old['runId']}/checkins", headers=user.headers,
                             json={"weight_kg": 70.0, "waist_cm": 68.5, "hip_cm": 92.5})

    assert (late.status_code, late.json()["code"]) == (409, "run_superseded")
    detail = (await client.get(f"{nutrition_base(org)}/runs/{old['runId']}", headers=user.headers)).json()
    assert detail["run"]["version"] == 1 and detail["adjustments"] == [] and detail["run"]["supersededAt"]


async def test_a_nul_anywhere_in_a_body_is_400_and_nothing_is_written(client, db, factory) -> None:
    org = await factory.org()
    owner = await factory.user(org, role="owner")
    user, member_id = await signed_in_member(db, factory, org)
    intake = {**samples.INTAKE, "medical_history": {"medications": ["iron\x00"], "conditions": [], "injuries": []}}
    refused = await client.post(f"{nutrition_base(org)}/runs", json={"membershipId": str(member_id), "intake": intake},
                                headers=owner.headers)
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "validation_failed" and "NUL" in refused.json()["detail"]
    assert (await client.get(f"{nutrition_base(org)}/runs", headers=owner.headers)).json()["runs"] == []
    note = await client.post(f"{nutrition_base(org)}/members/{member_id}/medical-clearance", json={"note": "G\x00P"},
                             headers=owner.headers)
    assert (note.status_code, note.json()["code"]) == (400, "validation_failed")
    question = await client.post(f"{nutrition_base(org)}/runs/{member_id}/health-questions", json={"query": "a\x00"},
                                 headers=user.headers)
    assert (question.status_code, question.json()["code"]) == (400, "validation_failed")
