"""The reference agent: a task's `reference` moves played as a model, to prove the task can be passed.

`spotter eval --model reference` runs every task with it (all must pass, or a task or the seed is wrong); the
test suite plays the same moves through the fake Anthropic server. The model's next move is the step whose
index is the number of assistant messages already in the request, so confirmations, picks and the person's
later turns continue the script where it stopped. A step's `@out:N.path` is read from the result of step N in
the conversation (a fingerprint a preview returned, an id a create returned); `{answer}` in a `say` is the
expected answer. For the trainer (which must always call a tool) a `say` is a coach message, then idle.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

from agent.costs import Usage
from agent.model import ModelRequest, ModelResponse, TextDelta
from evals.tasks import Step

MODEL_ID = "spotter-reference-script"
_OUT = re.compile(r"@out:(\d+)\.([\w.\-]+)$")


def tool_use_id(index: int) -> str:
    return f"toolu_ref_{index:03d}"


def expand(steps: Sequence[Step], persona: str) -> list[Step]:
    """The trainer says things through coach__message_notify_user and ends its turn with coach__idle."""
    if persona != "trainer":
        return list(steps)
    out: list[Step] = []
    for step in steps:
        if step.say is not None:
            out += [Step(call="coach__message_notify_user", input={"text": step.say}), Step(call="coach__idle")]
        else:
            out.append(step)
    return out


def _results(messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for message in messages:
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_result":
                body = block.get("content")
                if isinstance(body, list):
                    body = "".join(b.get("text", "") for b in body if isinstance(b, dict))
                try:
                    found[block.get("tool_use_id", "")] = json.loads(body) if isinstance(body, str) else body
                except ValueError:
                    found[block.get("tool_use_id", "")] = body
    return found


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _dig(value: Any, path: str) -> Any:
    """`path` in a tool's result; a compact text observation (the trainer's "logged X (id …)") gives its id."""
    if isinstance(value, str):
        found = _UUID.search(value) if path == "id" else None
        return found.group(0) if found else None
    for part in path.split("."):
        if isinstance(value, list) and part.lstrip("-").isdigit():
            value = value[int(part)]
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def _fill(value: Any, results: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        return {k: _fill(v, results) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, results) for v in value]
    if isinstance(value, str) and (m := _OUT.match(value)):
        return _dig(results.get(tool_use_id(int(m.group(1)))), m.group(2))
    return value


def next_blocks(steps: Sequence[Step], messages: Sequence[dict[str, Any]], answer: str = "") -> list[dict[str, Any]]:
    """The content of the reference agent's next assistant message."""
    index = sum(1 for m in messages if m.get("role") == "assistant")
    if index >= len(steps):
        return [{"type": "text", "text": "(the reference script has nothing more to do)"}]
    step = steps[index]
    if step.say is not None:
        return [{"type": "text", "text": step.say.replace("{answer}", answer)}]
    results = _results(messages)
    payload = _fill(dict(step.input), results)
    if step.call == "coach__message_notify_user" and isinstance(payload.get("text"), str):
        payload["text"] = payload["text"].replace("{answer}", answer)
    return [{"type": "tool_use", "id": tool_use_id(index), "name": step.call, "input": payload}]


def is_turn(request_tools: Sequence[dict[str, Any]]) -> bool:
    """A persona's turn (it offers tools), not a housekeeping call (knowledge selection, a title)."""
    return bool(request_tools)


class ReferenceModel:
    """The ModelClient protocol over one try's resolved reference steps; $0, no tokens."""

    name = "reference"
    reads_facts = False

    def __init__(self, steps: Sequence[Step], answer: str = "") -> None:
        self.steps, self.answer = list(steps), answer

    async def complete(self, request: ModelRequest) -> ModelResponse:
        if not is_turn(request.tools):
            return ModelResponse(content=[{"type": "text", "text": "{}"}], stop_reason="end_turn", usage=Usage(),
                                 model=MODEL_ID)
        content = next_blocks(self.steps, request.messages, self.answer)
        uses_tool = any(b["type"] == "tool_use" for b in content)
        return ModelResponse(content=content, stop_reason="tool_use" if uses_tool else "end_turn", usage=Usage(),
                             model=MODEL_ID)

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | ModelResponse]:
        response = await self.complete(request)
        for block in response.content:
            if block["type"] == "text":
                yield TextDelta(block["text"])
        yield response
