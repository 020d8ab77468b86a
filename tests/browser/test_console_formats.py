"""Issue 17 item 4: one money and date format per locale in the console, via the browser's Intl: no
"420.00 ILS" beside "₪69,580.00", no raw ISO timestamps in what people read (desktop and phone, en and ru)."""

from __future__ import annotations

import re

import pytest

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
REPLY = ("Revenue this month: ₪69,580.00. Dana pays 420.00 ILS per class pack. "
         "Local time: 2026-11-23T21:12+02:00. Next class on 2026-11-24.")


@pytest.mark.parametrize("viewport,locale", [(None, "en"), (PHONE, "ru")], ids=["desktop-en", "phone-ru"])
async def test_reply_money_and_dates_share_one_intl_format(console, fake_model, viewport, locale) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    if locale != "en":
        await page.get_by_test_id("locale-select").select_option(locale)
    fake_model.queue(Reply(Text(REPLY)))
    await console.send("how are we doing")
    bubble = console.assistant_text("69")
    await expect(bubble).to_have_class(re.compile(r"\bmd\b"))  # the finished reply, rendered (not mid-stream)
    expected = await page.evaluate("""(loc) => {
        const money = (n) => new Intl.NumberFormat(loc, {style: 'currency', currency: 'ILS'}).format(n);
        const utc = {timeZone: 'UTC'};
        return [money(69580), money(420),
                new Intl.DateTimeFormat(loc, {year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit',
                                              minute: '2-digit', hourCycle: 'h23', ...utc})
                  .format(Date.UTC(2026, 10, 23, 21, 12)),
                new Intl.DateTimeFormat(loc, {dateStyle: 'medium', ...utc}).format(Date.UTC(2026, 10, 24))];
    }""", locale)
    text = await bubble.inner_text()
    for part in expected:
        assert part in text, (part, text)
    assert "ILS" not in text and "2026-11-2" not in text and "T21:12" not in text
    if locale == "en":
        # one clock for every language (issue 27 item 6): 24 hours, as the gym's own schedule reads
        assert "₪69,580.00" in text and "₪420.00" in text and "21:12" in text and "PM" not in text
    else:
        assert "21:12" in text and "ноя" in text
    usage = await page.get_by_test_id("usage-amount").inner_text()
    usd = await page.evaluate("(loc) => new Intl.NumberFormat(loc, {style: 'currency', currency: 'USD'}).format(5)",
                              locale)
    assert usage.endswith(usd), (usage, usd)


async def test_picker_details_use_the_same_formats(console, fake_model) -> None:
    page = console.page
    await page.get_by_test_id("locale-select").select_option("ru")
    candidates = [{"id": "m1", "label": "Saar Levi", "sublabel": "Unlimited, 420.00 ILS",
                   "detail": "Last visit 2026-11-19T18:30+02:00"},
                  {"id": "m2", "label": "Saar Cohen", "sublabel": "Class pack, ₪450.00"}]
    fake_model.queue(Reply(ToolUse("read__ask_user_to_pick", {"kind": "member", "prompt": "Which Saar?",
                                                             "candidates": candidates}, id="toolu_pick")))
    await console.send("find Saar")
    picker = page.get_by_test_id("picker-card")
    await expect(picker).to_be_visible()
    text = await picker.inner_text()
    expected = await page.evaluate("""() => [
        new Intl.NumberFormat('ru', {style: 'currency', currency: 'ILS'}).format(420),
        new Intl.NumberFormat('ru', {style: 'currency', currency: 'ILS'}).format(450),
        new Intl.DateTimeFormat('ru', {dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC'})
          .format(Date.UTC(2026, 10, 19, 18, 30))]""")
    for part in expected:
        assert part in text, (part, text)
    assert "ILS" not in text and "₪450.00" not in text and "2026-11-19" not in text
