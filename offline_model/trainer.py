"""The offline model playing the member's trainer (TRAINER.md "Demo"): fixed rules, clearly labelled, never an LLM.

It reads the trainer request as the engine built it: the member's latest words (the text after the context the
engine put ahead of them), the tool calls made since with their results, and the tools offered; the reply
language, the clock, the member prefix (unit, locations, the current one's equipment), the knowledge the context
holds, each offered tool's declared input model (so a move fills the fields a tool has, such as a preference's
structured exclusions) and what the tools behind compact observations returned come from the facts the engine put
on the request (agent/model_facts.py), never from text the engine wrote. The moves are
offline_model/trainer_moves.py; the words, trainer_words.py; the exercises, trainer_library.py.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from agent.model_facts import ModelFacts, facts_of
from agent.trainer.messages import member_words
from core.i18n import SUPPORTED_LOCALES
from gym.training.constraints import EXCLUSION_KINDS, Exclusions
from offline_model.episode import result_body
from offline_model.trainer_library import Context, Rules, key_of

LOG, UNDO_LOG = "logbook__log_completed_exercise", "logbook__undo_logged_exercise"
PERCENT_KEYS = ("percent", "recoveryPercent", "recovery_percent", "recoveryPct", "recovery_pct", "recoveredPct")
SUGGESTED_KEYS = ("suggestedLoad", "suggested_load", "nextLoad", "next_load", "load")


@dataclass(frozen=True)
class Step:
    tool: str
    input: dict[str, Any]
    result: Any
    error: bool


@dataclass
class Facts:
    words: str = ""
    now: datetime | None = None
    locale: str = "en"
    unit: str = "kg"
    equipment: list[str] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    knowledge: dict[str, Any] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    tools: frozenset[str] = frozenset()  # the tools offered
    inputs: Mapping[str, type[BaseModel]] = field(default_factory=dict)  # name → declared input model
    earlier_words: list[str] = field(default_factory=list)
    logged: list[str] = field(default_factory=list)  # ids of this session's logs, oldest first, undone ones out

    def has(self, tool: str) -> bool:
        return tool in self.tools

    def fields(self, tool: str, within: str | None = None) -> frozenset[str]:
        """The fields of the tool's declared input, or of the model its field `within` holds (none: no such)."""
        return input_fields(self.inputs.get(tool), within)

    def last(self, tool: str) -> Step | None:
        """The tool's latest successful step in this request (a failed one is still to do)."""
        return next((s for s in reversed(self.steps) if s.tool == tool and not s.error), None)

    def current_workout(self) -> dict[str, Any] | None:
        """The member's current workout: the latest workout tool's result beats the knowledge."""
        workout = self.knowledge.get("current_workout")
        return workout if isinstance(workout, dict) and workout.get("exercises") else None

    def recovering(self) -> dict[str, int]:
        """Recovering muscle → recovery percent (the rules' figure, else hours since / the window)."""
        out = {}
        for row in self.knowledge.get("recovery_status") or []:
            if not isinstance(row, dict) or not row.get("recovering", True) or not isinstance(row.get("muscle"), str):
                continue
            percent = next((row[k] for k in PERCENT_KEYS if isinstance(row.get(k), int | float)), None)
            since, left = row.get("hoursSince"), row.get("hoursRemaining")
            if percent is None and isinstance(since, int | float) and isinstance(left, int | float) and since + left:
                percent = 100 * since / (since + left)
            if percent is None or percent < 100:
                out[row["muscle"]] = int(percent or 0)
        return out

    def context(self, *, recovering: dict[str, int] | None = None) -> Context:
        goals = [g for g in self.knowledge.get("category_goals") or []
                 if isinstance(g, dict) and g.get("name") in ("Strength", "Hypertrophy")]
        goal = max(goals, key=lambda g: g.get("debt") or 0)["name"] if goals else "Strength"
        suggested = {}
        for entry in self.knowledge.get("progression") or []:
            if isinstance(entry, dict) and isinstance(entry.get("exercise"), str):
                load = next((entry[k] for k in SUGGESTED_KEYS if isinstance(entry.get(k), int | float)), None)
                if load and (entry.get("unit") in (None, self.unit)):
                    suggested[entry["exercise"].lower()] = float(load)
        return Context(tuple(self.equipment), self.unit, Rules.of(self.knowledge.get("active_preferences") or []),
                       self.recovering() if recovering is None else recovering, goal, suggested)


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]


