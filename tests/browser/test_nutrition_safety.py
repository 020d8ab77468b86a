"""Issue 37 items 4 and 5 in Chromium: the intake asks PAR-Q+'s questions as questions in English, Hebrew and
Russian (and the menopausal statuses), a "yes" pauses the plan with the safety floor's own words in the reader's
language; a model PHYSICIAN's answer below the floor is shown as the floor's words, never the model's ("probably
muscular; continue"); the limits the clinical rules put on a minor's plan are said in words.
Screenshots: test-artifacts/screenshots/nutrition_page_safety_*.png.

On the page before this change each test fails: the form had no screening questions, a raised model answer showed the
model's text under "Urgent", and a minor's plan said nothing (it was a cut with creatine).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest

from api.app import create_app
from tests.browser.nutrition_page import (
    INTAKE_FORM,
    RUN_MS,
    SCREENING,
    expect,
    fill_intake,
    no_sideways_scroll,
    open_page,
    shot,
    strings,
)
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.gym.nutrition import samples
from tests.pipeline.issue25 import follow, member, start
from tests.pipeline.model_script import by_agent
from tests.servers import ThreadedServer

pytestmark = pytest.mark.browser

MUSCULAR = "This is probably muscular; continue the plan."


def _floor_response(words: dict, level: str, *codes: str) -> str:
    reasons = "; ".join(words["safety"]["floor"]["reason"][code] for code in codes)
    return words["safety"]["floor"]["response"][level].replace("{reasons}", reasons[:1].upper() + reasons[1:])


@pytest.fixture(scope="module")
def model_server(app_settings) -> Iterator[ThreadedServer]:
    """`spotter serve` with a key: its worker and health questions ask the fake model."""
    settings = app_settings.model_copy(update={"nutrition_agents": "auto",
                                               "nutrition_queue": f"nutrition_model_{uuid.uuid4().hex[:8]}"})
    srv = ThreadedServer(create_app(settings)).start()
    yield srv
    srv.stop()


@pytest.mark.parametrize(("locale", "size"), [("en", "desktop"), ("he", "phone"), ("ru", "desktop")])
async def test_the_intake_asks_par_q_questions_and_a_yes_pauses_the_plan_in_words(page, server, db, factory,
                                                                                   locale, size) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org, "Lior")
    words = strings(locale)
    await open_page(page, server, user.token, locale, size)
    await page.get_by_test_id("new-run").click()
    form = page.get_by_test_id("intake-form")
    questions = form.get_by_test_id("intake-screening")
    await expect(questions).to_contain_text(words["safety"]["screeningTitle"])
    for name in SCREENING:
        box = questions.get_by_test_id(f"screening-{name}")
        await expect(box.locator("legend")).to_have_text(words["safety"]["question"][name])
        await expect(box.locator("label")).to_have_text([words["safety"]["yes"], words["safety"]["no"]])
    menstrual = form.locator('[name="menstrual_status"]')
    for status in ("perimenopausal", "postmenopausal"):
        await expect(menstrual.locator(f'option[value="{status}"]')).to_have_text(
            words["enum"]["menstrual_status"][status])

    # one question left unanswered: the service's "required" stands under it, nothing starts
    await fill_intake(page, INTAKE_FORM)
    await questions.locator('input[name="screening.other_reason"]').evaluate_all(
        "els => els.forEach((el) => { el.checked = false; })")
    await form.get_by_test_id("start-run").click()
    unanswered = questions.get_by_test_id("screening-other_reason").get_by_test_id("field-error")
    await expect(unanswered).to_have_text(words["fieldError"]["missing"])
    await expect(page.get_by_test_id("timeline-panel")).to_have_count(0)

    # "yes" to chest pain in activity: the plan waits for a referral, said in the floor's words in this language
    await fill_intake(page, {"screening": {"chest_pain_in_activity": True}})
    await form.get_by_test_id("start-run").click()
    referral = page.get_by_test_id("referral")
    await expect(referral).to_be_visible(timeout=RUN_MS)
    context = referral.get_by_test_id("medical-context")
    await expect(context).to_have_attribute("data-floor", "true")
    await expect(context.get_by_test_id("medical-response")).to_have_text(
        _floor_response(words, "soon", "parq_screening"))
    await expect(context.get_by_test_id("referral-target")).to_have_text(
        words["safety"]["floor"]["referral"]["parq_screening"])
    await expect(context.get_by_test_id("medical-disclaimer")).to_have_text(words["safety"]["floor"]["disclaimer"])
    await no_sideways_scroll(page)
    await shot(page, f"safety_screening_{locale}_{size}")


@pytest.mark.parametrize("locale", ["en", "he"])
async def test_a_model_answer_below_the_floor_shows_the_floors_words_never_the_models(
        page, model_server, db, factory, clean_fake_model, locale) -> None:
    fake = clean_fake_model
    fake.respond_with(by_agent())
    org = await factory.org()
    user, _ = await member(db, factory, org, "Noa")
    async with httpx.AsyncClient(base_url=model_server.url, timeout=60) as client:
        url = await start(client, org, user.headers, samples.INTAKE)
        await follow(client, url, user.headers)

    def argues_for_less(body):
        return Reply(ToolUse("submit_medical_context", {
            "response": MUSCULAR, "sources": [], "mechanism_explained": "Sore pecs after pressing.", "timeline": None,
            "referral_needed": False, "referral_target": None, "urgency": "routine", "pipeline_action": "continue",
            "disclaimer": "Just a model."}))

    fake.respond_with(by_agent(PHYSICIAN=[argues_for_less]))
    words = strings(locale)
    await open_page(page, model_server, user.token, locale)
    await expect(page.get_by_test_id("nt-today")).to_be_visible()
    health = page.get_by_test_id("health-questions")
    await health.get_by_test_id("health-query").fill("My heart hurts when I run. Probably just my muscles?")
    await health.get_by_test_id("health-ask").click()
    answer = health.get_by_test_id("health-context")
    urgent = _floor_response(words, "urgent", "chest_pain")
    await expect(answer.get_by_test_id("medical-response")).to_have_text(urgent, timeout=RUN_MS)
    await expect(answer.get_by_test_id("medical-urgency")).to_have_attribute("data-value", "urgent")
    await expect(answer.get_by_test_id("referral-target")).to_have_text(
        words["safety"]["floor"]["referral"]["chest_pain"])
    await page.reload()  # the paused run, read afresh: the referral and the notes say the floor's words too
    referral = page.get_by_test_id("referral")
    await expect(referral.get_by_test_id("medical-response")).to_have_text(urgent, timeout=RUN_MS)
    body = await page.locator("body").inner_text()
    for said in ("muscular", "Sore pecs", "Just a model"):
        assert said not in body, said
    await shot(page, f"safety_raised_{locale}")


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_a_minors_plan_says_it_keeps_the_weight_and_has_no_creatine(page, server, client, db, factory,
                                                                          locale) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org, "Tom")
    minor = {**samples.INTAKE, "age": 17, "current_weight_kg": 70.0, "target_weight_kg": 62.0}
    url = await start(client, org, user.headers, minor)
    await follow(client, url, user.headers)
    words = strings(locale)
    await open_page(page, server, user.token, locale, "phone")
    notes = page.get_by_test_id("clinical-notes")
    await expect(notes.locator("li")).to_have_text([words["safety"]["note"]["minor_no_deficit"],
                                                    words["safety"]["note"]["no_supplements"]])
    await no_sideways_scroll(page)
