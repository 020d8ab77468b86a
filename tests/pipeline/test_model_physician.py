"""The PHYSICIAN interrupt through the HTTP endpoints of NUTRITION.md, on an app whose in-process worker uses
the model-backed agents (a keyed anthropic provider: the fake server): amenorrhea → the PHYSICIAN as a model
call → `paused_physician`; the referral waits for the acknowledge and resumes where it paused with the advice in
the next agent's request; a model `continue` below the safety floor is raised to it; abort → `error`,
`terminated_medical`, 409 until clearance. The health-question endpoint asks the same model-backed PHYSICIAN."""

from __future__ import annotations

from datetime import date

from gym import members
from tests.fakes.anthropic_server import ApiError
from tests.gym.nutrition import samples
from tests.pipeline.model_script import agents_asked, by_agent, call_of, physician
from tests.sse import frames_with_ids

AMENORRHEA = {**samples.INTAKE, "menstrual_status": "amenorrhea"}
CHAIN = ["scientist_processing", "nutritionist_processing", "dietitian_processing", "chef_processing",
         "coach_processing", "output_ready"]


async def _member(db, factory):
    org = await factory.org()
    user = await factory.user(org, role="member", name="Dani")
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", user_id=user.id,
                                             joined_at=date(2026, 1, 5))
    return org, user, member.id




def _states(frames) -> list[str]:
    return [d["to"] for _, kind, d in frames if kind == "state"]


async def _start(http, org, user, intake) -> str:
    started = await http.post(f"/organizations/{org.id}/nutrition/runs", json={"intake": intake},
                              headers=user.headers)
    assert started.status_code == 202, started.text
    return f"/organizations/{org.id}/nutrition/runs/{started.json()['runId']}"


async def test_amenorrhea_asks_the_model_physician_and_the_referral_waits_for_the_acknowledge(
        http, db, factory, clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())  # the PHYSICIAN advises a referral (pause_pending_referral, soon)
    org, user, _ = await _member(db, factory)
    url = await _start(http, org, user, AMENORRHEA)
    frames = await frames_with_ids(http, f"{url}/events", user.headers)
    assert _states(frames) == ["intake_pending", "scientist_processing", "paused_physician", "paused_physician"]
    assert [d for _, kind, d in frames if kind == "physician"] == [{
        "type": "physician", "urgency": "soon", "pipelineAction": "pause_pending_referral", "referralNeeded": True,
        "referralTarget": "sports medicine physician or gynecologist"}]
    assert frames[-1][1:] == ("done", {"type": "done", "state": "paused_physician"})
    assert agents_asked(fake) == ["PHYSICIAN"]
    query = call_of(fake.requests[0].body)["inputs"]["health_query"]
    assert (query["query_type"], query["requesting_agent"]) == ("red_flag", "SCIENTIST")
    assert query["user_context"]["menstrual_status"] == "amenorrhea"
    detail = (await http.get(url, headers=user.headers)).json()
    assert detail["run"]["state"] == "paused_physician" and detail["run"]["awaitingReferralAcknowledgement"]
    assert detail["medicalContext"][0]["pipeline_action"] == "pause_pending_referral"
    assert agents_asked(fake) == ["PHYSICIAN"]  # still waiting: nothing else was asked

    acknowledged = await http.post(f"{url}/referral-acknowledged", headers=user.headers)
    assert acknowledged.status_code == 202, acknowledged.text
    rest = await frames_with_ids(http, f"{url}/events", {**user.headers, "last-event-id": str(frames[-1][0])})
    assert _states(rest) == CHAIN  # resumed from the state it paused from
    assert agents_asked(fake) == ["PHYSICIAN", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]
    advice = call_of(fake.requests[1].body)["advice"]
    assert advice["pipeline_action"] == "pause_pending_referral" and advice["disclaimer"]
    again = await http.post(f"{url}/referral-acknowledged", headers=user.headers)
    assert again.status_code == 409 and again.json()["code"] == "referral_not_pending"

    asked = await http.post(f"{url}/health-questions", headers=user.headers,
                            json={"query": "Is creatine safe while I train?"})
    assert asked.status_code == 200, asked.text
    assert agents_asked(fake)[-1] == "PHYSICIAN"  # the health question went to the model too
    question = call_of(fake.requests[-1].body)["inputs"]["health_query"]
    assert (question["query_type"], question["requesting_agent"]) == ("health_question", "USER")
    assert asked.json()["disclaimer"]


