"""The offline model playing the member's trainer (TRAINER.md "Demo"): fixed rules, clearly labelled, never an LLM.

It reads the trainer request as the engine built it: the member's latest words (the text after the context the
engine put ahead of them), the tool calls made since with their results, and the tools offered with their input
schemas (so a move fills the fields a tool has, such as a preference's structured exclusions); the reply
language, the clock, the member prefix (unit, locations, the current one's equipment) and the knowledge the
context holds come from the facts the engine put on the request (agent/model_facts.py). The moves are
offline_model/trainer_moves.py; the words, trainer_words.py; the exercises, trainer_library.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agent.model_facts import ModelFacts, facts_of
from agent.trainer.messages import member_words
from core.i18n import SUPPORTED_LOCALES
from offline_model.episode import result_body
from offline_model.trainer_library import Context, Rules

LOGGED = re.compile(r"logged .*?\(id ([0-9a-f-]{36})\)")
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
    tools: dict[str, dict[str, Any]] = field(default_factory=dict)  # name → input schema
    earlier_words: list[str] = field(default_factory=list)
    logged: list[str] = field(default_factory=list)  # ids of this session's logs, oldest first, undone ones out

    def has(self, tool: str) -> bool:
        return tool in self.tools

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
    """The member prefix, reply language and clock the engine put on the request (agent/model_facts.py)."""
    if given.member is not None:
        facts.unit = given.member.unit
        facts.equipment = list(given.member.equipment)
        facts.locations = list(given.member.locations)
        facts.knowledge = dict(given.member.knowledge)
    facts.locale = given.locale if given.locale in SUPPORTED_LOCALES else "en"
    facts.now = given.now


def read(request) -> Facts:
    facts = Facts(tools={t["name"]: t.get("input_schema") or {} for t in request.tools if "name" in t})
    _read_facts(facts, facts_of(request))
    start, undone = 0, set()
    for i, message in enumerate(request.messages):
        for text in _texts(message["content"]):
            if message["role"] == "user" and text and not text.startswith(("<knowledge", "<artifact", "<checkpoint")):
                if facts.words:
                    facts.earlier_words.append(facts.words)
                facts.words = member_words(text).strip()
                start = i
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") == "tool_result" and (m := LOGGED.search(str(block.get("content")))):
                facts.logged.append(m.group(1))
            if block.get("type") == "tool_use" and block.get("name") == "logbook__undo_logged_exercise":
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


# --- a tool's input schema: fill what it has ------------------------------------------------------------------

def _resolve(schema: dict[str, Any], node: Any) -> dict[str, Any]:
    if isinstance(node, dict) and "$ref" in node:
        return (schema.get("$defs") or {}).get(node["$ref"].rsplit("/", 1)[-1], {})
    if isinstance(node, dict) and "anyOf" in node:
        return next((_resolve(schema, n) for n in node["anyOf"] if n.get("type") != "null"), {})
    return node if isinstance(node, dict) else {}


def _enum(schema: dict[str, Any], node: dict[str, Any]) -> list[str] | None:
    items = _resolve(schema, node.get("items") or {})
    values = items.get("enum") or node.get("enum")
    return [str(v) for v in values] if values else None


def vocabulary_key(value: str) -> str:
    """One form for a vocabulary word however it is written: "Deep knee-flexion" = "deep_knee_flexion"."""
    return re.sub(r"[\s_-]+", "_", value.strip().lower())


EXCLUSION_KINDS = (("exercises", r"exercis"), ("patterns", r"pattern|movement"), ("muscles", r"muscle"),
                   ("equipment", r"equip"))


def exclusions_input(schema: dict[str, Any], exclusions: dict[str, list[str]], *, hard: bool = True) -> dict[str, Any]:
    """The structured exclusions of a preference, in whichever fields the tool's schema has (none: nothing)."""
    props = schema.get("properties") or {}

    def fill(fields: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for kind, pattern in EXCLUSION_KINDS:
            name = next((n for n in fields if re.search(pattern, n, re.IGNORECASE)), None)
            values = exclusions.get(kind) or []
            if name is None or not values:
                continue
            allowed = _enum(schema, _resolve(schema, fields[name]))
            if allowed is not None:  # "deep knee flexion" is the vocabulary's "deep_knee_flexion"
                lookup = {vocabulary_key(a): a for a in allowed}
                values = list(dict.fromkeys(lookup[vocabulary_key(v)] for v in values if vocabulary_key(v) in lookup))
            if values:
                out[name] = values
        return out

    out: dict[str, Any] = {}
    holder = next((n for n in props if re.search(r"exclu|constraint|restrict", n, re.IGNORECASE)
                   and not any(re.search(pattern, n, re.IGNORECASE) for _, pattern in EXCLUSION_KINDS)), None)
    if holder is not None:
        node = _resolve(schema, props[holder])
        if node.get("properties"):
            out[holder] = fill(node["properties"])
        elif node.get("type") == "array":
            allowed = {vocabulary_key(a): a for a in _enum(schema, node) or []}
            values = [v for values in exclusions.values() for v in values]
            out[holder] = [allowed.get(vocabulary_key(v), v) for v in values
                           if not allowed or vocabulary_key(v) in allowed]
    else:
        base = {"type", "description", "guidance", "expires_at", "delete_after_use", "id"}
        out.update(fill({n: p for n, p in props.items() if n not in base}))
    for name, node in props.items():
        node = _resolve(schema, node)
        if re.fullmatch(r"hard|is_hard|strict", name, re.IGNORECASE) and node.get("type") == "boolean":
            out[name] = hard
        elif re.search(r"severity|strength|kind|level", name, re.IGNORECASE) and "hard" in (node.get("enum") or []):
            out[name] = "hard" if hard else "soft"
    return {k: v for k, v in out.items() if v not in ({}, [])}
