"""A session stored before the service kept what the member saw, reopened in the member app in Chromium (issue 45
item 1): the coach's message and question are the service's views of them — words without ids, the question's
options as buttons — the message that failed is not there, and its workout is shown by its exercise names. The
app knows no tool by name (tests/api/test_console_tool_names.py)."""

from __future__ import annotations

import re

import pytest

from tests.browser.waits import expect
from tests.trainer.fixtures import trainee
from tests.trainer.old_sessions import FAILED, store_old_session

pytestmark = pytest.mark.browser

INTERNAL = re.compile(r"\bex_\d+|\bworkout_\d+|\b[a-z]+__[a-z_]+\b|[0-9a-f]{8}-[0-9a-f]{4}-")


async def test_an_old_session_shows_the_coachs_message_and_question(page, server, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    sid = await store_old_session(db, t.org.id, t.member_id, t.user.id)
    await page.goto(f"{server.url}/console/#token={t.user.token}&view=trainer")
    await expect(page.get_by_test_id("user-role")).to_have_attribute("data-role", "member")
    await page.locator(f'[data-testid="session-item"][data-session-id="{sid}"]').click()

    await expect(page.get_by_test_id("user-text")).to_have_text(["chest please"])
    await expect(page.get_by_test_id("assistant-text")).to_have_text(["Here is your workout: swap if you like."])
    question = page.get_by_test_id("question")
    await expect(question).to_have_count(1)
    await expect(question).to_contain_text("Keep in your workout?")
    await expect(question.get_by_test_id("question-option")).to_have_text(["Keep", "No"])
    summary = page.get_by_test_id("workout-summary")
    await expect(summary).to_have_count(1)
    await expect(summary.locator("li")).to_have_text(["1. Dumbbell Floor Press (reps)", "2. Push-up (reps)",
                                                      "3. Plank (hold)"])
    shown = await page.locator("#chat-log").inner_text()
    assert FAILED not in shown
    assert not INTERNAL.search(shown), shown
    assert fake_model.requests == []
