"""What the member sees of a trainer message or question (TRAINER.md "Tools": ids are for tools only).

`member_text` takes the model's words and removes what is the service's and not the member's: exercise ids
(`ex_003` becomes the exercise's name, or goes when the name follows), workout ids (the workout's title, else
"your workout"), tool names and row ids. `enrich` gives each exercise of an attached workout what its card shows
beside the prescription, in the shape the rules give it (gym.training.workout_view): `recovery`, the recovering
muscles it loads with their recovery percentage, and `suggestion`, the progression suggestion (load, reps, why);
what the rules already put on the exercise is kept as it is. The view is the
`message` / `question` frame and, stored on the tool result, what a reopened session shows. `recalled` gives a
session stored before views were kept the same views, from each speaking tool's declaration: the member app knows
no tool by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from agent.persona import Turn, TurnState
from agent.trainer.store import Event
from core.i18n import translate
from gym.training.exercise_words import display_name
from tools.registry import Speaks, ToolRegistry

LOAD_SHARE = 0.3  # a muscle an exercise loads (TRAINER.md "Recovery")

_EXERCISE_ID = re.compile(r"\(?\b(ex_\d+)\b\)?(\s*)")
_WORKOUT_ID = re.compile(r"\bworkout_\d+\b")
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_ROW_ID = re.compile(rf"\s*\((?:id\s*[:=]?\s*)?{_UUID}\)|\s*\bid\s*[:=]?\s*{_UUID}|\s*{_UUID}")
_TOOL_NAME = re.compile(r"`?\b[a-z]+__[a-z_]+\b`?")
# Other names the rules may give the same things on an exercise (read, never overwritten).
RECOVERY_FIELDS = ("recovery", "recovering", "recoveringMuscles", "recovering_muscles")
PROGRESSION_FIELDS = ("suggestion", "progression", "progressionSuggestion", "progression_suggestion")
PERCENT_FIELDS = ("percent", "recoveryPercent", "recovery_percent", "recoveryPct", "recovery_pct", "recoveredPct")


class TrainerState(TurnState):
    """The member views the trainer's hooks showed this turn, by tool use id, until its history stores them."""

    def __init__(self) -> None:
        self.shown: dict[str, dict[str, Any]] = {}


def state_of(turn: Turn) -> TrainerState:
    """The turn's trainer state (made on first use)."""
    if not isinstance(turn.state, TrainerState):
        turn.state = TrainerState()
    return turn.state


def _workouts(attachments: Iterable[dict[str, Any]], current: dict[str, Any] | None) -> list[dict[str, Any]]:
    found = [a["workout"] for a in attachments if isinstance(a, dict) and isinstance(a.get("workout"), dict)]
    return [*found, current] if isinstance(current, dict) else found


