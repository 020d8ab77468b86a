"""Issue 41 item 6: one governed surface. The same 20 calls — reads, inline writes, approval writes approved and
rejected, undo, a role refusal, invalid input, an unknown tool, the exhausted cap — run once through the chat
engine (the fake model scripting each tool use, a person answering in the console) and once through MCP (the
official client; approvals answered inline or in the console). Both gyms end in the same state (data, tool
executions, audit) and every call ends the same way, with the same errors in the same words."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.mcp.conftest import Gym, body, connect, exhaust_cap
from tests.sse import sse

LOCALE = "ru"
Outputs = dict[int, dict[str, Any]]


@dataclass(frozen=True)
class Step:
    who: str  # owner | desk
    tool: str  # a tool's name, or "undo"
    args: Callable[[Outputs], dict[str, Any]] = lambda out: {}
    decide: str | None = None  # an approval write: approve | reject
    in_console: bool = False  # over MCP: the person answers in the console rather than inline
    undo_of: int | None = None
    exhaust_cap: bool = False  # the day's spend reaches the cap just before this call


def _id(step: int) -> Callable[[Outputs], dict[str, Any]]:
    return lambda out: {"id": out[step]["id"]}


STEPS: dict[int, Step] = {
    1: Step("owner", "tasks__list"),
    2: Step("owner", "tasks__create", lambda out: {"title": "Clean the rower", "priority": "high"}),
    3: Step("owner", "tasks__create", lambda out: {"title": "Order chalk"}),
    4: Step("owner", "tasks__update", lambda out: {"id": out[2]["id"], "title": "Clean both rowers"}),
    5: Step("owner", "tasks__complete", _id(3)),
    6: Step("owner", "tasks__list", lambda out: {"status": "all"}),
    7: Step("owner", "tasks__delete", _id(2), decide="approve"),
    8: Step("owner", "tasks__create", lambda out: {"title": "Fix the door"}),
    9: Step("owner", "tasks__delete", _id(8), decide="reject"),
    10: Step("owner", "undo", undo_of=8),
    11: Step("owner", "programs__create", lambda out: {"name": "Competition Prep", "kind": "coaching"}),
    12: Step("owner", "programs__delete", _id(11), decide="approve", in_console=True),
    13: Step("owner", "undo", undo_of=12),
    14: Step("owner", "read__programs_list"),
    15: Step("desk", "analytics__revenue_summary"),
    16: Step("desk", "tasks__create", lambda out: {"title": "Desk task"}),
    17: Step("desk", "undo", undo_of=16),
    18: Step("owner", "tasks__create", lambda out: {"title": ""}),
    19: Step("owner", "tasks__explode", lambda out: {"id": "x"}),
    20: Step("owner", "tasks__create", lambda out: {"title": "Too late"}, exhaust_cap=True),
}


@dataclass(frozen=True)
class Outcome:
    ok: bool
    output: Any = None
    code: str | None = None
    message: str | None = None


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)?")


def _plain(value: Any) -> Any:
    """An output with what differs between two gyms by nature (ids, clocks) blanked."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, str):
        return _TIME.sub("<time>", _UUID.sub("<id>", value))
    return value


# ---- the chat engine ------------------------------------------------------------------------------------

async def _through_chat(client, gym: Gym, desk, fake_model, db) -> dict[int, Outcome]:
    people = {"owner": gym.owner, "desk": desk}
    uses: dict[int, tuple[str, str]] = {}  # step -> (conversation, tool use)
    outputs: Outputs = {}
    outcomes: dict[int, Outcome] = {}
    for n, step in STEPS.items():
        user = people[step.who]
        headers = {**user.headers, "x-locale": LOCALE}
        if step.exhaust_cap:
            await exhaust_cap(db, gym)
        if step.tool == "undo":
            conversation, tool_use = uses[step.undo_of]  # type: ignore[index]
            answer = await client.post(f"{gym.agent}/conversations/{conversation}/undo/{tool_use}", headers=headers)
            outcomes[n] = (Outcome(True, _plain(answer.json()["inverse"]["output"])) if answer.status_code == 200
                           else Outcome(False, code=answer.json()["code"], message=answer.json()["message"]))
            continue
        fake_model.queue(Reply(ToolUse(step.tool, step.args(outputs), id=f"toolu_{n}")), Reply(Text("Готово.")))
        # a conversation per call: what the model read before (and a compaction of it) is not what is compared
        sent = await sse(client, f"{gym.agent}/messages", headers=headers,
                         json_body={"message": f"step {n}", "conversationId": None})
        if sent.of("error"):
            error = sent.one("error")
            outcomes[n] = Outcome(False, code=error["code"], message=error["message"])
            continue
        conversation = sent.one("conversation_started")["conversationId"]
        uses[n] = (conversation, f"toolu_{n}")
        if step.decide is not None:
            assert sent.one("confirmation_pending")["toolUseId"] == f"toolu_{n}"
            sent = await sse(client, f"{gym.agent}/conversations/{conversation}/confirm/toolu_{n}",
                             headers=headers, json_body={"approved": step.decide == "approve"})
        completed = sent.one("tool_completed")
        if completed["ok"]:
            outputs[n] = completed["output"]
            outcomes[n] = Outcome(True, _plain(completed["output"]))
        else:
            outcomes[n] = Outcome(False, code=completed["error"]["code"], message=completed["error"]["message"])
    return outcomes


# ---- MCP ---------------------------------------------------------------------------------------------------

