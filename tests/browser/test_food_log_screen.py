"""The member's food log screen (issue 43 item 6) in Chromium at 390×844 and 1366×900, in English, Hebrew and Russian.

A member with a plan (target 2,540 kcal) who logged the hand-computed 21-day series of
tests/gym/nutrition/test_weight_trend.py opens Food: the day's targets are the plan's; they find a library food by
searching in their language and log a portion, add a quick entry, and see the totals move; they log today's weight
(78.5 kg instead of the series' 78.66) and the trend and the estimated expenditure follow it, worked by hand:

    trend on day 21 = 79.06 + 0.1 × (78.50 − 79.06) = 79.06 − 0.056 = 79.004 → 79.0 kg
    expenditure = 2,100 − (79.004 − 80.00) × 7,700 ÷ 20 = 2,100 + 383.46 = 2,483.46 → 2,483 kcal/day
    against the formula's 3,088: (2,483.46 − 3,087.75) ÷ 3,087.75 = −19.6 %: offered

They accept the estimate (stored as their choice; the plan keeps the formula until the next check-in) and remove
the quick entry, and go back a day to the series' day 20. axe-core reports no serious or critical violation; the page never scrolls sideways on a phone; a
screenshot per language and size lands in test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from sqlalchemy import text

from core.i18n import translate
from tests.browser.axe import serious_violations
from tests.browser.conftest import GRANTED, _screenshot_path, watched_page
from tests.browser.waits import expect
from tests.pipeline.food_log_setup import planned_member

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
LOCALES = {"en": "en-US", "he": "he-IL", "ru": "ru-RU"}
COMBOS = [(lang, size) for lang in LOCALES for size in SIZES]
# (words typed, the food it finds, its name in that language, amount, unit, kcal worked by hand)
SEARCH = {"en": ("oats", "rolled oats", "rolled oats", "100", "g", 379.0),             # 379 kcal/100 g × 1
          "he": ("ביצים", "egg", "ביצה", "2", "serving", 143.0),                         # 2 × 50 g × 1.43 kcal/g
          "ru": ("курица", "chicken breast", "куриная грудка", "200", "g", 240.0)}     # 200 g × 1.20 kcal/g
QUICK_KCAL = 500.0


@pytest.fixture
async def food_page(browser, server, request) -> AsyncIterator[object]:
    lang, size = request.param
    async with watched_page(browser, server, request, locale=LOCALES[lang], viewport=SIZES[size], permissions=GRANTED,
                            init_script=f"localStorage.setItem('spotter.locale', '{lang}')",
                            what="on the food screen") as (tab, _):
        yield tab


async def _axe(page, where: str) -> None:
    bad = await serious_violations(page)
    assert bad == [], f"axe on {where}: {bad}"


async def _sideways(page) -> int:
    """How far the page or the view scrolls sideways (0: it does not)."""
    return await page.evaluate("""() => Math.max(
        document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth,
        ...[...document.querySelectorAll('#member-view, [data-testid="food"]')].map((n) => n.scrollWidth - n.clientWidth))""")


async def _total(page, key: str) -> float:
    return float(await page.get_by_test_id(f"food-total-{key}").get_attribute("data-eaten"))


@pytest.mark.parametrize("food_page", COMBOS, indirect=True, ids=[f"{lang}-{size}" for lang, size in COMBOS])
async def test_the_food_log_screen(food_page, server, client, db, factory, request) -> None:
    page = food_page
    lang = request.node.callspec.params["food_page"][0]
    org, user, member_id, _, _, today = await planned_member(client, db, factory)
    await page.goto(f"{server.url}/console/#token={user.token}")
    await expect(page.get_by_test_id("user-role")).to_have_attribute("data-role", "member")
    await expect(page.get_by_test_id("nav-food")).to_have_text(re.compile(re.escape(translate("console.train.nav.food", lang))))
    await page.get_by_test_id("nav-food").click()
    await expect(page.get_by_test_id("food-day")).to_have_text(translate("console.food.today", lang))
    assert await page.evaluate("document.documentElement.dir") == ("rtl" if lang == "he" else "ltr")

    # the plan's targets; nothing eaten yet today (the series' food is on the days before)
    calories = page.get_by_test_id("food-total-calories")
    await expect(calories).to_have_attribute("data-target", "2540")
    assert await _total(page, "calories") == 0
    await expect(page.get_by_test_id("food-weight-input")).to_have_value("78.66")
    await expect(page.get_by_test_id("food-expenditure")).to_have_attribute("data-kcal", "2477")
    await _axe(page, f"food {lang}")

    # a library food found by the member's words, in a portion
    words, key, name, amount, unit, kcal = SEARCH[lang]
    await page.get_by_test_id("food-search").fill(words)
    found = page.locator(f'[data-testid="food-result"][data-key="{key}"]')
    await expect(found).to_contain_text(name)
    await found.click()
    await expect(page.get_by_test_id("food-search")).to_have_value(words)  # the words stay with the food picked
    await page.get_by_test_id("food-amount").fill(amount)
    await page.get_by_test_id("food-unit").select_option(unit)
    await page.get_by_test_id("food-add").click()
    entry = page.locator(f'[data-testid="food-entry"][data-key="{key}"]')
    await expect(entry).to_contain_text(name)
    await expect(calories).to_have_attribute("data-eaten", f"{kcal:g}")

    # a quick entry of calories
    await page.get_by_test_id("food-mode-quick").click()
    await page.get_by_test_id("food-quick-calories").fill(str(int(QUICK_KCAL)))
    await page.get_by_test_id("food-quick-add").click()
    await expect(calories).to_have_attribute("data-eaten", f"{kcal + QUICK_KCAL:g}")
    await expect(page.locator('[data-testid="food-entry"][data-kind="quick"]')).to_have_count(1)

    # today's weight moves the trend and the estimate
    await page.get_by_test_id("food-weight-input").fill("78.5")
    await page.get_by_test_id("food-weight-save").click()
    await expect(page.get_by_test_id("food-trend-now")).to_have_attribute("data-value", "79")  # 79.004 to two decimals: 79.0
    spent = page.get_by_test_id("food-expenditure")
    await expect(spent).to_have_attribute("data-kcal", "2483")
    await expect(spent).to_have_attribute("data-confidence", "high")
    await expect(page.get_by_test_id("food-offer")).to_be_visible()
    await expect(page.get_by_test_id("food-trend-chart")).to_be_visible()
    await _axe(page, f"food with entries and the offer {lang}")
    assert await _sideways(page) <= 0
    await page.get_by_test_id("food-trend").scroll_into_view_if_needed()
    await page.screenshot(path=str(_screenshot_path(request.config.rootpath, f"{request.node.name}-trend")))

    # accept the estimate: stored as the member's choice
    await page.get_by_test_id("food-accept-estimate").click()
    await expect(page.get_by_test_id("food-accept-estimate")).to_have_attribute("aria-pressed", "true")
    await expect(page.get_by_test_id("food-tdee-state")).to_have_attribute("data-in-use", "formula")
    async with db.owner() as session:
        choice = (await session.execute(text("SELECT choice, estimate_kcal FROM expenditure_choices WHERE member_id = :m"),
                                        {"m": member_id})).one()
        weight = await session.scalar(text("SELECT weight_kg FROM body_weights WHERE member_id = :m AND measured_on = :d"),
                                      {"m": member_id, "d": today})
    assert (choice.choice, choice.estimate_kcal, float(weight)) == ("estimate", 2483, 78.5)

    # remove the quick entry: the totals go back
    await page.locator('[data-testid="food-entry"][data-kind="quick"]').get_by_test_id("food-remove").click()
    await expect(calories).to_have_attribute("data-eaten", f"{kcal:g}")
    await expect(page.locator('[data-testid="food-entry"][data-kind="quick"]')).to_have_count(0)
    assert await _sideways(page) <= 0
    await _axe(page, f"food after removing {lang}")

    # any day: yesterday holds the series' day 20 (2,250 kcal, 78.88 kg), and a weight logged there is that day's
    await page.get_by_test_id("food-prev-day").click()
    await expect(page.get_by_test_id("food-day")).to_have_attribute("data-date", str(today - timedelta(days=1)))
    await expect(calories).to_have_attribute("data-eaten", "2250")
    await expect(page.get_by_test_id("food-weight-input")).to_have_value("78.88")
    await expect(page.get_by_test_id("food-next-day")).to_be_enabled()
