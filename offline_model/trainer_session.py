"""The offline trainer's moves on workouts: build one (what was asked, or why not and what instead), schedule one,
and change the session's workout (swap, remove, adjust, add)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from gym.training.exercise_words import display_name
from offline_model import trainer_say as t
from offline_model.trainer import Facts
from offline_model.trainer_library import (
    GROUPS,
    INSTEAD,
    Context,
    Move,
    alternatives,
    build,
    exercise,
    exercise_name,
    move_named,
    recovering_in,
)
from offline_model.trainer_plan import NOTIFY, Call, Next, Say, context, done_with, need
from offline_model.trainer_words import Request, position_of

WORKOUT_SOURCES = ("active_preferences", "recovery_status", "progression", "category_goals")


# --- workouts ------------------------------------------------------------------------------------------------

def _minutes(workout: dict[str, Any]) -> int:
    return int((workout.get("summary") or {}).get("estimated_duration_min") or 30)


def _group_of(move: Move) -> str | None:
    """The workout a named exercise belongs to ("back squats" → a leg workout)."""
    return next((g for g, muscles in GROUPS.items() if g not in ("push", "lower", "upper", "full")
                 and move.primary in muscles), None)


def _with_named(workout: dict[str, Any], move: Move, ctx: Context) -> dict[str, Any]:
    """The workout with the exercise the member named first, in place of its last set-and-rep exercise."""
    names = [e["name"] for e in workout["exercises"]]
    if move.name in names:
        return workout
    reps = [i for i, e in enumerate(workout["exercises"]) if e["type"] == "reps"]
    kept = [e for i, e in enumerate(workout["exercises"]) if not reps or i != reps[-1] or len(reps) < 3]
    exercises = [exercise(move, 1, ctx), *kept]
    return {**workout, "exercises": [{**e, "order": n} for n, e in enumerate(exercises, start=1)]}


def workout_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, *WORKOUT_SOURCES)) is not None:
        return loading
    loc, group = facts.locale, req.args.get("target")
    ctx = context(facts)
    named = move_named(req.args["exercise"]) if req.args.get("exercise") else None
    group = group or (_group_of(named) if named else None)
    recovering = recovering_in(group, ctx) if group else {}
    light = bool(req.args.get("light"))
    if group and recovering and not (light or req.args.get("anyway")):
        return _instead(facts, req, group, recovering, ctx)
    workout = build(group, ctx, quick=bool(req.args.get("quick")), light=light,
                    title=t.title(loc, group, quick=bool(req.args.get("quick")), light=light))
    if workout is None:
        return Say(t.say(loc, "no_fit", name=t.workout_name(loc, group), other=t.workout_name(loc, INSTEAD.get(
            group or "full", "core"))))
    fits = named is not None and named in ctx.pool()
    if fits and named is not None:
        workout = _with_named(workout, named, ctx)
    if facts.last("workout__generate_workout") is None:
        return Call("workout__generate_workout", workout)
    text = t.say(loc, "light_ready" if light and recovering else "workout_ready", title=t.inline(workout["title"]),
                 count=len(workout["exercises"]), minutes=_minutes(workout), muscles=t.percents(loc, recovering))
    if named is not None and not fits:  # what was asked for and left out, and why
        text += "\n" + t.say(loc, "left_out_named", name=display_name(named.name, loc))
    busy = {m: p for m, p in ctx.recovering.items() if any(
        s["name"] == m and s["share"] >= 0.3 for e in workout["exercises"] for s in e["muscles"])} if ctx.recovering else {}
    if busy and not light:
        text += "\n" + t.say(loc, "recovering_note", muscles=t.percents(loc, busy))
    return done_with(facts, "workout__generate_workout", text)


def _instead(facts: Facts, req: Request, group: str, recovering: dict[str, int], ctx: Context) -> Next:
    """The group is recovering: build what is fresh, say why, and offer a light one of what was asked."""
    loc, other = facts.locale, INSTEAD.get(group, "core")
    workout = build(other, ctx, quick=bool(req.args.get("quick")), title=t.title(loc, other,
                                                                                 quick=bool(req.args.get("quick"))))
    slowest = min(recovering, key=lambda m: recovering[m])
    numbers = {"muscle": t.word(loc, "muscles", slowest), "percent": recovering[slowest],
               "other": t.workout_name(loc, other)}
    if workout is None:  # nothing else fits either: say so, never "here is ... instead" without one
        return Say(t.say(loc, "recovering_no_instead", **numbers),
                   question=(t.title(loc, group, light=True), t.say(loc, "option_skip")))
    if facts.last("workout__generate_workout") is None:
        return Call("workout__generate_workout", workout)
    if facts.last(NOTIFY) is None:
        told = done_with(facts, "workout__generate_workout", t.say(loc, "recovering_instead", **numbers))
        return told if told.attachments else Say(t.say(loc, "recovering_no_instead", **numbers))
    return Say(t.say(loc, "light_instead", name=t.workout_name(loc, group)),
               question=(t.title(loc, group, light=True), t.say(loc, "option_keep", name=t.workout_name(loc, other))))


def schedule_move(facts: Facts, req: Request) -> Next:
    """Build the workout asked for, judged by recovery at its time, and schedule it with its exercises. A plan for
    another day never replaces today's current workout, so generate_workout is never called for it."""
    if (loading := need(facts, *WORKOUT_SOURCES)) is not None:
        return loading
    loc, group = facts.locale, req.args.get("target")
    when = req.args.get("when")
    if when is None and facts.now is not None:
        when = (facts.now + timedelta(days=1)).replace(hour=18, minute=0, second=0, microsecond=0)
    if when is None:
        return Say(t.say(loc, "help"))
    later = {m: p for m, p in _recovery_at(facts, when).items() if p < 100}
    ctx = context(facts, recovering=later)
    workout = build(group, ctx, title=t.title(loc, group), ignore_recovery=True)  # what was asked, for then
    if workout is None:
        return Say(t.say(loc, "no_fit", name=t.workout_name(loc, group), other=t.workout_name(loc, "core")))
    if facts.last("calendar__schedule_workout") is None:
        args: dict[str, Any] = {"scheduled_at": when.isoformat(), "workout_type": workout["title"][:100],
                                "duration_minutes": _minutes(workout)}
        if "exercises" in facts.fields("calendar__schedule_workout"):
            args["exercises"] = workout["exercises"]
        return Call("calendar__schedule_workout", args)
    text = t.say(loc, "scheduled", name=t.inline(workout["title"]), when=t.moment(loc, when))
    text += " " + t.say(loc, "scheduled_list", names=", ".join(display_name(e["name"], loc)
                                                               for e in workout["exercises"]))
    loaded = {s["name"] for e in workout["exercises"] for s in e["muscles"] if s["share"] >= 0.3}
    ready = [m for m in facts.recovering() if m in loaded and m not in later]
    if ready:
        text += " " + t.say(loc, "recovered_by_then", muscles=t.muscles(loc, ready))
    if busy := {m: p for m, p in later.items() if m in loaded}:
        text += " " + t.say(loc, "recovering_then", muscles=t.percents(loc, busy))
    if not req.args.get("time_said"):
        text += " " + t.say(loc, "default_time")
    return Say(text)


