"""A confirmation still pending reads the same on reopen as live (issue 17): GET conversation carries the
localized action in words (`summary`) and the tool's input schema (`inputSchema`) on the pending call only."""

from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse


async def test_reopened_pending_confirmation_carries_the_localized_summary_and_input_schema(client, gym,
                                                                                            fake_model) -> None:
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Clean the rower"}, id="toolu_mk")),
                     Reply(Text("Created.")))
    made = await sse(client, f"{gym.base}/messages", json_body={"message": "add a task"}, headers=gym.owner.headers)
    conversation_id = made.one("conversation_started")["conversationId"]
    task_id = made.one("tool_completed")["output"]["id"]
    fake_model.queue(Reply(ToolUse("tasks__delete", {"id": task_id}, id="toolu_del")))
    live = await sse(client, f"{gym.base}/messages", headers={**gym.owner.headers, "X-Locale": "he"},
                     json_body={"message": "delete it", "conversationId": conversation_id})
    frame = live.one("confirmation_pending")

    for locale in ("he", "en"):
        response = await client.get(f"{gym.base}/conversations/{conversation_id}",
                                    headers={**gym.owner.headers, "X-Locale": locale})
        assert response.status_code == 200
        calls = {c["toolUseId"]: c for m in response.json()["messages"] for c in m["toolCalls"]}
        pending = calls["toolu_del"]
        assert pending["status"] == "pending" and pending["inputSchema"] == frame["inputSchema"]
        expected = frame["summary"] if locale == "he" else "Delete the task “Clean the rower”."
        assert pending["summary"] == expected
        assert "summary" not in calls["toolu_mk"] and "inputSchema" not in calls["toolu_mk"]
    assert "Clean the rower" in frame["summary"] and frame["summary"] != expected  # the live frame was Hebrew
