"""The fake Messages API, exercised through the real `anthropic` SDK over real HTTP."""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anthropic
import httpx
import httpx2
import pytest
from anthropic.types import Message

from tests.fakes.anthropic_server import ApiError, DropStream, FakeAnthropic, Reply, Text, ToolUse

HI = [{"role": "user", "content": "hi"}]


def tokens(*blocks: dict[str, Any]) -> int:
    """The documented count, written out independently: ceil(len(canonical JSON) / 4) per block."""
    return sum(math.ceil(len(json.dumps(b, sort_keys=True, separators=(",", ":"), ensure_ascii=False)) / 4)
               for b in blocks)


@pytest.fixture(scope="module")
def running_fake() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        yield fake


@pytest.fixture
def fake(running_fake: FakeAnthropic) -> FakeAnthropic:
    running_fake.reset()
    return running_fake


@pytest.fixture
async def client(fake: FakeAnthropic) -> AsyncIterator[anthropic.AsyncAnthropic]:
    async with anthropic.AsyncAnthropic(api_key="test", base_url=fake.url, max_retries=0) as sdk:
        yield sdk


async def test_streamed_text_arrives_in_order_and_final_message_matches(fake, client):
    fake.queue(Reply(Text("hello world", chunks=3)))
    async with client.messages.stream(model="claude-test", max_tokens=50, messages=HI) as stream:
        pieces = [text async for text in stream.text_stream]
        final = await stream.get_final_message()

    assert pieces == ["hel", "lo w", "orld"]
    assert [b.text for b in final.content] == ["hello world"]
    assert final.stop_reason == "end_turn"
    assert final.model == "claude-test"
    assert final.usage.input_tokens == tokens({"type": "text", "text": "hi"})
    assert final.usage.output_tokens == math.ceil(len("hello world") / 4)
    assert fake.requests[0].usage["output_tokens"] == final.usage.output_tokens
    assert fake.requests[0].body["stream"] is True


async def test_json_create_returns_the_whole_message_and_usage(fake, client):
    fake.queue(Reply(Text("done"), ToolUse("lookup_member", {"id": 7}, id="toolu_1"), output_tokens=99))
    message = await client.messages.create(model="claude-test", max_tokens=50, messages=HI)

    assert [b.type for b in message.content] == ["text", "tool_use"]
    assert message.content[1].input == {"id": 7}
    assert message.stop_reason == "tool_use"
    assert message.usage.output_tokens == 99
    assert message.usage.input_tokens == fake.requests[0].usage["input_tokens"] == tokens(
        {"type": "text", "text": "hi"})


async def test_tool_use_streams_as_json_pieces_that_reassemble(fake, client):
    tool_input = {"member_id": 42, "tags": ["late", "vip"], "note": "ünïcode ✓"}
    fake.queue(Reply(Text("checking"), ToolUse("lookup_member", tool_input, chunks=5),
                     ToolUse("other", {}, chunks=1)))
    async with client.messages.stream(model="m", max_tokens=50, messages=HI) as stream:
        partials = [(e.index, e.delta.partial_json) async for e in stream
                    if e.type == "content_block_delta" and e.delta.type == "input_json_delta"]
        final = await stream.get_final_message()

    first, second = final.content[1], final.content[2]
    assert first.input == tool_input and first.name == "lookup_member"
    assert second.input == {}
    assert first.id.startswith("toolu_fake_") and second.id.startswith("toolu_fake_")
    assert first.id != second.id
    assert [index for index, _ in partials] == [1] * 5 + [2] * 2  # never fewer than two pieces
    assert "".join(piece for index, piece in partials if index == 2) == "{}"
    assert final.stop_reason == "tool_use"


