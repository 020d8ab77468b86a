"""The SSE frames the service really emits match the frame types /schema documents (api.sse.SseFrame)."""

from __future__ import annotations

import msgspec

from api.sse import SseFrame
from tests.fakes.anthropic_server import ApiError, Reply, Text, ToolUse
from tests.sse import sse


def _undocumented(result) -> list[str]:
    problems = []
    for name, data in result.events:
        try:
            frame = msgspec.convert(data, SseFrame)  # type: ignore[arg-type]
        except msgspec.ValidationError as exc:
            problems.append(f"{name}: {exc}")
            continue
        if type(frame).__struct_config__.tag != name:
            problems.append(f"{name}: data says {data.get('type')}")
    return problems


async def test_every_frame_of_tool_confirm_and_pick_turns_is_documented(client, gym, clean_model) -> None:
    candidates = [{"id": "m1", "label": "Saar Cohen", "sublabel": "saar.c@example.com", "detail": "Visited 2d ago"},
                  {"id": "m2", "label": "Saar Levi"}]
    clean_model.queue(
        Reply(Text("Creating it."), ToolUse("tasks__create", {"title": "Call Saar"}, id="toolu_ok"),
              ToolUse("tasks__create", {"title": ""}, id="toolu_bad")),
        Reply(Text("Which one?"), ToolUse("read__ask_user_to_pick", {"kind": "member", "prompt": "Which Saar?",
                                                                     "candidates": candidates}, id="toolu_pick")))
    first = await sse(client, f"{gym.base}/messages", json_body={"message": "add a task"}, headers=gym.owner.headers)
    conversation_id = first.one("conversation_started")["conversationId"]
    task_id = first.of("tool_completed")[0]["output"]["id"]
    assert {c["ok"] for c in first.of("tool_completed")} == {True, False}

    clean_model.queue(Reply(Text("Saar Levi.")),
                      Reply(ToolUse("tasks__delete", {"id": task_id}, id="toolu_del")))
    picked = await sse(client, gym.resume_url("pick", conversation_id, "toolu_pick"), json_body={"id": "m2"},
                       headers=gym.owner.headers)
    deleting = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                         json_body={"message": "delete it", "conversationId": conversation_id})
    clean_model.queue(ApiError(529))
    failed = await sse(client, gym.resume_url("confirm", conversation_id, "toolu_del"), json_body={"approved": True},
                       headers=gym.owner.headers)

    names = set(first.names + picked.names + deleting.names + failed.names)
    assert names >= {"conversation_started", "text_delta", "tool_started", "tool_completed", "disambiguation_pending",
                     "confirmation_pending", "message_done", "done", "error"}
    assert [p for r in (first, picked, deleting, failed) for p in _undocumented(r)] == []


def test_an_undocumented_frame_is_caught() -> None:
    """The check above can fail: a frame with a missing field or an unknown type does not convert."""
    class Fake:
        events = [("done", {"type": "done", "conversationId": None}), ("surprise", {"type": "surprise"})]

    assert len(_undocumented(Fake())) == 2
