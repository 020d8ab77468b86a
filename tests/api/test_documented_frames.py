"""Every frame the engine can emit is declared and documented: a frame is one of the engine's frame structs
(agent/events.py, agent/trainer/frames.py), and /schema documents each stream from those same structs. A frame
struct no documented stream names, or a frame on the wire that is none of its stream's structs, fails here."""

from __future__ import annotations

import importlib
import pkgutil
from typing import get_args

import msgspec

import agent
from agent.events import Event, StaffFrame
from agent.trainer.frames import TrainerFrame
from tests.fakes.anthropic_server import ApiError, Reply, Text, ToolUse
from tests.sse import sse

DOCUMENTED = (StaffFrame, TrainerFrame)  # the unions /schema documents the staff and trainer streams with


def _engine_frames() -> set[type[Event]]:
    """Every frame struct declared anywhere in agent/ (each module imported, so each declaration is seen)."""
    for module in pkgutil.walk_packages(agent.__path__, "agent."):
        importlib.import_module(module.name)
    found, todo = set(), [Event]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            found.add(sub)
    return {frame for frame in found if frame.__module__.startswith("agent.")}


def _not_documented(frames: set[type[Event]]) -> set[str]:
    documented = {frame for union in DOCUMENTED for frame in get_args(union)}
    return {f"{frame.__module__}.{frame.__qualname__}" for frame in frames - documented}


def test_every_frame_the_engine_declares_is_in_a_documented_stream() -> None:
    frames = _engine_frames()
    assert len(frames) >= 15  # the staff and trainer frames, found by walking agent/
    assert _not_documented(frames) == set()


def test_a_frame_no_stream_documents_is_caught() -> None:
    class Surprise(Event, tag="surprise"):
        what: str

    assert _not_documented(_engine_frames() | {Surprise}) == {f"{__name__}.{Surprise.__qualname__}"}


def test_each_documented_stream_names_each_type_once() -> None:
    for union in DOCUMENTED:
        tags = [frame.__struct_config__.tag for frame in get_args(union)]
        assert len(tags) == len(set(tags)), tags


def _undocumented(result) -> list[str]:
    problems = []
    for name, data in result.events:
        try:
            frame = msgspec.convert(data, StaffFrame)  # type: ignore[arg-type]
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


def test_an_undocumented_frame_on_the_wire_is_caught() -> None:
    """The check above can fail: a frame with a missing field or an unknown type does not convert."""
    class Fake:
        events = [("done", {"type": "done", "conversationId": None}), ("surprise", {"type": "surprise"})]

    assert len(_undocumented(Fake())) == 2