def _read_facts(facts: Facts, given: ModelFacts) -> None:
    """The member prefix, reply language, clock and the offered tools' declared inputs the engine put on the request
    (agent/model_facts.py)."""
    if given.member is not None:
        facts.unit = given.member.unit
        facts.equipment = list(given.member.equipment)
        facts.locations = list(given.member.locations)
        facts.knowledge = dict(given.member.knowledge)
    facts.locale = given.locale if given.locale in SUPPORTED_LOCALES else "en"
    facts.now = given.now
    facts.inputs = given.inputs


def read(request) -> Facts:
    given = facts_of(request)
    facts = Facts(tools=frozenset(t["name"] for t in request.tools if "name" in t))
    _read_facts(facts, given)
    start, undone = 0, set()
    for i, message in enumerate(request.messages):
        for text in _texts(message["content"]):
            if message["role"] == "user" and text and not text.startswith(("<knowledge", "<artifact", "<checkpoint")):
                if facts.words:
                    facts.earlier_words.append(facts.words)
                facts.words = member_words(text).strip()
                start = i
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") != "tool_use":
                continue
            if block.get("name") == LOG and (logged := given.outputs.get(block.get("id", ""), {}).get("id")):
                facts.logged.append(str(logged))  # what the tool returned, not the words its result says it in
            if block.get("name") == UNDO_LOG:
                undone.add(str((block.get("input") or {}).get("id")))
    facts.logged = [i for i in facts.logged if i not in undone]
    uses: dict[str, dict[str, Any]] = {}
    for message in request.messages[start:]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") == "tool_use":
                uses[block["id"]] = block
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in uses:
                use = uses[block["tool_use_id"]]
                facts.steps.append(Step(use["name"], use.get("input") or {}, result_body(block), bool(block.get("is_error"))))
    return facts


# --- a tool's declared input: fill what it has ----------------------------------------------------------------

def _members(annotation: Any) -> tuple[Any, ...]:
    """The types a field's annotation allows (`X | None` → X, None)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


def _vocabulary(annotation: Any) -> tuple[str, ...] | None:
    """The words a list field takes (`list[Literal[...]]`), None for free text."""
    for member in _members(annotation):
        for item in typing.get_args(member) if typing.get_origin(member) is list else ():
            if typing.get_origin(item) is typing.Literal:
                return tuple(str(v) for v in typing.get_args(item))
    return None


def exclusions_input(model: type[BaseModel] | None, exclusions: dict[str, list[str]], *, hard: bool = True) -> dict[str, Any]:
    """The structured exclusions of a preference in the tool's declared input (its ToolSpec's model): in the field
    that holds gym.training.constraints.Exclusions, each kind in its vocabulary ("deep knee flexion" is
    "deep_knee_flexion"), and `hard` where the input has that flag. An input without either gets nothing of it."""
    fields = model.model_fields if model is not None else {}
    out: dict[str, Any] = {}
    holder = next((name for name, f in fields.items() if Exclusions in _members(f.annotation)), None)
    if holder is not None:
        filled: dict[str, list[str]] = {}
        for kind in EXCLUSION_KINDS:
            values = exclusions.get(kind) or []
            allowed = _vocabulary(Exclusions.model_fields[kind].annotation)
            if allowed is not None:
                lookup = {key_of(a): a for a in allowed}
                values = list(dict.fromkeys(lookup[key_of(v)] for v in values if key_of(v) in lookup))
            if values:
                filled[kind] = values
        if filled:
            out[holder] = filled
    if "hard" in fields and bool in _members(fields["hard"].annotation):
        out["hard"] = hard
    return out


def input_fields(model: type[BaseModel] | None, within: str | None = None) -> frozenset[str]:
    """The fields of a tool's declared input `model`, or of the model its field `within` holds (none: no such)."""
    if model is not None and within is not None:
        found = model.model_fields.get(within)
        model = next((m for m in _members(found.annotation) if isinstance(m, type) and issubclass(m, BaseModel)),
                     None) if found is not None else None
    return frozenset(model.model_fields) if model is not None else frozenset()
