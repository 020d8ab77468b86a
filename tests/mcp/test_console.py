"""Issue 41 item 5: every MCP call is stored as the console stores its own — a conversation (channel "mcp", one
per MCP session) of assistant messages whose tool calls are the action cards — so staff see, approve and undo
what an assistant did, with the console's endpoints."""

from __future__ import annotations

from tests.mcp.conftest import body, connect
from tests.sse import sse


async def test_a_session_is_one_conversation_via_mcp_with_its_action_cards(client, server, gym) -> None:
    async with connect(server.url, gym, client_name="Claude Desktop") as mcp:
        made = body(await mcp.call_tool("tasks__create", {"title": "Clean the rower"}))
        await mcp.call_tool("tasks__list", {})
        await mcp.call_tool("tasks__delete", {"id": made["output"]["id"]})
        await mcp.call_tool("tasks__create", {"title": ""})
    async with connect(server.url, gym, client_name="Claude Desktop") as again:
        await again.call_tool("tasks__list", {})

    listed = (await client.get(f"{gym.agent}/conversations", headers=gym.owner.headers)).json()["items"]
    assert [(item["title"], item["channel"]) for item in listed] == [("Claude Desktop", "mcp")] * 2
    first = listed[-1]["id"]  # newest first
    detail = (await client.get(f"{gym.agent}/conversations/{first}", headers=gym.owner.headers)).json()
    assert detail["channel"] == "mcp"
    cards = [(call["router"], call["action"], call["status"]) for message in detail["messages"]
             for call in message["toolCalls"]]
    assert cards == [("tasks", "create", "succeeded"), ("tasks", "list", "succeeded"),
                     ("tasks", "delete", "pending"), ("tasks", "create", "failed")]
    assert all(message["role"] == "assistant" and message["text"] == "" for message in detail["messages"])
    create_card = detail["messages"][0]["toolCalls"][0]
    assert create_card["inverseAvailable"] is True and create_card["output"]["title"] == "Clean the rower"

    undone = await client.post(f"{gym.agent}/conversations/{first}/undo/{create_card['toolUseId']}",
                               headers=gym.owner.headers)
    assert undone.status_code == 200 and undone.json()["inverse"]["action"] == "delete"


async def test_nobody_chats_into_an_mcp_conversation(client, server, gym, clean_model) -> None:
    async with connect(server.url, gym) as mcp:
        await mcp.call_tool("tasks__list", {})
    conversation = (await client.get(f"{gym.agent}/conversations", headers=gym.owner.headers)).json()["items"][0]
    refused = await sse(client, f"{gym.agent}/messages", headers={**gym.owner.headers, "x-locale": "he"},
                        json_body={"message": "what did it do?", "conversationId": conversation["id"]})
    assert refused.status == 409 and refused.body["code"] == "mcp_conversation_read_only"
    assert "MCP" in refused.body["message"] and clean_model.requests == []


async def test_the_conversation_is_its_callers_alone(client, server, factory, gym) -> None:
    coach = await factory.user(gym.org, "coach")
    async with connect(server.url, gym) as mcp:
        await mcp.call_tool("tasks__list", {})
    conversation = (await client.get(f"{gym.agent}/conversations", headers=gym.owner.headers)).json()["items"][0]
    theirs = await client.get(f"{gym.agent}/conversations", headers=coach.headers)
    assert theirs.json()["items"] == []
    peek = await client.get(f"{gym.agent}/conversations/{conversation['id']}", headers=coach.headers)
    assert peek.status_code == 404 and peek.json()["code"] == "conversation_not_found"
