"""The offline demo model's episode: what happened since the person last typed, and the reply the rules give.

Plain data, shared by offline_model/rules.py (the rules), member_rules.py and model.py (which renders replies).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from core.member_text import unwrap

MAX_STEPS = 8           # tool calls per episode before the rules give up and answer
CLOSE_SCORE = 0.25      # member hits within this of the best score are equally plausible
MAX_CANDIDATES = 8      # read__ask_user_to_pick takes 2..8

Line = tuple[str, dict[str, Any]]


def result_body(block: dict[str, Any]) -> Any:
    """A tool_result block's content as data (JSON read when it is JSON), member-written text out of its envelopes:
    the offline models write their replies from it, for people (core/member_text.py)."""
    body = block.get("content")
    if isinstance(body, list):
        body = "".join(b.get("text", "") for b in body if isinstance(b, dict))
    if isinstance(body, str) and body[:1] in ("{", "["):
        try:
            body = json.loads(body)
        except ValueError:
            pass
    return unwrap(body)


@dataclass(frozen=True)
class Step:
    """One tool call of the episode and what came back (output, or error {code, message, hint})."""

    name: str
    input: dict[str, Any]
    output: Any = None
    error: dict[str, Any] | None = None
    edited: bool = False


@dataclass(frozen=True)
class Episode:
    words: str
    locale: str = "en"
    role: str | None = None
    steps: tuple[Step, ...] = ()
    tools: frozenset[str] = frozenset()
    undoable: frozenset[str] = frozenset()  # the tools this caller can undo (their description says so)
    before: tuple[Step, ...] = ()  # the previous request's tool calls ("schedule it anyway")
    today: date | None = None  # the gym's today, from the turn context

    def last(self, name: str) -> Step | None:
        return next((s for s in reversed(self.steps) if s.name == name), None)

    def undo(self, tool: str) -> list[Line]:
        """The Undo promise, only where the card will show the button (agent/policy.can_undo decided)."""
        return [("undo", {})] if tool in self.undoable else []


@dataclass(frozen=True)
class Call:
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    lines: tuple[Line, ...] = ()
    calls: tuple[Call, ...] = ()


def say(*lines: Line) -> Reply:
    return Reply(lines=tuple(lines))


def call(name: str, input: dict[str, Any], *lines: Line) -> Reply:
    return Reply(lines=tuple(lines), calls=(Call(name, input),))

