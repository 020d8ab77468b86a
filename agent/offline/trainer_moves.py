"""The offline trainer's next move: one tool call per reply, chosen by rules from the member's words and the
tool results so far (agent/offline/trainer.py reads the request and builds the inputs)."""

from __future__ import annotations

import hashlib
from typing import Any

from agent.costs import Usage
from agent.model import ModelRequest, ModelResponse
from agent.offline.trainer import Facts, avoid_input, build_workout, log_input, period_of, read, swap_input
from core.i18n import catalog

MODEL_ID = "spotter-offline-rules"


def _call(name: str, input: dict[str, Any], request: ModelRequest) -> ModelResponse:
    digest = hashlib.sha256(f"{len(request.messages)}:{name}:{request.messages[-1]}".encode()).hexdigest()[:24]
    return ModelResponse(content=[{"type": "tool_use", "id": f"toolu_off_{digest}", "name": name, "input": input}],
                         stop_reason="tool_use", usage=Usage(), model=MODEL_ID)


def _label() -> str:
    """The offline model's "not an LLM" label (locales/en.json `offline.label`, as agent/offline/model.py)."""
    return catalog("en").get("offline", {}).get("label", "[Offline demo model — not an LLM]")


def _say(text: str, request: ModelRequest, attachments: list[str] | None = None) -> ModelResponse:
    return _call("coach__message_notify_user", {"text": f"{_label()}\n{text}", "attachments": attachments or []},
                 request)


def first_move(facts: Facts) -> tuple[str, dict[str, Any]] | None:
    words = facts.words.lower()
    if "swap" in words or "replace" in words:
        found = swap_input(facts)
        return ("workout__swap_exercise", found) if found else None
    if words.startswith("log") or " log " in f" {words} ":
        found = log_input(facts)
        return ("logbook__log_completed_exercise", found) if found else None
    if "how many" in words or "stats" in words:
        return "stats__get_workout_statistics", {"period": period_of(words)}
    if words.startswith(("avoid", "no ")) or " avoid " in f" {words} ":
        found = avoid_input(facts)
        return ("prefs__set_preference", found) if found else None
    if any(w in words for w in ("workout", "exercise", "train")):
        return "workout__generate_workout", build_workout(facts)
    return None


def _summary(tool: str, input: dict[str, Any], result: Any) -> tuple[str, list[str]]:
    if tool in ("workout__generate_workout", "workout__swap_exercise"):
        lines = "\n".join(result.get("exercises", []))
        warnings = "\n".join(f"⚠ {w}" for w in result.get("warnings", []))
        head = "Swapped: " + result.get("swapped", "") if tool == "workout__swap_exercise" else "Here is your workout:"
        return f"{head}\n{lines}" + (f"\n{warnings}" if warnings else ""), [result["workoutId"]]
    if tool == "logbook__log_completed_exercise":
        load = f" at {input['load']:g}" if input.get("load") is not None else ""
        return f"Logged {input['exercise_name']}: {input['sets']}×{input['reps']}{load}.", []
    if tool == "stats__get_workout_statistics":
        o = result.get("overview", {})
        return (f"Workouts this {input['period'].replace('_', ' ')}: {o.get('total_workouts', 0)} "
                f"({o.get('total_exercises', 0)} exercises, {o.get('total_volume_kg', 0):g} kg volume)."), []
    if tool == "prefs__set_preference":
        until = f" until {input['expires_at'][:10]}" if input.get("expires_at") else ""
        return f"Noted: {input['guidance']}{until}.", []
    return "Done.", []


def trainer_answer(request: ModelRequest) -> ModelResponse:
    facts = read(request)
    if not facts.steps:
        move = first_move(facts)
        if move is None:
            return _say("I can build a workout (\"give me a quick chest workout\"), swap an exercise (\"swap the "
                        "second exercise\"), log one (\"log it: bench 3x8 at 40 kg\"), count workouts (\"how many "
                        "workouts this month?\") or remember a preference (\"avoid shoulders for two weeks\").",
                        request)
        return _call(move[0], move[1], request)
    tool, input, result, is_error = facts.steps[-1]
    if tool == "coach__message_notify_user":
        return _call("coach__idle", {}, request)
    if is_error:
        message = result.get("message") if isinstance(result, dict) else str(result)
        return _say(f"That did not work: {message}", request)
    text, attachments = _summary(tool, input, result if isinstance(result, dict) else {})
    return _say(text, request, attachments)
