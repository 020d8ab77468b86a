"""The turn over real HTTP: streamed text, inline tools, persisted history, usage and cost."""

import json

from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse


async def test_simple_turn_streams_text_in_order_and_ends_with_usage(client, gym, fake_model, db) -> None:
    fake_model.queue(Reply(Text("Hello Maya, how can I help the gym today?", chunks=4)))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "hi"}, headers=gym.owner.headers)

    assert result.status == 200
    assert result.names[0] == "conversation_started"
    assert result.names[-1] == "done"
    deltas = [d["delta"] for d in result.of("text_delta")]
    assert len(deltas) == 4 and "".join(deltas) == "Hello Maya, how can I help the gym today?"
    assert result.names.index("message_done") > result.names.index("text_delta")
    assert result.one("message_done")["stopReason"] == "end_turn"
    done = result.one("done")
    conversation_id = result.one("conversation_started")["conversationId"]
    assert done["conversationId"] == conversation_id
    recorded = fake_model.requests[0].usage
    usage = done["usage"]
    assert usage["inputTokens"] == recorded["input_tokens"] and usage["outputTokens"] > 0
    assert usage["cacheCreationTokens"] == recorded["cache_creation_input_tokens"]
    expected = round(recorded["input_tokens"] * 3 + usage["outputTokens"] * 15
                     + recorded["cache_creation"]["ephemeral_5m_input_tokens"] * 3.75
                     + recorded["cache_creation"]["ephemeral_1h_input_tokens"] * 6)
    assert usage["costUsdMicros"] == expected > 0
    async with db.owner() as session:
        roles = (await session.execute(text("SELECT role FROM conversation_messages WHERE conversation_id = :c "
                                            "ORDER BY seq"), {"c": conversation_id})).scalars().all()
        spent = await session.scalar(text("SELECT cost_usd_micros FROM ai_usage_daily WHERE org_id = :o"),
                                     {"o": gym.org.id})
    assert roles == ["user", "assistant"]
    assert spent == expected


async def test_tool_turn_runs_inline_and_feeds_result_first(client, gym, fake_model, db) -> None:
    fake_model.queue(
        Reply(Text("Creating it."), ToolUse("tasks__create", {"title": "Call Saar about renewal"}, id="toolu_a")),
        Reply(Text("Done: the task is on the list.")),
    )
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "remind me to call Saar"},
                       headers=gym.owner.headers)

    started, completed = result.one("tool_started"), result.one("tool_completed")
    assert started == {"type": "tool_started", "toolUseId": "toolu_a", "router": "tasks", "action": "create",
                       "input": {"title": "Call Saar about renewal"}}
    assert completed["ok"] is True and completed["inverseAvailable"] is True
    assert completed["output"]["title"] == "Call Saar about renewal"
    assert len(result.of("message_done")) == 2
    second = fake_model.requests[1].body["messages"]
    assert second[-1]["role"] == "user"
    first_block = second[-1]["content"][0]
    assert first_block["type"] == "tool_result" and first_block["tool_use_id"] == "toolu_a"
    assert json.loads(first_block["content"])["title"] == "Call Saar about renewal"
    async with db.owner() as session:
        task = (await session.execute(text("SELECT id, deleted_at FROM tasks WHERE org_id = :o"),
                                      {"o": gym.org.id})).one()
        audit = (await session.execute(text("SELECT action, resource_id, metadata FROM audit_logs WHERE org_id = :o"),
                                       {"o": gym.org.id})).one()
    assert task.deleted_at is None
    assert audit.action == "task.create" and audit.resource_id == str(task.id) and audit.metadata["agent"] is True


async def test_tool_uses_answer_in_their_order_an_unknown_tool_included(client, gym, fake_model) -> None:
    """ARCHITECTURE.md: the tool uses are processed in order; one naming no tool fails `unknown_tool` at its own
    place in the stream and in the results the model reads."""
    fake_model.queue(
        Reply(ToolUse("gym__teleport", {}, id="toolu_x"), ToolUse("tasks__create", {"title": "Oil the rower"},
                                                                   id="toolu_b")),
        Reply(Text("One of those was not a tool; the task is on the list.")),
    )
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "teleport, then oil the rower"},
                       headers=gym.owner.headers)

    tool_frames = [(name, data["toolUseId"]) for name, data in result.events if name.startswith("tool_")]
    assert tool_frames == [("tool_completed", "toolu_x"), ("tool_started", "toolu_b"), ("tool_completed", "toolu_b")]
    failed = result.of("tool_completed")[0]
    assert failed["ok"] is False and failed["error"]["code"] == "unknown_tool"
    fed = fake_model.requests[1].body["messages"][-1]["content"]
    assert [(b["tool_use_id"], b.get("is_error", False)) for b in fed] == [("toolu_x", True), ("toolu_b", False)]


