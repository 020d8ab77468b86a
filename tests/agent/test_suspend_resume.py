"""Confirmation and picker suspensions, their resumption, supersession, and races between resolvers."""

import asyncio
import json
from datetime import UTC, datetime

import httpx
import pytest
import redis.asyncio as aioredis
from sqlalchemy import text

from api.app import create_app
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.servers import ThreadedServer
from tests.sse import sse

ANSWER_WAIT = 0.5  # seconds an answer waits for a busy conversation here; production waits 5 (the default)


async def _task(client, gym, fake_model, title="Clean the rower") -> tuple[str, str]:
    """Create a task through the agent; return (conversation_id, task_id)."""
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": title}, id="toolu_mk")), Reply(Text("Created.")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": f"add task {title}"},
                       headers=gym.owner.headers)
    return result.one("conversation_started")["conversationId"], result.one("tool_completed")["output"]["id"]


async def _ask_delete(client, gym, fake_model, conversation_id, task_id, tool_use_id="toolu_del"):
    fake_model.queue(Reply(Text("Deleting needs your OK."), ToolUse("tasks__delete", {"id": task_id}, id=tool_use_id)))
    return await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                     json_body={"message": "delete that task", "conversationId": conversation_id})


async def _deleted_at(db, task_id):
    async with db.owner() as session:
        return await session.scalar(text("SELECT deleted_at FROM tasks WHERE id = :t"), {"t": task_id})


async def test_destructive_tool_suspends_and_approve_runs_and_resumes(client, gym, fake_model, db) -> None:
    conversation_id, task_id = await _task(client, gym, fake_model)
    suspended = await _ask_delete(client, gym, fake_model, conversation_id, task_id)
    pending = dict(suspended.one("confirmation_pending"))
    schema = pending.pop("inputSchema")  # the tool's input schema, for the console's "Edit input" form
    assert schema["properties"]["id"]["format"] == "uuid" and schema["required"] == ["id"]
    assert pending == {"type": "confirmation_pending", "toolUseId": "toolu_del", "router": "tasks",
                       "action": "delete", "input": {"id": task_id}, "confirm": "destructive",
                       "summary": "Delete the task “Clean the rower”."}
    assert suspended.names[-1] == "done" and "tool_started" not in suspended.names
    assert await _deleted_at(db, task_id) is None
    calls_before = len(fake_model.requests)

    fake_model.queue(Reply(Text("Deleted.")))
    resumed = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
                        headers=gym.owner.headers)
    assert resumed.status == 200
    assert resumed.one("tool_completed")["ok"] is True
    assert resumed.text == "Deleted." and resumed.names[-1] == "done"
    assert await _deleted_at(db, task_id) is not None
    sent = fake_model.requests[calls_before].body["messages"][-1]["content"][0]
    assert sent["type"] == "tool_result" and sent["tool_use_id"] == "toolu_del" and not sent.get("is_error")

    again = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
                      headers=gym.owner.headers)
    assert again.status == 409 and again.body["code"] == "tool_already_resolved"


async def test_reject_records_rejected_by_user_and_resumes(client, gym, fake_model, db) -> None:
    conversation_id, task_id = await _task(client, gym, fake_model)
    await _ask_delete(client, gym, fake_model, conversation_id, task_id)
    fake_model.queue(Reply(Text("Okay, I left it.")))
    resumed = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": False},
                        headers=gym.owner.headers)
    completed = resumed.one("tool_completed")
    assert completed["ok"] is False and completed["error"]["code"] == "rejected_by_user"
    result_block = fake_model.requests[-1].body["messages"][-1]["content"][0]
    assert result_block["is_error"] is True and json.loads(result_block["content"])["code"] == "rejected_by_user"
    assert await _deleted_at(db, task_id) is None
    async with db.owner() as session:
        status = await session.scalar(text("SELECT status FROM ai_tool_executions WHERE tool_use_id = 'toolu_del' "
                                           "AND conversation_id = :c"), {"c": conversation_id})
    assert status == "rejected_by_user"


