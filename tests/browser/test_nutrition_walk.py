"""The nutrition page as a new user meets it, in Hebrew (right to left) and Russian, desktop and phone.

The issue's "Done when" walk on the demo gym: pick a demo member by name, start a run, watch the timeline
reach `output_ready` with the offline agents, read the tables, submit a check-in and see the adjustment,
every label and number in the UI language. Then a run stopped on medical advice: the stop in words, the
409 "needs clearance" answer, a health question to the physician, and clearance recorded by the owner
(a coach is told who records it). Screenshots: test-artifacts/screenshots/nutrition_walk_*.png.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from gym import members
from gym.demo.seed import DANI_MEMBER_ID, SAAR_COHEN_ID
from gym.demo.tenancy import HARBOR
from tests.browser.nutrition_page import fill_intake, form_values
from tests.browser.waits import expect
from tests.gym.nutrition import samples

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
RUN_MS = 90_000  # a whole offline run on a loaded 2-core machine
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
STATES = ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
          "chef_processing", "coach_processing", "output_ready"]
GROUP = r"[,\s\u00a0\u202f]?"  # Intl's thousands separator: "," (he), a no-break space (ru)

WORDS = {
    "he": {"ready": "התוכנית מוכנה", "female": "אישה", "noRuns": "למתאמן הזה עדיין אין תוכנית",
           "kcal": "קק״ל", "breakfast": "ארוחת בוקר", "presleep": "לפני השינה", "monday": "שני",
           "targets": "יעדים יומיים", "meals": "תפריט שבועי", "required": "שדה חובה", "fix": "בדקו את השדות",
           "waist": "מותניים", "no_change": "ללא שינוי", "for": "תוכנית עבור Saar Cohen",
           "dietitian": "דיאטן", "stopped": "נעצרה", "abort": "הופסקה בהמלצה רפואית",
           "clearance409": "תוכנית חדשה דורשת קודם אישור רפואי",
           "empty": "קודם כתבו שאלה", "final": "התוכנית הזו לא יכולה להמשיך", "notes": "הערות הרופא", "continue": "להמשיך בתוכנית", "cleared": "האישור נרשם"},
    "ru": {"ready": "План готов", "female": "Женский", "noRuns": "У этого клиента пока нет плана",
           "kcal": "ккал", "breakfast": "Завтрак", "presleep": "Перед сном", "monday": "Понедельник",
           "targets": "Дневные цели", "meals": "Меню на неделю", "required": "обязательное поле",
           "fix": "Проверьте эти поля", "waist": "Талия", "no_change": "Без изменений",
           "for": "План для: Saar Cohen", "dietitian": "Диетолог"},
}
ENGLISH = ["Daily targets", "Weekly meal plan", "Breakfast", "Monday", "Start run", "Weekly check-in",
           "output ready", "output_ready", "Training program", "Recipes"]


async def _open(page, server, token: str, locale: str) -> None:
    await page.goto("about:blank")  # a new sign-in loads the page afresh, not just a new #fragment
    await page.goto(f"{server.url}/console/nutrition.html#token={token}")
    await expect(page.get_by_test_id("run-list")).to_be_visible()
    await page.get_by_test_id("locale-select").select_option(locale)
    await expect(page.locator("html")).to_have_attribute("lang", locale)
    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if locale == "he" else "ltr")


async def _no_page_overflow(page) -> None:
    """Nothing makes the page scroll sideways (wide tables scroll or stack inside it)."""
    widths = await page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], widths


async def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"nutrition_walk_{name}.png"), full_page=True)


@pytest.mark.parametrize(("locale", "viewport"), [("he", None), ("ru", PHONE)], ids=["he-desktop", "ru-phone"])
async def test_a_new_user_starts_a_demo_members_run_watches_it_finish_and_sees_a_check_ins_adjustment(
        page, server, client, harbor_owner, locale, viewport) -> None:
    w = WORDS[locale]
    if viewport:
        await page.set_viewport_size(viewport)
    await _open(page, server, harbor_owner.token, locale)

    # the picker lists members by name, those with a plan first: Dani's seeded, finished run
    dani = page.locator(f'[data-testid="member-link"][data-member-id="{DANI_MEMBER_ID}"]')
    await expect(dani).to_contain_text("Dani Mizrahi")
    await expect(dani).to_contain_text(w["ready"])

    # find another demo member by name and start her run from the intake form
    await page.get_by_test_id("member-search").fill("Saar Cohen")
    saar = page.locator(f'[data-testid="member-link"][data-member-id="{SAAR_COHEN_ID}"]')
    await saar.click()
    await expect(page.get_by_test_id("no-runs-member")).to_contain_text(w["noRuns"])
    await page.get_by_test_id("new-run").click()
    await expect(page.get_by_test_id("intake-member")).to_contain_text("Saar Cohen")
    await fill_intake(page, form_values(samples.INTAKE))
    await expect(page.get_by_test_id("intake-sex").locator("option:checked")).to_have_text(w["female"])
    await _no_page_overflow(page)
    await _shot(page, f"{locale}_intake")
    await page.get_by_test_id("start-run").click()

    # the timeline follows the run to output_ready, in words
    timeline = page.get_by_test_id("timeline")
    done = timeline.locator('[data-testid="timeline-event"][data-type="done"]')
    await expect(done).to_have_attribute("data-state", "output_ready", timeout=RUN_MS)
    await expect(done).to_contain_text(w["ready"])
    states = await timeline.locator('[data-type="state"]').evaluate_all("els => els.map(e => e.dataset.state)")
    assert states == STATES
    await expect(page.get_by_test_id("run-state")).to_have_text(w["ready"])
    await expect(page.locator(".nt-run-head h2")).to_have_text(w["for"])
    await expect(page.get_by_test_id("run-link").first).to_contain_text("Saar Cohen")

    # the tables, labelled and numbered in the UI language; the numbers are the API's
    runs = (await client.get(f"/organizations/{HARBOR.id}/nutrition/runs",
                             params={"membershipId": str(SAAR_COHEN_ID)}, headers=harbor_owner.headers)).json()["runs"]
    detail = (await client.get(f"/organizations/{HARBOR.id}/nutrition/runs/{runs[0]['runId']}",
                               headers=harbor_owner.headers)).json()
    kcal = int(detail["outputs"]["macro_targets"]["target_intake_kcal"])
    number = re.compile(rf"{kcal // 1000}{GROUP}{kcal % 1000:03d}\s?{w['kcal']}")
    await expect(page.locator("[data-testid=nt-macros] h3")).to_have_text(w["targets"])
    await expect(page.get_by_test_id("macros-table").locator('tr[data-key="target_intake_kcal"] td')).to_have_text(number)
    await expect(page.locator("[data-testid=nt-meals] h3")).to_have_text(w["meals"])
    grid = page.get_by_test_id("meal-grid")
    await expect(grid.locator("tbody tr")).to_have_count(7)
    await expect(grid.locator('tr[data-day="monday"] th')).to_have_text(w["monday"])
    await expect(grid.locator('tr[data-day="monday"] td[data-meal="breakfast"]')).to_have_attribute(
        "data-label", w["breakfast"])
    await expect(grid.locator('tr[data-day="monday"] td[data-meal="presleep"] .nt-slot-macros')).to_contain_text(w["kcal"])
    await expect(page.get_by_test_id("recipe").first.get_by_test_id("recipe-steps").locator("li").first).not_to_be_empty()
    await expect(page.get_by_test_id("training-table").locator("tbody tr").first).to_be_visible()
    body = await page.locator("#nt-pane").inner_text()
    assert not [text for text in ENGLISH if text in body]
    await _no_page_overflow(page)
    await _shot(page, f"{locale}_plan")

    # a weekly check-in: the first needs waist and hips (said in words), then its adjustment
    await page.get_by_test_id("checkin-weight").fill("56.4")
    await page.get_by_test_id("checkin-submit").click()
    await expect(page.get_by_test_id("checkin-form").get_by_test_id("form-error")).to_contain_text(w["fix"])
    waist = page.locator('.nt-field[data-field="waist_cm"]')
    await expect(waist.locator(".field-label")).to_contain_text(w["waist"])
    await expect(waist.get_by_test_id("field-error")).to_contain_text(w["required"])
    await page.get_by_test_id("checkin-waist").fill("68")
    await page.get_by_test_id("checkin-hip").fill("94")
    await page.get_by_test_id("checkin-submit").click()
    adjustment = page.get_by_test_id("adjustment-table")
    await expect(adjustment.locator('tr[data-key="type"]')).to_have_attribute("data-value", "no_change", timeout=RUN_MS)
    await expect(adjustment.locator('tr[data-key="type"] td')).to_have_text(w["no_change"])
    await expect(adjustment.locator('tr[data-key="unchanged"] td')).to_contain_text(w["dietitian"])
    await expect(page.get_by_test_id("nutrition-error")).to_be_hidden()
    await _no_page_overflow(page)
    await _shot(page, f"{locale}_checkin")


async def test_a_medical_stop_is_said_in_words_and_clearance_lets_a_new_run_start(page, server, db,
                                                                                  factory) -> None:
    w = WORDS["he"]
    org = await factory.org()
    owner = await factory.user(org, role="owner", name="Maya")
    coach = await factory.user(org, role="coach", name="Gil")
    async with db.scope(org_id=org.id) as session:
        noa = (await members.create_member(session, org.id, first_name="Noa", last_name="Levi",
                                           joined_at=date(2026, 1, 5))).id

    # the owner starts Noa's run with a condition that stops it (typed into the intake form)
    await _open(page, server, owner.token, "he")
    member = page.locator(f'[data-testid="member-link"][data-member-id="{noa}"]')
    await member.click()
    await expect(page.get_by_test_id("no-runs-member")).to_be_visible()
    await page.get_by_test_id("new-run").click()
    await expect(page.get_by_test_id("intake-conditions")).to_have_value("")
    await fill_intake(page, form_values(samples.INTAKE))
    await page.get_by_test_id("intake-conditions").fill("bulimia")
    await page.get_by_test_id("start-run").click()
    done = page.get_by_test_id("timeline").locator('[data-testid="timeline-event"][data-type="done"]')
    await expect(done).to_have_attribute("data-state", "error", timeout=RUN_MS)
    await expect(page.get_by_test_id("terminated-medical")).to_contain_text(w["abort"])
    await _shot(page, "he_stopped")

    # a coach: the stop in words, the clearance form, the 409 in words, and a health question
    await _open(page, server, coach.token, "he")
    await expect(member.get_by_test_id("needs-clearance")).to_be_visible()
    await member.click()
    await expect(page.get_by_test_id("run-state")).to_have_attribute("data-state", "error")
    await expect(page.get_by_test_id("run-state")).to_have_text(w["stopped"])
    await expect(page.get_by_test_id("terminated-medical")).to_contain_text(w["abort"])
    await expect(page.get_by_test_id("run-error")).to_have_attribute("data-error-type", "physician_abort")
    await expect(page.get_by_test_id("run-error")).to_contain_text(w["abort"])
    await expect(page.get_by_test_id("run-error")).to_contain_text(w["final"])
    await expect(page.get_by_test_id("medical-notes")).to_contain_text(w["notes"])
    await expect(page.get_by_test_id("record-clearance")).to_have_count(1)  # a coach records clearance too
    await expect(page.get_by_test_id("clearance-who")).to_have_count(0)

    health = page.get_by_test_id("health-questions")
    await health.get_by_test_id("health-ask").click()
    await expect(health.get_by_test_id("health-error")).to_contain_text(w["empty"])
    await health.get_by_test_id("health-query").fill("Is creatine safe for me?")
    await health.get_by_test_id("health-ask").click()
    answer = health.get_by_test_id("health-context")
    await expect(answer.get_by_test_id("medical-action")).to_have_attribute("data-value", "continue", timeout=RUN_MS)
    await expect(answer.get_by_test_id("medical-action")).to_have_text(w["continue"])
    await expect(answer.get_by_test_id("medical-disclaimer")).not_to_be_empty()
    await expect(health.get_by_test_id("health-error")).to_be_hidden()

    await page.get_by_test_id("new-run").click()
    await expect(page.get_by_test_id("intake-conditions")).to_have_value("bulimia")  # Noa's last answers
    await page.get_by_test_id("start-run").click()
    error = page.get_by_test_id("intake-form").get_by_test_id("form-error")
    await expect(error).to_have_attribute("data-code", "medical_clearance_required")
    await expect(error).to_contain_text(w["clearance409"])
    await _shot(page, "he_needs_clearance")

    # the owner records clearance; then a new run starts and finishes
    await _open(page, server, owner.token, "he")
    await member.click()
    clearance = page.get_by_test_id("clearance")
    await clearance.get_by_test_id("clearance-note").fill("GP letter, 2026-11-20")
    await member.click()  # the list and the run drawn again (as a late render does): the note typed stays
    await expect(page.get_by_test_id("run-state")).to_have_attribute("data-state", "error")
    await expect(clearance.get_by_test_id("clearance-note")).to_have_value("GP letter, 2026-11-20")
    await clearance.get_by_test_id("record-clearance").click()
    await expect(clearance.get_by_test_id("clearance-done")).to_be_visible()  # its text is there while hidden too
    await expect(clearance.get_by_test_id("clearance-done")).to_contain_text(w["cleared"])
    await expect(member.get_by_test_id("needs-clearance")).to_have_count(0)
    await page.get_by_test_id("new-run").click()
    await page.get_by_test_id("intake-conditions").fill("")  # what the clinician cleared
    await page.get_by_test_id("start-run").click()
    await expect(page.get_by_test_id("run-state")).to_have_attribute("data-state", "output_ready", timeout=RUN_MS)
    await expect(page.get_by_test_id("run-link")).to_have_count(2)
    await _shot(page, "he_cleared")
