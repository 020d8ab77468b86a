"""MessageAccumulator: the events the fake server never sends (thinking, signatures, citations, usage totals on
message_delta, events out of order) read as the SDK's own accumulator reads them."""

from __future__ import annotations

import pytest

from agent.costs import Usage
from agent.model_stream import MessageAccumulator, StreamOrderError, usage_from_json

START = {"type": "message_start", "message": {
    "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x", "content": [], "stop_reason": None,
    "usage": {"input_tokens": 12, "output_tokens": 1, "cache_read_input_tokens": 100,
              "cache_creation_input_tokens": 40, "cache_creation": {"ephemeral_5m_input_tokens": 10,
                                                                    "ephemeral_1h_input_tokens": 30}}}}


def _feed(*events: dict) -> tuple[MessageAccumulator, list[str]]:
    message = MessageAccumulator()
    texts = [t for t in (message.add(e) for e in events) if t]
    return message, texts


def test_thinking_signature_citations_and_a_tool_call_build_the_message() -> None:
    citation = {"type": "char_location", "cited_text": "x", "document_index": 0, "start_char_index": 0,
                "end_char_index": 1, "document_title": None}
    message, texts = _feed(
        START,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "",
                                                                       "signature": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me "}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "see."}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "sig"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": "", "citations": None}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Two "}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "citations_delta", "citation": citation}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "tasks."}},
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_1",
                                                                       "name": "tasks__list", "input": {}}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": '{"sta'}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta",
                                                              "partial_json": 'tus": "open"}'}},
        {"type": "content_block_stop", "index": 2},
        {"type": "message_delta", "delta": {"type": "message_delta", "stop_reason": "tool_use", "stop_sequence": None},
         "usage": {"output_tokens": 57, "input_tokens": None, "cache_read_input_tokens": 120}},
        {"type": "message_stop"},
    )
    assert texts == ["Two ", "tasks."] and message.stopped
    assert message.blocks() == [
        {"type": "thinking", "thinking": "Let me see.", "signature": "sig"},
        {"type": "text", "text": "Two tasks."},
        {"type": "tool_use", "id": "toolu_1", "name": "tasks__list", "input": {"status": "open"}}]
    assert message.message is not None and message.message["content"][1]["citations"] == [citation]
    assert message.message["stop_reason"] == "tool_use"
    # output and the given totals overwrite; input_tokens (null on the delta) keeps message_start's
    assert message.usage == Usage(input_tokens=12, output_tokens=57, cache_read_tokens=120,
                                  cache_write_5m_tokens=10, cache_write_1h_tokens=30)


def test_a_tool_call_without_input_deltas_keeps_its_empty_input_and_broken_json_raises() -> None:
    start = {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t",
                                                                           "name": "read__get_current_context",
                                                                           "input": {}}}
    message, _ = _feed(START, start, {"type": "content_block_stop", "index": 0})
    assert message.blocks() == [{"type": "tool_use", "id": "t", "name": "read__get_current_context", "input": {}}]
    with pytest.raises(ValueError, match="Unable to parse tool parameter JSON"):
        _feed(START, start, {"type": "content_block_delta", "index": 0,
                             "delta": {"type": "input_json_delta", "partial_json": '{"a": '}},
              {"type": "content_block_stop", "index": 0})


def test_an_event_before_message_start_is_refused_and_unknown_events_change_nothing() -> None:
    with pytest.raises(StreamOrderError):
        MessageAccumulator().add({"type": "content_block_start", "index": 0, "content_block": {"type": "text"}})
    message, texts = _feed(START, {"type": "ping"}, {"type": "something_new", "index": 9})
    assert texts == [] and message.blocks() == [] and not message.stopped


def test_cache_creation_without_a_ttl_split_is_billed_as_one_hour() -> None:
    assert usage_from_json({"input_tokens": 3, "output_tokens": 4, "cache_creation_input_tokens": 50}) == Usage(
        input_tokens=3, output_tokens=4, cache_write_5m_tokens=0, cache_write_1h_tokens=50)
    assert usage_from_json(None) == Usage()