async def test_a_model_continue_below_the_floor_is_raised_and_waits_for_the_acknowledge(
        http, db, factory, clean_fake_model) -> None:
    """Amenorrhea's safety floor is pause_pending_referral (soon): the model's `continue` is raised to it (with a
    referral), so the run waits for the user instead of resuming (NUTRITION.md, PHYSICIAN)."""
    fake = clean_fake_model
    fake.respond_with(by_agent(PHYSICIAN=[physician("continue", urgency="routine")]))
    org, user, _ = await _member(db, factory)
    url = await _start(http, org, user, AMENORRHEA)
    frames = await frames_with_ids(http, f"{url}/events", user.headers)
    assert _states(frames) == ["intake_pending", "scientist_processing", "paused_physician", "paused_physician"]
    assert [d for _, kind, d in frames if kind == "physician"] == [{
        "type": "physician", "urgency": "soon", "pipelineAction": "pause_pending_referral", "referralNeeded": True,
        "referralTarget": "sports medicine physician or gynecologist"}]
    assert agents_asked(fake) == ["PHYSICIAN"]
    detail = (await http.get(url, headers=user.headers)).json()
    assert detail["run"]["awaitingReferralAcknowledgement"]
    assert detail["medicalContext"][0]["pipeline_action"] == "pause_pending_referral"
    assert detail["medicalContext"][0]["disclaimer"]


async def test_an_abort_terminates_the_run_and_new_runs_are_409_until_clearance(
        http, db, factory, clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent(PHYSICIAN=[physician("abort", urgency="urgent", referral="a physician")]))
    org, user, member_id = await _member(db, factory)
    owner = await factory.user(org, role="owner")
    url = await _start(http, org, user, AMENORRHEA)
    frames = await frames_with_ids(http, f"{url}/events", user.headers)
    assert _states(frames)[-2:] == ["paused_physician", "error"]
    error = next(d for _, kind, d in frames if kind == "error")
    assert (error["errorType"], error["failingAgent"], error["recoverable"]) == ("physician_abort", "SCIENTIST",
                                                                                  False)
    assert agents_asked(fake) == ["PHYSICIAN"]  # no further agent processing
    detail = (await http.get(url, headers=user.headers)).json()
    assert detail["run"]["state"] == "error" and detail["run"]["terminatedMedical"] is True
    runs_url = f"/organizations/{org.id}/nutrition/runs"
    blocked = await http.post(runs_url, json={"intake": samples.INTAKE}, headers=user.headers)
    assert blocked.status_code == 409 and blocked.json()["code"] == "medical_clearance_required"
    cleared = await http.post(f"/organizations/{org.id}/nutrition/members/{member_id}/medical-clearance",
                              json={"note": "cleared by GP"}, headers=owner.headers)
    assert cleared.status_code == 201, cleared.text
    again = await http.post(runs_url, json={"intake": samples.INTAKE}, headers=user.headers)
    assert again.status_code == 202, again.text
    follow = await frames_with_ids(http, f"{runs_url}/{again.json()['runId']}/events", user.headers)
    assert _states(follow)[-1] == "output_ready"


