"""Issue 41 item 3: a write whose confirm policy applies does not run until a person approves it — in the console
(the confirm endpoint, the resumer) or inline when the client can elicit — and it runs exactly once."""

from __future__ import annotations

import asyncio

import mcp_types as types
import pytest
from sqlalchemy import text

from tests.mcp.conftest import body, connect, exhaust_cap
from tests.sse import sse


def _answer(action: str, asked: list[str] | None = None):
    async def elicit(ctx, params) -> types.ElicitResult:
        if asked is not None:
            asked.append(params.message)
        return types.ElicitResult(action=action)
    return elicit


async def _task_state(db, task_id: str) -> tuple[bool, int]:
    """(deleted, how many task.delete audit rows)."""
    async with db.owner() as session:
        deleted = await session.scalar(text("SELECT deleted_at IS NOT NULL FROM tasks WHERE id = :t"), {"t": task_id})
        audits = await session.scalar(text("SELECT count(*) FROM audit_logs WHERE resource_id = :t AND action = "
                                           "'task.delete'"), {"t": task_id})
    return bool(deleted), int(audits)


async def _status(db, execution_id: str) -> str:
    async with db.owner() as session:
        return await session.scalar(text("SELECT status FROM ai_tool_executions WHERE id = :e"), {"e": execution_id})


async def _create(client, title: str = "Clean the rower") -> str:
    return body(await client.call_tool("tasks__create", {"title": title}))["output"]["id"]


async def _pending_in_console(client, gym, approval_id: str, db) -> tuple[str, str]:
    """(conversationId, toolUseId) of the pending call, as the console finds it in the conversation."""
    async with db.owner() as session:
        row = (await session.execute(text("SELECT conversation_id::text, tool_use_id FROM ai_tool_executions "
                                          "WHERE id = :e"), {"e": approval_id})).one()
    detail = (await client.get(f"{gym.agent}/conversations/{row[0]}", headers=gym.owner.headers)).json()
    calls = [call for message in detail["messages"] for call in message["toolCalls"]]
    pending = next(call for call in calls if call["status"] == "pending")
    assert pending["toolUseId"] == row[1] and pending["summary"] == "Delete the task “Clean the rower”."
    return row[0], row[1]


async def test_without_elicitation_a_write_awaits_approval_and_the_console_runs_it_once(
        client, server, gym, db, clean_model) -> None:
    async with connect(server.url, gym) as mcp:
        task_id = await _create(mcp)
        waiting = await mcp.call_tool("tasks__delete", {"id": task_id})
        result = body(waiting)
        assert waiting.is_error is False and result["status"] == "awaiting_approval"
        assert result["summary"] == "Delete the task “Clean the rower”."
        assert result["approvalUrl"].endswith(f"/console/#o={gym.org.id}&c={result['approvalUrl'][-36:]}")
        assert result["approvalId"] in waiting.content[1].text and "Spotter" in waiting.content[0].text
        assert await _task_state(db, task_id) == (False, 0)

        conversation_id, tool_use_id = await _pending_in_console(client, gym, result["approvalId"], db)
        confirm = f"{gym.agent}/conversations/{conversation_id}/confirm/{tool_use_id}"
        approved = await sse(client, confirm, json_body={"approved": True}, headers=gym.owner.headers)
        assert approved.status == 200 and approved.one("tool_completed")["ok"] is True
        assert approved.names[-1] == "done" and "text_delta" not in approved.names
        assert clean_model.requests == []  # no model of ours continues an MCP conversation
        again = await sse(client, confirm, json_body={"approved": True}, headers=gym.owner.headers)
        assert again.status == 409 and again.body["code"] == "tool_already_resolved"
        assert await _task_state(db, task_id) == (True, 1)

        status = body(await mcp.call_tool("spotter__approval_status", {"approvalId": result["approvalId"]}))
    assert status["status"] == "succeeded" and status["output"]["id"] == task_id


async def test_elicitation_accept_runs_the_write(server, gym, db) -> None:
    asked: list[str] = []
    async with connect(server.url, gym, elicit=_answer("accept", asked)) as mcp:
        task_id = await _create(mcp)
        done = await mcp.call_tool("tasks__delete", {"id": task_id})
    assert done.is_error is False and body(done)["status"] == "succeeded"
    assert asked == ["Approve this action in Spotter? Delete the task “Clean the rower”."]
    assert await _task_state(db, task_id) == (True, 1)
    assert await _status(db, body(done)["executionId"]) == "succeeded"


