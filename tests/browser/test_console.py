"""The staff console in headless Chromium against the real app and the fake model: chat, cards, usage, locale."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse

pytestmark = pytest.mark.browser

LOCALES = Path(__file__).resolve().parents[2] / "locales"
HEBREW = re.compile(r"[\u0590-\u05FF]")
CANDIDATES = [{"id": "m1", "label": "Saar Cohen", "sublabel": "saar.c@example.com", "detail": "Visited 2d ago"},
              {"id": "m2", "label": "Saar Levi", "sublabel": "Unlimited"}]


async def _task_row(db, org_id, title: str) -> tuple[str, datetime | None]:
    async with db.owner() as session:
        row = (await session.execute(text("SELECT id, deleted_at FROM tasks WHERE org_id = :o AND title = :t"),
                                     {"o": org_id, "t": title})).one()
    return str(row.id), row.deleted_at


async def _spend(db, org, user, micros: int) -> None:
    async with db.owner() as session:
        await session.execute(text("INSERT INTO ai_usage_daily (org_id, user_id, day, cost_usd_micros) "
                                   "VALUES (:o, :u, :d, :c)"),
                              {"o": org.id, "u": user.id, "d": datetime.now(UTC).date(), "c": micros})


async def _create_task(console, fake_model, title: str = "Clean the rower"):
    """Have the agent create a task in the browser; return its (succeeded) tool card."""
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": title}, id="toolu_mk")), Reply(Text("Created.")))
    await console.send(f"add a task: {title}")
    card = console.card("toolu_mk")
    await expect(card).to_have_attribute("data-status", "succeeded")
    await expect(console.assistant_text("Created.")).to_be_visible()
    return card


async def _ask_delete(console, fake_model, db, title: str = "Clean the rower"):
    """Create a task, then have the agent ask to delete it; return (confirmation card, task id)."""
    await _create_task(console, fake_model, title)
    task_id, _ = await _task_row(db, console.org.id, title)
    fake_model.queue(Reply(Text("Deleting needs your OK."), ToolUse("tasks__delete", {"id": task_id}, id="toolu_del")))
    await console.send("delete that task")
    card = console.card("toolu_del")
    await expect(card).to_have_attribute("data-status", "pending")
    await expect(card.get_by_test_id("confirm-card")).to_be_visible()
    return card, task_id


async def test_sent_message_streams_into_assistant_text(console, fake_model) -> None:
    """The reply is rendered piece by piece as text_delta frames arrive, then in full."""
    reply = "Hi Maya! You have three classes today and two open tasks."
    fake_model.chunk_delay = 0.08
    fake_model.queue(Reply(Text(reply, chunks=6)))
    await console.send("what's on today?")

    await expect(console.page.get_by_test_id("user-text")).to_have_text("what's on today?")
    partial = await console.page.wait_for_function(
        """(full) => {
             const el = document.querySelector('[data-testid="assistant-text"].streaming');
             const seen = el ? el.textContent : '';
             return seen && seen.length < full.length ? seen : null;
           }""", arg=reply)
    assert reply.startswith(await partial.json_value())
    await expect(console.page.get_by_test_id("assistant-text")).to_have_text(reply)
    await expect(console.page.locator(".bubble-assistant.streaming")).to_have_count(0)
    sent = fake_model.requests[-1].body["messages"][-1]["content"]
    assert any(b.get("text") == "what's on today?" for b in sent)
    await expect(console.page.get_by_test_id("conversation-item")).to_have_count(1)


async def test_approving_a_confirmation_runs_the_tool_and_resumes(console, fake_model, db) -> None:
    card, task_id = await _ask_delete(console, fake_model, db)
    assert (await _task_row(db, console.org.id, "Clean the rower"))[1] is None

    fake_model.queue(Reply(Text("Deleted.")))
    await card.get_by_test_id("approve").click()
    await expect(card).to_have_attribute("data-status", "succeeded")
    await expect(console.assistant_text("Deleted.")).to_be_visible()
    await expect(card.get_by_test_id("approve")).to_be_disabled()
    assert (await _task_row(db, console.org.id, "Clean the rower"))[1] is not None
    result = fake_model.requests[-1].body["messages"][-1]["content"][0]
    assert result["tool_use_id"] == "toolu_del" and not result.get("is_error")


async def test_rejecting_a_confirmation_leaves_the_data_and_resumes(console, fake_model, db) -> None:
    card, _ = await _ask_delete(console, fake_model, db)

    fake_model.queue(Reply(Text("Okay, I left it.")))
    await card.get_by_test_id("reject").click()
    await expect(console.assistant_text("Okay, I left it.")).to_be_visible()
    await expect(card).to_have_attribute("data-status", "rejected_by_user")
    assert (await _task_row(db, console.org.id, "Clean the rower"))[1] is None
    async with db.owner() as session:
        status = await session.scalar(text("SELECT e.status FROM ai_tool_executions e JOIN conversations c "
                                           "ON c.id = e.conversation_id WHERE c.org_id = :o "
                                           "AND e.tool_use_id = 'toolu_del'"), {"o": console.org.id})
    assert status == "rejected_by_user"


async def test_picking_a_candidate_resolves_the_pick_and_resumes(console, fake_model) -> None:
    fake_model.queue(Reply(ToolUse("read__ask_user_to_pick", {"kind": "member", "prompt": "Which Saar?",
                                                              "candidates": CANDIDATES}, id="toolu_pick")))
    await console.send("find Saar")
    card = console.card("toolu_pick")
    picker = card.get_by_test_id("picker-card")
    await expect(picker).to_contain_text("Which Saar?")
    options = picker.get_by_test_id("pick-option")
    await expect(options).to_have_count(2)
    await expect(options.nth(0)).to_contain_text("Saar Cohen")

    fake_model.queue(Reply(Text("Saar Levi it is.")))
    await picker.locator('[data-testid="pick-option"][data-id="m2"]').click()
    await expect(console.assistant_text("Saar Levi it is.")).to_be_visible()
    await expect(card).to_have_attribute("data-status", "succeeded")
    await expect(card.locator(".card-picked")).to_contain_text("Saar Levi")
    await expect(picker.locator('[data-testid="pick-option"][data-id="m1"]')).to_be_disabled()
    fed = json.loads(fake_model.requests[-1].body["messages"][-1]["content"][0]["content"])
    assert fed["pickedId"] == "m2"


async def test_undo_on_a_created_task_soft_deletes_it(console, fake_model, db) -> None:
    card = await _create_task(console, fake_model, "Oil the bikes")
    assert (await _task_row(db, console.org.id, "Oil the bikes"))[1] is None

    await card.get_by_test_id("undo").click()
    await expect(card).to_have_attribute("data-status", "undone")
    await expect(card.get_by_test_id("undo")).to_have_count(0)
    assert (await _task_row(db, console.org.id, "Oil the bikes"))[1] is not None


async def test_usage_footer_shows_spend_against_the_pro_cap(console) -> None:
    await expect(console.page.get_by_test_id("usage-amount")).to_have_text("$0.00 / $5.00")
    await expect(console.page.get_by_test_id("upgrade-hint")).to_have_count(0)


async def test_usage_footer_hints_at_an_upgrade_from_80_percent(open_console, factory, db) -> None:
    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner")
    await _spend(db, org, owner, 4_000_000)
    console = await open_console(org, owner)
    await expect(console.page.get_by_test_id("usage-amount")).to_have_text("$4.00 / $5.00")
    await expect(console.page.get_by_test_id("upgrade-hint")).to_contain_text("80%")


async def test_budget_exceeded_org_sees_the_budget_notice(open_console, factory, fake_model, db) -> None:
    org = await factory.org(tier="lite")
    owner = await factory.user(org, "owner")
    await _spend(db, org, owner, 1_000_000)
    console = await open_console(org, owner)
    await console.send("hi")

    notice = console.page.get_by_test_id("budget-notice")
    await expect(notice).to_be_visible()
    await expect(notice).to_contain_text("$1.00")
    banner = console.page.get_by_test_id("error-banner")
    await expect(banner).to_have_attribute("data-code", "agent_budget_exceeded")
    await expect(banner).to_have_attribute("data-trace-id", re.compile(r"\S+"))
    assert fake_model.requests == []
    await notice.get_by_test_id("budget-close").click()
    await expect(notice).to_have_count(0)


async def test_switching_to_hebrew_turns_the_page_rtl(console) -> None:
    he = json.loads((LOCALES / "he.json").read_text(encoding="utf-8"))["console"]
    html = console.page.locator("html")
    await expect(html).to_have_attribute("dir", "ltr")
    await expect(console.page.get_by_test_id("send")).to_have_text("Send")

    await console.page.get_by_test_id("locale-select").select_option("he")
    await expect(html).to_have_attribute("dir", "rtl")
    await expect(html).to_have_attribute("lang", "he")
    for testid, key in (("send", ("composer", "send")), ("new-conversation", ("sidebar", "newConversation"))):
        expected = he[key[0]][key[1]]
        assert HEBREW.search(expected), f"he.json {'.'.join(key)} is not Hebrew: {expected!r}"
        await expect(console.page.get_by_test_id(testid)).to_have_text(expected)
    await expect(console.page.get_by_test_id("usage-footer")).to_contain_text(he["usage"]["label"])

    await console.page.reload()
    await expect(html).to_have_attribute("dir", "rtl")
    await expect(console.page.get_by_test_id("send")).to_have_text(he["composer"]["send"])