async def test_a_health_question_the_model_cannot_answer_is_503(http, db, factory, clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org, user, _ = await _member(db, factory)
    url = await _start(http, org, user, samples.INTAKE)
    assert _states(await frames_with_ids(http, f"{url}/events", user.headers))[-1] == "output_ready"
    fake.respond_with(lambda body: ApiError(529))
    asked = await http.post(f"{url}/health-questions", headers=user.headers, json={"query": "Is creatine safe?"})
    assert asked.status_code == 503 and asked.json()["code"] == "physician_unavailable"
    assert agents_asked(fake)[-1] == "PHYSICIAN"
    detail = (await http.get(url, headers=user.headers)).json()
    assert detail["medicalContext"] == []  # nothing stored for an unanswered question


# Issue 37 item 4: a model PHYSICIAN that argues for less is never shown. Its answer is replaced by the floor's own
# words; the model's text appears nowhere (the answer, the run detail, the events). On the code before it, the
# action was raised but the model's "probably muscular; continue" stayed the response shown under "Urgent".

MUSCULAR = "This is probably muscular; continue the plan."


def _argues_for_less(body):
    from tests.fakes.anthropic_server import Reply, ToolUse

    return Reply(ToolUse("submit_medical_context", {
        "response": MUSCULAR, "sources": [{"author": "Model M", "year": 2020, "publication": "Made Up",
                                           "finding": "Pec strains are common after pressing."}],
        "mechanism_explained": "Chest muscles get sore after pressing; nothing to worry about.",
        "timeline": "No need to see anyone", "referral_needed": False, "referral_target": None,
        "urgency": "routine", "pipeline_action": "continue", "disclaimer": "Just a model, keep going."}))


def _model_words_absent(text: str) -> None:
    for said in ("muscular", "Made Up", "nothing to worry", "No need to see anyone", "keep going"):
        assert said not in text, said


async def test_a_model_answer_below_the_floor_to_a_question_shows_only_the_floors_words(
        http, db, factory, clean_fake_model) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org, user, _ = await _member(db, factory)
    url = await _start(http, org, user, samples.INTAKE)
    frames = await frames_with_ids(http, f"{url}/events", user.headers)
    assert _states(frames)[-1] == "output_ready"
    fake.respond_with(by_agent(PHYSICIAN=[_argues_for_less]))
    asked = await http.post(f"{url}/health-questions", headers=user.headers,
                            json={"query": "My heart hurts when I run. Probably just my muscles?"})
    assert asked.status_code == 200, asked.text
    assert agents_asked(fake)[-1] == "PHYSICIAN"  # the model answered; the floor replaced its answer
    answer = asked.json()
    assert (answer["pipeline_action"], answer["urgency"], answer["referral_needed"]) == (
        "pause_pending_referral", "urgent", True)
    assert answer["floor_reasons"] == ["chest_pain"] and answer["sources"] == []
    assert answer["response"].startswith("Chest pain: stop training and see a doctor today")
    assert answer["referral_target"] == "a doctor today (emergency services if it is severe or ongoing)"
    _model_words_absent(asked.text)

    after = await frames_with_ids(http, f"{url}/events", {**user.headers, "last-event-id": str(frames[-1][0])})
    assert _states(after)[-1] == "paused_physician"
    assert [d["pipelineAction"] for _, kind, d in after if kind == "physician"] == ["pause_pending_referral"]
    _model_words_absent(str(after))
    shown = await http.get(url, headers=user.headers)
    assert shown.json()["medicalContext"][-1]["floor_reasons"] == ["chest_pain"]
    _model_words_absent(shown.text)
    _model_words_absent(str(await frames_with_ids(http, f"{url}/events", user.headers)))  # the whole replay


async def test_a_model_answer_below_a_screening_floor_shows_only_the_floors_words(
        http, db, factory, clean_fake_model) -> None:
    """The run's own red flag (a PAR-Q+ "yes"): the model's `continue` is replaced by the floor's pause."""
    fake = clean_fake_model
    fake.respond_with(by_agent(PHYSICIAN=[_argues_for_less]))
    org, user, _ = await _member(db, factory)
    intake = {**samples.INTAKE, "screening": {**samples.NO_SCREENING, "chest_pain_in_activity": True}}
    url = await _start(http, org, user, intake)
    frames = await frames_with_ids(http, f"{url}/events", user.headers)
    assert _states(frames) == ["intake_pending", "scientist_processing", "paused_physician", "paused_physician"]
    assert agents_asked(fake) == ["PHYSICIAN"]
    _model_words_absent(str(frames))
    shown = await http.get(url, headers=user.headers)
    [context] = shown.json()["medicalContext"]
    assert (context["pipeline_action"], context["urgency"], context["floor_reasons"]) == (
        "pause_pending_referral", "soon", ["parq_screening"])
    _model_words_absent(shown.text)
    acknowledged = await http.post(f"{url}/referral-acknowledged", headers=user.headers)
    assert acknowledged.status_code == 202
    await frames_with_ids(http, f"{url}/events", {**user.headers, "last-event-id": str(frames[-1][0])})
    nutritionist = next(r.body for r in fake.requests if call_of(r.body)["agent"] == "NUTRITIONIST")
    advice = call_of(nutritionist)["advice"]  # the next agent is told the floor's words, not the model's
    assert advice["floor_reasons"] == ["parq_screening"]
    _model_words_absent(str(advice))
