"""The knowledge selector (001 §3.2): before each user turn, which data sources the model needs.

The summarizer model answers with JSON `{"sources": {"name": {params}}}` within a 1.5 s budget; on a timeout,
a failure, unparseable output or the offline provider, deterministic keyword rules decide. Knowledge is
append-only: a source already in context is re-sent (as `knowledge_update`) only when its range grows or its
data changed, and then as what changed (agent/trainer/delta.py) unless the whole is smaller;
`knowledge_in_context` on the session remembers {source: {params, hash, data}} (data: the context's copy).
Knowledge never narrows inside a session (TRAINER.md): a source keeps the widest range asked for (`widest`), so
a pick narrower than the context's is read at the context's range and sends only what changed there — never the
removal of what lies outside the narrower range (which a later wider ask would then send again).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import anyio
import structlog

from agent.model import ModelRequest, ModelResponse
from agent.trainer import delta
from tools.leaves.trainer.sources import SOURCES, params_for

log = structlog.get_logger("agent.trainer.knowledge")

SELECTOR_BUDGET_SECONDS = 1.5
RANGE_KEYS = ("days_back", "days_ahead")
ALWAYS = ("active_preferences",)
RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"workout|exercise|train|session|routine|chest|legs?|back|arms?|shoulders?|core|glutes|quick|cardio|"
     r"אימון|תרגיל|חזה|רגל|(?<![א-ת])גב(?![א-ת])|כתפ|ידיים|בטן|тренировк|упражнени|\bгруд|\bног|\bспин|\bплеч|"
     r"\bрук|\bпресс",
     ("category_goals", "muscle_goals", "recovery_status", "progression", "workout_history", "current_workout")),
    (r"swap|replace|change|adjust|remove|skip|instead|second|first|third|last|log|did|done|finished|sets?|reps?|timer|"
     r"תחליף|החלף|תוריד|תרשום|סיימתי|סטים|חזרות|טיימר|ראשון|שני|שלישי|"
     r"замени|поменяй|убери|запиши|сделал|подход|повтор|таймер|перв|втор|трет",
     ("current_workout", "progression")),
    (r"how many|stats|statistic|progress|volume|month|week|year|record|trend|history|"
     r"כמה|שיא|התקדמות|חודש|שבוע|שנה|сколько|рекорд|прогресс|месяц|недел|год",
     ("workout_history",)),
    (r"schedule|calendar|tomorrow|next week|plan|monday|tuesday|wednesday|thursday|friday|saturday|sunday|move|cancel|"
     r"תקבע|תזמן|מחר|תוכנית|תזיז|תבטל|запланир|расписан|завтра|план|перенеси|отмени|понедельник|вторник|сред|"
     r"четверг|пятниц|суббот|воскресень",
     ("scheduled_workouts", "workout_plans")),
    (r"goal|milestone|target|marathon|5k|10k|focus|מטרה|להתמקד|אבן דרך|цел|сосредоточ|веха",
     ("category_goals", "muscle_goals", "milestone_goals")),
    (r"avoid|injur|pain|hurt|prefer|hate|love|don't|dont|no more|better|forget|"
     r"כואב|פציעה|תימנע|בלי|תשכח|болит|травм|избега|без|забудь",
     ("active_preferences",)),
    (r"recover|sore|tired|rest day|התאוששות|עייף|восстанов|устал", ("recovery_status",)),
    (r"meal|food|eat|calorie|protein|carb|diet|nutrition|breakfast|lunch|dinner|snack|"
     r"ארוח|אוכל|לאכול|קלורי|חלבון|תזונה|דיאט|питан|еда|есть|калори|белок|белк|завтрак|обед|ужин|перекус|диет",
     ("nutrition_plan",)),
)
LONG_RANGE = re.compile(r"month|30 days|this year|year|quarter", re.IGNORECASE)


def keyword_sources(message: str) -> dict[str, dict[str, Any]]:
    """The deterministic fallback: sources by keyword, with the default ranges (30 days for month questions)."""
    text = message.lower()
    chosen: dict[str, dict[str, Any]] = {name: {} for name in ALWAYS}
    for pattern, names in RULES:
        if re.search(pattern, text):
            for name in names:
                chosen.setdefault(name, {})
    if "workout_history" in chosen and LONG_RANGE.search(text):
        chosen["workout_history"] = {"days_back": 30}
    return {name: params_for(name, given) for name, given in chosen.items()}


def parse_selection(text: str) -> dict[str, dict[str, Any]] | None:
    """The model's JSON answer as {source: params}; None when it is not usable."""
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if not match:
        return None
    try:
        raw = json.loads(match.group(0))
    except ValueError:
        return None
    sources = raw.get("sources") if isinstance(raw, dict) else None
    if isinstance(sources, list):
        sources = {name: {} for name in sources if isinstance(name, str)}
    if not isinstance(sources, dict):
        return None
    picked = {name: params_for(name, given if isinstance(given, dict) else {}) for name, given in sources.items()
              if name in SOURCES}
    for name in ALWAYS:
        picked.setdefault(name, params_for(name, {}))
    return picked


