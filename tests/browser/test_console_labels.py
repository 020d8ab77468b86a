"""Issue 17 item 4: cards carry human tool labels in the UI language; Details show fields in words (issue 44)."""

from __future__ import annotations

import pytest

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_card_title_is_a_human_label_and_timing_sits_in_details(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Clean the rower"}, id="toolu_mk")), Reply(Text("Created.")))
    await console.send("add a task: Clean the rower")
    card = console.card("toolu_mk")
    await expect(card).to_have_attribute("data-status", "succeeded")
    await expect(card.get_by_test_id("tool-label")).to_have_text("Create a task")
    visible = await card.inner_text()
    assert "tasks" not in visible.lower().replace("a task", "") and " ms" not in visible
    await card.locator("details.card-details > summary").click()
    # issue 44: Details are the input and output in words; the tool's technical name is not for people
    details = card.locator("details.card-details")
    await expect(details.get_by_test_id("detail-fields").first).to_contain_text("Clean the rower")
    await expect(details).not_to_contain_text("tasks · create")

    await page.get_by_test_id("locale-select").select_option("he")
    await expect(card.get_by_test_id("tool-label")).to_have_text("יצירת משימה")
    await page.get_by_test_id("locale-select").select_option("ru")
    await expect(card.get_by_test_id("tool-label")).to_have_text("Создать задачу")
