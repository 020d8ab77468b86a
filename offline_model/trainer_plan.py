"""What an offline trainer move is (offline_model/trainer_moves.py): the next tool call, or words for the member
(a message, or a question with options), and the helpers every move shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from offline_model.trainer import Facts
from offline_model.trainer_library import MOVES, Context, Rules, key_of

NOTIFY, ASK, IDLE, FETCH = "coach__message_notify_user", "coach__message_ask_user", "coach__idle", "data__fetch_data"


@dataclass(frozen=True)
class Call:
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Say:
    text: str
    attachments: tuple[str, ...] = ()
    question: tuple[str, ...] | None = None  # options: ask instead of telling


Next = Call | Say


def need(facts: Facts, *sources: str, **params: dict[str, Any]) -> Call | None:
    """Load the sources the move needs that the context lacks (once per request)."""
    missing = [s for s in sources if s not in facts.knowledge]
    if not missing or facts.last(FETCH) is not None:
        return None
    return Call(FETCH, {"sources": {s: params.get(s, {}) for s in missing}})


def refused(facts: Facts) -> set[str]:
    """Exercise names the rules refused in this request (named in their errors)."""
    names: set[str] = set()
    for step in facts.steps:
        if step.error and isinstance(step.result, dict):
            message = str(step.result.get("message", "")).lower()
            names |= {m.name.lower() for m in MOVES if m.name.lower() in message}
    return names


def context(facts: Facts, **kwargs: Any) -> Context:
    """The building context, without the exercises the rules refused in this request."""
    ctx = facts.context(**kwargs)
    gone = refused(facts)
    if not gone:
        return ctx
    return Context(ctx.equipment, ctx.unit, Rules(ctx.rules.text, ctx.rules.excluded | {key_of(g) for g in gone}),
                   ctx.recovering, ctx.goal, ctx.suggested)


def done_with(facts: Facts, tool: str, text: str) -> Say:
    """Tell the member, with the workout the tool made or changed as a card."""
    step = facts.last(tool)
    workout_id = step.result.get("workoutId") if step and isinstance(step.result, dict) else None
    return Say(text, (workout_id,) if workout_id else ())
