"""The offline model playing the member's trainer (TRAINER.md "Demo"): fixed rules, clearly labelled, never an LLM.

It reads the trainer request (the member's words, the knowledge blocks, the member prefix with the current
location's equipment and units, the tool calls since) and makes one tool call per reply, as the persona
requires: build a workout with the rules in code (distribution debt, recovery, equipment at the current
location, preferences, progression), swap an exercise, log one, count workouts, save a preference; then
deliver the result with coach__message_notify_user and idle.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from gym.training.equipment import missing_equipment

ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "a": 1}
TARGETS = {"chest": "Chest", "back": "Back", "legs": "Quadriceps", "leg": "Quadriceps", "shoulders": "Shoulders",
           "shoulder": "Shoulders", "arms": "Biceps", "core": "Abs", "abs": "Abs", "glutes": "Glutes"}


@dataclass(frozen=True)
class Move:
    name: str
    muscles: dict[str, float]
    equipment: tuple[str, ...] = ()
    load_kg: float | None = None  # a conservative start for a new exercise; None = bodyweight
    overhead: bool = False


LIBRARY: tuple[Move, ...] = (
    Move("Dumbbell Bench Press", {"Chest": 0.7, "Triceps": 0.2, "Shoulders": 0.1}, ("dumbbell", "bench"), 12),
    Move("Dumbbell Floor Press", {"Chest": 0.7, "Triceps": 0.3}, ("dumbbell", "mat"), 10),
    Move("Push-up", {"Chest": 0.7, "Triceps": 0.3}),
    Move("Dumbbell Fly", {"Chest": 1.0}, ("dumbbell",), 6),
    Move("Band Chest Press", {"Chest": 0.8, "Triceps": 0.2}, ("band",)),
    Move("Barbell Bench Press", {"Chest": 0.7, "Triceps": 0.3}, ("barbell", "bench"), 30),
    Move("Dumbbell Row", {"Back": 0.8, "Biceps": 0.2}, ("dumbbell",), 12),
    Move("Band Pull-Apart", {"Back": 0.6, "Shoulders": 0.4}, ("band",)),
    Move("Goblet Squat", {"Quadriceps": 0.6, "Glutes": 0.4}, ("dumbbell",), 12),
    Move("Reverse Lunge", {"Quadriceps": 0.5, "Glutes": 0.5}),
    Move("Dumbbell Romanian Deadlift", {"Hamstrings": 0.6, "Glutes": 0.4}, ("dumbbell",), 14),
    Move("Dumbbell Shoulder Press", {"Shoulders": 0.8, "Triceps": 0.2}, ("dumbbell",), 8, overhead=True),
    Move("Dumbbell Curl", {"Biceps": 1.0}, ("dumbbell",), 8),
    Move("Bench Dip", {"Triceps": 1.0}, ("bench",)),
)
PLANK = {"type": "hold", "name": "Plank", "sets": 2, "hold_sec": [30, 30], "rest_sec": 30,
         "muscles": [{"name": "Abs", "share": 1.0}], "goals": [{"name": "Mobility", "share": 1.0}],
         "reasoning": "Core finisher.", "equipment": []}


@dataclass
class Facts:
    words: str = ""
    now: datetime | None = None
    unit: str = "kg"
    equipment: list[str] = field(default_factory=list)
    knowledge: dict[str, Any] = field(default_factory=dict)
    steps: list[tuple[str, dict, Any, bool]] = field(default_factory=list)  # (tool, input, result, is_error)


def _text_blocks(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]


def read(request) -> Facts:
    facts = Facts()
    system = "\n".join(b.get("text", "") for b in request.system)
    if m := re.search(r"^Weight: (\w+)", system, re.MULTILINE):
        facts.unit = m.group(1)
    if m := re.search(r"<current_location>.*?Equipment: ([^\n]*)", system, re.DOTALL):
        facts.equipment = [] if m.group(1).startswith("none") else [e.strip() for e in m.group(1).split(",")]
    start = 0
    for i, message in enumerate(request.messages):
        for text in _text_blocks(message["content"]):
            for _kind, source, body in re.findall(r'<(knowledge|knowledge_update) source="(\w+)">\n(.*?)\n</\1>',
                                                 text, re.DOTALL):
                try:
                    facts.knowledge[source] = json.loads(body)
                except ValueError:
                    continue
            if message["role"] == "user" and text and not text.startswith(("<knowledge", "<artifact", "<checkpoint")):
                if m := re.search(r"Now: (\S+)", text):
                    facts.now = datetime.fromisoformat(m.group(1))
                facts.words = re.sub(r"<(\w+)>.*?</\1>\n?", "", text, flags=re.DOTALL).strip()
                start = i
    uses = {}
    for message in request.messages[start:]:
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") == "tool_use":
                uses[block["id"]] = block
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in uses:
                use = uses[block["tool_use_id"]]
                body = block.get("content")
                try:
                    body = json.loads(body) if isinstance(body, str) and body.startswith(("{", "[")) else body
                except ValueError:
                    pass
                facts.steps.append((use["name"], use.get("input") or {}, body, bool(block.get("is_error"))))
    return facts


def _avoided(facts: Facts) -> str:
    return " ".join(p.get("guidance", "") + " " + p.get("description", "")
                    for p in facts.knowledge.get("active_preferences") or []).lower()


def _allowed(move: Move, facts: Facts, avoid: str) -> bool:
    if missing_equipment(move.equipment, facts.equipment):
        return False
    if move.overhead and "overhead" in avoid:
        return False
    return not any(m.lower() in avoid for m, share in move.muscles.items() if share >= 0.3)


def _recovering(facts: Facts) -> set[str]:
    return {r["muscle"] for r in facts.knowledge.get("recovery_status") or [] if r.get("recovering", True)}


def _debt_goal(facts: Facts) -> str:
    goals = [g for g in facts.knowledge.get("category_goals") or [] if g.get("name") in ("Strength", "Hypertrophy")]
    return max(goals, key=lambda g: g.get("debt", 0))["name"] if goals else "Strength"


def _exercise(move: Move, order: int, facts: Facts, goal: str) -> dict[str, Any]:
    suggested = {p.get("exercise", "").lower(): p for p in facts.knowledge.get("progression") or []}
    load = None
    if move.load_kg is not None:
        hit = suggested.get(move.name.lower())
        if hit and hit.get("suggestedLoad"):
            load = hit["suggestedLoad"]
        else:
            load = move.load_kg if facts.unit == "kg" else round(move.load_kg * 2.20462 / 5) * 5 or 5
    reps = 8 if goal == "Strength" else 12
    return {"type": "reps", "name": move.name, "order": order, "sets": 3, "reps": [reps] * 3, "load": load,
            "load_unit": facts.unit if load is not None else None, "rest_sec": 90 if goal == "Strength" else 60,
            "muscles": [{"name": m, "share": s} for m, s in move.muscles.items()],
            "goals": [{"name": goal, "share": 1.0}], "reasoning": f"{goal} debt first; fits your equipment.",
            "equipment": [e for e in move.equipment]}


def build_workout(facts: Facts) -> dict[str, Any]:
    words = facts.words.lower()
    target = next((muscle for word, muscle in TARGETS.items() if re.search(rf"\b{word}\b", words)), None)
    avoid, recovering, goal = _avoided(facts), _recovering(facts), _debt_goal(facts)
    pool = [m for m in LIBRARY if _allowed(m, facts, avoid)]
    fresh = [m for m in pool if not any(mu in recovering and s >= 0.3 for mu, s in m.muscles.items())]
    chosen = [m for m in (fresh or pool) if target is None or m.muscles.get(target, 0) >= 0.5]
    if len(chosen) < 2:
        chosen += [m for m in fresh if m not in chosen]
    count = 2 if "quick" in words else 4
    exercises = [_exercise(m, n, facts, goal) for n, m in enumerate(chosen[:count], start=1)]
    exercises.append({**PLANK, "order": len(exercises) + 1,
                      "equipment": ["mat"] if not missing_equipment(["mat"], facts.equipment) else []})
    title = f"Quick {target.lower()} workout" if target and "quick" in words else "Your workout"
    return {"title": title, "exercises": exercises}


def swap_input(facts: Facts) -> dict[str, Any] | None:
    workout = facts.knowledge.get("current_workout")
    if not workout:
        return None
    words = facts.words.lower()
    position = next((n for w, n in ORDINALS.items() if re.search(rf"\b{w}\b", words)), None)
    if position is None and (m := re.search(r"\b(\d+)\b", words)):
        position = int(m.group(1))
    exercises = workout["exercises"]
    if position is None or not exercises:
        return None
    old = exercises[position - 1] if position > 0 else exercises[-1]
    main = max(old.get("muscles") or [{"name": "Chest", "share": 1}], key=lambda m: m["share"])["name"]
    taken = {e["name"] for e in exercises}
    avoid = _avoided(facts)
    options = [m for m in LIBRARY if m.name not in taken and _allowed(m, facts, avoid) and m.muscles.get(main, 0) >= 0.5]
    if not options:
        return None
    goal = (old.get("goals") or [{"name": "Strength"}])[0]["name"]
    return {"exercise_id": old["id"], "new_exercise": _exercise(options[0], old["order"], facts, goal)}


LOG = re.compile(r"(?P<name>[a-z][a-z \-]+?)\s+(?P<sets>\d+)\s*[x×]\s*(?P<reps>\d+)(?:\s*(?:at|@)\s*"
                 r"(?P<load>\d+(?:\.\d+)?)\s*(?P<unit>kg|lbs?)?)?")


def log_input(facts: Facts) -> dict[str, Any] | None:
    m = LOG.search(facts.words.lower().replace("log it:", "").replace("log", ""))
    if not m:
        return None
    name = m.group("name").strip().title()
    move = next((x for x in LIBRARY if name.lower() in x.name.lower()), None)
    out: dict[str, Any] = {"exercise_name": "Bench Press" if name == "Bench" else name,
                           "exercise_type": "strength" if m.group("load") else "bodyweight",
                           "sets": int(m.group("sets")), "reps": int(m.group("reps")),
                           "muscles": [k for k, v in (move.muscles if move else {"Chest": 1}).items() if v >= 0.3],
                           "goals": ["Strength"]}
    if m.group("load"):
        load, unit = float(m.group("load")), (m.group("unit") or facts.unit).rstrip("s") + ("s" if (
            m.group("unit") or facts.unit).startswith("lb") else "")
        if unit != facts.unit:
            load = round(load * 2.20462, 1) if facts.unit == "lbs" else round(load / 2.20462, 1)
        out["load"] = load
    return out


def avoid_input(facts: Facts) -> dict[str, Any] | None:
    words = facts.words.lower()
    m = re.search(r"(?:avoid|no)\s+(\w+)(?:.*?for\s+(\w+)\s+(day|week|month)s?)?", words)
    if not m or facts.now is None:
        return None
    thing = m.group(1)
    out: dict[str, Any] = {"type": "muscle_group" if thing.rstrip("s") in TARGETS or thing in TARGETS else "exercise",
                           "description": facts.words[:300], "guidance": f"avoid {thing}: no exercises for {thing}"}
    if m.group(2):
        n = int(m.group(2)) if m.group(2).isdigit() else NUMBER_WORDS.get(m.group(2), 1)
        days = n * {"day": 1, "week": 7, "month": 30}[m.group(3)]
        out["expires_at"] = (facts.now + timedelta(days=days)).isoformat()
    return out


def period_of(words: str) -> str:
    for period in ("week", "year", "quarter"):
        if period in words:
            return period
    return "all_time" if "ever" in words or "all time" in words else "month"