async def _through_mcp(client, server, gym: Gym, desk, db) -> dict[int, Outcome]:
    current: dict[str, Step] = {}

    async def elicit(ctx, params) -> types.ElicitResult:
        step = current["step"]
        if step.in_console:
            return types.ElicitResult(action="cancel")  # "not now": the person answers in the console
        return types.ElicitResult(action="accept" if step.decide == "approve" else "decline")

    outputs: Outputs = {}
    executions: dict[int, str] = {}
    outcomes: dict[int, Outcome] = {}
    async with connect(server.url, gym, elicit=elicit, locale=LOCALE) as owner, \
            connect(server.url, gym, desk, elicit=elicit, locale=LOCALE) as front_desk:
        sessions = {"owner": owner, "desk": front_desk}
        for n, step in STEPS.items():
            current["step"] = step
            session = sessions[step.who]
            if step.exhaust_cap:
                await exhaust_cap(db, gym)
            if step.tool == "undo":
                result = await session.call_tool("spotter__undo", {"executionId": executions[step.undo_of]})  # type: ignore[index]
                found = body(result)
                outcomes[n] = (Outcome(False, code=found["error"]["code"], message=found["error"]["message"])
                               if result.is_error else Outcome(True, _plain(found["inverse"]["output"])))
                continue
            result = await session.call_tool(step.tool, step.args(outputs))
            found = body(result)
            if found.get("status") == "awaiting_approval":
                await _answer_in_console(client, gym, db, found["approvalId"], step.decide == "approve")
                result = await session.call_tool("spotter__approval_status", {"approvalId": found["approvalId"]})
                found = body(result)
            if "executionId" in found:
                executions[n] = found["executionId"]
            if result.is_error:
                outcomes[n] = Outcome(False, code=found["error"]["code"], message=found["error"]["message"])
            else:
                outputs[n] = found["output"]
                outcomes[n] = Outcome(True, _plain(found["output"]))
    return outcomes


async def _answer_in_console(client, gym: Gym, db, execution_id: str, approved: bool) -> None:
    async with db.owner() as session:
        conversation, tool_use = (await session.execute(text(
            "SELECT conversation_id::text, tool_use_id FROM ai_tool_executions WHERE id = :e"),
            {"e": execution_id})).one()
    answered = await sse(client, f"{gym.agent}/conversations/{conversation}/confirm/{tool_use}",
                         headers={**gym.owner.headers, "x-locale": LOCALE}, json_body={"approved": approved})
    assert answered.status == 200 and answered.names[-1] == "done"


# ---- the end state --------------------------------------------------------------------------------------

async def _state(db, gym: Gym) -> dict[str, list[tuple]]:
    queries = {
        "tasks": "SELECT title, status, priority, deleted_at IS NOT NULL FROM tasks WHERE org_id = :o ORDER BY title",
        "programs": "SELECT name, kind, deleted_at IS NOT NULL FROM programs WHERE org_id = :o ORDER BY name",
        "executions": "SELECT router || '__' || action, status, undone_by IS NOT NULL, undoes IS NOT NULL, "
                      "error->>'code' FROM ai_tool_executions WHERE org_id = :o ORDER BY created_at, position",
        "audit": "SELECT action, resource, metadata->>'agent' FROM audit_logs WHERE org_id = :o ORDER BY created_at",
        "usage_turns": "SELECT count(*) FILTER (WHERE turns > 0) > 0 FROM ai_usage_daily WHERE org_id = :o",
    }
    async with db.owner() as session:
        return {name: [tuple(row) for row in (await session.execute(text(sql), {"o": gym.org.id})).all()]
                for name, sql in queries.items()}


async def _gym(factory, dev_keys) -> tuple[Gym, Any]:
    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner", name="Maya Owner")
    desk = await factory.user(org, "front_desk", name="Dana Desk")
    return Gym(org, owner, dev_keys), desk


async def test_twenty_calls_end_the_same_through_the_chat_engine_and_through_mcp(
        client, server, factory, dev_keys, db, clean_model) -> None:
    chat_gym, chat_desk = await _gym(factory, dev_keys)
    chat = await _through_chat(client, chat_gym, chat_desk, clean_model, db)
    model_calls = len(clean_model.requests)
    mcp_gym, mcp_desk = await _gym(factory, dev_keys)
    over_mcp = await _through_mcp(client, server, mcp_gym, mcp_desk, db)

    assert len(clean_model.requests) == model_calls  # MCP never called a model of ours
    assert over_mcp == chat  # every call: the same output, or the same error in the same words
    failed = {n: outcome.code for n, outcome in chat.items() if not outcome.ok}
    assert failed == {9: "rejected_by_user", 15: "forbidden_for_role", 18: "validation_failed",
                      19: "unknown_tool", 20: "agent_budget_exceeded"}
    assert all(any("\u0400" <= ch <= "\u04ff" for ch in chat[n].message or "") for n in failed)  # in Russian

    chat_state, mcp_state = await _state(db, chat_gym), await _state(db, mcp_gym)
    assert mcp_state == chat_state
    assert chat_state["tasks"] == [("Clean both rowers", "open", "high", True), ("Desk task", "open", "normal", True),
                                   ("Fix the door", "open", "normal", True), ("Order chalk", "done", "normal", False)]
    assert chat_state["programs"] == [("Competition Prep", "coaching", False)]
    assert len(chat_state["executions"]) == 19  # the 16 tool uses that reached the engine, and 3 inverse runs
