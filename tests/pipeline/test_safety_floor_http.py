"""Issue 25 item 3 through the front door (uvicorn + httpx, the in-process worker with the offline agents): the
issue's three cases now stop the plan. A member asking about chest pain and fainting, or four months without a
period (in English, Hebrew or Russian), pauses their ready plan for a referral like any other health query; a
pregnant member with heart failure gets no +0.5 kg/week plan with creatine, whether the intake says so or a
question does; insulin use aborts; a check-in's notes are screened; a question under the floor changes nothing.

Every test here but the last (a question under the floor, which holds on main too) failed on main before this change
(verified by checking out the old gym/, pipeline/ and api/ of 5a128a7 under these tests: 10 failed, 1 passed):
the offline PHYSICIAN answered `continue` to all of them and a question never changed the run."""

from __future__ import annotations

from typing import Any

import pytest

from tests.gym.nutrition import samples
from tests.pipeline.issue25 import detail, follow, states
from tests.pipeline.run_setup import nutrition_base, signed_in_member

PREGNANT_HEART_FAILURE = {**samples.INTAKE, "medical_history": {
    "medications": [], "conditions": ["pregnant (14 weeks)", "heart failure"], "injuries": []}}


async def _ready(client, db, factory, intake: dict[str, Any] | None = None):
    """A member's run driven to output_ready: (org, user, run URL, the last frame id)."""
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    started = await client.post(f"{nutrition_base(org)}/runs", json={"intake": intake or samples.INTAKE},
                                headers=user.headers)
    assert started.status_code == 202, started.text
    url = f"{nutrition_base(org)}/runs/{started.json()['runId']}"
    frames = await follow(client, url, user.headers)
    assert states(frames)[-1] == "output_ready"
    return org, user, url, frames[-1][0]


async def _ask(client, url: str, user, query: str) -> dict[str, Any]:
    asked = await client.post(f"{url}/health-questions", headers=user.headers, json={"query": query})
    assert asked.status_code == 200, asked.text
    return asked.json()


def _physician(frames) -> list[tuple[str, str]]:
    return [(d["pipelineAction"], d["urgency"]) for _, kind, d in frames if kind == "physician"]


async def test_chest_pain_and_fainting_in_a_question_pause_the_ready_plan_until_acknowledged(client, db,
                                                                                              factory) -> None:
    org, user, url, last = await _ready(client, db, factory)
    answer = await _ask(client, url, user, "I had chest pain and fainted twice during training. Can I keep going?")
    assert (answer["pipeline_action"], answer["urgency"], answer["referral_needed"]) == (
        "pause_pending_referral", "urgent", True)
    assert answer["disclaimer"] and answer["referral_target"]

    frames = await follow(client, url, user.headers, after=last)
    assert states(frames) == ["scientist_processing", "paused_physician", "paused_physician"]  # 004 §1 via SCIENTIST
    assert _physician(frames) == [("pause_pending_referral", "urgent")]
    assert frames[-1][1:] == ("done", {"type": "done", "state": "paused_physician"})
    shown = await detail(client, url, user.headers)
    assert shown["run"]["state"] == "paused_physician" and shown["run"]["awaitingReferralAcknowledgement"]
    assert shown["run"]["version"] == 2 and shown["run"]["readyVersion"] == 1
    assert shown["medicalContext"][-1]["pipeline_action"] == "pause_pending_referral"
    assert shown["outputs"]["macro_targets"]["target_intake_kcal"] == 2180  # the plan stays readable meanwhile
    checkin = await client.post(f"{url}/checkins", headers=user.headers, json={"weight_kg": 56.4})
    assert (checkin.status_code, checkin.json()["code"]) == (409, "run_in_progress")

    resumed = await client.post(f"{url}/referral-acknowledged", headers=user.headers)
    assert resumed.status_code == 202, resumed.text
    after = await follow(client, url, user.headers, after=frames[-1][0])
    assert states(after)[-1] == "output_ready"
    assert (await detail(client, url, user.headers))["run"]["version"] == 2