async def test_elicitation_decline_rejects_the_write_in_the_callers_language(server, gym, db) -> None:
    async with connect(server.url, gym, elicit=_answer("decline"), locale="he") as mcp:
        task_id = await _create(mcp)
        declined = await mcp.call_tool("tasks__delete", {"id": task_id})
    error = body(declined)["error"]
    assert declined.is_error is True and error["code"] == "rejected_by_user"
    assert declined.content[0].text == error["message"] and any("\u0590" <= c <= "\u05ff" for c in error["message"])
    assert await _task_state(db, task_id) == (False, 0)
    assert await _status(db, body(declined)["executionId"]) == "rejected_by_user"


async def test_dismissing_the_question_leaves_it_for_the_console(client, server, gym, db) -> None:
    async with connect(server.url, gym, elicit=_answer("cancel")) as mcp:
        task_id = await _create(mcp)
        waiting = body(await mcp.call_tool("tasks__delete", {"id": task_id}))
    assert waiting["status"] == "awaiting_approval" and await _status(db, waiting["approvalId"]) == "pending"
    conversation_id, tool_use_id = await _pending_in_console(client, gym, waiting["approvalId"], db)
    rejected = await sse(client, f"{gym.agent}/conversations/{conversation_id}/confirm/{tool_use_id}",
                         json_body={"approved": False}, headers=gym.owner.headers)
    assert rejected.one("tool_completed")["error"]["code"] == "rejected_by_user"
    assert await _task_state(db, task_id) == (False, 0)


async def test_an_inline_accept_past_the_cap_runs_nothing_and_the_call_still_waits(server, gym, db) -> None:
    """The daily cap is checked when an approval resolves (the resumer's check): refused, the claim rolled back."""

    async def elicit(ctx, params) -> types.ElicitResult:
        await exhaust_cap(db, gym)
        return types.ElicitResult(action="accept")

    async with connect(server.url, gym, elicit=elicit) as mcp:
        task_id = await _create(mcp)
        refused = await mcp.call_tool("tasks__delete", {"id": task_id})
    found = body(refused)
    assert refused.is_error and found["error"]["code"] == "agent_budget_exceeded" and found["executionId"]
    assert await _status(db, found["executionId"]) == "pending" and await _task_state(db, task_id) == (False, 0)


@pytest.mark.parametrize("order", ["console_first", "together", "inline_first"])
async def test_an_inline_accept_racing_the_console_runs_it_exactly_once(client, server, gym, db, order) -> None:
    """The person approves in the console as they accept in the MCP client: both answers reach the resumer's
    atomic pending→running claim; one runs the tool, the other reads what became of it. `console_first` lets the
    console's answer finish before the accept goes out, `inline_first` sends it after the MCP call returned,
    `together` fires both at once."""
    console: dict[str, object] = {}

    async def approve_in_console() -> object:
        async with db.owner() as session:
            row = (await session.execute(text(
                "SELECT conversation_id::text, tool_use_id FROM ai_tool_executions WHERE org_id = :o AND "
                "router = 'tasks' AND action = 'delete'"), {"o": gym.org.id})).one()
        url = f"{gym.agent}/conversations/{row[0]}/confirm/{row[1]}"
        return await sse(client, url, json_body={"approved": True}, headers=gym.owner.headers)

    async def elicit(ctx, params) -> types.ElicitResult:
        if order == "console_first":
            console["answer"] = await approve_in_console()
        elif order == "together":
            console["task"] = asyncio.create_task(approve_in_console())
            await asyncio.sleep(0)
        return types.ElicitResult(action="accept")

    async with connect(server.url, gym, elicit=elicit) as mcp:
        task_id = await _create(mcp)
        result = await mcp.call_tool("tasks__delete", {"id": task_id})
    if order == "inline_first":
        console["answer"] = await approve_in_console()
    from_console = console["answer"] if "answer" in console else await console["task"]  # type: ignore[misc]
    assert result.is_error is False and body(result)["status"] == "succeeded"  # whoever ran it
    assert from_console.status in (200, 409)  # type: ignore[attr-defined]
    if order == "console_first":
        assert from_console.one("tool_completed")["ok"] is True  # type: ignore[attr-defined]
    if order == "inline_first":
        assert from_console.body["code"] == "tool_already_resolved"  # type: ignore[attr-defined]
    assert await _task_state(db, task_id) == (True, 1)