async def test_stream_wire_format_is_the_real_event_sequence(fake):
    """Read the raw SSE (the SDK hides ping) and check event order and message_start fields."""
    fake.queue(Reply(Text("ab", chunks=2), stop_reason="max_tokens"))
    body = {"model": "m", "max_tokens": 5, "messages": HI, "stream": True}
    async with httpx.AsyncClient() as http, http.stream("POST", f"{fake.url}/v1/messages", json=body) as resp:
        raw = (await resp.aread()).decode()
    frames = [f.split("\n") for f in raw.strip().split("\n\n")]
    names = [lines[0].removeprefix("event: ") for lines in frames]
    data = [json.loads(lines[1].removeprefix("data: ")) for lines in frames]

    assert resp.headers["content-type"].startswith("text/event-stream")
    assert resp.headers["request-id"].startswith("req_")
    assert names == ["message_start", "ping", "content_block_start", "content_block_delta",
                     "content_block_delta", "content_block_stop", "message_delta", "message_stop"]
    assert [d["type"] for d in data] == names
    start = data[0]["message"]
    assert (start["type"], start["role"], start["model"], start["content"], start["stop_reason"]) == (
        "message", "assistant", "m", [], None)
    assert start["usage"]["output_tokens"] == 1
    assert set(start["usage"]["cache_creation"]) == {"ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"}
    assert data[6] == {"type": "message_delta", "delta": {"stop_reason": "max_tokens", "stop_sequence": None},
                       "usage": {"output_tokens": 1}}


@pytest.mark.parametrize(("status", "error_class", "error_type"), [
    (400, anthropic.BadRequestError, "invalid_request_error"),
    (401, anthropic.AuthenticationError, "authentication_error"),
    (403, anthropic.PermissionDeniedError, "permission_error"),
    (404, anthropic.NotFoundError, "not_found_error"),
    (429, anthropic.RateLimitError, "rate_limit_error"),
    (500, anthropic.InternalServerError, "api_error"),
    (529, anthropic.OverloadedError, "overloaded_error"),
])
async def test_api_errors_raise_the_sdk_error_class(fake, client, status, error_class, error_type):
    fake.queue(ApiError(status, "scripted failure"))
    with pytest.raises(error_class) as caught:
        await client.messages.create(model="m", max_tokens=5, messages=HI)

    assert caught.value.status_code == status
    assert caught.value.body["error"] == {"type": error_type, "message": "scripted failure"}
    assert caught.value.request_id.startswith("req_")
    assert (caught.value.response.headers.get("retry-after") is not None) == (status == 429)


async def test_a_429_lets_the_sdk_retry_into_the_next_scripted_turn(fake):
    fake.queue(ApiError(429, retry_after=0.01), Reply(Text("second try")))
    async with anthropic.AsyncAnthropic(api_key="test", base_url=fake.url, max_retries=1) as sdk:
        message = await sdk.messages.create(model="m", max_tokens=5, messages=HI)

    assert message.content[0].text == "second try"
    assert [r.headers["x-stainless-retry-count"] for r in fake.requests] == ["0", "1"]


async def test_drop_stream_makes_the_sdk_raise_before_message_stop(fake, client):
    fake.queue(DropStream(after_events=4))
    seen: list[str] = []
    with pytest.raises(httpx2.RemoteProtocolError):
        async with client.messages.stream(model="m", max_tokens=50, messages=HI) as stream:
            async for event in stream:
                seen.append(event.type)
    assert seen[0] == "message_start" and "content_block_delta" in seen
    assert "message_stop" not in seen

    fake.queue(DropStream())
    with pytest.raises(anthropic.APIConnectionError):
        await client.messages.create(model="m", max_tokens=50, messages=HI)


async def test_an_unscripted_request_gets_a_500_that_says_so(fake, client):
    with pytest.raises(anthropic.InternalServerError, match="no scripted turn"):
        await client.messages.create(model="m", max_tokens=5, messages=HI)
    assert "no scripted turn" in fake.requests[0].rejected


async def test_queue_comes_first_then_the_handler_answers(fake, client):
    fake.queue(Reply(Text("scripted")))
    fake.respond_with(lambda body: Reply(Text(f"echo {body['messages'][-1]['content']}")))
    first = await client.messages.create(model="m", max_tokens=5, messages=HI)
    yo = [{"role": "user", "content": "yo"}]
    second = await client.messages.create(model="m", max_tokens=5, messages=yo)

    assert (first.content[0].text, second.content[0].text) == ("scripted", "echo yo")


