"""The offline trainer's next move: one tool call per reply, as the persona requires, chosen by rules from the
member's words (trainer_words.py) and the tool results so far. Every TRAINER.md tool has a move
(trainer_session.py: workouts; trainer_record.py: logs, numbers, preferences, goals; trainer_calendar.py:
timers, calendar, location): a request is a short plan (load what the context lacks, act, tell the member, idle) worked out again
on every call, so the step a plan is at is the tool results it already has. A reply is always labelled as the
offline demo; what it cannot do, it says, with what it can.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from agent.costs import Usage
from agent.model import ModelRequest, ModelResponse
from offline_model import trainer_calendar as calendar
from offline_model import trainer_record as record
from offline_model import trainer_say as t
from offline_model import trainer_session as session
from offline_model.trainer import Facts, Step, read
from offline_model.trainer_plan import ASK, IDLE, NOTIFY, Call, Next, Say
from offline_model.trainer_words import Request, understand

MODEL_ID = "spotter-offline-rules"
RETRIED = frozenset({"preference_conflict", "injury_conflict", "equipment_unavailable", "exercise_order"})


def help_move(facts: Facts, req: Request) -> Next:
    return Say(t.say(facts.locale, "help"))


def keep_move(facts: Facts, req: Request) -> Next:
    return Say(t.say(facts.locale, "keep"))


HANDLERS: dict[str, Callable[[Facts, Request], Next]] = {
    "workout": session.workout_move, "schedule": session.schedule_move, "swap": session.swap_move,
    "remove": session.remove_move, "adjust": session.adjust_move, "add": session.add_move,
    "log": record.log_move, "mark_done": record.mark_move, "log_workout": record.log_workout_move,
    "undo_log": record.undo_move, "stats": record.stats_move, "prs": record.prs_move,
    "breakdown": record.breakdown_move, "trend": record.trend_move, "summary": record.summary_move,
    "recovery": record.recovery_move, "injury": record.injury_move, "avoid": record.avoid_move,
    "forget": record.forget_move, "goal": record.goal_move, "milestone": record.milestone_move,
    "timer": calendar.timer_move, "calendar": calendar.calendar_move, "move": calendar.move_scheduled,
    "unschedule": calendar.unschedule_move, "plan": calendar.plan_move, "location": calendar.location_move,
    "keep": keep_move, "help": help_move,
}


def _response(name: str, input: dict[str, Any], request: ModelRequest) -> ModelResponse:
    digest = hashlib.sha256(f"{len(request.messages)}:{name}:{request.messages[-1]}".encode()).hexdigest()[:24]
    return ModelResponse(content=[{"type": "tool_use", "id": f"toolu_off_{digest}", "name": name, "input": input}],
                         stop_reason="tool_use", usage=Usage(), model=MODEL_ID)


def _retrying(facts: Facts, failed: Step) -> bool:
    """A workout the rules refused for an exercise (a preference, an injury, the equipment) is built again without
    the exercise the error named, twice at most."""
    return (failed is facts.steps[-1] and failed.tool.startswith("workout__") and isinstance(failed.result, dict)
            and failed.result.get("code") in RETRIED and sum(s.error for s in facts.steps) <= 2)


def plan(facts: Facts, req: Request) -> Next:
    failed = next((s for s in reversed(facts.steps) if s.error), None)
    if failed is not None and not _retrying(facts, failed):
        if failed.tool == "calendar__delete_scheduled_workout" and isinstance(failed.result, dict) and \
                failed.result.get("code") == "rejected_by_user":
            return Say(t.say(facts.locale, "kept"))
        return Say(t.error(facts.locale, failed.result))
    return HANDLERS.get(req.kind, help_move)(facts, req)


def trainer_answer(request: ModelRequest) -> ModelResponse:
    facts = read(request)
    told = bool(facts.steps) and facts.steps[-1].tool in (NOTIFY, ASK)
    if told and (facts.steps[-1].tool == ASK or facts.steps[-1].error):
        return _response(IDLE, {}, request)
    move = plan(facts, understand(facts.words, facts.now))
    if told and not (isinstance(move, Say) and move.question is not None):  # told, and nothing left to ask
        return _response(IDLE, {}, request)
    if isinstance(move, Call):
        return _response(move.name, move.input, request)
    text = f"{t.label(facts.locale)}\n{move.text}"
    if move.question is not None:
        return _response(ASK, {"text": text, "options": list(move.question)}, request)
    return _response(NOTIFY, {"text": text, "attachments": list(move.attachments)}, request)
