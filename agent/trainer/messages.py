"""Trainer events → Anthropic messages (000 §4.3).

Every `tool_call` becomes an assistant message with its one `tool_use`, immediately followed by a user message
that starts with its `tool_result`; anything that arrives while a result is pending (knowledge, a workout
artifact, a user message) is buffered and appended after that result; consecutive user content is merged.
A `checkpoint` restarts the context with its summary. Observability events never enter.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from agent.trainer.delta import apply, compact
from agent.trainer.store import CONTEXT_TYPES, Event
from core.member_text import EACH, Marks, unwrap, wrap
from tools.leaves.trainer.sources import KNOWLEDGE_MEMBER_TEXT

CHANGES_ATTR = ' changes="only"'  # a knowledge_update that carries what changed (agent/trainer/delta.py)


def knowledge_text(source: str, data: Any, *, update: bool = False, changes: bool = False) -> str:
    """A source's data (no null fields), or with `changes` only what changed since the context's copy; the text
    members wrote in it (KNOWLEDGE_MEMBER_TEXT) in its envelope."""
    tag = "knowledge_update" if update else "knowledge"
    return f'<{tag} source="{source}"{CHANGES_ATTR if changes else ""}>\n{_body(source, data, changes)}\n</{tag}>'


def _body(source: str, data: Any, changes: bool) -> str:
    marks: Marks | str | None = KNOWLEDGE_MEMBER_TEXT.get(source)
    if changes:
        marks = _with_list_changes(marks)
    return data if isinstance(data, str) else json.dumps(wrap(data if changes else compact(data), marks),
                                                         ensure_ascii=False, sort_keys=True, default=str)


class KnownInContext(Mapping[str, Any]):
    """What the knowledge blocks of a context say, as data: source → its latest delivery with the updates that
    carry only what changed applied (agent/trainer/delta.py), member-written text as written. Read on first use
    (a model that reads the blocks themselves never pays for it); a block whose body is not JSON says nothing."""

    def __init__(self, events: Iterable[Event]) -> None:
        self._events: list[Event] | None = [e for e in events if e.type in ("knowledge", "knowledge_update",
                                                                             "checkpoint")]
        self._known: dict[str, Any] = {}

    def _read(self) -> dict[str, Any]:
        if self._events is not None:
            for event in self._events:
                if event.type == "checkpoint":  # the context restarts here
                    self._known = {}
                    continue
                payload, changes = event.payload, "changes" in event.payload
                try:
                    data = unwrap(json.loads(_body(payload["source"], payload["changes"] if changes
                                                   else payload.get("data"), changes)))
                except ValueError:
                    continue
                source = payload["source"]
                self._known[source] = apply(self._known.get(source), data) if changes else data
            self._events = None
        return self._known

    def __getitem__(self, source: str) -> Any:
        return self._read()[source]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())


def _with_list_changes(marks: Marks | str | None) -> Marks | str | None:
    """Marks for a source's changes (agent/trainer/delta.py): a list's added and changed items are its items."""
    if marks is None or isinstance(marks, str):
        return marks
    out: dict[str, Any] = {key: _with_list_changes(value) for key, value in marks.items()}
    if EACH in out:
        out.setdefault("added", {EACH: out[EACH]})
        out.setdefault("changed", {EACH: out[EACH]})
    return out


def artifact_text(kind: str, artifact_id: str, summary: str) -> str:
    return f'<artifact type="{kind}" id="{artifact_id}">\n{summary}\n</artifact>'


CONTEXT_TAGS = ("turn_context", "current_workout_id")  # what agent/trainer/thread.py puts ahead of the member's words


def member_words(text: str) -> str:
    """A user message block's text without the context ahead of the member's words (`_block` joins them)."""
    for tag in CONTEXT_TAGS:
        end = text.find(f"</{tag}>") if text.startswith(f"<{tag}>") else -1
        if end >= 0:
            text = text[end + len(tag) + 3:].removeprefix("\n")
    return text


def _block(event: Event) -> dict[str, Any] | None:
    """The text block a non-tool context event contributes."""
    data = event.payload
    if event.type == "user_message":
        return {"type": "text", "text": data.get("context", "") + data["message"] if data.get("context")
                else data["message"]}
    if event.type in ("knowledge", "knowledge_update"):
        if "changes" in data:
            return {"type": "text", "text": knowledge_text(data["source"], data["changes"], update=True, changes=True)}
        return {"type": "text", "text": knowledge_text(data["source"], data.get("data"),
                                                       update=event.type == "knowledge_update")}
    if event.type == "workout":  # its exercises are in the tool result just before it: the title says which one
        return {"type": "text", "text": artifact_text("workout", data["workoutId"], data.get("title") or "")}
    if event.type == "checkpoint":
        return {"type": "text", "text": f"<checkpoint>\n{data.get('summary', '')}\n</checkpoint>"}
    return None


def to_messages(events: Iterable[Event]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    pending: str | None = None
    buffered: list[dict[str, Any]] = []

    def add_user(blocks: list[dict[str, Any]]) -> None:
        if messages and messages[-1]["role"] == "user":
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": "user", "content": list(blocks)})

    for event in events:
        if event.type not in CONTEXT_TYPES:
            continue
        if event.type == "checkpoint":  # the context restarts here
            messages, pending, buffered = [], None, []
        if event.type == "tool_call":
            if pending is not None:  # a call whose result never came: never send a dangling tool_use
                add_user([_missing_result(pending), *buffered])
                buffered = []
            content: list[dict[str, Any]] = []
            if event.payload.get("text"):
                content.append({"type": "text", "text": event.payload["text"]})
            content.append({"type": "tool_use", "id": event.payload["callId"], "name": event.payload["toolName"],
                            "input": event.payload.get("arguments") or {}})
            messages.append({"role": "assistant", "content": content})
            pending, buffered = event.payload["callId"], []
        elif event.type == "tool_result":
            if pending != event.payload["callId"]:
                continue  # a result for no open call would be rejected by the API
            result = {"type": "tool_result", "tool_use_id": event.payload["callId"],
                      "content": _stringify(event.payload.get("result"))}
            if event.payload.get("isError"):
                result["is_error"] = True
            add_user([result, *buffered])
            pending, buffered = None, []
        else:
            block = _block(event)
            if block is None:
                continue
            if pending is not None:
                buffered.append(block)
            else:
                add_user([block])
    if pending is not None:
        add_user([_missing_result(pending), *buffered])
    return messages


def _missing_result(call_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "is_error": True,
            "content": '{"code": "interrupted", "message": "The tool call did not finish."}'}


def _stringify(result: Any) -> str:
    if isinstance(result, str):
        return result
    return json.dumps(result, ensure_ascii=False, default=str)


def estimated_tokens(messages: list[dict[str, Any]], system: Iterable[dict[str, Any]] = ()) -> int:
    """chars / 4 over everything sent (TRAINER.md checkpoint)."""
    chars = len(json.dumps(messages, ensure_ascii=False, default=str))
    chars += sum(len(b.get("text", "")) for b in system)
    return chars // 4
