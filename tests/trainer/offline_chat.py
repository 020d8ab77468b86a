"""One conversation with the offline trainer at unit level: requests built as the engine builds them (the trainer's
system blocks with the member prefix, its tools for the member role, the session's events as messages through
agent/trainer/messages.py), the offline model's moves, and the tool results fed back by the test."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from agent.model import ModelRequest
from agent.model_facts import FACTS, ModelFacts
from agent.request import tool_definitions
from agent.trainer.messages import KnownInContext, to_messages
from agent.trainer.observe import observation
from agent.trainer.persona import TRAINER
from agent.trainer.prompt import member_facts, member_prefix, trainer_system
from agent.trainer.store import PERSONA, Event
from offline_model.trainer_moves import trainer_answer
from tools.catalog import build_registry

REGISTRY = build_registry()
SPECS = TRAINER.tools(REGISTRY, "member")
TOOLS = tool_definitions(SPECS)
INPUTS = {spec.name: spec.input_model for spec in SPECS}  # as the orchestrator's facts carry them
NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)  # a Thursday
HOME = ["dumbbell", "band", "mat"]


def workout(*names_muscles: tuple[str, dict[str, float]], kinds: tuple[str, ...] = ()) -> dict[str, Any]:
    exercises = []
    for n, (name, muscles) in enumerate(names_muscles, start=1):
        kind = kinds[n - 1] if n <= len(kinds) else "reps"
        ex = {"id": f"ex_{n:03d}", "name": name, "order": n, "type": kind,
              "muscles": [{"name": m, "share": s} for m, s in muscles.items()],
              "goals": [{"name": "Strength", "share": 1.0}], "reasoning": "x", "equipment": []}
        ex.update({"sets": 3, "reps": [10, 10, 10], "load": 10, "load_unit": "kg", "rest_sec": 60} if kind == "reps"
                  else {"sets": 2, "hold_sec": [30, 30], "rest_sec": 30})
        exercises.append(ex)
    return {"id": "workout_1", "title": "Quick chest workout", "exercises": exercises, "summary": None,
            "completed": {}, "status": "current"}


CHEST = workout(("Dumbbell Floor Press", {"Chest": 0.7, "Triceps": 0.3}), ("Push-up", {"Chest": 0.7, "Triceps": 0.3}),
                ("Plank", {"Abs": 1.0}), kinds=("reps", "reps", "hold"))


def recovery(muscle: str, hours_since: float, window: float = 48) -> dict[str, Any]:
    return {"muscle": muscle, "recovering": hours_since < window, "hoursSince": hours_since,
            "hoursRemaining": max(0.0, window - hours_since),
            "lastTrainedAt": (NOW - timedelta(hours=hours_since)).isoformat(),
            "readyAt": (NOW + timedelta(hours=window - hours_since)).isoformat()}


def knowledge(**overrides: Any) -> dict[str, Any]:
    """Dani's record as the sources give it: injury, goals with Strength debt, legs recovering, a workout."""
    base = {
        "active_preferences": [{"id": "7b0d3f9e-1111-4c2a-9d61-3c1f1e0a0001", "type": "injury",
                                "description": "left shoulder: no overhead pressing",
                                "guidance": "No overhead pressing (strict press, push press, handstands, snatches).",
                                "expiresAt": (NOW + timedelta(days=10)).isoformat(), "temporary": True}],
        "category_goals": [{"name": "Strength", "target": 0.45, "actual": 0.38, "debt": 0.07},
                           {"name": "Hypertrophy", "target": 0.25, "actual": 0.28, "debt": -0.03},
                           {"name": "Conditioning", "target": 0.2, "actual": 0.22, "debt": -0.02},
                           {"name": "Mobility", "target": 0.1, "actual": 0.12, "debt": -0.02}],
        "recovery_status": [recovery("Quadriceps", 20), recovery("Glutes", 20), recovery("Hamstrings", 20)],
        "progression": [{"exercise": "Dumbbell Floor Press", "unit": "kg", "lastLoad": 10, "lastReps": 10,
                         "suggestedLoad": 11, "reason": "progress"}],
        "current_workout": CHEST,
        "scheduled_workouts": [{"id": "5a1e0c2b-2222-4c2a-9d61-3c1f1e0a0002", "when": (NOW + timedelta(days=1)).replace(
            hour=7).isoformat(), "workoutType": "Leg workout", "status": "scheduled", "readOnly": False}],
    }
    base.update(overrides)
    return {k: v for k, v in base.items() if v is not None}


class OfflineChat:
    def __init__(self, locale: str = "en", known: dict[str, Any] | None = None, *, unit: str = "kg") -> None:
        self.locale, self.events, self.seq, self.calls = locale, [], 0, 0
        locations = [{"name": "Home", "equipment": HOME, "current": True},
                     {"name": "Harbor Strength", "equipment": ["barbell", "bench", "dumbbell", "rack", "pull-up bar",
                                                                "band", "mat", "cable"], "current": False}]
        prefix = {"user_settings": {"weightUnit": unit, "distanceUnit": "km"}, "all_locations": locations}
        self.system, self.prefix = trainer_system(locale, member_prefix(prefix)), prefix
        self.now: datetime | None = None
        self.known = knowledge() if known is None else known
        self.outputs: dict[str, dict[str, Any]] = {}  # behind compact observations, as the trainer thread reads them

    def _add(self, type: str, payload: dict[str, Any]) -> None:
        self.seq += 1
        self.events.append(Event(self.seq, type, payload))

    def say(self, words: str, *, now: datetime = NOW) -> dict[str, Any]:
        """The member's words (and the knowledge the selector would add); the trainer's first move."""
        self._add("user_message", {"message": words, "context": f"<turn_context>\nNow: {now.isoformat()} (UTC)\n"
                                                                "</turn_context>\n"})
        self.now = now
        for source, data in self.known.items():
            self._add("knowledge", {"source": source, "params": {}, "data": data})
        self.known = {}
        return self.move()

    def move(self) -> dict[str, Any]:
        facts = ModelFacts(persona=PERSONA, locale=self.locale, role="member", now=self.now,
                           member=member_facts(self.prefix, KnownInContext(self.events)), inputs=INPUTS,
                           outputs=dict(self.outputs))
        request = ModelRequest(model="m", system=self.system, tools=TOOLS, messages=to_messages(self.events),
                               max_tokens=1000, metadata={FACTS: facts})
        response = trainer_answer(request)
        use = next(b for b in response.content if b["type"] == "tool_use")
        self.last = use
        return use

    def result(self, result: Any, *, error: bool = False, knowledge: dict[str, Any] | None = None,
               said: str | None = None) -> dict[str, Any]:
        """The last move's result (and any knowledge it delivered); the next move. A tool's output (a dict) the
        model reads as its tool's compact observation says it (`said`: in other words) is carried in the facts, as
        the trainer thread does (agent/trainer/thread.py)."""
        self.calls += 1
        use, call_id = self.last, self.last["id"] + str(self.calls)
        self._add("tool_call", {"callId": call_id, "toolName": use["name"], "arguments": use["input"]})
        spec = REGISTRY.get(use["name"])
        if isinstance(result, dict) and not error and spec is not None and spec.observe is not None:
            self.outputs[call_id] = result
            body = said if said is not None else observation(spec, result)
        else:
            body = result if isinstance(result, str) else json.dumps(result)
        self._add("tool_result", {"callId": call_id, "result": body, "isError": error})
        for source, data in (knowledge or {}).items():
            self._add("knowledge", {"source": source, "params": {}, "data": data})
        return self.move()
