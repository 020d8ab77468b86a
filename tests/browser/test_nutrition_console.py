"""The nutrition page of the console in Chromium: staff pick a demo member, start a run and watch its
timeline reach `output_ready` (offline agents, in-process worker), read the output tables, submit a
check-in and see the adjustment; a member with a red flag sees their paused run's referral (in English, and
in Hebrew on a phone) and resumes it with the acknowledge button. Desktop and phone sizes; checked against
the API's own answers."""

from __future__ import annotations

import uuid
from datetime import date
from pathlib import Path

import pytest

from gym import members
from gym.demo.seed import DANI_MEMBER_ID, SAAR_COHEN_ID
from tests.browser.nutrition_page import fill_intake, form_values
from tests.browser.waits import expect
from tests.gym.nutrition import samples

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
RUN_MS = 90_000  # a whole offline run on a loaded 2-core machine
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


async def _open(page, server, token: str, fragment: str = "") -> None:
    await page.goto(f"{server.url}/console/nutrition.html#token={token}{fragment}")
    await expect(page.get_by_test_id("run-list")).to_be_visible()


async def _read_tables(page) -> None:
    macros = page.get_by_test_id("macros-table")
    await expect(macros.locator('tr[data-key="target_intake_kcal"]')).to_contain_text("2,180")
    grid = page.get_by_test_id("meal-grid")
    await expect(grid.locator("tbody tr")).to_have_count(7)
    await expect(grid.locator("tbody tr").first.locator("td")).to_have_count(5)
    await expect(grid.locator('tr[data-day="monday"] td[data-meal="breakfast"] .nt-recipe-name')).not_to_be_empty()
    recipe = page.get_by_test_id("recipe").first
    await expect(recipe.get_by_test_id("recipe-ingredients").locator("tbody tr").first).to_be_visible()
    await expect(recipe.get_by_test_id("recipe-steps").locator("li").first).not_to_be_empty()
    await expect(page.get_by_test_id("training-table").locator("tbody tr").first).to_be_visible()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_staff_start_a_run_watch_it_finish_read_it_and_check_in(page, server, harbor_owner, viewport) -> None:
    if viewport:
        await page.set_viewport_size(viewport)
    await _open(page, server, harbor_owner.token)

    # Dani's seeded run: pick her, read her plan
    await page.locator(f'[data-testid="member-link"][data-member-id="{DANI_MEMBER_ID}"]').click()
    await expect(page.get_by_test_id("run-state")).to_have_attribute("data-state", "output_ready", timeout=RUN_MS)
    await _read_tables(page)

    # a new run for another demo member, followed live to output_ready
    await page.get_by_test_id("member-search").fill("Saar Cohen")
    saar = page.locator(f'[data-testid="member-link"][data-member-id="{SAAR_COHEN_ID}"]')
    await expect(saar).to_contain_text("Saar Cohen")
    await saar.click()
    await expect(saar).to_have_attribute("aria-pressed", "true")
    await expect(page.get_by_test_id("no-runs-member")).to_be_visible()
    await page.get_by_test_id("new-run").click()
    await expect(page.get_by_test_id("intake-current_weight_kg")).to_have_value("")  # never a sample's numbers
    await fill_intake(page, form_values(samples.INTAKE))  # the intake, typed in
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"nutrition_intake_{'phone' if viewport else 'desktop'}.png"))
    await page.get_by_test_id("start-run").click()
    timeline = page.get_by_test_id("timeline")
    done = timeline.locator('[data-testid="timeline-event"][data-type="done"]')
    await expect(done).to_have_attribute("data-state", "output_ready", timeout=RUN_MS)
    states = await timeline.locator('[data-type="state"]').evaluate_all("els => els.map(e => e.dataset.state)")
    assert states == ["intake_pending", "scientist_processing", "nutritionist_processing", "dietitian_processing",
                      "chef_processing", "coach_processing", "output_ready"]
    await expect(page.get_by_test_id("run-state")).to_have_attribute("data-state", "output_ready")
    await _read_tables(page)

    # a weekly check-in: the first one needs waist and hips; a luteal one re-runs DIETITIAN and CHEF (004 §10),
    # the timeline follows them and the run is v2
    await page.get_by_test_id("checkin-weight").fill("56.4")
    await page.get_by_test_id("checkin-cycle").select_option("luteal")
    await page.get_by_test_id("checkin-submit").click()
    await expect(page.locator('.nt-field[data-field="waist_cm"] [data-testid="field-error"]')).to_contain_text("required")
    await page.get_by_test_id("checkin-waist").fill("68")
    await page.get_by_test_id("checkin-hip").fill("94")
    await page.get_by_test_id("checkin-submit").click()
    adjustment = page.get_by_test_id("adjustment-table")
    await expect(adjustment).to_be_visible(timeout=RUN_MS)
    await expect(page.get_by_test_id("run-version")).to_have_text("v2", timeout=RUN_MS)
    await expect(adjustment.locator('tr[data-key="rerun"]')).to_have_attribute("data-value", "DIETITIAN CHEF",
                                                                              timeout=RUN_MS)
    await expect(adjustment.locator('tr[data-key="rerun"]')).to_contain_text("Dietitian, Chef")
    await expect(timeline.locator('[data-type="state"][data-state="chef_processing"]')).to_have_count(2)
    await expect(page.get_by_test_id("run-state")).to_have_attribute("data-state", "output_ready", timeout=RUN_MS)
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"nutrition_checkin_{'phone' if viewport else 'desktop'}.png"))

    # one check-in per date: a different one for today is refused in words, and the plan stays v2
    await page.get_by_test_id("checkin-weight").fill("56.5")
    await page.get_by_test_id("checkin-submit").click()
    refused = page.get_by_test_id("checkin-form").get_by_test_id("form-error")
    await expect(refused).to_have_attribute("data-code", "checkin_exists")
    await expect(refused).to_contain_text("already recorded for this date")
    await expect(page.get_by_test_id("run-version")).to_have_text("v2")
    await _read_tables(page)