def member_text(text: str, workouts: Iterable[dict[str, Any]], locale: str) -> str:
    """The words without ids: exercise ids become names, workout ids titles, tool names and row ids go."""
    known = list(workouts)
    names = {ex.get("id"): ex.get("name") for w in known for ex in w.get("exercises") or [] if isinstance(ex, dict)}
    titles = {w.get("id"): w.get("title") for w in known}

    def exercise(m: re.Match[str]) -> str:
        name = names.get(m.group(1))
        before, rest = m.string[:m.start()].rstrip(), m.string[m.end():]
        if not name or rest.startswith(name) or before.endswith(name):
            return "" if rest else m.group(2)
        return f"{name}{m.group(2)}"

    text = _EXERCISE_ID.sub(exercise, text)
    text = _WORKOUT_ID.sub(lambda m: titles.get(m.group(0)) or translate("trainer.words.your_workout", locale), text)
    text = _ROW_ID.sub("", _TOOL_NAME.sub("", text))
    text = re.sub(r"\(\s*\)", "", text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    return re.sub(r" +([.,;:!?])", r"\1", text).strip()


def _percent(row: dict[str, Any]) -> int | None:
    for key in PERCENT_FIELDS:
        if isinstance(row.get(key), int | float):
            return round(float(row[key]))
    since, left = row.get("hoursSince"), row.get("hoursRemaining")
    if isinstance(since, int | float) and isinstance(left, int | float) and since + left > 0:
        return max(0, min(100, round(100 * since / (since + left))))
    return None


def _recovery(ex: dict[str, Any], recovering: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for share in ex.get("muscles") or []:
        row = recovering.get(str(share.get("name"))) if isinstance(share, dict) else None
        if row is not None and float(share.get("share") or 0) >= LOAD_SHARE - 1e-9:
            percent = _percent(row)
            if percent is not None and percent < 100:
                out.append({"muscle": share["name"], "percent": percent})
    return out


def _suggestion(ex: dict[str, Any], entries: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The progression source's entry for a loaded set-and-rep exercise, in the rules' suggestion shape:
    {unit, suggestedLoad, suggestedReps, why: {code, ...its numbers}}."""
    entry = entries.get(" ".join(str(ex.get("name", "")).split()).lower())
    if entry is None or ex.get("type") != "reps" or ex.get("load") is None:
        return None
    load = next((entry[k] for k in ("suggestedLoad", "suggested_load", "nextLoad") if entry.get(k) is not None), None)
    reps = next((entry[k] for k in ("suggestedReps", "suggested_reps", "targetReps") if entry.get(k) is not None), None)
    unit = entry.get("unit") or ex.get("load_unit")
    why = entry.get("why")
    if not isinstance(why, dict):
        last = entry.get("lastLoad")
        if load is not None and isinstance(last, int | float) and last > 0:
            why = {"code": "load_up", "from": last, "to": load, "unit": unit, "pct": round(100 * (load / last - 1))}
        else:
            why = {"code": "new_exercise"}
    return {"unit": unit, "suggestedLoad": load, "suggestedReps": reps, "why": why}


def enrich(workout: dict[str, Any], recovery_rows: Iterable[Any], progression: Iterable[Any],
           locale: str) -> dict[str, Any]:
    """The workout with each exercise's name in the member's language (`displayName`), recovering muscles
    (percent) and progression suggestion, unless the exercise already carries its own."""
    recovering = {r["muscle"]: r for r in recovery_rows
                  if isinstance(r, dict) and isinstance(r.get("muscle"), str) and r.get("recovering", True)}
    entries = {" ".join(str(e.get("exercise", "")).split()).lower(): e for e in progression if isinstance(e, dict)}
    exercises = []
    for ex in workout.get("exercises") or []:
        if not isinstance(ex, dict):
            continue
        ex = dict(ex)
        if isinstance(ex.get("name"), str):
            ex["displayName"] = display_name(ex["name"], locale)
        if not any(k in ex for k in RECOVERY_FIELDS) and (found := _recovery(ex, recovering)):
            ex["recovery"] = found
        if not any(k in ex for k in PROGRESSION_FIELDS) and (suggested := _suggestion(ex, entries)):
            ex["suggestion"] = suggested
        exercises.append(ex)
    return {**workout, "exercises": exercises}


def member_view(speaks: Speaks | None, output: dict[str, Any], locale: str, *, current: dict[str, Any] | None = None,
                recovery: Iterable[Any] = (), progression: Iterable[Any] = ()) -> dict[str, Any] | None:
    """The message or question the member sees of the output of a tool that speaks (its declaration's `speaks`);
    None for any other tool."""
    if speaks is None:
        return None
    attachments = [a for a in output.get("attachments") or [] if isinstance(a, dict)]
    content = member_text(str(output.get("content") or ""), _workouts(attachments, current), locale)
    if speaks == "question":
        options = [member_text(str(o), _workouts([], current), locale) for o in output.get("options") or []]
        return {"kind": "question", "content": content, "options": options}
    recovery, progression = list(recovery), list(progression)
    shown = []
    for a in attachments:
        if isinstance(a.get("workout"), dict):
            shown.append({**a, "workout": enrich(a["workout"], recovery, progression, locale)})
        elif isinstance(a.get("exercise"), dict):
            one = enrich({"exercises": [a["exercise"]]}, recovery, progression, locale)["exercises"]
            shown.append({**a, "exercise": one[0] if one else a["exercise"]})
        else:
            shown.append(a)
    return {"kind": "message", "content": content, "attachments": shown}


def recalled(events: Sequence[Event], registry: ToolRegistry, locale: str) -> list[Event]:
    """A reopened session's events, each call of a tool that speaks (its declaration's `speaks`) whose result kept
    no view (stored before views were kept) given one as `shown`: the words it was called with (a speaking tool's
    `text`, and a question's `options`) as the member sees them. Its attachments were ids, never shown; such a
    session's workouts are its `workout` events. A call that failed showed nothing; a kept view is left as it is."""
    results = {e.payload.get("callId"): e.payload for e in events if e.type == "tool_result"}
    out = []
    for event in events:
        spec = registry.get(str(event.payload.get("toolName"))) if event.type == "tool_call" else None
        result = results.get(event.payload.get("callId"), {})
        arguments = event.payload.get("arguments")
        if spec is not None and spec.speaks is not None and "shown" not in result and not result.get("isError"):
            said = arguments if isinstance(arguments, dict) else {}
            options = said.get("options")
            output = {"content": said.get("text"), "options": options if isinstance(options, list) else []}
            event = replace(event, payload={**event.payload, "shown": member_view(spec.speaks, output, locale)})
        out.append(event)
    return out