def _recovery_at(facts: Facts, when: datetime) -> dict[str, int]:
    """The recovering muscles' percent at `when` (linear to 100 % at the end of each one's window)."""
    out = {}
    ahead = (when - facts.now).total_seconds() / 3600 if facts.now else 0.0
    for muscle, percent in facts.recovering().items():
        row = next((r for r in facts.knowledge.get("recovery_status") or []
                    if isinstance(r, dict) and r.get("muscle") == muscle), {})
        since, left = row.get("hoursSince"), row.get("hoursRemaining")
        if isinstance(since, int | float) and isinstance(left, int | float) and since + left > 0:
            out[muscle] = min(100, int(100 * (since + ahead) / (since + left)))
        else:
            out[muscle] = percent
    return out


# --- the session's workout -----------------------------------------------------------------------------------

def exercise_at(facts: Facts, req: Request) -> tuple[dict[str, Any] | None, Next | None]:
    """The exercise the member means (by place, else by name), or what to say instead."""
    workout = facts.current_workout()
    if workout is None:
        return None, Say(t.say(facts.locale, "no_workout"))
    exercises = sorted(workout["exercises"], key=lambda e: e.get("order", 0))
    position = req.args.get("position")
    if position is None:  # "Remove it" answers the question about the exercise named before
        position = next((p for w in reversed(facts.earlier_words[-2:]) if (p := position_of(w)) is not None), None)
    if position is None:
        name = exercise_name(facts.words).lower()
        found = next((e for e in exercises if e["name"].lower() in facts.words.lower() or e["name"].lower() == name), None)
        return (found, None) if found else (None, Say(t.say(facts.locale, "which_exercise")))
    if position == -1 or 1 <= position <= len(exercises):
        return exercises[position - 1] if position > 0 else exercises[-1], None
    return None, Say(t.say(facts.locale, "no_such_exercise", n=position, count=len(exercises)))


def swap_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "current_workout", "active_preferences")) is not None:
        return loading
    old, instead = exercise_at(facts, req)
    if old is None:
        return instead or Say(t.say(facts.locale, "which_exercise"))
    loc, ctx = facts.locale, context(facts)
    workout = facts.current_workout() or {}
    same, others = alternatives(old, list(workout.get("exercises", [])), ctx)
    wanted = req.args.get("replacement")
    choice = move_named(wanted) if wanted else (same[0] if same else None)
    if wanted and (choice is None or choice not in same + others):
        return Say(t.say(loc, "cannot_use", name=exercise_name(wanted), options=", ".join(m.name for m in same + others[:3])
                         or "—"))
    if choice is None:
        main = max(old.get("muscles") or [{"name": "Abs", "share": 1}], key=lambda s: s["share"])["name"]
        options = ([t.say(loc, "option_swap_for", name=others[0].name)] if others else []) + [
            t.say(loc, "option_remove"), t.say(loc, "option_lighter")]
        return Say(t.say(loc, "no_same_muscle", muscle=t.inline(t.word(loc, "muscles", main)), name=old["name"],
                         other=others[0].name if others else "—"), question=tuple(options))
    if facts.last("workout__swap_exercise") is None:
        goal = (old.get("goals") or [{"name": ctx.goal}])[0]["name"]
        new = exercise(choice, old["order"], Context(ctx.equipment, ctx.unit, ctx.rules, ctx.recovering, goal,
                                                     ctx.suggested))
        return Call("workout__swap_exercise", {"exercise_id": old["id"], "new_exercise": new})
    return done_with(facts, "workout__swap_exercise", t.say(loc, "swapped", old=old["name"], new=choice.name))


