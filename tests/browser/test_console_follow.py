"""Issue 17 item 1: the chat follows the conversation, always shows what was sent, offers "jump to latest"."""

from __future__ import annotations

import pytest

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse

pytestmark = pytest.mark.browser

LONG = "\n".join(f"Line {i}: the member list keeps going with more detail." for i in range(30))
PHONE = {"width": 390, "height": 844}


async def _fill(console, fake_model, turns: int = 3) -> None:
    for i in range(turns):
        fake_model.queue(Reply(Text(f"{LONG}\nEnd {i}.")))
        await console.send(f"question {i}")
        await expect(console.assistant_text(f"End {i}.")).to_be_visible()
    await expect(console.page.locator(".bubble-assistant.streaming")).to_have_count(0)


async def _in_view(page, locator, *, bottom_only: bool = False) -> bool:
    """True when the element's box (or just its bottom edge) lies inside the chat log's visible area."""
    return await locator.evaluate(
        """(el, bottomOnly) => {
             const log = document.getElementById('chat-log').getBoundingClientRect();
             const r = el.getBoundingClientRect();
             return (bottomOnly || r.top >= log.top - 1) && r.bottom <= log.bottom + 1 && r.bottom > log.top;
           }""", bottom_only)


async def _scroll_up(page, px: int) -> None:
    await page.locator("#chat-log").evaluate(f"(el) => {{ el.scrollTop = el.scrollTop - {px}; }}")
    await page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"jump-latest\"]').hidden")


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_sent_message_and_answer_come_into_view_after_scrolling_up(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    await _fill(console, fake_model)
    await _scroll_up(page, 400)
    await expect(page.get_by_test_id("jump-latest")).to_be_visible()

    fake_model.queue(Reply(Text("Revenue this month is up.")))
    await console.send("revenue this month")
    answer = console.assistant_text("Revenue this month is up.")
    await expect(answer).to_be_visible()
    assert await _in_view(page, page.get_by_test_id("user-text").filter(has_text="revenue this month"))
    assert await _in_view(page, answer)
    await expect(page.get_by_test_id("jump-latest")).to_be_hidden()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_scrolled_up_reader_is_left_alone_then_jumps_to_latest(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    await _fill(console, fake_model, turns=2)
    fake_model.chunk_delay = 0.05
    fake_model.queue(Reply(Text(f"{LONG}\nFinal words.", chunks=12)))
    await console.send("one more")
    await page.locator("#chat-log").evaluate("(el) => { el.scrollTop = 0; }")
    await expect(console.assistant_text("Final words.")).to_have_count(1)
    await expect(page.locator(".bubble-assistant.streaming")).to_have_count(0)
    assert await page.locator("#chat-log").evaluate("(el) => el.scrollTop") == 0
    jump = page.get_by_test_id("jump-latest")
    await expect(jump).to_be_visible()
    await jump.click()
    await expect(jump).to_be_hidden()
    assert await _in_view(page, console.assistant_text("Final words."), bottom_only=True)


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_confirmation_approve_button_is_in_view(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    await _fill(console, fake_model, turns=2)
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Clean the rower"}, id="toolu_wait")),
                     Reply(Text("Created.")))
    await console.send("make a task")
    await expect(console.card("toolu_wait")).to_have_attribute("data-status", "succeeded")
    fake_model.queue(Reply(Text("Needs approval."), ToolUse("tasks__delete", {"id": "00000000-0000-0000-0000-000000000000"},
                                                             id="toolu_del")))
    await console.send("delete it")
    approve = console.card("toolu_del").get_by_test_id("approve")
    await expect(approve).to_be_visible()
    assert await _in_view(page, approve)
