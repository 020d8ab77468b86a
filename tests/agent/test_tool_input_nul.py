"""A NUL byte in a model-made tool input (issue 12 item 2): a typed validation_failed tool result the model
reads, never a database error; the turn finishes, nothing is written, and the conversation goes on."""

from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse


async def test_a_nul_in_a_model_made_tool_input_is_a_typed_tool_error(client, gym, fake_model, db) -> None:
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Fix\x00 the rower"}, id="toolu_nul1"),
                           ToolUse("tasks__delete", {"id": "0b8a7c1e-\x00"}, id="toolu_nul2")),
                     Reply(Text("That input was not valid.")))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "add the task"},
                       headers=gym.owner.headers)
    assert result.of("error") == [] and result.names[-1] == "done"
    completed = {c["toolUseId"]: c for c in result.of("tool_completed")}
    assert set(completed) == {"toolu_nul1", "toolu_nul2"}
    for outcome in completed.values():
        assert outcome["ok"] is False and outcome["error"]["code"] == "validation_failed"
        assert "NUL" in outcome["error"]["detail"] and "\x00" not in outcome["error"]["message"]
    assert result.text == "That input was not valid."
    fed = fake_model.requests[-1].body["messages"][-1]["content"]
    assert [(b["tool_use_id"], b.get("is_error")) for b in fed] == [("toolu_nul1", True), ("toolu_nul2", True)]
    async with db.owner() as session:
        tasks = await session.scalar(text("SELECT count(*) FROM tasks WHERE org_id = :o"), {"o": gym.org.id})
    assert tasks == 0

    conversation_id = result.one("conversation_started")["conversationId"]
    fake_model.queue(Reply(Text("Still here.")))
    again = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "ok", "conversationId": conversation_id})
    assert again.text == "Still here." and again.of("error") == []
