"""Issue 43 item 1, in Chromium at 390×844 and 1366×900 in en, he and ru: beside each set row, what the member did
last time ("Last time: 14 kg × 8", from the service's `previous`: the newest earlier session of that library
exercise); on a set not logged yet it fills the row. Before, the screen showed nothing of it. Screenshots per step."""

from __future__ import annotations

import pytest

from core.i18n import format_number, translate
from tests.browser.member_tab import (
    COMBO_IDS,
    COMBOS,
    member_with_history,
    open_today,
    set_row,
    tab_fixture,  # noqa: F401 (the fixture)
)
from tests.browser.waits import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("combo", COMBOS, ids=COMBO_IDS)
async def test_each_set_row_says_last_time_and_fills_from_it(tab, server, db, factory, combo) -> None:
    t = await member_with_history(db, factory)  # bench 14 kg × 10, × 8 three days ago
    page = tab.page
    await open_today(tab, server, t)
    kg = translate("console.train.unit.kg", tab.lang)
    label = translate("console.train.set.previous", tab.lang)
    for n, reps in ((1, 10), (2, 8)):
        last = set_row(page, 0, n).get_by_test_id("set-previous")
        await expect(last).to_have_text(f"{label} {format_number(14, tab.lang)} {kg} × {reps}")
    await expect(page.get_by_test_id("today-exercise").nth(1).get_by_test_id("set-previous")).to_have_count(0)

    second = set_row(page, 0, 2)
    await second.get_by_test_id("set-load").fill("20")
    await second.get_by_test_id("set-previous").click()
    await expect(second.get_by_test_id("set-load")).to_have_value("14")
    await expect(second.get_by_test_id("set-reps")).to_have_value("8")
    await second.get_by_test_id("set-check").click()
    await expect(second).to_have_attribute("data-state", "logged")
    await expect(second.get_by_test_id("set-previous")).to_contain_text("× 8")  # still said once logged
    await tab.axe("today-previous")
    await tab.shot("previous")