SELECTOR_PROMPT = ("You pick which data sources a personal trainer needs to answer the member's next message. "
                   "Sources: " + ", ".join(SOURCES) + ". workout_history takes days_back, scheduled_workouts "
                   "days_ahead. Answer with JSON only: {\"sources\": {\"name\": {params}}}.")


def selector_request(model: str, message: str, in_context: list[str]) -> ModelRequest:
    return ModelRequest(model=model, system=[{"type": "text", "text": SELECTOR_PROMPT}], tools=[],
                        messages=[{"role": "user", "content": [{"type": "text", "text": (
                            f"Already in context: {', '.join(in_context) or 'nothing'}\nMessage: {message}")}]}],
                        max_tokens=300)


Caller = Callable[[ModelRequest], Awaitable[ModelResponse]]


async def select(message: str, in_context: list[str], *, call: Caller | None, model: str) -> tuple[dict, str]:
    """(sources, how): the model's pick within the budget, else the keyword rules."""
    if call is not None:
        try:
            with anyio.fail_after(SELECTOR_BUDGET_SECONDS):
                response = await call(selector_request(model, message, in_context))
            text = "".join(b.get("text", "") for b in response.content if b.get("type") == "text")
            picked = parse_selection(text)
            if picked is not None:
                return picked, "model"
            log.info("agent.trainer.selector.unparseable")
        except TimeoutError:
            log.info("agent.trainer.selector.timeout")
        except Exception as exc:  # any failure falls back to the rules
            log.warning("agent.trainer.selector.failed", error_type=type(exc).__name__)
    return keyword_sources(message), "rules"


def data_hash(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Delivery:
    source: str
    params: dict[str, Any]
    data: Any
    update: bool  # knowledge_update (already in context, wider range or changed data)
    changes: Any = None  # an update said as what changed since the context's copy (agent.trainer.delta)
    quiet: bool = False  # nothing the model reads changed (only null fields): remember it, append nothing

    def remembered(self) -> dict[str, Any]:
        """What `knowledge_in_context` keeps of the source: its range, its hash and the copy the context has."""
        return {"params": self.params, "hash": data_hash(self.data), "data": delta.compact(self.data)}


def widest(known: dict[str, Any] | None, params: dict[str, Any]) -> dict[str, Any]:
    """The union of what the context holds of a source and what is asked now: each range at its widest."""
    old = (known or {}).get("params") or {}
    wide = {k: max(params.get(k) or 0, old.get(k) or 0) for k in RANGE_KEYS if k in params or k in old}
    return {**params, **{k: v for k, v in wide.items() if v}}


def plan_delivery(in_context: dict[str, Any], source: str, params: dict[str, Any], data: Any) -> Delivery | None:
    """What to send for one selected source, or None when the context already has it. An update is sent as what
    changed when the context's copy is known and the changes are smaller than the data."""
    known = in_context.get(source)
    if known is None:
        return Delivery(source, params, data, update=False)
    old = known.get("params", {})
    wider = any((params.get(k) or 0) > (old.get(k) or 0) for k in RANGE_KEYS)
    if not wider and known.get("hash") == data_hash(data):
        return None
    merged = {**params, **{k: max(params.get(k) or 0, old.get(k) or 0) for k in RANGE_KEYS if k in params}}
    if "data" not in known:  # a session from before changes were kept: the whole source again
        return Delivery(source, merged, data, update=True)
    current = delta.compact(data)
    try:
        changes = delta.diff(known["data"], current)
    except delta.Whole:
        return Delivery(source, merged, data, update=True)
    if changes in ({}, []):
        return Delivery(source, merged, data, update=True, quiet=True)
    if delta.size(changes) >= delta.size(current):
        return Delivery(source, merged, data, update=True)
    return Delivery(source, merged, data, update=True, changes=changes)