async def test_a_handler_that_raises_surfaces_as_a_500(fake, client):
    fake.respond_with(lambda body: 1 / 0)
    with pytest.raises(anthropic.InternalServerError, match="ZeroDivisionError"):
        await client.messages.create(model="m", max_tokens=5, messages=HI)


def _body(*messages: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 5, "messages": list(messages), **fields}


def _user(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


def _ask(tool_id: str = "t1") -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "tool_use", "id": tool_id, "name": "x", "input": {}}]}


def _answer(tool_id: str = "t1") -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_id, "content": "ok"}


def _cached(n: int, ttl: str = "5m") -> dict[str, Any]:
    return {"type": "text", "text": f"block {n}", "cache_control": {"type": "ephemeral", "ttl": ttl}}


def _tool(name: str) -> dict[str, Any]:
    return {"name": name, "input_schema": {"type": "object"}}


Q, A = HI[0], {"role": "assistant", "content": "a"}
NOTE = {"type": "text", "text": "note"}
BAD_AND_FIXED = {  # name: (rejected body, corrected body, part of the rejection reason)
    "missing model": ({"max_tokens": 5, "messages": HI}, _body(Q), "model"),
    "missing max_tokens": ({"model": "m", "messages": HI}, _body(Q), "max_tokens"),
    "missing messages": ({"model": "m", "max_tokens": 5}, _body(Q), "messages"),
    "first message not user": (_body(A, Q), _body(Q, A, Q), "first"),
    "roles not alternating": (_body(Q, Q), _body(Q, A, Q), "alternate"),
    "empty string content": (_body({"role": "user", "content": ""}), _body(Q), "non-empty"),
    "empty list content": (_body(_user()), _body(_user(NOTE)), "non-empty"),
    "tool_use left unanswered": (_body(Q, _ask(), Q), _body(Q, _ask(), _user(_answer())),
                                 "without `tool_result`"),
    "tool_result after text": (_body(Q, _ask(), _user(NOTE, _answer())),
                               _body(Q, _ask(), _user(_answer(), NOTE)), "must come first"),
    "tool_result for an unknown id": (_body(Q, _ask(), _user(_answer(), _answer("t9"))),
                                      _body(Q, _ask(), _user(_answer())), "t9"),
    "tool_result with no tool_use before it": (_body(_user(_answer())), _body(Q), "unexpected `tool_use_id`"),
    "five cache breakpoints": (_body(_user(*map(_cached, range(5)))), _body(_user(*map(_cached, range(4)))),
                               "maximum of 4"),
    "1h breakpoint after a 5m one": (_body(_user(_cached(1, "1h")), system=[_cached(0, "5m")]),
                                     _body(_user(_cached(1, "5m")), system=[_cached(0, "1h")]), "ttl"),
    "tool name with a space": (_body(Q, tools=[_tool("get weather")]), _body(Q, tools=[_tool("get_weather")]),
                               "tools.0.name"),
    "tool name of 65 characters": (_body(Q, tools=[_tool("a" * 65)]), _body(Q, tools=[_tool("a" * 64)]),
                                   "tools.0.name"),
}


@pytest.mark.parametrize(("bad", "fixed", "reason"), BAD_AND_FIXED.values(), ids=BAD_AND_FIXED.keys())
async def test_invalid_request_is_rejected_and_the_fixed_one_accepted(fake, client, bad, fixed, reason):
    fake.queue(Reply(Text("accepted")))
    with pytest.raises(anthropic.BadRequestError) as caught:
        await client.post("/v1/messages", body=bad, cast_to=Message)
    message = await client.post("/v1/messages", body=fixed, cast_to=Message)

    assert caught.value.body["error"]["type"] == "invalid_request_error"
    assert reason in fake.requests[0].rejected
    assert fake.requests[0].usage == {}
    assert message.content[0].text == "accepted"  # the rejected request did not consume the scripted turn
    assert fake.requests[1].rejected is None


