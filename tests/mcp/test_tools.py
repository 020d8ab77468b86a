"""Issue 41 item 2: tools/list is the caller's role's tools from the one registry, annotated from their
declarations; tools/call runs through the same runner — validation, RBAC, audit, the daily cap, metering — and
every failure is an isError result carrying the people's message in the caller's language."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from agent.mcp_persona import MCP
from tests.mcp.conftest import body, connect, exhaust_cap
from tools.catalog import build_registry

REGISTRY = build_registry()
CHANNEL_TOOLS = {"spotter__undo", "spotter__approval_status"}


@pytest.mark.parametrize("role", ["owner", "admin", "coach", "front_desk"])
async def test_the_list_is_the_roles_tools_from_the_one_registry(server, factory, gym, role) -> None:
    user = gym.owner if role == "owner" else await factory.user(gym.org, role)
    async with connect(server.url, gym, user) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    expected = {spec.name for spec in REGISTRY.for_role(role) if spec.kind == "normal"}
    assert set(listed) == expected | CHANNEL_TOOLS
    assert "read__ask_user_to_pick" not in listed  # a pick is the client's model's to ask
    assert ("analytics__revenue_summary" in listed) is (role in ("owner", "admin"))
    for name in expected:
        assert listed[name].input_schema == REGISTRY.get(name).input_schema()
        assert listed[name].description.startswith(REGISTRY.get(name).summary)
    assert {spec.name for spec in MCP.tools(REGISTRY, role)} == expected


async def test_annotations_follow_the_declarations(server, gym) -> None:
    async with connect(server.url, gym, locale="he") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    hints = {name: (tools[name].annotations.read_only_hint, tools[name].annotations.destructive_hint,
                    tools[name].annotations.idempotent_hint)
             for name in ("tasks__list", "tasks__create", "tasks__delete", "tasks__complete")}
    assert hints == {"tasks__list": (True, False, True),  # a read
                     "tasks__create": (False, False, False),  # a write with an inverse: additive, undoable
                     "tasks__delete": (False, True, False),  # confirm="destructive"
                     "tasks__complete": (False, True, False)}  # a write nothing can undo
    assert "approval" in tools["tasks__delete"].description and "spotter__undo" in tools["tasks__create"].description
    assert "spotter__undo" not in tools["tasks__complete"].description
    assert tools["tasks__create"].title == tools["tasks__create"].annotations.title
    assert tools["tasks__create"].title and tools["tasks__create"].title != "tasks__create"
    assert any("\u0590" <= ch <= "\u05ff" for ch in tools["tasks__create"].title)  # the label people read, in he


async def test_a_read_and_an_inline_write_run_through_the_runner_with_audit(server, gym, db) -> None:
    async with connect(server.url, gym) as client:
        made = body(await client.call_tool("tasks__create", {"title": "Clean the rower", "priority": "high"}))
        listed = body(await client.call_tool("tasks__list", {}))
    assert made["status"] == "succeeded" and made["undoAvailable"] is True
    assert made["output"]["title"] == "Clean the rower" and made["output"]["priority"] == "high"
    assert [t["title"] for t in listed["output"]["tasks"]] == ["Clean the rower"]
    assert listed["undoAvailable"] is False
    async with db.owner() as session:
        audit = (await session.execute(text(
            "SELECT a.action, a.resource_id::text, a.metadata FROM audit_logs a JOIN ai_tool_executions e "
            "ON e.audit_log_id = a.id WHERE e.id = :e"), {"e": made["executionId"]})).one()
        statuses = (await session.execute(text(
            "SELECT router || '__' || action, status FROM ai_tool_executions WHERE org_id = :o ORDER BY created_at"),
            {"o": gym.org.id})).all()
    assert audit.action == "task.create" and audit.resource_id == made["output"]["id"]
    assert audit.metadata["agent"] is True and audit.metadata["tool"] == "tasks__create"
    assert [tuple(row) for row in statuses] == [("tasks__create", "succeeded"), ("tasks__list", "succeeded")]


async def test_failures_are_is_error_results_in_the_callers_language(server, factory, gym) -> None:
    desk = await factory.user(gym.org, "front_desk")
    async with connect(server.url, gym, desk, locale="ru") as client:
        invalid = await client.call_tool("tasks__create", {"title": ""})
        refused = await client.call_tool("analytics__revenue_summary", {})
        unknown = await client.call_tool("tasks__explode", {})
    for result, code in ((invalid, "validation_failed"), (refused, "forbidden_for_role"), (unknown, "unknown_tool")):
        assert result.is_error is True
        error = body(result)["error"]
        assert error["code"] == code and error["hint"]
        assert result.content[0].text == error["message"]  # the people's words come first
        assert any("\u0400" <= ch <= "\u04ff" for ch in error["message"]), error["message"]  # in Russian
    assert "analytics__revenue_summary" not in body(refused)["error"]["message"]  # people see words, not names


async def test_each_call_is_metered_and_the_exhausted_cap_refuses_before_anything_runs(server, gym, db) -> None:
    async with connect(server.url, gym) as client:
        await client.call_tool("tasks__list", {})
        await client.call_tool("tasks__create", {"title": "Counted"})
        async with db.scope(org_id=gym.org.id) as session:
            cost, turns = (await session.execute(text(
                "SELECT cost_usd_micros, turns FROM ai_usage_daily WHERE org_id = :o"), {"o": gym.org.id})).one()
        assert (cost, turns) == (2 * 1_000, 2)  # MCP_CALL_COST_USD_MICROS each
        await exhaust_cap(db, gym)
        refused = await client.call_tool("tasks__create", {"title": "Too late"})
    assert refused.is_error is True
    error = body(refused)["error"]
    assert error["code"] == "agent_budget_exceeded" and "5.00" in error["message"]
    async with db.owner() as session:
        rows = await session.scalar(text("SELECT count(*) FROM ai_tool_executions WHERE org_id = :o"),
                                    {"o": gym.org.id})
        tasks = await session.scalar(text("SELECT count(*) FROM tasks WHERE org_id = :o AND title = 'Too late'"),
                                     {"o": gym.org.id})
        turns = await session.scalar(text("SELECT sum(turns) FROM ai_usage_daily WHERE org_id = :o"),
                                     {"o": gym.org.id})
    assert (rows, tasks, turns) == (2, 0, 2)
