"""The model client encodes its own request body (tool definitions once per list): what reaches the Messages
API is exactly what the SDK's own `messages.stream` / `messages.create` would have sent."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import anthropic

from agent.costs import Usage
from agent.model import AnthropicModel, Billed, ModelRequest, ModelResponse, RequestEncoder, TextDelta
from agent.request import tool_definitions
from tests.fakes.anthropic_server import FakeAnthropic, Reply, Text, ToolUse
from tests.fakes.tool_search import ToolSearch
from tools.catalog import build_registry

SYSTEM = [{"type": "text", "text": "You are terse. שלום, привет", "cache_control": {"type": "ephemeral", "ttl": "1h"}}]
MESSAGES = [{"role": "user", "content": [{"type": "text", "text": "find Saar \u05e1\u05e2\u05e8 \"quoted\"\n",
                                          "cache_control": {"type": "ephemeral"}}]}]


def _request(tools: list[dict], **changes) -> ModelRequest:
    fields = {"model": "claude-sonnet-4-6", "system": SYSTEM, "tools": tools, "messages": MESSAGES,
              "max_tokens": 512, "tool_choice": {"type": "auto"}, **changes}
    return ModelRequest(**fields)


def test_the_body_is_the_request_as_json_and_the_tools_are_encoded_once_per_list() -> None:
    tools = tool_definitions(build_registry().for_role("owner"), frozenset({"tasks__list"}))
    encoder = RequestEncoder()
    body = json.loads(encoder.body(_request(tools), stream=True))
    assert body == {"model": "claude-sonnet-4-6", "max_tokens": 512, "system": SYSTEM, "tools": tools,
                    "tool_choice": {"type": "auto"}, "messages": MESSAGES, "stream": True}
    assert "stream" not in json.loads(encoder.body(_request(tools, tool_choice=None), stream=False))
    assert encoder.tools(tools) is encoder.tools(tools)  # the same list: its bytes are reused
    equal_copy = [dict(t) for t in tools]
    assert encoder.tools(equal_copy) is not encoder.tools(tools)  # another list is encoded on its own
    assert json.loads(encoder.tools(equal_copy)) == tools


def test_a_date_in_a_message_is_sent_as_iso_text_and_anything_else_unencodable_raises() -> None:
    encoder = RequestEncoder()
    when = datetime(2026, 11, 24, 13, 0, tzinfo=UTC)
    body = json.loads(encoder.body(_request([], messages=[{"role": "user", "content": [
        {"type": "text", "text": "at", "when": when}]}]), stream=False))
    assert body["messages"][0]["content"][0]["when"] == "2026-11-24T13:00:00+00:00"
    try:
        encoder.body(_request([], messages=[{"role": "user", "content": object()}]), stream=False)
    except TypeError as exc:
        assert "object is not JSON serializable" in str(exc)
    else:
        raise AssertionError("an object the Messages API cannot take was encoded")


async def test_the_fake_api_receives_what_the_sdk_itself_would_send(fake_model: FakeAnthropic) -> None:
    tools = tool_definitions(build_registry().for_role("coach"), frozenset({"tasks__list", "tasks__create"}))
    request = _request(tools)
    reply = Reply(Text("Looking for it, שלום."), ToolSearch("program templates", id="srvtoolu_s"),
                  ToolUse("tasks__list", {"status": "open", "limit": 5, "note": "ünïcode"}, id="toolu_a"))
    fake_model.queue(reply, reply, reply)

    sdk = anthropic.AsyncAnthropic(api_key="sk-test-fake", base_url=fake_model.url, max_retries=0)
    async with sdk.messages.stream(model=request.model, max_tokens=request.max_tokens, system=request.system,
                                   tools=request.tools, tool_choice=request.tool_choice,
                                   messages=request.messages) as stream:
        texts = [event.text async for event in stream if event.type == "text"]
        theirs = await stream.get_final_message()
    await sdk.close()
    model = AnthropicModel(api_key="sk-test-fake", base_url=fake_model.url, max_retries=0)
    items = [item async for item in model.stream(request)]
    completed = await model.complete(request)
    await model.close()

    ours = items[-1]
    assert isinstance(ours, ModelResponse) and ours.stop_reason == theirs.stop_reason == "tool_use"
    # the SDK's own MessageStream read the same stream into the same message, text deltas and usage included
    assert ours.content == [b.model_dump(mode="json", exclude_none=True) for b in theirs.content]
    assert [i.text for i in items if isinstance(i, TextDelta)] == texts and "".join(texts) == "Looking for it, שלום."
    assert ours.content == completed.content and ours.content[3]["input"]["note"] == "ünïcode"
    assert [i for i in items if isinstance(i, Billed)][-1].usage == ours.usage
    sdk_sent, ours_streamed, ours_completed = fake_model.wait_for_requests(3)
    assert all(r.rejected is None for r in (sdk_sent, ours_streamed, ours_completed))
    assert ours_streamed.body == sdk_sent.body
    assert ours_completed.body == {k: v for k, v in sdk_sent.body.items() if k != "stream"}
    assert ours_streamed.headers["content-type"] == "application/json"
    assert ours_streamed.headers["authorization"] == sdk_sent.headers["authorization"] == "Bearer sk-test-fake"
    assert ours_streamed.headers["content-length"] == sdk_sent.headers["content-length"]  # byte for byte as long
    # each call billed what the API said it cost (the second read the cache the first wrote)
    assert theirs.usage.cache_creation.ephemeral_1h_input_tokens == sdk_sent.usage["cache_creation"][
        "ephemeral_1h_input_tokens"] > 0
    for response, recorded in ((ours, ours_streamed), (completed, ours_completed)):
        assert response.usage == Usage(
            input_tokens=recorded.usage["input_tokens"], output_tokens=recorded.usage["output_tokens"],
            cache_read_tokens=recorded.usage["cache_read_input_tokens"],
            cache_write_5m_tokens=recorded.usage["cache_creation"]["ephemeral_5m_input_tokens"],
            cache_write_1h_tokens=recorded.usage["cache_creation"]["ephemeral_1h_input_tokens"])
    assert ours.usage.cache_read_tokens > 0 and ours.usage.output_tokens == theirs.usage.output_tokens