@pytest.mark.parametrize("query", [
    "I haven't had a period for four months. Is that a problem?",
    "לא קיבלתי מחזור כבר ארבעה חודשים, זה בסדר?",
    "Уже четыре месяца нет месячных, это нормально?",
], ids=["en", "he", "ru"])
async def test_four_months_without_a_period_pauses_the_plan_for_a_referral(client, db, factory, query) -> None:
    _, user, url, last = await _ready(client, db, factory)
    answer = await _ask(client, url, user, query)
    assert (answer["pipeline_action"], answer["urgency"]) == ("pause_pending_referral", "soon")
    assert answer["referral_target"] == "sports medicine physician or gynecologist"
    frames = await follow(client, url, user.headers, after=last)
    assert states(frames)[-1] == "paused_physician" and _physician(frames) == [("pause_pending_referral", "soon")]


async def test_a_pregnant_member_with_heart_failure_gets_no_gain_plan_with_creatine(client, db, factory) -> None:
    """The issue's intake: +0.5 kg/week for a beginner; the run stops after SCIENTIST for a referral (no strategy,
    so no creatine), and the referral names both specialists."""
    org = await factory.org()
    user, _ = await signed_in_member(db, factory, org)
    started = await client.post(f"{nutrition_base(org)}/runs", json={"intake": PREGNANT_HEART_FAILURE},
                                headers=user.headers)
    url = f"{nutrition_base(org)}/runs/{started.json()['runId']}"
    frames = await follow(client, url, user.headers)
    assert states(frames) == ["intake_pending", "scientist_processing", "paused_physician", "paused_physician"]
    [physician] = [d for _, kind, d in frames if kind == "physician"]
    assert (physician["pipelineAction"], physician["urgency"], physician["referralTarget"]) == (
        "pause_pending_referral", "soon", "obstetrician or midwife; cardiologist")
    shown = await detail(client, url, user.headers)
    assert shown["run"]["awaitingReferralAcknowledgement"]
    assert shown["outputs"]["nutrition_strategy"] is None and shown["outputs"]["weekly_meal_plan"] is None


@pytest.mark.parametrize("query", [
    "I'm pregnant and I have heart failure. Can I take creatine to gain 0.5 kg a week?",
    "אני בהריון ויש לי אי ספיקת לב. אפשר לקחת קריאטין?",
    "Я беременна, и у меня сердечная недостаточность. Можно креатин?",
], ids=["en", "he", "ru"])
async def test_pregnancy_with_heart_failure_in_a_question_pauses_the_plan(client, db, factory, query) -> None:
    _, user, url, last = await _ready(client, db, factory)
    answer = await _ask(client, url, user, query)
    assert (answer["pipeline_action"], answer["urgency"]) == ("pause_pending_referral", "soon")
    frames = await follow(client, url, user.headers, after=last)
    assert states(frames)[-1] == "paused_physician"


async def test_insulin_use_in_a_question_aborts_the_plan_until_clearance(client, db, factory) -> None:
    org, user, url, last = await _ready(client, db, factory)
    answer = await _ask(client, url, user, "I inject insulin before meals, is the plan still fine?")
    assert (answer["pipeline_action"], answer["urgency"]) == ("abort", "urgent")
    frames = await follow(client, url, user.headers, after=last)
    error = next(d for _, kind, d in frames if kind == "error")
    assert (error["errorType"], error["failingAgent"]) == ("physician_abort", "PHYSICIAN")
    shown = await detail(client, url, user.headers)
    assert shown["run"]["state"] == "error" and shown["run"]["terminatedMedical"]
    again = await client.post(f"{nutrition_base(org)}/runs", json={"intake": samples.INTAKE}, headers=user.headers)
    assert (again.status_code, again.json()["code"]) == (409, "medical_clearance_required")


async def test_fainting_in_a_checkins_notes_pauses_the_run(client, db, factory) -> None:
    _, user, url, last = await _ready(client, db, factory)
    sent = await client.post(f"{url}/checkins", headers=user.headers, json={
        "weight_kg": 56.3, "waist_cm": 68.5, "hip_cm": 92.5, "notes": "התעלפתי פעמיים באימון השבוע"})
    assert sent.status_code == 202, sent.text
    frames = await follow(client, url, user.headers, after=last)
    assert states(frames)[-1] == "paused_physician"
    assert _physician(frames) == [("pause_pending_referral", "urgent")]


