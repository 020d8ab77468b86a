"""Replay-integrity guard: detection of each violation, repair into API-valid histories, PII-free reports."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from agent.replay import (
    RESUMED_TEXT,
    Violation,
    guard,
    repair,
    snapshot,
    validate_replay,
)
from tests.agent.replay_histories import (
    assert_valid,
    assistant,
    kinds,
    payload,
    text,
    tool_result,
    tool_use,
    user,
)

# --- detection and repair of each kind ----------------------------------------------------------


def test_orphaned_tool_use_at_end_gets_an_error_result_in_a_new_user_message():
    history = [user("book Ana for yoga"), assistant([tool_use("t1")])]
    ok, violations = validate_replay(history)
    assert not ok
    assert violations == [Violation("orphaned_tool_use", 1, "t1")]

    repaired = repair(history)
    assert_valid(repaired)
    assert repaired[:2] == history
    assert repaired[2]["role"] == "user"
    [result] = repaired[2]["content"]
    assert result["tool_use_id"] == "t1"
    assert payload(result)["code"] == "interrupted"


def test_orphaned_tool_use_followed_by_assistant_gets_a_user_message_in_between():
    history = [user("hi"), assistant([tool_use("t1")]), assistant("anything else?")]
    assert kinds(history) == {"orphaned_tool_use", "role_alternation"}

    repaired = repair(history)
    assert_valid(repaired)
    assert [m["role"] for m in repaired] == ["user", "assistant", "user", "assistant"]
    assert repaired[2]["content"][0]["tool_use_id"] == "t1"
    assert repaired[3] == history[2]


def test_orphaned_tool_result_is_dropped_and_the_rest_of_the_message_kept():
    history = [user("hi"), assistant("hello"), user([tool_result("ghost"), text("and now?")])]
    ok, violations = validate_replay(history)
    assert violations == [Violation("orphaned_tool_result", 2, "ghost")]

    repaired = repair(history)
    assert_valid(repaired)
    assert repaired[2]["content"] == [text("and now?")]


def test_tool_result_in_first_message_is_orphaned():
    history = [user([tool_result("t0"), text("hi")])]
    assert kinds(history) == {"orphaned_tool_result"}
    assert repair(history) == [user([text("hi")])]


def test_duplicate_tool_result_is_orphaned_and_only_the_first_kept():
    history = [
        user("hi"),
        assistant([tool_use("t1")]),
        user([tool_result("t1", "a"), tool_result("t1", "b")]),
    ]
    assert validate_replay(history)[1] == [Violation("orphaned_tool_result", 2, "t1")]
    assert repair(history)[2]["content"] == [tool_result("t1", "a")]


def test_tool_results_not_first_are_moved_first_in_order():
    history = [
        user("hi"),
        assistant([tool_use("t1"), tool_use("t2")]),
        user([text("done"), tool_result("t1", "one"), tool_result("t2", "two")]),
    ]
    assert kinds(history) == {"tool_result_not_first"}

    repaired = repair(history)
    assert_valid(repaired)
    assert repaired[2]["content"] == [tool_result("t1", "one"), tool_result("t2", "two"), text("done")]


@pytest.mark.parametrize(
    ("history", "second", "expected"),
    [
        ([user("a"), user("b"), assistant("c")], 1, [user([text("a"), text("b")]), assistant("c")]),
        ([user("a"), assistant("b"), assistant("c")], 2, [user("a"), assistant([text("b"), text("c")])]),
    ],
    ids=["two-users", "two-assistants"],
)
def test_consecutive_same_role_messages_are_merged(history, second, expected):
    assert validate_replay(history)[1] == [Violation("role_alternation", second)]
    assert repair(history) == expected


def test_merged_user_messages_keep_tool_results_first():
    history = [
        user("hi"),
        assistant([tool_use("t1")]),
        user("wait, one more thing"),
        user([tool_result("t1", "late")]),
    ]
    repaired = repair(history)
    assert_valid(repaired)
    assert repaired[2]["content"] == [tool_result("t1", "late"), text("wait, one more thing")]


def test_leading_assistant_gets_a_resumed_user_message():
    history = [assistant("where were we"), user("go on")]
    assert validate_replay(history)[1] == [Violation("role_alternation", 0)]

    repaired = repair(history)
    assert_valid(repaired)
    assert repaired[0] == user(RESUMED_TEXT)
    assert repaired[1:] == history


@pytest.mark.parametrize(
    "history",
    [
        [user(""), assistant("x"), user("y")],
        [user("   "), assistant("x"), user("y")],
        [user([]), assistant("x"), user("y")],
        [user([text("")]), assistant("x"), user("y")],
        [user([text(" \n")]), assistant("x"), user("y")],
    ],
    ids=["empty-string", "whitespace", "empty-list", "empty-text-block", "whitespace-text-block"],
)
def test_empty_content_is_detected_and_the_message_dropped(history):
    assert "empty_content" in kinds(history)
    repaired = repair(history)
    assert_valid(repaired)
    assert repaired == [user(RESUMED_TEXT), assistant("x"), user("y")]


def test_empty_text_block_is_dropped_from_a_non_empty_message():
    history = [user([text("hi"), text("")]), assistant("x")]
    assert validate_replay(history)[1] == [Violation("empty_content", 0)]
    assert repair(history) == [user([text("hi")]), assistant("x")]


def test_dropping_an_empty_message_refixes_alternation():
    history = [user("hi"), assistant("a"), user(""), assistant("b"), user("ok")]
    repaired = repair(history)
    assert_valid(repaired)
    assert repaired == [user("hi"), assistant([text("a"), text("b")]), user("ok")]


# --- the scenarios the guard exists for ---------------------------------------------------------


def test_crash_leftover_puts_results_first_in_the_new_user_message():
    """Assistant asked for two tools, the process died, then the user typed again."""
    history = [
        user("cancel Ana's class"),
        assistant([text("Let me check."), tool_use("t1"), tool_use("t2", name="cancel_booking")]),
        user("never mind, show me today's schedule"),
    ]
    assert {(v.kind, v.tool_use_id) for v in validate_replay(history)[1]} == {
        ("orphaned_tool_use", "t1"),
        ("orphaned_tool_use", "t2"),
    }

    repaired = repair(history)
    assert_valid(repaired)
    assert len(repaired) == 3
    first, second, typed = repaired[2]["content"]
    assert [first["tool_use_id"], second["tool_use_id"]] == ["t1", "t2"]
    assert typed == text("never mind, show me today's schedule")


def test_only_the_unanswered_tool_use_gets_a_synthesized_result():
    history = [
        user("hi"),
        assistant([tool_use("t1"), tool_use("t2")]),
        user([tool_result("t1", "real result")]),
    ]
    assert validate_replay(history)[1] == [Violation("orphaned_tool_use", 1, "t2")]

    repaired = repair(history)
    assert_valid(repaired)
    synthesized, real = repaired[2]["content"]
    assert synthesized["tool_use_id"] == "t2" and payload(synthesized)["code"] == "interrupted"
    assert real == tool_result("t1", "real result")


def test_superseded_reason_tells_the_model_the_user_moved_on():
    history = [user("book Ana"), assistant([tool_use("pick1", name="pick_member")]), user("actually, Bob")]
    repaired = repair(history, {"pick1": "superseded"})
    body = payload(repaired[2]["content"][0])
    assert body["code"] == "superseded"
    assert "new message instead of answering" in body["message"]
    assert "do not assume it ran" in body["message"]
    assert body["hint"]


@pytest.mark.parametrize("reason", ["superseded", "rejected_by_user", "expired", "interrupted"])
def test_every_reason_has_an_actionable_message_and_hint(reason):
    repaired = repair([user("x"), assistant([tool_use("t1")])], {"t1": reason})
    body = payload(repaired[-1]["content"][0])
    assert body["code"] == reason
    assert body["message"] and body["hint"]


def test_unknown_reason_is_rejected():
    with pytest.raises(ValueError, match="unknown replay reason"):
        repair([user("x"), assistant([tool_use("t1")])], {"t1": "because"})


def test_synthesized_result_has_the_messages_api_shape():
    repaired = repair([user("x"), assistant([tool_use("toolu_01")])])
    block = repaired[-1]["content"][0]
    assert set(block) == {"type", "tool_use_id", "is_error", "content"}
    assert isinstance(block["content"], str)
    assert set(json.loads(block["content"])) == {"code", "message", "hint"}


# --- invariants ---------------------------------------------------------------------------------

VALID_HISTORY = [
    user("find Ana"),
    assistant(
        [
            {"type": "thinking", "thinking": "look her up", "signature": "sig"},
            text("Looking."),
            tool_use("t1", query="Ana"),
        ]
    ),
    user([tool_result("t1", [text("Ana Lopez, id 7")]), text("thanks")]),
    assistant([text("Found her."), tool_use("t2", name="cancel_booking", booking_id=3)]),
    user([tool_result("t2", "failed", is_error=True, cache_control={"type": "ephemeral"})]),
    assistant("It failed; want me to retry?"),
    user("yes"),
]


def test_valid_history_passes_through_unchanged():
    assert_valid(VALID_HISTORY)
    assert repair(VALID_HISTORY) == VALID_HISTORY

    events: list[dict[str, Any]] = []
    assert guard(VALID_HISTORY, on_violation=events.append) is VALID_HISTORY
    assert events == []


def test_repair_returns_a_new_list_and_never_mutates_its_input():
    history = [user("hi"), user([text("x"), tool_result("t9")]), assistant([tool_use("t1")])]
    before = copy.deepcopy(history)
    repaired = repair(history)
    assert history == before
    repaired[0]["content"] = "changed"
    assert history == before

    valid_before = copy.deepcopy(VALID_HISTORY)
    repair(VALID_HISTORY)[1]["content"].clear()
    assert VALID_HISTORY == valid_before


@pytest.mark.parametrize(
    "history",
    [
        [assistant([tool_use("t1")]), assistant("x"), user([text(" "), tool_result("t1")])],
        [user([tool_result("a")]), user(""), assistant([tool_use("b"), tool_result("c")])],
        [user("hi"), assistant([tool_use("t1")]), user([text("x"), tool_result("t1"), tool_result("zz")])],
    ],
)
def test_repair_is_idempotent(history):
    once = repair(history)
    assert_valid(once)
    assert repair(once) == once


def test_misplaced_tool_blocks_are_orphans_and_dropped():
    history = [user([text("hi"), tool_use("u1")]), assistant([text("ok"), tool_result("r1")])]
    assert {(v.kind, v.tool_use_id) for v in validate_replay(history)[1]} == {
        ("orphaned_tool_use", "u1"),
        ("orphaned_tool_result", "r1"),
    }
    assert repair(history) == [user([text("hi")]), assistant([text("ok")])]


def test_empty_history_is_valid_and_stays_empty():
    assert validate_replay([]) == (True, [])
    assert repair([]) == []


# --- reporting ----------------------------------------------------------------------------------

SECRET = "Ana-Lopez-555-0199"


def _history_full_of_secrets() -> list[dict[str, Any]]:
    return [
        user(f"call {SECRET}"),
        assistant([text(SECRET), tool_use(f"id-{SECRET}", name=f"n-{SECRET}", phone=SECRET)]),
        user([text(SECRET), tool_result(f"id-{SECRET}", SECRET)]),
        assistant([{"type": f"weird-{SECRET}", "x": SECRET}, tool_use(f"id2-{SECRET}")]),
    ]


def test_snapshot_has_roles_and_block_types_only():
    history = _history_full_of_secrets()
    shot = snapshot(history)
    assert SECRET not in json.dumps(shot)
    assert shot == [
        {"role": "user", "blocks": ["text"]},
        {"role": "assistant", "blocks": ["text", "tool_use"]},
        {"role": "user", "blocks": ["text", "tool_result"]},
        {"role": "assistant", "blocks": ["other", "tool_use"]},
    ]


def test_guard_reports_once_without_pii_and_returns_a_valid_repair():
    history = _history_full_of_secrets()
    events: list[dict[str, Any]] = []
    repaired = guard(history, reasons={f"id2-{SECRET}": "expired"}, on_violation=events.append)

    assert_valid(repaired)
    [event] = events
    assert SECRET not in json.dumps(event)
    assert event["repaired"] is True
    assert event["violations"] == len(validate_replay(history)[1])
    assert event["reasons"] == ["orphaned_tool_use", "tool_result_not_first"]
    assert event["snapshot"] == snapshot(history)
    assert payload(repaired[-1]["content"][0])["code"] == "expired"


def test_guard_without_callback_still_repairs():
    assert_valid(guard([assistant("x")]))
