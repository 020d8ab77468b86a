"""Issue 41 item 5: what an assistant did over MCP shows in the console as a conversation "via MCP" with its
action cards; staff open it from the result's approvalUrl, approve what waits and undo what ran."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from tests.browser.waits import expect
from tests.mcp.conftest import Gym, body, connect

pytestmark = pytest.mark.browser


async def _tool_use_id(db, execution_id: str) -> str:
    async with db.owner() as session:
        return await session.scalar(text("SELECT tool_use_id FROM ai_tool_executions WHERE id = :e"),
                                    {"e": execution_id})


@pytest.mark.parametrize(("locale", "label"), [("en-US", "via MCP"), ("he-IL", "דרך MCP")])
async def test_an_assistants_calls_open_from_the_approval_link_to_approve_and_undo(
        browser, server, factory, dev_keys, db, request, locale, label) -> None:
    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner", name="Maya Owner")
    gym = Gym(org, owner, dev_keys)
    async with connect(server.url, gym, client_name="Claude Desktop") as mcp:
        made = body(await mcp.call_tool("tasks__create", {"title": "Clean the rower"}))
        other = body(await mcp.call_tool("tasks__create", {"title": "Order chalk"}))
        waiting = body(await mcp.call_tool("tasks__delete", {"id": other["output"]["id"]}))
    link = waiting["approvalUrl"].replace("/console/#", f"/console/#token={owner.token}&")

    context = await browser.new_context(locale=locale, viewport={"width": 1280, "height": 860})
    page = await context.new_page()
    try:
        await page.goto(link)
        item = page.get_by_test_id("conversation-item").filter(has_text="Claude Desktop")
        await expect(item.get_by_test_id("conversation-via-mcp")).to_have_text(label)
        await expect(item).to_have_attribute("aria-current", "true")  # the link opened the conversation
        await expect(page.get_by_test_id("via-mcp-note")).to_be_visible()
        await expect(page.get_by_test_id("composer")).to_be_disabled()

        pending = page.locator(f'[data-testid="tool-card"][data-tool-use-id="{await _tool_use_id(db, waiting["approvalId"])}"]')
        await expect(pending).to_have_attribute("data-status", "pending")
        await pending.get_by_test_id("approve").click()
        await expect(pending).to_have_attribute("data-status", "succeeded")

        created = page.locator(f'[data-testid="tool-card"][data-tool-use-id="{await _tool_use_id(db, made["executionId"])}"]')
        await created.get_by_test_id("undo").click()
        await expect(created).to_have_attribute("data-status", "undone")
        await expect(page.get_by_test_id("send")).to_be_disabled()  # still closed after the answers' streams
        await page.screenshot(path=str(request.config.rootpath / "test-artifacts" / "screenshots"
                                       / f"mcp_conversation_{locale}.png"))
    finally:
        await context.close()
    async with db.owner() as session:
        deleted = (await session.execute(text("SELECT title FROM tasks WHERE org_id = :o AND deleted_at IS NOT NULL "
                                              "ORDER BY title"), {"o": org.id})).scalars().all()
    assert deleted == ["Clean the rower", "Order chalk"]