REFERRAL_WORDS = {"en": ("Paused: medical referral needed", "Soon", "Referral acknowledged — resume"),
                  "he": ("מושהית: נדרשת הפניה רפואית", "בקרוב", "ההפניה התקבלה — להמשיך")}


@pytest.mark.parametrize(("viewport", "locale"), [(None, "en"), (PHONE, "he")], ids=["desktop-en", "phone-he"])
async def test_a_member_acknowledges_the_referral_of_a_paused_run(page, server, client, db, factory,
                                                                 viewport, locale) -> None:
    if viewport:
        await page.set_viewport_size(viewport)
    org = await factory.org()
    user = await factory.user(org, role="member", name="Noa")
    async with db.scope(org_id=org.id) as session:
        await members.create_member(session, org.id, first_name="Noa", user_id=user.id, joined_at=date(2026, 1, 5))
    started = await client.post(f"/organizations/{org.id}/nutrition/runs", headers=user.headers,
                                json={"intake": {**samples.INTAKE, "menstrual_status": "amenorrhea"}})
    assert started.status_code == 202, started.text
    run_id = uuid.UUID(started.json()["runId"])

    await _open(page, server, user.token)
    await page.get_by_test_id("locale-select").select_option(locale)
    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if locale == "he" else "ltr")
    title, soon, button = REFERRAL_WORDS[locale]
    await expect(page.get_by_test_id("member-picker")).to_be_hidden()
    await expect(page.get_by_test_id("run-link")).to_have_count(1)
    referral = page.get_by_test_id("referral")
    await expect(referral).to_be_visible(timeout=RUN_MS)
    await expect(page.get_by_test_id("run-state")).to_have_attribute("data-state", "paused_physician")
    await expect(referral.get_by_test_id("medical-urgency")).to_have_attribute("data-value", "soon")
    await expect(referral.get_by_test_id("medical-urgency")).to_have_text(soon)
    await expect(referral.locator("h3")).to_have_text(title)
    await expect(referral.get_by_test_id("acknowledge-referral")).to_have_text(button)
    await expect(page.locator("#nt-runs-for")).to_contain_text("Noa")
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"nutrition_referral_{'phone' if viewport else 'desktop'}_{locale}.png"))
    await referral.get_by_test_id("acknowledge-referral").click()
    await expect(page.get_by_test_id("run-state")).to_have_attribute("data-state", "output_ready", timeout=RUN_MS)
    await expect(page.get_by_test_id("referral")).to_have_count(0)
    await _read_tables(page)
    detail = await client.get(f"/organizations/{org.id}/nutrition/runs/{run_id}", headers=user.headers)
    assert detail.json()["run"]["state"] == "output_ready"
