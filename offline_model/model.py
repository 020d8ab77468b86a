"""The offline demo model: the ModelClient protocol answered by fixed rules, not by an LLM.

`AGENT_MODEL_PROVIDER=offline` selects it so the demo works without an API key. It reads the request the
orchestrator built (the person's words in the last user text turn, then the tool calls and tool results that
followed) and the facts the engine put on it in place of the prompt's prose (agent/model_facts.py: persona,
locale, role, clock, undoable tools, what a housekeeping call is for), asks offline_model/rules.py for the
next move, and streams it back shaped like
the Anthropic client's output: a few text deltas, then one ModelResponse with text and tool_use blocks. Every
text it writes starts with a label saying it is not an LLM. It reports zero tokens, so a turn costs $0.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from typing import Any

from agent.costs import Usage
from agent.model import ModelRequest, ModelResponse, TextDelta
from agent.model_facts import SUMMARY, TITLE, facts_of
from agent.request import user_text
from agent.trainer.store import PERSONA as TRAINER
from core.i18n import SUPPORTED_LOCALES, catalog, format_message, has_key, translate
from offline_model.episode import Episode, Line, Reply, Step, result_body
from offline_model.rules import respond
from offline_model.title import offline_title

MODEL_ID = "spotter-offline-rules"
SUPPORTED = SUPPORTED_LOCALES

def _strings(locale: str) -> dict[str, Any]:
    """The offline model's strings in `locale` (locales/<locale>.json, key `offline`)."""
    return catalog(locale if locale in SUPPORTED else "en").get("offline", {})


def label(locale: str) -> str:
    """The line every offline reply starts with: it says this is not an LLM."""
    return _strings(locale).get("label") or _strings("en")["label"]


LABEL = {locale: label(locale) for locale in SUPPORTED}


def _text(key: str, locale: str) -> str:
    """The template for message `key` in `locale`, English when that locale has none."""
    return _strings(locale).get("text", {}).get(key) or _strings("en")["text"][key]


def _word(table: str, value: str, locale: str) -> str:
    """A weekday or period name in `locale`; the value itself where the locale has no translation."""
    return _strings(locale).get(table, {}).get(value, value)


def render(lines: tuple[Line, ...], locale: str) -> str:
    """The labelled reply text in `locale` (English for any key that has no translation)."""
    out = [label(locale)]
    for key, params in lines:
        params = dict(params)
        if key == "help":
            examples = _strings(locale).get("examples") or _strings("en")["examples"]
            params["examples"] = "\n".join(f"• {example}" for example in examples)
        for name, table in (("weekday", "weekdays"), ("period", "periods")):
            if name in params:
                params[name] = _word(table, params[name], locale)
        if key == "member_head" and has_key(f"agent.member.status.{params.get('status')}"):
            params["status"] = translate(f"agent.member.status.{params['status']}", locale)
        text = format_message(_text(key, locale), locale, params)
        # a table is a block of its own: markdown needs the blank line before and after it
        out.append(f"\n{text}\n" if key == "table" else text)
    return "\n".join(out).strip()


