"""A scripted trainer session on the fake Anthropic server, shared by the context-budget test and bench/trainer.py.

Turn one builds a chest workout at Dani's home; then each "log a set" turn fetches the workout history and
logs one set (the issue-24 case), with a swap, a statistics question and a schedule among them. The knowledge
selector (a request without tools) is answered with the keyword rules' pick for the member's words, so the
knowledge the engine appends is what the offline fallback would append.

`narrowing_session` is issue 38's realistic case: the selector also picks `workout_history` for 14 days every
turn while the model fetches 30 days in the same turn before it logs the set.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agent.trainer.knowledge import keyword_sources
from tests.fakes.anthropic_server import Reply, Text, ToolUse

HOME = ["dumbbell", "band", "mat"]


def _reps(order: int, name: str, muscles: dict[str, float], equipment: list[str], load: float | None,
          rep: int = 10) -> dict[str, Any]:
    return {"type": "reps", "name": name, "order": order, "sets": 3, "reps": [rep] * 3, "load": load,
            "load_unit": "kg" if load is not None else None, "rest_sec": 90,
            "muscles": [{"name": m, "share": s} for m, s in muscles.items()],
            "goals": [{"name": "Strength", "share": 1.0}], "reasoning": "Strength debt first.",
            "equipment": equipment}


WORKOUT = {"title": "Quick chest workout", "exercises": [
    _reps(1, "Dumbbell Floor Press", {"Chest": 0.7, "Triceps": 0.3}, ["dumbbell", "mat"], 14),
    _reps(2, "Push-up", {"Chest": 0.7, "Triceps": 0.3}, [], None, 12),
    {"type": "hold", "name": "Plank", "order": 3, "sets": 2, "hold_sec": [30, 30], "rest_sec": 30,
     "muscles": [{"name": "Abs", "share": 1.0}], "goals": [{"name": "Mobility", "share": 1.0}],
     "reasoning": "Core finisher.", "equipment": ["mat"]}]}
SWAP_IN = _reps(2, "Band Chest Press", {"Chest": 0.8, "Triceps": 0.2}, ["band"], None, 15)


@dataclass(frozen=True)
class ScriptedTurn:
    kind: str  # "workout", "log_set", "swap", "stats", "schedule"
    message: str
    calls: tuple[tuple[str, dict[str, Any]], ...]  # the tools the model calls before it tells the member and idles
    reply: str
    attach: tuple[str, ...] = ()
    selection: dict[str, dict[str, Any]] | None = None  # the selector's pick on top of the keyword rules'


def log_set(n: int, name: str = "Dumbbell Floor Press", load: float | None = 14, reps: int = 10, *,
            fetch_days: int = 14, selection: dict[str, dict[str, Any]] | None = None) -> ScriptedTurn:
    entry: dict[str, Any] = {"exercise_name": name, "exercise_type": "strength" if load else "bodyweight",
                             "sets": 1, "reps": reps, "rpe": 8, "muscles": ["Chest", "Triceps"], "goals": ["Strength"]}
    if load is not None:
        entry["load"] = load
    said = f"log set {n}: {name.lower()} {reps} reps" + (f" at {load:g} kg" if load else "")
    return ScriptedTurn("log_set", said, (("data__fetch_data", {"sources": {"workout_history": {"days_back": fetch_days}}}),
                                          ("logbook__log_completed_exercise", entry)),
                        f"Logged set {n}: {reps} reps.", selection=selection)


WORKOUT_TURN = ScriptedTurn("workout", "give me a quick chest workout",
                            (("workout__generate_workout", WORKOUT),), "Here is your quick chest workout.",
                            ("workout_1",))


def session(turns: int = 20) -> list[ScriptedTurn]:
    """The bench's session: a workout, eight logged sets, a swap, eight more sets, stats, a schedule."""
    plan = [WORKOUT_TURN, *(log_set(n) for n in range(1, 9)),
            ScriptedTurn("swap", "swap the second exercise",
                         (("workout__swap_exercise", {"exercise_id": 2, "new_exercise": SWAP_IN}),),
                         "Swapped it for a band chest press.", ("workout_1",)),
            *(log_set(n, "Band Chest Press", None, 15) for n in range(9, 17)),
            ScriptedTurn("stats", "how many workouts this month?",
                         (("stats__get_workout_statistics", {"period": "month"}),), "Here are this month's numbers."),
            ScriptedTurn("schedule", "schedule a leg workout tomorrow at 7am",
                         (("calendar__schedule_workout", {"scheduled_at": "2030-01-01T07:00:00+00:00",
                                                          "workout_type": "Legs", "duration_minutes": 45}),),
                         "Scheduled for tomorrow at 7:00.")]
    return plan[:turns]


HISTORY_14 = {"workout_history": {"days_back": 14}}


def narrowing_session(turns: int = 9) -> list[ScriptedTurn]:
    """Issue 38 item 6: the selector picks 14 days of history and the model fetches 30 days in the same turn, every
    turn: first to build a workout, then in eight turns that each log one set."""
    fetch_30 = ("data__fetch_data", {"sources": {"workout_history": {"days_back": 30}}})
    workout = ScriptedTurn(WORKOUT_TURN.kind, WORKOUT_TURN.message, (fetch_30, *WORKOUT_TURN.calls),
                           WORKOUT_TURN.reply, WORKOUT_TURN.attach, selection=HISTORY_14)
    return [workout, *(log_set(n, fetch_days=30, selection=HISTORY_14) for n in range(1, turns))][:turns]


class ScriptedModel:
    """The fake model's handler: the selector gets the keyword rules' pick, each turn request the next reply of
    the current turn (its calls, then coach__message_notify_user, then coach__idle)."""

    def __init__(self, fake) -> None:
        self.fake, self.replies, self.n, self.selection = fake, [], 0, None
        fake.respond_with(self)

    def play(self, turn: ScriptedTurn) -> None:
        self.n, self.selection = self.n + 1, turn.selection
        calls = [*turn.calls, ("coach__message_notify_user", {"text": turn.reply, "attachments": list(turn.attach)}),
                 ("coach__idle", {})]
        self.replies = [Reply(ToolUse(name, args, id=f"toolu_t{self.n}_{i}")) for i, (name, args) in enumerate(calls)]

    def __call__(self, body: dict[str, Any]) -> Reply:
        if not body.get("tools"):
            words = body["messages"][-1]["content"][0]["text"].rpartition("Message: ")[2]
            return Reply(Text(json.dumps({"sources": {**keyword_sources(words), **(self.selection or {})}})))
        assert self.replies, "the trainer asked for more replies than scripted"
        return self.replies.pop(0)


def prompt_tokens(usage: dict[str, Any]) -> int:
    """Everything a request sent the model, as the fake billed it: uncached input, cache reads and writes."""
    return (usage.get("input_tokens", 0) + usage.get("cache_read_input_tokens", 0)
            + usage.get("cache_creation_input_tokens", 0))
