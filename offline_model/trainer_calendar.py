"""The offline trainer's moves on time and place: timers (an exercise, the whole workout), the calendar (what is
coming, move, cancel, a multi-week plan) and the current location."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from offline_model import trainer_say as t
from offline_model.trainer import Facts
from offline_model.trainer_library import exercise_name, move_named
from offline_model.trainer_plan import Call, Next, Say, need
from offline_model.trainer_session import exercise_at
from offline_model.trainer_words import Request, day_of, when_of


def timer_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "current_workout")) is not None:
        return loading
    loc = facts.locale
    for tool in ("timers__generate_exercise_timer", "timers__generate_workout_timers"):
        if (step := facts.last(tool)) is not None:
            total = (step.result or {}).get("total_duration_sec", 0) if isinstance(step.result, dict) else 0
            name = (step.result or {}).get("exercise_name") if isinstance(step.result, dict) else None
            key = "timer_one" if tool.endswith("exercise_timer") else "timer_all"
            return Say(t.say(loc, key, name=name or "", minutes=t.number(round(total / 60, 1))))
    workout = facts.current_workout()
    named = re.search(r"\btimer\w*\s+(?:for|to)\s+(?:the\s+|my\s+)?(.+)$|טיימר\s+ל(.+)$|таймер\w*\s+(?:для|на)\s+(.+)$",
                      facts.words, re.IGNORECASE)
    target = next((g for g in named.groups() if g), "").strip(" ?.!") if named else ""
    whole = not target or re.search(r"workout|session|אימון|тренировк", target, re.IGNORECASE)
    if workout is not None and whole and req.args.get("position") is None:
        return Call("timers__generate_workout_timers", {})
    if workout is not None:
        wanted = exercise_name(target).lower() if target else ""
        ex = next((e for e in workout["exercises"] if wanted and e["name"].lower() == wanted), None)
        if ex is None:
            ex, _ = exercise_at(facts, req)
        if ex is not None:
            return Call("timers__generate_exercise_timer", {"exercise_id": ex["id"]})
    if not target or whole:
        return Say(t.say(loc, "no_workout"))
    move = move_named(target)
    kind = "isometric" if move and move.kind == "hold" else "strength"
    args: dict[str, Any] = {"exercise_name": exercise_name(target), "exercise_type": kind, "sets": 3, "rest_seconds": 60}
    args.update({"work_duration_seconds": 30} if kind == "isometric" else {"reps": 10})
    return Call("timers__generate_exercise_timer", args)


def _upcoming(facts: Facts) -> list[dict[str, Any]]:
    items = facts.knowledge.get("scheduled_workouts") or []
    return [i for i in items if isinstance(i, dict) and i.get("id") and not i.get("readOnly")]


def _pick_scheduled(facts: Facts, day: date | None) -> dict[str, Any] | None:
    items = _upcoming(facts)
    on_day = [i for i in items if day is not None and str(i.get("when", ""))[:10] == day.isoformat()]
    found = on_day or items
    return found[0] if found else None


def calendar_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "scheduled_workouts", scheduled_workouts={"days_ahead": 14})) is not None:
        return loading
    items = [i for i in facts.knowledge.get("scheduled_workouts") or [] if isinstance(i, dict)]
    if not items:
        return Say(t.say(facts.locale, "nothing_scheduled"))
    lines = [t.say(facts.locale, "calendar_line", when=t.moment(facts.locale, i["when"]) if "T" in str(i.get("when"))
                   else t.day(facts.locale, datetime.fromisoformat(str(i["when"])[:10]).date()),
                   name=i.get("workoutType") or i.get("title") or "") for i in items[:8] if i.get("when")]
    return Say(t.say(facts.locale, "calendar") + "\n" + t.bullets(lines))


def move_scheduled(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "scheduled_workouts", scheduled_workouts={"days_ahead": 14})) is not None:
        return loading
    item = _pick_scheduled(facts, req.args.get("from_day"))
    tail = re.split(r"\bto\b|(?<![א-ת])ל(?=יום|מחר|שבת|-)|\bна\b", facts.words, maxsplit=1, flags=re.IGNORECASE)
    found = when_of(tail[-1], facts.now) if len(tail) > 1 else None
    if item is None:
        return Say(t.say(facts.locale, "nothing_scheduled"))
    if found is None:
        return Say(t.say(facts.locale, "move_when"))
    when, time_said = found
    if not time_said:  # a new day keeps its time of day
        old = datetime.fromisoformat(item["when"])
        when = when.replace(hour=old.hour, minute=old.minute)
    step = facts.last("calendar__update_scheduled_workout")
    if step is None:
        return Call("calendar__update_scheduled_workout", {"id": item["id"], "scheduled_at": when.isoformat()})
    return Say(t.say(facts.locale, "moved", name=item.get("workoutType", ""), when=t.moment(facts.locale, when)))


def unschedule_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "scheduled_workouts", scheduled_workouts={"days_ahead": 14})) is not None:
        return loading
    step = facts.last("calendar__delete_scheduled_workout")
    item = next((i for i in _upcoming(facts) if step and i["id"] == step.input.get("id")), None) if step else \
        _pick_scheduled(facts, day_of(facts.words, facts.now.date()) if facts.now else None)
    if item is None:
        return Say(t.say(facts.locale, "nothing_scheduled"))
    when = t.moment(facts.locale, item["when"])
    if step is None:
        return Call("calendar__delete_scheduled_workout", {"id": item["id"]})
    return Say(t.say(facts.locale, "deleted", name=item.get("workoutType", ""), when=when))


def plan_move(facts: Facts, req: Request) -> Next:
    step = facts.last("calendar__create_workout_plan")
    weeks, per_week = req.args.get("weeks") or 4, req.args.get("per_week") or 3
    if step is None:
        if facts.now is None:
            return Say(t.say(facts.locale, "help"))
        return Call("calendar__create_workout_plan", {
            "name": t.say(facts.locale, "plan_name", weeks=weeks)[:200], "start_date": facts.now.date().isoformat(),
            "duration_weeks": weeks, "workouts_per_week": per_week, "goal_description": facts.words[:500]})
    return Say(t.say(facts.locale, "plan_saved", weeks=weeks, per_week=per_week,
                     start=t.day(facts.locale, datetime.fromisoformat(step.input["start_date"]).date())))


def location_move(facts: Facts, req: Request) -> Next:
    step = facts.last("location__set_current_location")
    if step is not None:
        result = step.result if isinstance(step.result, dict) else {}
        return Say(t.say(facts.locale, "location_set", name=result.get("name", ""),
                         equipment=", ".join(result.get("equipment") or []) or "—"))
    wanted = (req.args.get("name") or "").lower()
    home = req.args.get("home")
    found = next((n for n in facts.locations if wanted and (wanted in n.lower() or n.lower() in wanted)), None)
    if found is None and home:
        found = next((n for n in facts.locations if "home" in n.lower() or "בית" in n or "дом" in n.lower()), None)
    if found is None and re.search(r"\bgym\b|חדר כושר|מכון|зал", facts.words, re.IGNORECASE):
        found = next((n for n in facts.locations if not re.search(r"home|בית|дом", n, re.IGNORECASE)), None)
    if found is None:
        return Say(t.say(facts.locale, "location_unknown", names=", ".join(facts.locations) or "—"))
    return Call("location__set_current_location", {"location_name": found})