def chunks(text: str, parts: int = 3) -> list[str]:
    """Split `text` at spaces into about `parts` pieces that join back to it exactly."""
    size = max(1, len(text) // parts)
    pieces, start = [], 0
    while start < len(text):
        cut = text.find(" ", start + size)
        cut = len(text) if cut == -1 or len(text) - cut < size // 2 else cut + 1
        pieces.append(text[start:cut])
        start = cut
    return pieces or [text]


def _stable(messages: list[dict[str, Any]]) -> str:
    """The conversation as canonical JSON, without cache breakpoints (they move every turn)."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "cache_control"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return json.dumps(strip(messages), sort_keys=True, ensure_ascii=False, default=str)


def tool_use_id(messages: list[dict[str, Any]], index: int) -> str:
    """Unique per conversation position, identical for an identical request."""
    digest = hashlib.sha256(f"{_stable(messages)}#{index}".encode()).hexdigest()
    return f"toolu_off_{digest[:24]}"


def _is_words(message: dict[str, Any]) -> bool:
    return message["role"] == "user" and bool(user_text(message["content"]).strip())


def read_episode(request: ModelRequest) -> Episode:
    """The person's latest words, every tool call (with result) made since, and the previous request's tool
    calls; their locale and role, the gym's today and which tools this caller can undo come from the facts the
    engine put on the request (agent/model_facts.py)."""
    messages = request.messages
    facts = facts_of(request)
    start = next((i for i in range(len(messages) - 1, -1, -1) if _is_words(messages[i])), None)
    tools = frozenset(t["name"] for t in request.tools if "name" in t)
    undoable = facts.undoable & tools
    if start is None:
        return Episode(words="", tools=tools, undoable=undoable)
    content = messages[start]["content"]
    locale = facts.locale.lower()
    previous = next((i for i in range(start - 1, -1, -1) if _is_words(messages[i])), None)
    before = _steps(messages[previous + 1:start]) if previous is not None else ()
    return Episode(words=user_text(content), locale=locale if locale in SUPPORTED else "en", role=facts.role,
                   steps=_steps(messages[start + 1:]), tools=tools, undoable=undoable, before=before,
                   today=facts.now.date() if facts.now is not None else None)


def _steps(messages: list[dict[str, Any]]) -> tuple[Step, ...]:
    """The tool calls of these messages, each with its result (calls without one yet are left out)."""
    uses: list[dict[str, Any]] = []
    results: dict[str, dict[str, Any]] = {}
    for message in messages:
        blocks = message["content"] if isinstance(message["content"], list) else []
        for block in blocks:
            if message["role"] == "assistant" and block.get("type") == "tool_use":
                uses.append(block)
            elif message["role"] == "user" and block.get("type") == "tool_result":
                results[block.get("tool_use_id", "")] = block
    steps = []
    for use in uses:
        result = results.get(use.get("id", ""))
        if result is None:
            continue
        body = result_body(result)
        if result.get("is_error"):
            error = body if isinstance(body, dict) else {"code": "error", "message": str(body or "")}
            steps.append(Step(use["name"], use.get("input") or {}, error=error))
            continue
        edited = isinstance(body, dict) and set(body) == {"note", "input", "result"}
        steps.append(Step(use["name"], use.get("input") or {}, output=body["result"] if edited else body,
                          edited=edited))
    return tuple(steps)


def answer(request: ModelRequest) -> ModelResponse:
    """The whole assistant message for `request`: labelled text, then any tool_use blocks."""
    episode = read_episode(request)
    reply: Reply = respond(episode)
    content: list[dict[str, Any]] = []
    if reply.lines or not reply.calls:
        content.append({"type": "text", "text": render(reply.lines, episode.locale)})
    for index, planned in enumerate(reply.calls):
        content.append({"type": "tool_use", "id": tool_use_id(request.messages, index), "name": planned.name,
                        "input": planned.input})
    return ModelResponse(content=content, stop_reason="tool_use" if reply.calls else "end_turn", usage=Usage(),
                         model=MODEL_ID)


def _housekeeping(request: ModelRequest) -> str | None:
    """Titles and compaction summaries (tool-less `complete` calls the engine marks as such in their facts)."""
    purpose = facts_of(request).purpose
    body = "\n".join(user_text(m["content"]) for m in request.messages if m["role"] == "user")
    if purpose == TITLE:
        staff = next((line[6:] for line in body.splitlines() if line.startswith("Staff:")), body)
        return offline_title(staff)
    if purpose == SUMMARY:
        kept = [line for line in body.splitlines() if line.startswith(("Staff:", "[Assistant called", "[Summary"))]
        text = "\n".join(kept)[-2000:]
        return f"{label('en')} Extract of the earlier conversation (no model summarized it):\n{text}"
    return None


class OfflineModel:
    """Deterministic rules behind the ModelClient protocol; clearly labelled, never an LLM, zero tokens."""

    name = "offline"
    reads_facts = True  # everything it knows of a turn comes from the facts, never from the prompt's prose

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | ModelResponse]:
        response = await self.complete(request)
        for block in response.content:
            if block["type"] == "text":
                for piece in chunks(block["text"]):
                    yield TextDelta(piece)
        yield response

    async def complete(self, request: ModelRequest) -> ModelResponse:
        if facts_of(request).persona == TRAINER:  # the member's trainer persona
            from offline_model.trainer_moves import trainer_answer

            return trainer_answer(request)
        if not request.tools and (text := _housekeeping(request)) is not None:
            return ModelResponse(content=[{"type": "text", "text": text}], stop_reason="end_turn", usage=Usage(),
                                 model=MODEL_ID)
        return answer(request)
