"""What the engine knows about a model request, as typed data: `ModelRequest.metadata["facts"]`.

A language model reads these facts in the prompt's prose; a model that cannot read prose (the offline demo
model, offline_model/) reads them here instead. They ride on the engine's own request object only: the wire
request (agent/model.py's `RequestEncoder`) never includes `metadata`, so what the Messages API receives stays
exactly the prompt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel

FACTS = "facts"  # the key in ModelRequest.metadata
TURN, TITLE, SUMMARY = "turn", "title", "summary"  # what a request is for


@dataclass(frozen=True)
class MemberFacts:
    """The member prefix of a member-facing persona's prompt (agent/trainer/prompt.py's `member_prefix`)."""

    unit: str = "kg"  # the member's weight unit
    locations: tuple[str, ...] = ()  # the names of the member's training locations
    equipment: tuple[str, ...] = ()  # the current location's equipment (none: bodyweight only)
    knowledge: Mapping[str, Any] = field(default_factory=dict)  # what the context's knowledge blocks say: source → data


@dataclass(frozen=True)
class ModelFacts:
    """A request's purpose, persona, caller and clock, as the prompt states them in words."""

    purpose: str = TURN  # TURN: a persona's round trip; TITLE, SUMMARY: the engine's housekeeping calls
    persona: str | None = None  # the persona's name (agent/persona.py), on TURN requests
    locale: str = "en"  # the reply locale
    role: str | None = None  # the role the persona acts as
    now: datetime | None = None  # the turn's clock in the gym's time zone, to the minute
    undoable: frozenset[str] = frozenset()  # the offered tools whose run the caller can undo (agent/policy.py)
    member: MemberFacts | None = None  # a member-facing persona's member prefix
    inputs: Mapping[str, type[BaseModel]] = field(default_factory=dict)  # offered tool → its declared input model
    outputs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # tool_use_id → output (HistoryFacts)


@dataclass(frozen=True)
class HistoryFacts:
    """What a persona's history knows of the messages it gave the model, as data (agent/threads.py `model_input`).

    `outputs`: the tool's output, as the tool returned it, of each successful tool result among the messages that
    the model reads as a compact observation (a tool's `observe=`, tools/observations.py: "logged Bench Press (id
    ...)") rather than whole; every other result's text is its output, whole, as JSON."""

    member: MemberFacts | None = None
    outputs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def facts_of(request: Any) -> ModelFacts:
    """The facts the engine put on `request` (a ModelRequest); empty facts when it put none."""
    facts = request.metadata.get(FACTS)
    return facts if isinstance(facts, ModelFacts) else ModelFacts()


def local_minute(now: datetime, zone: str) -> datetime:
    """`now` in time zone `zone` to the minute, at that moment's UTC offset: the clock the turn context states."""
    local = now.astimezone(ZoneInfo(zone))
    return local.replace(second=0, microsecond=0, tzinfo=timezone(local.utcoffset() or timedelta(0)))