async def test_a_question_under_the_floor_changes_nothing(client, db, factory) -> None:
    _, user, url, _ = await _ready(client, db, factory)
    answer = await _ask(client, url, user, "What heart rate should I train at, and is creatine safe?")
    assert answer["pipeline_action"] == "continue"
    shown = await detail(client, url, user.headers)
    assert (shown["run"]["state"], shown["run"]["version"]) == ("output_ready", 1)


# Issue 37 item 3: the floor understands everyday, colloquial, misspelt words and leaves benign training talk alone.
# On the code before it, the red flags below were answered `continue` and the benign questions paused the plan.

@pytest.mark.parametrize(("query", "urgency"), [
    ("My heart hurts when I run, should I keep training?", "urgent"),
    ("כואב לי הלב כשאני רצה, להמשיך להתאמן?", "urgent"),
    ("У меня болит сердце, когда я бегаю. Можно продолжать?", "urgent"),
    ("On the bike yesterday things went black and I ended up on the floor", "urgent"),
    ("I'm preggers, can I keep lifting heavy?", "soon"),
    ("Я в положении, 12 недель, можно тренироваться?", "soon"),
    ("I'm pregant, is that a problem for the plan?", "soon"),
], ids=["heart-en", "heart-he", "heart-ru", "went-black", "preggers", "v-polozhenii", "misspelt"])
async def test_everyday_words_of_a_warning_sign_pause_the_plan(client, db, factory, query, urgency) -> None:
    _, user, url, last = await _ready(client, db, factory)
    answer = await _ask(client, url, user, query)
    assert (answer["pipeline_action"], answer["urgency"]) == ("pause_pending_referral", urgency)
    frames = await follow(client, url, user.headers, after=last)
    assert states(frames)[-1] == "paused_physician"
    assert _physician(frames) == [("pause_pending_referral", urgency)]


async def test_throwing_up_after_meals_on_purpose_aborts_the_plan(client, db, factory) -> None:
    _, user, url, last = await _ready(client, db, factory)
    answer = await _ask(client, url, user, "I throw up after meals on purpose so I don't gain. Is the plan ok?")
    assert (answer["pipeline_action"], answer["urgency"], answer["floor_reasons"]) == (
        "abort", "urgent", ["eating_disorder_active"])
    frames = await follow(client, url, user.headers, after=last)
    assert next(d for _, kind, d in frames if kind == "error")["errorType"] == "physician_abort"
    assert (await detail(client, url, user.headers))["run"]["terminatedMedical"]


async def test_benign_training_talk_and_negations_leave_the_plan_alone(client, db, factory) -> None:
    _, user, url, _ = await _ready(client, db, factory)
    for query in ("כאב שרירים בחזה אחרי לחיצת חזה, זה בסדר?", "Sore chest muscles after bench, normal?",
                  "I'm out of breath after a sprint, is that ok?", "Leg day was not for the faint-hearted!",
                  "No chest pain, no dizziness, just tired legs", "Грудные мышцы болят после жима лёжа",
                  "My wife is pregnant, what should I cook for her?"):
        answer = await _ask(client, url, user, query)
        assert answer["pipeline_action"] == "continue", query
    shown = await detail(client, url, user.headers)
    assert (shown["run"]["state"], shown["run"]["version"]) == ("output_ready", 1)


async def test_a_checkin_note_in_everyday_words_pauses_the_run(client, db, factory) -> None:
    _, user, url, last = await _ready(client, db, factory)
    sent = await client.post(f"{url}/checkins", headers=user.headers, json={
        "weight_kg": 56.3, "waist_cm": 68.5, "hip_cm": 92.5, "notes": "my heart hurts on the stairs at work"})
    assert sent.status_code == 202, sent.text
    frames = await follow(client, url, user.headers, after=last)
    assert states(frames)[-1] == "paused_physician"
    assert _physician(frames) == [("pause_pending_referral", "urgent")]
