"""Issue 40 item 3: the console keeps a turn through a dropped connection. The network is cut for 3 s in the middle
of an answer: the console reconnects by itself (GET .../turns/{turnId}/stream with Last-Event-ID), the answer ends
whole and shown once; a conversation reopened while its turn runs joins it live; Stop stops the turn on the
server."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.browser.test_member_console import MemberConsole
from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.trainer.fixtures import trainee
from tests.trainer.scripted import Trainer

pytestmark = pytest.mark.browser

ANSWER = ("Counting every member of the gym one by one takes a while, so here is the tally as it grows: "
          "forty-two active members, seven frozen and three who left this month.")


def _reconnects(page) -> list[dict]:
    """Every GET of a turn's stream the page makes, with the Last-Event-ID it sent."""
    seen: list[dict] = []

    def on_request(request) -> None:
        if request.method == "GET" and "/turns/" in request.url and request.url.endswith("/stream"):
            seen.append({"url": request.url, "last_event_id": request.headers.get("last-event-id")})

    page.on("request", on_request)
    return seen


async def test_a_three_second_network_cut_mid_answer_reconnects_and_shows_the_answer_once(console,
                                                                                        fake_model) -> None:
    page = console.page
    reconnects = _reconnects(page)
    fake_model.chunk_delay = 0.25
    fake_model.queue(Reply(Text(ANSWER, chunks=32)))
    await console.send("count the members slowly")
    streaming = page.locator('[data-testid="assistant-text"].streaming')
    await expect(streaming).to_contain_text("Counting every")
    await page.context.set_offline(True)
    cut = time.monotonic()
    await expect(page.get_by_test_id("reconnecting")).to_be_visible()  # it noticed, and says so
    await asyncio.sleep(max(0.0, 3 - (time.monotonic() - cut)))
    await page.context.set_offline(False)

    answer = page.get_by_test_id("assistant-text")
    await expect(answer).to_have_count(1)
    await expect(answer).to_have_text(ANSWER, timeout=30_000)  # whole, every part once
    await expect(page.get_by_test_id("turn-usage")).to_have_count(1)  # one `done`
    await expect(page.get_by_test_id("reconnecting")).to_have_count(0)
    assert reconnects, "the console never reconnected"
    turn_id = reconnects[-1]["url"].split("/turns/")[1].split("/")[0]
    assert all(r["last_event_id"] and r["last_event_id"].startswith(f"{turn_id}:") for r in reconnects)


async def test_reopening_a_conversation_whose_turn_runs_joins_it_live(console, fake_model) -> None:
    page = console.page
    fake_model.chunk_delay = 0.2
    fake_model.queue(Reply(Text(ANSWER, chunks=24)))
    await console.send("count the members slowly")
    await expect(page.locator('[data-testid="assistant-text"].streaming')).to_contain_text("Counting")
    await page.get_by_test_id("new-conversation").click()
    await expect(page.get_by_test_id("empty-state")).to_be_visible()
    await page.get_by_test_id("conversation-item").first.click()

    await expect(page.get_by_test_id("user-text")).to_have_text("count the members slowly")
    answer = page.get_by_test_id("assistant-text")
    await expect(answer).to_have_text(ANSWER, timeout=30_000)
    await expect(answer).to_have_count(1)
    await expect(page.get_by_test_id("turn-stopped")).to_have_count(0)  # it was never stopped


async def test_stop_stops_the_turn_on_the_server(console, fake_model) -> None:
    page = console.page
    fake_model.chunk_delay = 0.3
    fake_model.queue(Reply(Text(ANSWER, chunks=30)))
    await console.send("count the members slowly")
    await expect(page.locator('[data-testid="assistant-text"].streaming')).to_contain_text("Counting")
    await page.get_by_test_id("stop").click()
    await expect(page.get_by_test_id("turn-stopped-live")).to_be_visible()
    await asyncio.to_thread(fake_model.wait_for_disconnects, 1)  # the model stream was cancelled
    shown = await page.get_by_test_id("assistant-text").inner_text()
    assert shown and shown != ANSWER


async def test_the_members_trainer_chat_reconnects_after_a_three_second_cut(page, server, db, factory,
                                                                           fake_model) -> None:
    """The member's trainer chat (member.js) through the same cut: it reconnects by itself and shows the trainer's
    message once."""
    t = await trainee(db, factory)
    Trainer(fake_model, [Reply(ToolUse("data__fetch_data", {"sources": {"progression": {}}}, id="toolu_1")),
                         Reply(Text("Thinking it over. " * 16, chunks=16),
                               ToolUse("coach__message_notify_user", {"text": "Rest today, legs tomorrow."},
                                       id="toolu_2")),
                         Reply(ToolUse("coach__idle", {}, id="toolu_3"))])
    fake_model.chunk_delay = 0.25
    reconnects = _reconnects(page)
    member = await MemberConsole(page).open(server.url, t.user.token)
    await member.page.get_by_test_id("composer").fill("what should I do today?")
    await member.page.get_by_test_id("send").click()
    await expect(page.get_by_test_id("trainer-status")).to_have_count(1)  # the turn runs
    await page.context.set_offline(True)
    cut = time.monotonic()
    await expect(page.get_by_test_id("reconnecting")).to_be_visible()
    await asyncio.sleep(max(0.0, 3 - (time.monotonic() - cut)))
    await page.context.set_offline(False)

    said = page.get_by_test_id("assistant-text").filter(has_text="Rest today, legs tomorrow.")
    await expect(said).to_have_count(1, timeout=30_000)
    await expect(page.get_by_test_id("typing")).to_have_count(0)
    await expect(page.get_by_test_id("assistant-text")).to_have_count(1)  # nothing shown twice
    assert reconnects and all("/trainer/turns/" in r["url"] and r["last_event_id"] for r in reconnects)


async def test_the_members_trainer_chat_reopened_while_its_turn_runs_joins_it_live(page, server, db, factory,
                                                                                  fake_model) -> None:
    """The member app reloaded mid-turn: the session reopened from its list names its running turn, and the chat
    joins that turn's stream and shows the trainer's message once."""
    t = await trainee(db, factory)
    Trainer(fake_model, [Reply(ToolUse("data__fetch_data", {"sources": {"progression": {}}}, id="toolu_1")),
                         Reply(Text("Thinking it over. " * 40, chunks=40),  # 10 s
                               ToolUse("coach__message_notify_user", {"text": "Rest today, legs tomorrow."},
                                       id="toolu_2")),
                         Reply(ToolUse("coach__idle", {}, id="toolu_3"))])
    fake_model.chunk_delay = 0.25
    member = await MemberConsole(page).open(server.url, t.user.token)
    await member.page.get_by_test_id("composer").fill("what should I do today?")
    await member.page.get_by_test_id("send").click()
    await expect(page.get_by_test_id("trainer-status")).to_have_count(1)  # the turn runs
    await page.reload()
    await page.get_by_test_id("composer").wait_for(state="visible")
    joins = _reconnects(page)
    await page.get_by_test_id("session-item").first.click()

    await expect(page.get_by_test_id("user-text")).to_have_text("what should I do today?")
    said = page.get_by_test_id("assistant-text").filter(has_text="Rest today, legs tomorrow.")
    await expect(said).to_have_count(1, timeout=30_000)
    await expect(page.get_by_test_id("typing")).to_have_count(0)
    await expect(page.get_by_test_id("assistant-text")).to_have_count(1)  # nothing shown twice
    assert joins and all("/trainer/turns/" in j["url"] for j in joins)  # it joined the running turn's stream
