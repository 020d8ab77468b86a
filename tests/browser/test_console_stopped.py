"""Issue 17 item 7: nothing typed is lost. Stop mid-turn, reopen: the message is there, marked "Stopped"."""

from __future__ import annotations

import pytest

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_stopped_message_is_kept_and_marked_stopped_on_reopen(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    fake_model.chunk_delay = 0.3
    fake_model.queue(Reply(Text("Counting every member one by one, this takes a while to finish.", chunks=20)))
    await console.send("count the members slowly")
    await expect(page.locator('[data-testid="assistant-text"].streaming')).to_have_count(1)
    await page.get_by_test_id("stop").click()
    await expect(page.get_by_text("Stopped.")).to_be_visible()

    if viewport:  # on a phone the list lives in the drawer
        await page.get_by_test_id("menu-toggle").click()
    await page.get_by_test_id("new-conversation").click()
    await expect(page.get_by_test_id("empty-state")).to_be_visible()
    if viewport:
        await page.get_by_test_id("menu-toggle").click()
    await page.get_by_test_id("conversation-item").first.click()
    await expect(page.get_by_test_id("user-text")).to_have_text("count the members slowly")
    await expect(page.get_by_test_id("turn-stopped")).to_be_visible()