async def test_undo_runs_the_inverse_and_links_both_audit_rows(client, gym, fake_model, db) -> None:
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Order chalk"}, id="toolu_u")), Reply(Text("Done.")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "task: order chalk"},
                       headers=gym.owner.headers)
    conversation_id = result.one("conversation_started")["conversationId"]
    task_id = result.one("tool_completed")["output"]["id"]

    undo = await client.post(gym.undo_url(conversation_id, "toolu_u"), headers=gym.owner.headers)
    assert undo.status_code == 200
    body = undo.json()
    assert body["ok"] is True and body["undoneToolUseId"] == "toolu_u"
    assert body["inverse"]["router"] == "tasks" and body["inverse"]["action"] == "delete"
    assert body["inverse"]["output"]["id"] == task_id

    again = await client.post(gym.undo_url(conversation_id, "toolu_u"), headers=gym.owner.headers)
    assert again.status_code == 409 and again.json()["code"] == "already_undone"
    async with db.owner() as session:
        deleted = await session.scalar(text("SELECT deleted_at FROM tasks WHERE id = :t"), {"t": task_id})
        audits = (await session.execute(text("SELECT id, action, metadata FROM audit_logs WHERE org_id = :o "
                                             "ORDER BY created_at"), {"o": gym.org.id})).all()
    assert deleted is not None
    assert [a.action for a in audits] == ["task.create", "task.delete"]
    assert audits[1].metadata["undoes_audit_log_id"] == str(audits[0].id)
    detail = await client.get(f"{gym.base}/conversations/{conversation_id}", headers=gym.owner.headers)
    call = detail.json()["messages"][1]["toolCalls"][0]
    assert call["undone"] is True and call["inverseAvailable"] is False


async def test_undo_refuses_reads_and_failures(client, gym, fake_model) -> None:
    fake_model.queue(Reply(ToolUse("tasks__list", {}, id="toolu_r"),
                           ToolUse("tasks__update", {"id": "00000000-0000-0000-0000-000000000000"}, id="toolu_f")),
                     Reply(Text("ok")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "list"}, headers=gym.owner.headers)
    conversation_id = result.one("conversation_started")["conversationId"]
    failed = [c for c in result.of("tool_completed") if c["toolUseId"] == "toolu_f"][0]
    assert failed["ok"] is False and failed["error"]["code"] == "task_not_found"
    for tool_use_id in ("toolu_r", "toolu_f"):
        response = await client.post(gym.undo_url(conversation_id, tool_use_id), headers=gym.owner.headers)
        assert response.status_code == 422 and response.json()["code"] == "not_undoable"
    missing = await client.post(gym.undo_url(conversation_id, "toolu_nope"), headers=gym.owner.headers)
    assert missing.status_code == 404 and missing.json()["code"] == "tool_execution_not_found"


async def test_conversations_list_and_detail(client, gym, fake_model) -> None:
    fake_model.queue(Reply(Text("First answer")), Reply(Text("Second answer")))
    first = await sse(client, f"{gym.base}/messages", json_body={"message": "what programs do we run?"},
                      headers=gym.owner.headers)
    conversation_id = first.one("conversation_started")["conversationId"]
    second = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                       json_body={"message": "and tomorrow?", "conversationId": conversation_id})
    assert "conversation_started" not in second.names
    listing = await client.get(f"{gym.base}/conversations", headers=gym.owner.headers)
    assert listing.json()["items"][0] == {**listing.json()["items"][0], "id": conversation_id,
                                          "title": "what programs do we run?"}
    detail = (await client.get(f"{gym.base}/conversations/{conversation_id}", headers=gym.owner.headers)).json()
    assert [(m["role"], m["text"]) for m in detail["messages"]] == [
        ("user", "what programs do we run?"), ("assistant", "First answer"),
        ("user", "and tomorrow?"), ("assistant", "Second answer")]
    replayed = fake_model.requests[1].body["messages"]
    assert [m["role"] for m in replayed] == ["user", "assistant", "user"]
