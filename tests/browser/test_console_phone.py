"""Issue 17 items 2, 6 and 9 at phone size (390 × 844): the list is a drawer, the chat gets the height,
the composer stays in view, cards span the width; conversations can be searched; the empty state has a mark."""

from __future__ import annotations

import pytest

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


async def _box(locator) -> dict:
    box = await locator.bounding_box()
    assert box is not None
    return box


async def test_phone_layout_drawer_tall_chat_fixed_composer_full_width_cards(console, fake_model) -> None:
    page = console.page
    await page.set_viewport_size(PHONE)
    await expect(page.get_by_test_id("new-conversation")).not_to_be_in_viewport()
    assert (await _box(page.locator("#chat-log")))["height"] > 600
    await expect(page.get_by_test_id("composer")).to_be_in_viewport()

    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Clean the rower"}, id="toolu_mk")), Reply(Text("Created.")))
    await console.send("add a task: Clean the rower")
    card = console.card("toolu_mk")
    await expect(card).to_have_attribute("data-status", "succeeded")
    assert (await _box(card))["width"] > 340
    await expect(page.get_by_test_id("composer")).to_be_in_viewport()

    await page.get_by_test_id("menu-toggle").click()
    item = page.get_by_test_id("conversation-item").first
    await expect(item).to_be_in_viewport()
    await page.get_by_test_id("new-conversation").click()
    await expect(page.get_by_test_id("new-conversation")).not_to_be_in_viewport()
    await expect(page.get_by_test_id("empty-state")).to_be_visible()
    await page.get_by_test_id("menu-toggle").click()
    await item.click()
    await expect(item).not_to_be_in_viewport()
    await expect(console.assistant_text("Created.")).to_be_visible()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_conversations_can_be_searched_and_empty_state_has_a_mark(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    await expect(page.locator(".empty-mark")).to_have_text("S")
    for question in ("revenue this month", "who is at risk"):
        if viewport:
            await page.get_by_test_id("menu-toggle").click()
        await page.get_by_test_id("new-conversation").click()
        fake_model.queue(Reply(Text(f"About {question}.")))
        await console.send(question)
        await expect(console.assistant_text(f"About {question}.")).to_be_visible()
    if viewport:
        await page.get_by_test_id("menu-toggle").click()
    await expect(page.get_by_test_id("conversation-item")).to_have_count(2)
    await page.get_by_test_id("conversation-search").fill("REVENUE")
    await expect(page.get_by_test_id("conversation-item")).to_have_count(1)
    await expect(page.get_by_test_id("conversation-item")).to_contain_text("revenue this month")
    await page.get_by_test_id("conversation-search").fill("nothing like this")
    await expect(page.get_by_test_id("conversation-no-match")).to_be_visible()