def remove_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "current_workout")) is not None:
        return loading
    old, instead = exercise_at(facts, req)
    if old is None:
        return instead or Say(t.say(facts.locale, "which_exercise"))
    if facts.last("workout__remove_exercise") is None:
        return Call("workout__remove_exercise", {"exercise_id": old["id"]})
    left = len((facts.current_workout() or {}).get("exercises", [])) - 1
    return done_with(facts, "workout__remove_exercise", t.say(facts.locale, "removed", name=old["name"], count=left))


def adjust_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "current_workout")) is not None:
        return loading
    old, instead = exercise_at(facts, req)
    if old is None:
        return instead or Say(t.say(facts.locale, "which_exercise"))
    changes = _changes(old, req, facts.unit)
    if not changes:
        return Say(t.say(facts.locale, "adjust_how"))
    if facts.last("workout__adjust_exercise") is None:
        return Call("workout__adjust_exercise", {"exercise_id": old["id"], "changes": changes})
    return done_with(facts, "workout__adjust_exercise", t.say(facts.locale, "adjusted", name=old["name"]))


def _changes(ex: dict[str, Any], req: Request, unit: str) -> dict[str, Any]:
    sets, reps, out = req.args.get("sets"), req.args.get("reps"), {}
    per_set = "reps" if ex.get("type") == "reps" else "hold_sec" if ex.get("type") == "hold" else None
    if sets and per_set:
        out.update({"sets": sets, per_set: [ex[per_set][0]] * sets})
    if reps and ex.get("type") == "reps":
        out["reps"] = [reps] * (sets or ex["sets"])
    step = 2.5 if unit == "kg" else 5.0
    lighter = req.args.get("lighter") or (req.args.get("light") and not req.args.get("heavier"))
    if (lighter or req.args.get("heavier")) and ex.get("type") == "reps":
        if ex.get("load"):
            out["load"] = max(step, ex["load"] - step) if lighter else ex["load"] + step
        else:
            out["reps"] = [max(1, r - 2) if lighter else r + 2 for r in ex["reps"]]
    return out


def add_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "current_workout", "active_preferences")) is not None:
        return loading
    loc, workout = facts.locale, facts.current_workout()
    if workout is None:
        return Say(t.say(loc, "no_workout"))
    if not facts.has("workout__add_exercise_to_workout"):
        return Say(t.say(loc, "add_unavailable"))
    ctx, taken = context(facts), {e["name"].lower() for e in workout["exercises"]}
    what, named, group = req.args.get("what") or "", req.args.get("exercise"), req.args.get("target")
    move = move_named(named) if named else None
    if named and move is None:  # a library exercise the offline demo cannot prescribe
        options = ", ".join([display_name(m.name, loc) for m in ctx.pool() if m.name.lower() not in taken][:5])
        return Say(t.say(loc, "not_offline", name=display_name(named, loc), options=options or "—"))
    if move is None and what and group is None:  # words that name no exercise: say so, add nothing
        return Say(t.say(loc, "unknown_exercise", what=what))
    if move is None:
        move = next((m for m in ctx.pool() if m.name.lower() not in taken and m.kind == "reps"
                     and m.primary in GROUPS.get(group or "core", ())), None)
    if move is None or move not in ctx.pool():
        return Say(t.say(loc, "cannot_use", name=display_name(move.name if move else exercise_name(what), loc)
                         if move or what else "—", options="—"))
    if facts.last("workout__add_exercise_to_workout") is None:
        ordered = sorted(workout["exercises"], key=lambda e: e.get("order", 0))
        # a compound lift goes before the first isolation exercise (001 §4.9 rule 4), anything else at the end
        known = {e["order"]: move_named(e["name"]) for e in ordered if e.get("type") == "reps"}
        first_isolation = next((order for order, m in known.items() if m is not None and not m.compound), None)
        position = req.args.get("position") if (req.args.get("position") or 0) > 0 else \
            first_isolation if move.compound and first_isolation else None
        args: dict[str, Any] = {"exercise": exercise(move, position or len(ordered) + 1, ctx)}
        if position:
            args["position"] = position
        return Call("workout__add_exercise_to_workout", args)
    return done_with(facts, "workout__add_exercise_to_workout", t.say(loc, "added", name=display_name(move.name, loc)))