async def test_approve_with_edited_input_runs_the_edit_and_tells_the_model(client, gym, fake_model, db) -> None:
    conversation_id, keep_id = await _task(client, gym, fake_model, "Keep me")
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Delete me"}, id="toolu_mk2")), Reply(Text("ok")))
    other = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "another", "conversationId": conversation_id})
    delete_id = other.one("tool_completed")["output"]["id"]
    await _ask_delete(client, gym, fake_model, conversation_id, keep_id)

    bad = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), headers=gym.owner.headers,
                    json_body={"approved": True, "input": {"id": "not-a-uuid"}})
    assert bad.status == 422 and bad.body["code"] == "validation_failed"
    fake_model.queue(Reply(Text("Deleted the other one.")))
    resumed = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), headers=gym.owner.headers,
                        json_body={"approved": True, "input": {"id": delete_id}})
    assert resumed.one("tool_started")["input"] == {"id": delete_id}
    assert await _deleted_at(db, delete_id) is not None and await _deleted_at(db, keep_id) is None
    fed = json.loads(fake_model.requests[-1].body["messages"][-1]["content"][0]["content"])
    assert "edited" in fed["note"] and fed["input"] == {"id": delete_id}


async def test_two_racing_confirms_execute_exactly_once(client, gym, fake_model, db) -> None:
    conversation_id, task_id = await _task(client, gym, fake_model)
    await _ask_delete(client, gym, fake_model, conversation_id, task_id)
    fake_model.respond_with(lambda body: Reply(Text("Deleted.")))
    first, second = await asyncio.gather(
        sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
            headers=gym.owner.headers),
        sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
            headers=gym.owner.headers))
    statuses = sorted([first.status, second.status])
    assert statuses == [200, 409]
    loser = first if first.status == 409 else second
    assert loser.body["code"] == "tool_already_resolved"
    async with db.owner() as session:
        audits = await session.scalar(text("SELECT count(*) FROM audit_logs WHERE org_id = :o AND action = "
                                           "'task.delete'"), {"o": gym.org.id})
    assert audits == 1


async def test_later_tool_uses_stay_pending_and_run_after_approval(client, gym, fake_model, db) -> None:
    conversation_id, task_id = await _task(client, gym, fake_model)
    fake_model.queue(Reply(ToolUse("tasks__delete", {"id": task_id}, id="toolu_1"),
                           ToolUse("tasks__create", {"title": "Replacement"}, id="toolu_2")))
    suspended = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                          json_body={"message": "swap it", "conversationId": conversation_id})
    assert suspended.one("confirmation_pending")["toolUseId"] == "toolu_1"
    assert "tool_started" not in suspended.names
    async with db.owner() as session:
        created = await session.scalar(text("SELECT count(*) FROM tasks WHERE org_id = :o AND title = 'Replacement'"),
                                       {"o": gym.org.id})
    assert created == 0

    fake_model.queue(Reply(Text("Swapped.")))
    resumed = await sse(client, gym.confirm_url(conversation_id, "toolu_1"), json_body={"approved": True},
                        headers=gym.owner.headers)
    assert [c["toolUseId"] for c in resumed.of("tool_completed")] == ["toolu_1", "toolu_2"]
    results = fake_model.requests[-1].body["messages"][-1]["content"]
    assert [b["tool_use_id"] for b in results] == ["toolu_1", "toolu_2"]
    assert all(b["type"] == "tool_result" for b in results)


async def test_picker_suspends_with_candidates_and_pick_resumes(client, gym, fake_model) -> None:
    candidates = [{"id": "m1", "label": "Saar Cohen", "sublabel": "saar.c@example.com", "detail": "Visited 2d ago"},
                  {"id": "m2", "label": "Saar Levi", "sublabel": "Unlimited"}]
    fake_model.queue(Reply(ToolUse("read__ask_user_to_pick", {"kind": "member", "prompt": "Which Saar?",
                                                              "candidates": candidates}, id="toolu_pick")))
    suspended = await sse(client, f"{gym.base}/messages", json_body={"message": "find Saar"},
                          headers=gym.owner.headers)
    conversation_id = suspended.one("conversation_started")["conversationId"]
    pending = suspended.one("disambiguation_pending")
    assert pending["kind"] == "member" and pending["prompt"] == "Which Saar?"
    assert pending["candidates"] == candidates

    for not_offered in ("m9", "", "m" * 201):  # ARCHITECTURE.md: any id not among the candidates is invalid_pick
        wrong = await sse(client, gym.pick_url(conversation_id, "toolu_pick"), json_body={"id": not_offered},
                          headers=gym.owner.headers)
        assert wrong.status == 422 and wrong.body["code"] == "invalid_pick", (not_offered[:5], wrong.body)
    fake_model.queue(Reply(Text("Saar Levi it is.")))
    picked = await sse(client, gym.pick_url(conversation_id, "toolu_pick"), json_body={"id": "m2"},
                       headers=gym.owner.headers)
    assert picked.one("tool_completed")["output"] == {"pickedId": "m2", "pickedLabel": "Saar Levi", "kind": "member"}
    assert picked.text == "Saar Levi it is."
    fed = json.loads(fake_model.requests[-1].body["messages"][-1]["content"][0]["content"])
    assert fed["pickedId"] == "m2"
    confirm_on_pick = await sse(client, gym.confirm_url(conversation_id, "toolu_pick"),
                                json_body={"approved": True}, headers=gym.owner.headers)
    assert confirm_on_pick.status == 404


