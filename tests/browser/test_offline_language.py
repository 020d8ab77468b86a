"""Issue 17 item 8: the offline demo model answers in the UI's language. The console sends the UI language
(X-Locale), the turn context carries it as the reply locale, and the offline model renders its reply from
locales/<lang>.json: with the UI switched to Hebrew or Russian, "find Saar" is answered in that language
(desktop and phone)."""

from __future__ import annotations

import pytest

from core.i18n import translate
from offline_model.model import LABEL
from tests.browser.test_offline_demo import owner_console  # noqa: F401 (a fixture)
from tests.browser.waits import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport,locale", [(None, "he"), (PHONE, "ru"), (None, "ru"), (PHONE, "he")],
                         ids=["desktop-he", "phone-ru", "desktop-ru", "phone-he"])
async def test_offline_model_answers_in_the_ui_language(owner_console, viewport, locale) -> None:  # noqa: F811
    console, page = owner_console, owner_console.page
    if viewport:
        await page.set_viewport_size(viewport)
    await page.get_by_test_id("locale-select").select_option(locale)
    await expect(page.locator("html")).to_have_attribute("lang", locale)
    await console.send("find Saar")
    await expect(page.get_by_test_id("picker-card")).to_be_visible()
    several = translate("offline.text.member_several", locale, n=2, query="Saar")
    reply = console.assistant_text(several)
    await expect(reply).to_be_visible()
    await expect(reply).to_contain_text(LABEL[locale])
    assert LABEL["en"] not in await reply.inner_text()
