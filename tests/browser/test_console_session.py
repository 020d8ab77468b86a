"""Issue 17 items 6 and 9: a conversation has a URL and reopens on reload; a bad #token= says why;
the sign-in hint names the command that works from the README's setup."""

from __future__ import annotations

import re

import pytest

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_conversation_url_reopens_on_reload(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    fake_model.queue(Reply(Text("Three classes today.")))
    await console.send("what's on today?")
    await expect(console.assistant_text("Three classes today.")).to_be_visible()
    await expect(page).to_have_url(re.compile(r"/console/#c=[0-9a-f-]{36}$"))
    await expect(page.get_by_test_id("typing")).to_have_count(0)  # the turn is over (a reload mid-commit: agent tests)
    url = page.url

    await page.reload()
    await expect(page.get_by_test_id("user-text")).to_have_text("what's on today?")
    await expect(console.assistant_text("Three classes today.")).to_be_visible()
    assert page.url == url

    if viewport:  # on a phone the list lives in the drawer
        await page.get_by_test_id("menu-toggle").click()
    await page.get_by_test_id("new-conversation").click()
    await expect(page.get_by_test_id("empty-state")).to_be_visible()
    assert "#c=" not in page.url


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_bad_token_in_the_url_lands_on_sign_in_with_a_message(page, server, viewport) -> None:
    if viewport:
        await page.set_viewport_size(viewport)
    await page.goto(f"{server.url}/console/#token=not-a-real-token")
    error = page.get_by_test_id("signin-error")
    await expect(error).to_be_visible()
    await expect(error).not_to_have_text("")
    await expect(page.locator("pre.command")).to_have_text(".venv/bin/spotter dev-token --email owner@harbor.test")
    assert "token=" not in page.url


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_rename_and_delete_a_conversation(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    fake_model.queue(Reply(Text("Up 12%.")))
    await console.send("revenue this month")
    await expect(console.assistant_text("Up 12%.")).to_be_visible()
    if viewport:
        await page.get_by_test_id("menu-toggle").click()
    answers = iter(["November revenue", None])

    async def on_dialog(dialog) -> None:
        answer = next(answers)
        await (dialog.accept(answer) if answer else dialog.accept())

    page.on("dialog", on_dialog)
    item = page.get_by_test_id("conversation-item")
    await expect(item).to_have_count(1)
    await page.get_by_test_id("conversation-rename").click()
    await expect(item).to_contain_text("November revenue")
    await page.get_by_test_id("conversation-delete").click()
    await expect(item).to_have_count(0)
    await expect(page.get_by_test_id("empty-state")).to_be_visible()
    assert "#c=" not in page.url