async def test_typing_instead_of_clicking_supersedes_and_next_request_is_valid(client, gym, fake_model, db) -> None:
    conversation_id, task_id = await _task(client, gym, fake_model)
    await _ask_delete(client, gym, fake_model, conversation_id, task_id)
    fake_model.queue(Reply(Text("Sure, I won't delete it. Here are your tasks.")))
    typed = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "actually never mind, what's open?", "conversationId": conversation_id})
    assert typed.status == 200 and "error" not in typed.names
    request = fake_model.requests[-1]
    assert request.rejected is None
    last_user = request.body["messages"][-1]["content"]
    assert last_user[0]["type"] == "tool_result" and last_user[0]["tool_use_id"] == "toolu_del"
    assert json.loads(last_user[0]["content"])["code"] == "superseded"
    async with db.owner() as session:
        status = await session.scalar(text("SELECT status FROM ai_tool_executions WHERE tool_use_id = 'toolu_del' "
                                           "AND conversation_id = :c"), {"c": conversation_id})
    assert status == "superseded"
    late = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
                     headers=gym.owner.headers)
    assert late.status == 409 and late.body["code"] == "tool_already_resolved"
    assert await _deleted_at(db, task_id) is None


async def test_typing_past_the_pending_ttl_reads_expired_and_the_model_is_told_so(client, gym, fake_model,
                                                                                   db) -> None:
    """A new message settles a pending confirmation: superseded while it could still be answered, expired once
    PENDING_TTL has passed (the model reads which)."""
    conversation_id, task_id = await _task(client, gym, fake_model)
    await _ask_delete(client, gym, fake_model, conversation_id, task_id)
    async with db.owner() as session:
        await session.execute(text("UPDATE ai_tool_executions SET created_at = now() - interval '25 hours' "
                                   "WHERE conversation_id = :c AND tool_use_id = 'toolu_del'"), {"c": conversation_id})
    fake_model.queue(Reply(Text("That request had expired; nothing was deleted.")))
    typed = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "did you delete it?", "conversationId": conversation_id})
    assert typed.status == 200 and "error" not in typed.names
    last_user = fake_model.requests[-1].body["messages"][-1]["content"]
    assert last_user[0]["tool_use_id"] == "toolu_del" and json.loads(last_user[0]["content"])["code"] == "expired"
    async with db.owner() as session:
        status = await session.scalar(text("SELECT status FROM ai_tool_executions WHERE tool_use_id = 'toolu_del' "
                                           "AND conversation_id = :c"), {"c": conversation_id})
    assert status == "expired" and await _deleted_at(db, task_id) is None


async def test_expired_pending_reads_expired(client, gym, fake_model, db) -> None:
    conversation_id, task_id = await _task(client, gym, fake_model)
    await _ask_delete(client, gym, fake_model, conversation_id, task_id)
    async with db.owner() as session:
        await session.execute(text("UPDATE ai_tool_executions SET created_at = now() - interval '25 hours' "
                                   "WHERE conversation_id = :c AND tool_use_id = 'toolu_del'"), {"c": conversation_id})
    late = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
                     headers=gym.owner.headers)
    assert late.status == 409 and late.body["code"] == "tool_already_resolved"
    detail = (await client.get(f"{gym.base}/conversations/{conversation_id}", headers=gym.owner.headers)).json()
    statuses = {c["toolUseId"]: c["status"] for m in detail["messages"] for c in m["toolCalls"]}
    assert statuses["toolu_del"] == "expired"


