"""Issue 41 item 4: spotter__undo undoes the caller's own action through the engine's undo (the console's undo
endpoint's path), where the action declares an inverse and the caller's role may run it."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from tests.mcp.conftest import body, connect


async def _deleted(db, task_id: str) -> bool:
    async with db.owner() as session:
        return bool(await session.scalar(text("SELECT deleted_at IS NOT NULL FROM tasks WHERE id = :t"),
                                         {"t": task_id}))


async def test_undo_runs_the_declared_inverse_once(server, gym, db) -> None:
    async with connect(server.url, gym) as mcp:
        made = body(await mcp.call_tool("tasks__create", {"title": "Undo me"}))
        undone = await mcp.call_tool("spotter__undo", {"executionId": made["executionId"]})
        again = await mcp.call_tool("spotter__undo", {"executionId": made["executionId"]})
        status = body(await mcp.call_tool("spotter__approval_status", {"approvalId": made["executionId"]}))
    result = body(undone)
    assert undone.is_error is False and result["status"] == "undone" and result["ok"] is True
    assert result["inverse"]["router"] == "tasks" and result["inverse"]["action"] == "delete"
    assert await _deleted(db, made["output"]["id"])
    assert again.is_error is True and body(again)["error"]["code"] == "already_undone"
    assert status["status"] == "succeeded" and status["undoAvailable"] is False
    async with db.owner() as session:
        linked = (await session.execute(text(
            "SELECT i.router || '__' || i.action, i.status, o.undone_by = i.id FROM ai_tool_executions o "
            "JOIN ai_tool_executions i ON i.undoes = o.id WHERE o.id = :e"), {"e": made["executionId"]})).all()
        audits = await session.scalar(text("SELECT count(*) FROM audit_logs WHERE org_id = :o AND action = "
                                           "'task.delete' AND metadata->>'undoes_tool_use_id' IS NOT NULL"),
                                      {"o": gym.org.id})
    assert [tuple(row) for row in linked] == [("tasks__delete", "succeeded", True)] and audits == 1


async def test_undo_refuses_what_has_no_inverse_or_is_not_yours(server, factory, gym) -> None:
    coach = await factory.user(gym.org, "coach")
    async with connect(server.url, gym) as mcp:
        read = body(await mcp.call_tool("tasks__list", {}))
        made = body(await mcp.call_tool("tasks__create", {"title": "Mine"}))
        done = body(await mcp.call_tool("tasks__complete", {"id": made["output"]["id"]}))
        no_inverse = await mcp.call_tool("spotter__undo", {"executionId": done["executionId"]})
        a_read = await mcp.call_tool("spotter__undo", {"executionId": read["executionId"]})
        unknown = await mcp.call_tool("spotter__undo", {"executionId": str(uuid.uuid4())})
        malformed = await mcp.call_tool("spotter__undo", {"executionId": "not-an-id"})
    async with connect(server.url, gym, coach) as theirs:
        not_yours = await theirs.call_tool("spotter__undo", {"executionId": made["executionId"]})
    codes = [body(r)["error"]["code"] for r in (no_inverse, a_read, unknown, malformed, not_yours)]
    assert codes == ["not_undoable", "not_undoable", "tool_execution_not_found", "validation_failed",
                     "tool_execution_not_found"]
    assert all(r.is_error for r in (no_inverse, a_read, unknown, malformed, not_yours))


async def test_undo_needs_a_role_that_may_run_the_inverse(server, factory, gym, db) -> None:
    """Front desk may schedule a class but not cancel one (class_sessions__cancel is owner/admin): their create is
    not offered an undo, and spotter__undo refuses it; the owner could undo their own."""
    desk = await factory.user(gym.org, "front_desk")
    async with db.owner() as session:
        await session.execute(text("INSERT INTO class_types (id, org_id, name) VALUES (:i, :o, 'Open Gym')"),
                              {"i": uuid.uuid4(), "o": gym.org.id})
    session_input = {"classType": "open gym", "date": "tomorrow", "start": "13:00"}
    async with connect(server.url, gym, desk) as mcp:
        made = body(await mcp.call_tool("class_sessions__create", session_input))
        refused = await mcp.call_tool("spotter__undo", {"executionId": made["executionId"]})
    assert made["status"] == "succeeded" and made["undoAvailable"] is False
    assert refused.is_error is True and body(refused)["error"]["code"] == "not_undoable"
    async with connect(server.url, gym) as mcp:
        own = body(await mcp.call_tool("class_sessions__create", {**session_input, "start": "15:00"}))
        undone = await mcp.call_tool("spotter__undo", {"executionId": own["executionId"]})
    assert own["undoAvailable"] is True and body(undone)["inverse"]["action"] == "cancel"
