"""Issue 22 through the front door: front desk reads no health data (endpoints, staff tool, the console's
permission), a replayed check-in or start changes nothing (per date, and under Idempotency-Key), an
out-of-range Last-Event-ID replays the whole stream, and an implausible weight needs confirmation."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select

from gym.nutrition.models import MedicalClearance, NutritionCheckin, NutritionRun
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.gym.nutrition import samples
from tests.pipeline.run_setup import nutrition_base, signed_in_member
from tests.sse import frames_with_ids, sse

CHECKIN = {"weight_kg": 56.4, "waist_cm": 68.5, "hip_cm": 92.5}






async def _finished_run(client, org, user) -> str:
    started = await client.post(f"{nutrition_base(org)}/runs", json={"intake": samples.INTAKE}, headers=user.headers)
    assert started.status_code == 202, started.text
    run_id = started.json()["runId"]
    frames = await frames_with_ids(client, f"{nutrition_base(org)}/runs/{run_id}/events", user.headers)
    assert frames[-1][2] == {"type": "done", "state": "output_ready"}
    return run_id


async def _count(db, org, model, **where) -> int:
    async with db.scope(org_id=org.id) as session:
        query = select(func.count()).select_from(model).where(model.org_id == org.id)
        for name, value in where.items():
            query = query.where(getattr(model, name) == value)
        return int(await session.scalar(query) or 0)


async def test_front_desk_reads_no_health_data_anywhere(client, db, factory, clean_model) -> None:
    """Runs, a run, its events, health questions, check-ins, starting a run and the member picker are 403
    `forbidden` for front desk, who also gets no nutrition__get_plan from the agent; a coach and the member
    still read them; /organizations/{id}/me tells the console which of them may open health pages."""
    org = await factory.org()
    desk = await factory.user(org, role="front_desk")
    coach = await factory.user(org, role="coach")
    user, member_id = await signed_in_member(db, factory, org)
    run_id = await _finished_run(client, org, user)
    run_url = f"{nutrition_base(org)}/runs/{run_id}"
    for method, url, body in (("GET", f"{nutrition_base(org)}/runs", None), ("GET", run_url, None),
                              ("GET", f"{run_url}/events", None), ("GET", f"{nutrition_base(org)}/members", None),
                              ("POST", f"{run_url}/health-questions", {"query": "Is creatine safe?"}),
                              ("POST", f"{run_url}/checkins", CHECKIN),
                              ("POST", f"{nutrition_base(org)}/runs", {"membershipId": str(member_id),
                                                              "intake": samples.INTAKE})):
        refused = await client.request(method, url, json=body, headers=desk.headers)
        assert (refused.status_code, refused.json()["code"]) == (403, "forbidden"), (method, url, refused.text)
    assert (await client.get(run_url, headers=coach.headers)).status_code == 200
    assert (await client.get(run_url, headers=user.headers)).status_code == 200
    assert await _count(db, org, NutritionCheckin) == 0

    permissions = {who: (await client.get(f"/organizations/{org.id}/me", headers=u.headers)).json()["permissions"]
                   for who, u in (("desk", desk), ("coach", coach), ("member", user))}
    assert permissions == {"desk": {"healthData": False}, "coach": {"healthData": True},
                           "member": {"healthData": True}}

    clean_model.queue(Reply(ToolUse("nutrition__get_plan", {"membershipId": str(member_id)}, id="toolu_plan")),
                      Reply(Text("I cannot read that.")))
    turn = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "Dani's plan?"},
                     headers=desk.headers)
    [completed] = turn.of("tool_completed")
    assert completed["ok"] is False and "plan" not in (completed.get("output") or {})
    sent_tools = {t.get("name") for request in clean_model.requests for t in request.body.get("tools", [])}
    assert "nutrition__get_plan" not in sent_tools and "read__member_training" not in sent_tools


async def test_the_same_checkin_three_times_is_stored_once_and_a_different_one_is_409(client, db, factory) -> None:
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    run_id = await _finished_run(client, org, user)
    url = f"{nutrition_base(org)}/runs/{run_id}/checkins"
    answers = [await client.post(url, json=CHECKIN, headers=user.headers) for _ in range(3)]
    assert [a.status_code for a in answers] == [202, 200, 200], [a.text for a in answers]
    assert len({a.json()["checkinId"] for a in answers}) == 1
    assert all(a.json() == answers[0].json() for a in answers)
    assert await _count(db, org, NutritionCheckin) == 1
    dated = await client.post(url, json={**CHECKIN, "checkin_date": date.today().isoformat()}, headers=user.headers)
    assert dated.status_code == 200  # the date it defaulted to, now said: the same check-in
    other = await client.post(url, json={**CHECKIN, "weight_kg": 56.9}, headers=user.headers)
    assert (other.status_code, other.json()["code"]) == (409, "checkin_exists")
    assert await _count(db, org, NutritionCheckin) == 1
    async with db.scope(org_id=org.id) as session:
        run = await session.get(NutritionRun, run_id)
        assert run is not None and (run.version, run.state) == (1, "output_ready")


async def test_idempotency_key_answers_a_retry_with_the_first_answer(client, db, factory) -> None:
    """Start, check-in and clearance under one key each: a retry gets the same status and body and writes
    nothing; another body under a used key is 422 idempotency_key_reused; a malformed key is 400."""
    org = await factory.org()
    owner = await factory.user(org, role="owner")
    user, member_id = await signed_in_member(db, factory, org)
    start = {"intake": samples.INTAKE}
    first = await client.post(f"{nutrition_base(org)}/runs", json=start, headers={**user.headers, "Idempotency-Key": "k-start"})
    again = await client.post(f"{nutrition_base(org)}/runs", json=start, headers={**user.headers, "Idempotency-Key": "k-start"})
    assert (first.status_code, again.status_code) == (202, 202) and first.json() == again.json()
    assert await _count(db, org, NutritionRun) == 1
    reused = await client.post(f"{nutrition_base(org)}/runs", json={"intake": {**samples.INTAKE, "age": 29}},
                               headers={**user.headers, "Idempotency-Key": "k-start"})
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    bad = await client.post(f"{nutrition_base(org)}/runs", json=start, headers={**user.headers, "Idempotency-Key": "a b"})
    assert (bad.status_code, bad.json()["code"]) == (400, "validation_failed")
    run_id = first.json()["runId"]
    await frames_with_ids(client, f"{nutrition_base(org)}/runs/{run_id}/events", user.headers)

    checkin_url = f"{nutrition_base(org)}/runs/{run_id}/checkins"
    key = {**user.headers, "Idempotency-Key": "k-checkin"}
    one, two = [await client.post(checkin_url, json=CHECKIN, headers=key) for _ in range(2)]
    assert (one.status_code, two.status_code) == (202, 202) and one.json() == two.json()
    assert await _count(db, org, NutritionCheckin) == 1

    clear_url = f"{nutrition_base(org)}/members/{member_id}/medical-clearance"
    key = {**owner.headers, "Idempotency-Key": "k-clear"}
    one, two = [await client.post(clear_url, json={"note": "GP letter"}, headers=key) for _ in range(2)]
    assert (one.status_code, two.status_code) == (201, 201) and one.json() == two.json()
    assert await _count(db, org, MedicalClearance) == 1
    other_user = await client.post(clear_url, json={"note": "GP letter"},
                                   headers={**(await factory.user(org, role="admin")).headers,
                                            "Idempotency-Key": "k-clear"})
    assert other_user.status_code == 201 and other_user.json() != one.json()  # keys are per user


@pytest.mark.parametrize("last_event_id", ["2147483648", "9223372036854775808", "-99999999999999999999", "-1",
                                           "abc", "1e3", "", "+5", "0x10"])
async def test_a_last_event_id_it_could_not_have_sent_replays_the_whole_stream(client, db, factory,
                                                                                last_event_id) -> None:
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    run_id = await _finished_run(client, org, user)
    url = f"{nutrition_base(org)}/runs/{run_id}/events"
    full = await frames_with_ids(client, url, user.headers)
    replay = await frames_with_ids(client, url, {**user.headers, "last-event-id": last_event_id})
    assert [f[0] for f in replay] == [f[0] for f in full] == list(range(1, len(full) + 1))
    assert replay[-1][1] == "done"


async def test_an_implausible_weight_is_422_until_the_member_confirms_it(client, db, factory) -> None:
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    run_id = await _finished_run(client, org, user)
    url = f"{nutrition_base(org)}/runs/{run_id}/checkins"
    heavy = {**CHECKIN, "weight_kg": samples.INTAKE["current_weight_kg"] + 25}
    refused = await client.post(url, json=heavy, headers=user.headers)
    assert (refused.status_code, refused.json()["code"]) == (422, "implausible_change"), refused.text
    assert refused.json()["errors"] == [{"field": "weight_kg", "code": "implausible_change"}]
    assert await _count(db, org, NutritionCheckin) == 0
    within = await client.post(url, json={**CHECKIN, "weight_kg": samples.INTAKE["current_weight_kg"] + 2.9},
                               headers=user.headers)
    assert within.status_code == 202, within.text
    confirmed = await client.post(url, json={**heavy, "checkin_date": None, "confirmed": True}, headers=user.headers)
    assert (confirmed.status_code, confirmed.json()["code"]) == (409, "checkin_exists")  # today's is recorded
