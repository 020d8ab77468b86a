"""Event → message conversion (000 §4.3): tool_use then its tool_result, knowledge mid-tool buffered after
the result, consecutive user content merged, observability events left out, checkpoint restarts."""

from __future__ import annotations

from agent.trainer.messages import estimated_tokens, to_messages
from agent.trainer.store import Event


def ev(n: int, type: str, **payload) -> Event:
    return Event(seq=n, type=type, payload=payload)


def test_tool_use_is_followed_by_its_result_and_knowledge_mid_tool_comes_after_it() -> None:
    messages = to_messages([
        ev(1, "user_message", message="quick chest workout"),
        ev(2, "knowledge", source="user_profile", data={"experience": "beginner"}),
        ev(3, "llm_request", model="m"),
        ev(4, "tool_call", callId="t1", toolName="data__fetch_data", arguments={"sources": {}}),
        ev(5, "knowledge", source="recovery_status", data=[]),
        ev(6, "tool_result", callId="t1", result="<result>ok</result>"),
        ev(7, "tool_call", callId="t2", toolName="workout__generate_workout", arguments={"exercises": []}),
        ev(8, "workout", workoutId="workout_1", summary="3 exercises"),
        ev(9, "tool_result", callId="t2", result={"workoutId": "workout_1"}),
        ev(10, "llm_response", stopReason="tool_use"),
    ])
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    first = messages[0]["content"]
    assert first[0]["text"] == "quick chest workout" and first[1]["text"].startswith('<knowledge source="user_profile">')
    assert messages[1]["content"][0] == {"type": "tool_use", "id": "t1", "name": "data__fetch_data",
                                         "input": {"sources": {}}}
    assert messages[2]["content"][0]["type"] == "tool_result" and messages[2]["content"][0]["tool_use_id"] == "t1"
    assert messages[2]["content"][1]["text"].startswith('<knowledge source="recovery_status">')
    assert messages[4]["content"][0]["content"] == '{"workoutId": "workout_1"}'
    assert messages[4]["content"][1]["text"].startswith('<artifact type="workout" id="workout_1">')


def test_consecutive_user_content_is_merged_and_a_user_message_mid_tool_waits_for_the_result() -> None:
    messages = to_messages([
        ev(1, "user_message", message="hi"),
        ev(2, "user_message", message="again"),
        ev(3, "tool_call", callId="t1", toolName="coach__idle", arguments={}),
        ev(4, "user_message", message="early"),
        ev(5, "tool_result", callId="t1", result="ok", isError=False),
        ev(6, "knowledge_update", source="workout_history", data={"days_back": 30}),
    ])
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert [b["text"] for b in messages[0]["content"]] == ["hi", "again"]
    tail = messages[2]["content"]
    assert tail[0]["type"] == "tool_result" and tail[1]["text"] == "early"
    assert tail[2]["text"].startswith('<knowledge_update source="workout_history">')


def test_a_dangling_call_gets_an_error_result_and_a_stray_result_is_dropped() -> None:
    messages = to_messages([
        ev(1, "user_message", message="hi"),
        ev(2, "tool_result", callId="nobody", result="x"),
        ev(3, "tool_call", callId="t1", toolName="coach__idle", arguments={}),
    ])
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[0]["content"] == [{"type": "text", "text": "hi"}]
    assert messages[2]["content"][0]["is_error"] is True and messages[2]["content"][0]["tool_use_id"] == "t1"


def test_an_error_result_is_marked_and_a_checkpoint_restarts_the_context() -> None:
    messages = to_messages([
        ev(1, "user_message", message="old"),
        ev(2, "checkpoint", summary="Dani wants chest work."),
        ev(3, "user_message", message="new"),
        ev(4, "tool_call", callId="t1", toolName="workout__swap_exercise", arguments={}),
        ev(5, "tool_result", callId="t1", result={"code": "exercise_not_found"}, isError=True),
    ])
    assert messages[0]["content"][0]["text"].startswith("<checkpoint>") and "old" not in str(messages)
    assert messages[0]["content"][1]["text"] == "new"
    assert messages[2]["content"][0]["is_error"] is True


def test_estimated_tokens_is_chars_over_four() -> None:
    assert estimated_tokens([], [{"type": "text", "text": "x" * 400}]) == 100 + len("[]") // 4