async def test_an_empty_final_assistant_message_is_an_allowed_prefill(fake, client):
    fake.queue(Reply(Text("ok")))
    prefilled = [*HI, {"role": "assistant", "content": ""}]
    await client.post("/v1/messages", body=_body(*prefilled), cast_to=Message)
    assert fake.requests[0].rejected is None


TOOLS = [{"name": "find_member", "description": "Find a member", "input_schema": {"type": "object"}},
         {"name": "book_class", "description": "Book a class", "input_schema": {"type": "object"},
          "cache_control": {"type": "ephemeral", "ttl": "1h"}}]
SYSTEM = [{"type": "text", "text": "You are Spotter.", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
          {"type": "text", "text": "Gym: Northside.", "cache_control": {"type": "ephemeral", "ttl": "1h"}}]
CC_5M = {"type": "ephemeral"}


def _strip(block: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in block.items() if k != "cache_control"}


def _turn(text: str, role: str = "user", cached: bool = False) -> dict[str, Any]:
    block = {"type": "text", "text": text, **({"cache_control": CC_5M} if cached else {})}
    return {"role": role, "content": [block]}


async def _usage(client: anthropic.AsyncAnthropic, fake: FakeAnthropic, messages: list[dict]) -> Any:
    fake.queue(Reply(Text("reply")))
    async with client.messages.stream(model="m", max_tokens=5, tools=TOOLS, system=SYSTEM,
                                      messages=messages) as stream:
        return (await stream.get_final_message()).usage


async def test_cache_reads_grow_as_the_conversation_grows(fake, client):
    """Four breakpoints: last tool (1h), both system blocks (1h), last message block (5m)."""
    u1, a1, u2 = _turn("first question"), _turn("first answer", "assistant"), _turn("second question")
    a2, u3 = _turn("second answer", "assistant"), _turn("third question")
    first = await _usage(client, fake, [_turn("first question", cached=True)])
    second = await _usage(client, fake, [u1, a1, _turn("second question", cached=True)])
    third = await _usage(client, fake, [u1, a1, u2, a2, _turn("third question", cached=True)])

    static = tokens(*map(_strip, TOOLS), *map(_strip, SYSTEM))
    assert (first.cache_read_input_tokens, first.input_tokens) == (0, 0)
    assert first.cache_creation.ephemeral_1h_input_tokens == static
    assert first.cache_creation.ephemeral_5m_input_tokens == tokens(*u1["content"])
    assert first.cache_creation_input_tokens == static + tokens(*u1["content"])
    assert second.cache_read_input_tokens == static + tokens(*u1["content"])
    assert second.cache_creation.ephemeral_5m_input_tokens == tokens(*a1["content"], *u2["content"])
    assert second.cache_creation.ephemeral_1h_input_tokens == 0
    assert third.cache_read_input_tokens == (second.cache_read_input_tokens
                                             + tokens(*a1["content"], *u2["content"]))
    assert third.cache_creation.ephemeral_5m_input_tokens == tokens(*a2["content"], *u3["content"])
    assert [r.usage["cache_read_input_tokens"] for r in fake.requests] == [
        first.cache_read_input_tokens, second.cache_read_input_tokens, third.cache_read_input_tokens]


async def test_cache_entries_expire_by_ttl_and_a_changed_prefix_misses(fake, client):
    now = [1000.0]
    fake.clock = lambda: now[0]
    conversation = [_turn("question", cached=True)]
    await _usage(client, fake, conversation)
    static = tokens(*map(_strip, TOOLS), *map(_strip, SYSTEM))

    now[0] += 301  # the 5m message entry is gone, the 1h tools+system entries are not
    after_5m = await _usage(client, fake, conversation)
    now[0] += 3601  # past the 1h ttl of the entries the previous request rewrote
    after_1h = await _usage(client, fake, conversation)
    fake.queue(Reply(Text("reply")))
    changed = await client.messages.create(model="m", max_tokens=5, tools=TOOLS, messages=conversation,
                                           system=[SYSTEM[0], {**SYSTEM[1], "text": "Gym: Southside."}])

    assert after_5m.cache_read_input_tokens == static
    assert after_1h.cache_read_input_tokens == 0
    assert changed.usage.cache_read_input_tokens == tokens(*map(_strip, TOOLS), _strip(SYSTEM[0]))


async def test_a_cache_read_refreshes_the_entry_it_read(fake, client):
    now = [1000.0]
    fake.clock = lambda: now[0]
    start = [_turn("question", cached=True)]
    await _usage(client, fake, start)
    now[0] += 200  # reads the first request's message entry by look-back, refreshing it
    await _usage(client, fake, [_turn("question"), _turn("answer", "assistant"), _turn("more", cached=True)])
    now[0] += 200  # 400 s after it was written, 200 s after it was read

    again = await _usage(client, fake, start)
    assert again.cache_read_input_tokens == tokens(*map(_strip, TOOLS), *map(_strip, SYSTEM),
                                                   *map(_strip, start[0]["content"]))


async def test_unknown_event_types_do_not_break_the_stream_helper(fake, client):
    fake.emit_unknown_events = True
    fake.queue(Reply(Text("still fine", chunks=2)))
    async with client.messages.stream(model="m", max_tokens=5, messages=HI) as stream:
        types = [event.type async for event in stream]
        final = await stream.get_final_message()

    assert "future_event_type" in types
    assert final.content[0].text == "still fine" and final.stop_reason == "end_turn"

    fake.emit_unknown_events = False
    fake.queue(Reply(Text("plain")))
    async with client.messages.stream(model="m", max_tokens=5, messages=HI) as stream:
        assert "future_event_type" not in [event.type async for event in stream]


async def test_a_client_leaving_a_slow_stream_early_is_counted(fake, client):
    fake.queue(Reply(Text("complete")))
    async with client.messages.stream(model="m", max_tokens=5, messages=HI) as stream:
        await stream.get_final_message()
    assert fake.disconnects == 0

    fake.chunk_delay = 0.05
    fake.queue(Reply(Text("a long slow answer that nobody waits for", chunks=30)))
    async with client.messages.stream(model="m", max_tokens=5, messages=HI) as stream:
        async for _ in stream.text_stream:
            break
    for _ in range(100):
        if fake.disconnects:
            break
        await asyncio.sleep(0.02)
    assert fake.disconnects == 1


async def test_reset_forgets_script_handler_requests_and_cache(fake, client):
    fake.queue(Reply(Text("one")), Reply(Text("left over")))
    fake.respond_with(lambda body: Reply(Text("handler")))
    await _usage(client, fake, [_turn("q", cached=True)])
    fake.reset()

    assert fake.requests == []
    with pytest.raises(anthropic.InternalServerError, match="no scripted turn"):
        await client.messages.create(model="m", max_tokens=5, messages=HI)
    assert (await _usage(client, fake, [_turn("q", cached=True)])).cache_read_input_tokens == 0


async def test_other_paths_answer_404_in_the_error_envelope(fake):
    async with httpx.AsyncClient() as http:
        resp = await http.get(f"{fake.url}/v1/models")
    assert resp.status_code == 404
    assert resp.json()["error"]["type"] == "not_found_error"


def test_a_stopped_fake_refuses_connections_and_an_unstarted_one_has_no_url():
    fake = FakeAnthropic()
    with pytest.raises(RuntimeError, match="not started"):
        _ = fake.url
    with fake:
        url = fake.url
        fake.queue(Reply(Text("sync works too")))
        with anthropic.Anthropic(api_key="test", base_url=url, max_retries=0) as sdk:
            message = sdk.messages.create(model="m", max_tokens=5, messages=HI)
            assert message.content[0].text == "sync works too"
    with anthropic.Anthropic(api_key="test", base_url=url, max_retries=0) as sdk, pytest.raises(
            anthropic.APIConnectionError):
        sdk.messages.create(model="m", max_tokens=5, messages=HI)