async def test_a_pending_confirmation_past_the_ttl_reads_expired_when_the_conversation_is_reopened(
        client, gym, fake_model, db) -> None:
    """ARCHITECTURE.md: pending executions past PENDING_TTL read `expired`, also to a reader who has not acted on
    them since (the card must not offer an Approve that can only fail)."""
    conversation_id, task_id = await _task(client, gym, fake_model)
    await _ask_delete(client, gym, fake_model, conversation_id, task_id)
    async with db.owner() as session:
        await session.execute(text("UPDATE ai_tool_executions SET created_at = now() - interval '25 hours' "
                                   "WHERE conversation_id = :c AND tool_use_id = 'toolu_del'"), {"c": conversation_id})
    detail = (await client.get(f"{gym.base}/conversations/{conversation_id}", headers=gym.owner.headers)).json()
    calls = {c["toolUseId"]: c for m in detail["messages"] for c in m["toolCalls"]}
    assert calls["toolu_del"]["status"] == "expired" and "inputSchema" not in calls["toolu_del"]
    assert calls["toolu_mk"]["status"] == "succeeded"
    assert await _deleted_at(db, task_id) is None


@pytest.fixture(scope="module")
def impatient(app_settings):
    """The app with answers waiting ANSWER_WAIT for a busy conversation (AGENT_ANSWER_WAIT_SECONDS)."""
    server = ThreadedServer(create_app(app_settings.model_copy(
        update={"agent_answer_wait_seconds": ANSWER_WAIT}))).start()
    yield server
    server.stop()


async def test_an_answer_on_a_busy_conversation_waits_then_says_busy_or_why_it_could_never_be_taken(
        impatient, gym, fake_model, db, app_settings) -> None:
    """The answer takes the conversation's lock first (waiting up to AGENT_ANSWER_WAIT_SECONDS): busy past
    that, a pending confirmation stays pending (409 conversation_busy); an answer that could never be taken says
    so instead; a lock freed while the answer waits is taken and the answer goes through."""
    async with httpx.AsyncClient(base_url=impatient.url, timeout=30) as client:
        conversation_id, task_id = await _task(client, gym, fake_model)
        await _ask_delete(client, gym, fake_model, conversation_id, task_id)
        redis = aioredis.from_url(app_settings.redis_url)
        try:
            await redis.set(f"spotter:turn:{conversation_id}", "another turn", px=60_000)
            busy = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
                             headers=gym.owner.headers)
            unknown = await sse(client, gym.confirm_url(conversation_id, "toolu_nope"),
                                json_body={"approved": True}, headers=gym.owner.headers)
            assert busy.status == 409 and busy.body["code"] == "conversation_busy"
            assert unknown.status == 404 and unknown.body["code"] == "tool_execution_not_found"
            assert await _deleted_at(db, task_id) is None
            fake_model.queue(Reply(Text("Deleted.")))
            # Another turn still holds the lock and lets go of it (its lease lapses) well within the wait.
            await redis.set(f"spotter:turn:{conversation_id}", "another turn", px=int(ANSWER_WAIT * 1000 / 5))
            done = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
                             headers=gym.owner.headers)
        finally:
            await redis.aclose()
    assert done.status == 200 and done.one("tool_completed")["ok"] is True
    assert await _deleted_at(db, task_id) is not None


async def test_a_confirmation_refused_by_the_daily_cap_runs_nothing_and_can_be_answered_later(
        client, gym, fake_model, db) -> None:
    conversation_id, task_id = await _task(client, gym, fake_model)
    await _ask_delete(client, gym, fake_model, conversation_id, task_id)
    async with db.owner() as session:
        await session.execute(text("UPDATE ai_usage_daily SET cost_usd_micros = 5000000 WHERE org_id = :o"),
                              {"o": gym.org.id})  # the pro cap, spent
    refused = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
                        headers=gym.owner.headers)
    assert refused.status == 200 and refused.one("error")["code"] == "agent_budget_exceeded"
    assert "tool_completed" not in refused.names and await _deleted_at(db, task_id) is None
    async with db.owner() as session:
        status = await session.scalar(text("SELECT status FROM ai_tool_executions WHERE tool_use_id = 'toolu_del' "
                                           "AND conversation_id = :c"), {"c": conversation_id})
        await session.execute(text("UPDATE ai_usage_daily SET cost_usd_micros = 0 WHERE org_id = :o AND day = :d"),
                              {"o": gym.org.id, "d": datetime.now(UTC).date()})
    assert status == "pending"  # the claim rolled back with the refusal
    fake_model.queue(Reply(Text("Deleted.")))
    later = await sse(client, gym.confirm_url(conversation_id, "toolu_del"), json_body={"approved": True},
                      headers=gym.owner.headers)
    assert later.one("tool_completed")["ok"] is True and await _deleted_at(db, task_id) is not None
