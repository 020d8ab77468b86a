"""Issue 43 item 5, in Chromium at 390×844 and 1366×900 in en, he and ru: the calendar's week starts on Sunday in
Hebrew (Monday before, in every language); the month's title has only its first letter up ("Ноябрь 2026 Г." before);
a day is written one way everywhere — the calendar, the history and the trainer's sentences (core.i18n.format_day:
"вс, 29 ноября", the month in the genitive; the trainer wrote "воскресенье 29.11", and "до воскресенье"); the
trainer's tab does not say "Loading usage…" forever (a member has no usage to load). Screenshots per step."""

from __future__ import annotations

from datetime import date

import pytest

from core.i18n import format_day, translate
from offline_model import trainer_say
from tests.browser.member_tab import (
    COMBO_IDS,
    COMBOS,
    member_with_history,
    open_today,
    tab_fixture,  # noqa: F401 (the fixture)
)
from tests.browser.waits import expect

pytestmark = pytest.mark.browser
WEEK_STARTS = {"en": "Monday", "he": "Sunday", "ru": "Monday"}


@pytest.mark.parametrize("combo", COMBOS, ids=COMBO_IDS)
async def test_calendar_week_start_month_title_and_one_day_format(tab, server, db, factory, combo) -> None:
    t = await member_with_history(db, factory)
    page = tab.page
    await open_today(tab, server, t)
    await page.get_by_test_id("nav-calendar").click()
    await expect(page.get_by_test_id("streak")).to_be_visible()
    first = date.fromisoformat(await page.get_by_test_id("calendar-day").first.get_attribute("data-date"))
    starts = WEEK_STARTS[tab.lang]
    lead = (first.weekday() + (1 if starts == "Sunday" else 0)) % 7  # Python: Monday 0 … Sunday 6
    await expect(page.locator(".cal-blank")).to_have_count(lead)
    sunday_or_monday = await page.evaluate(
        """([lang, day]) => new Intl.DateTimeFormat(lang, {weekday: 'short', timeZone: 'UTC'})
            .format(new Date(Date.UTC(2024, 0, day)))""", [tab.lang, 7 if starts == "Sunday" else 1])
    await expect(page.locator(".cal-weekday").first).to_have_text(sunday_or_monday)

    title = page.get_by_test_id("calendar-title")
    written = await title.text_content()
    assert await title.inner_text() == written  # no CSS transform raising every word
    assert written[0] == written[0].upper() and (tab.lang != "ru" or written.endswith(" г.")), written

    today = date.fromisoformat(await page.locator('[data-testid="calendar-day"][aria-current="date"]').get_attribute(
        "data-date"))
    await expect(page.get_by_test_id("calendar-detail").locator("h3")).to_have_text(format_day(today, tab.lang))
    assert trainer_say.day(tab.lang, today) == format_day(today, tab.lang)  # the trainer writes days the same way
    await tab.shot("calendar")

    await page.get_by_test_id("nav-progress").click()
    day = page.get_by_test_id("history-day").first
    await expect(day.locator("h3")).to_have_text(format_day(date.fromisoformat(await day.get_attribute("data-date")),
                                                            tab.lang))
    await page.get_by_test_id("nav-trainer").click()
    await expect(page.get_by_test_id("composer")).to_be_visible()
    footer = page.get_by_test_id("usage-footer")
    await expect(footer).to_be_hidden()
    await expect(footer).not_to_contain_text(translate("console.usage.loading", tab.lang))
    await tab.shot("trainer")


def test_russian_trainer_dates_are_genitive_and_the_same_as_the_app() -> None:
    """The trainer's "until" reads "до вс, 29 ноября" (a date, the month in the genitive), not "до воскресенье 29.11"."""
    sunday = date(2026, 11, 29)
    assert format_day(sunday, "ru") == "вс, 29 ноября"
    assert format_day(sunday, "en") == "Sun, November 29"
    assert trainer_say.say("ru", "until", date=trainer_say.day("ru", sunday)) == " до вс, 29 ноября"
    assert trainer_say.moment("ru", "2026-11-27T07:00:00+02:00") == "пт, 27 ноября, 07:00"
