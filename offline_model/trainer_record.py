"""The offline trainer's moves on the member's record: logging (a set, an exercise of the workout, the whole
workout, an undo), statistics (counts, records, breakdowns, trends, a summary, recovery), preferences and
injuries (with the structured exclusions set_preference takes), goals and milestones."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from gym.exercise_library import LIBRARY as NAMES
from gym.training.exercise_words import display_name
from gym.training.restrictions import REGION_PATTERNS, said_rule
from offline_model import trainer_say as t
from offline_model.trainer import Facts, exclusions_input
from offline_model.trainer_library import GROUPS, exercise_name, move_named
from offline_model.trainer_plan import Call, Next, Say, need
from offline_model.trainer_session import exercise_at
from offline_model.trainer_words import Request, body_part_of, target_of

LB_PER_KG = 2.20462
LIBRARY_MUSCLES = {"chest": "Chest", "lats": "Back", "upper back": "Back", "lower back": "Lower Back",
                   "shoulders": "Shoulders", "biceps": "Biceps", "triceps": "Triceps", "forearms": "Forearms",
                   "core": "Abs", "obliques": "Abs", "glutes": "Glutes", "quads": "Quadriceps",
                   "hamstrings": "Hamstrings", "calves": "Calves", "adductors": "Adductors"}
# What an injured part rules out besides the region's movement patterns (gym.training.restrictions.REGION_PATTERNS,
# the rules' one mapping): muscles to spare, and the words for the model.
INJURIES: dict[str, tuple[tuple[str, ...], str]] = {
    "knee": ((), "No jumping, lunges or deep knee flexion."),
    "shoulder": ((), "No overhead pressing or loaded shoulder flexion above 90°; light horizontal work is fine."),
    "lower_back": (("Lower Back",), "No spinal loading, loaded flexion or heavy hinging."),
    "back": (("Lower Back",), "No spinal loading, loaded flexion or heavy hinging."),
    "wrist": (("Forearms",), "No push-ups or loaded wrist extension."),
    "ankle": (("Calves",), "No jumping or running."),
    "elbow": (("Biceps", "Triceps"), "No dips, hanging or direct arm work."),
    "hip": ((), "No deep hip flexion, lunges or jumping."),
    "neck": (("Trapezius", "Neck"), "No spinal loading or overhead holds."),
}
INJURY_DAYS = 14
PREFERENCE = "prefs__set_preference"
REGIONS = {"back": "lower_back"}  # the offline's body parts that the rules' regions name otherwise


def _period(req: Request) -> str:
    return req.args.get("period") or "month"


# --- logging -------------------------------------------------------------------------------------------------

def _muscles(name: str) -> list[str]:
    move = move_named(name)
    if move is not None:
        return [m for m, s in move.muscles.items() if s >= 0.3]
    entry = next((e for e in NAMES if e.name == name), None)
    found = [LIBRARY_MUSCLES[m] for m in (entry.muscles if entry else ()) if m in LIBRARY_MUSCLES]
    return list(dict.fromkeys(found))[:3]


def log_move(facts: Facts, req: Request) -> Next:
    said = req.args.get("log")
    if not said:
        return Say(t.say(facts.locale, "log_how"))
    name = exercise_name(said["name"])
    if facts.last("logbook__log_completed_exercise") is None:
        entry: dict[str, Any] = {"exercise_name": name, "exercise_type": "strength" if said.get("load") else "bodyweight",
                                 "sets": said["sets"], "reps": said["reps"], "muscles": _muscles(name),
                                 "goals": ["Strength"]}
        if said.get("load") is not None:
            load, unit = said["load"], said.get("unit") or facts.unit
            if unit != facts.unit:
                load = round(load * LB_PER_KG, 1) if facts.unit == "lbs" else round(load / LB_PER_KG, 1)
            entry["load"] = load
        return Call("logbook__log_completed_exercise", entry)
    done = facts.last("logbook__log_completed_exercise")
    load = f" × {t.number(done.input['load'])} {facts.unit}" if done and done.input.get("load") is not None else ""
    return Say(t.say(facts.locale, "logged", name=name, sets=said["sets"], reps=said["reps"], load=load))


def mark_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "current_workout")) is not None:
        return loading
    ex, instead = exercise_at(facts, req)
    if ex is None:
        return instead or Say(t.say(facts.locale, "which_exercise"))
    step = facts.last("logbook__mark_exercise_complete")
    if step is None:
        args: dict[str, Any] = {"exercise_id": ex["id"]}
        actuals = _actuals(facts)
        if actuals:
            args["actuals"] = actuals
        return Call("logbook__mark_exercise_complete", args)
    result = step.result if isinstance(step.result, dict) else {}
    left = len(result.get("remaining") or [])
    rest = t.say(facts.locale, "all_done") if result.get("workoutCompleted") else t.say(facts.locale, "to_go", n=left)
    return Say(t.say(facts.locale, "marked", name=ex["name"], rest=rest))


def _actuals(facts: Facts) -> dict[str, Any]:
    """The reps each set reached ("10, 8, 8") or "as prescribed", in the fields the tool's actuals have."""
    fields = facts.fields("logbook__mark_exercise_complete", "actuals")
    m = re.search(r"(\d+(?:\s*[,/]\s*\d+)+)", facts.words)
    if m and "reps_per_set" in fields:
        return {"reps_per_set": [int(n) for n in re.findall(r"\d+", m.group(1))]}
    if re.search(r"as (?:prescribed|planned)|all (?:the )?reps|כמתוכנן|כל החזרות|как (?:в плане|написано)|все повтор",
                 facts.words, re.IGNORECASE) and "as_prescribed" in fields:
        return {"as_prescribed": True}
    return {}


def log_workout_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "current_workout")) is not None:
        return loading
    workout = facts.current_workout()
    if workout is None:
        return Say(t.say(facts.locale, "no_workout"))
    done = set((workout.get("completed") or {}).keys())
    left = [e for e in workout["exercises"] if e.get("id") not in done]
    if facts.last("logbook__log_workout") is None:
        if not left:
            return Say(t.say(facts.locale, "all_done"))
        return Call("logbook__log_workout", {"completed_exercises": [_planned(e, facts.unit) for e in left]})
    return Say(t.say(facts.locale, "workout_logged", n=len(left)))


def _planned(ex: dict[str, Any], unit: str) -> dict[str, Any]:
    out: dict[str, Any] = {"exercise_name": ex["name"], "muscles": [m["name"] for m in ex.get("muscles", [])
                                                                   if m.get("share", 0) >= 0.3],
                           "goals": [g["name"] for g in ex.get("goals", [])][:1]}
    if ex["type"] == "reps":
        out.update({"exercise_type": "strength" if ex.get("load") else "bodyweight", "sets": ex["sets"],
                    "reps": max(ex["reps"])})
        if ex.get("load") is not None:
            out["load"] = ex["load"]
    elif ex["type"] == "hold":
        out.update({"exercise_type": "isometric", "sets": ex["sets"],
                    "duration_min": round(sum(ex["hold_sec"]) / 60, 2)})
    elif ex["type"] == "intervals":
        out.update({"exercise_type": "hiit", "duration_min": round(ex["rounds"] * (ex["work_sec"] + ex["rest_sec"]) / 60, 2)})
    else:
        out.update({"exercise_type": "cardio_time", "duration_min": ex["duration_min"]})
    return out


def undo_move(facts: Facts, req: Request) -> Next:
    if not facts.logged:
        return Say(t.say(facts.locale, "nothing_to_undo"))
    if facts.last("logbook__undo_logged_exercise") is None:
        return Call("logbook__undo_logged_exercise", {"id": facts.logged[-1]})
    return Say(t.say(facts.locale, "undone"))


# --- numbers -------------------------------------------------------------------------------------------------

def stats_move(facts: Facts, req: Request) -> Next:
    step = facts.last("stats__get_workout_statistics")
    if step is None:
        return Call("stats__get_workout_statistics", {"period": _period(req)})
    o = (step.result or {}).get("overview", {}) if isinstance(step.result, dict) else {}
    return Say(t.say(facts.locale, "stats", when=t.word(facts.locale, "periods", step.input["period"]),
                     workouts=o.get("total_workouts", 0), exercises=o.get("total_exercises", 0),
                     volume=t.number(o.get("total_volume_kg", 0))))


def prs_move(facts: Facts, req: Request) -> Next:
    step = facts.last("stats__get_workout_statistics")
    if step is None:
        period = req.args["period"] if re.search(r"week|month|year|quarter|שבוע|חודש|שנה|недел|месяц|год",
                                                 facts.words, re.IGNORECASE) else "all_time"
        return Call("stats__get_workout_statistics", {"period": period})
    records = (step.result or {}).get("personal_records", []) if isinstance(step.result, dict) else []
    lines = []
    for r in sorted(records, key=lambda r: -(r.get("max_load_kg") or 0))[:8]:
        load = r.get("max_load_kg")
        if load is not None:
            shown = round(load * LB_PER_KG, 1) if facts.unit == "lbs" else load
            lines.append(t.say(facts.locale, "pr_load", name=r["exercise"], load=t.number(shown), unit=facts.unit))
        elif r.get("max_reps"):
            lines.append(t.say(facts.locale, "pr_reps", name=r["exercise"], reps=r["max_reps"]))
    if not lines:
        return Say(t.say(facts.locale, "no_records"))
    return Say(t.say(facts.locale, "prs", when=t.word(facts.locale, "periods", step.input["period"])) + "\n"
               + t.bullets(lines))


def breakdown_move(facts: Facts, req: Request) -> Next:
    by = "muscle" if re.search(r"muscle|שריר|мышц", facts.words, re.IGNORECASE) else "category"
    step = facts.last("stats__get_exercise_breakdown")
    if step is None:
        return Call("stats__get_exercise_breakdown", {"period": _period(req), "by": by})
    items = (step.result or {}).get("items", []) if isinstance(step.result, dict) else []
    table = "muscles" if by == "muscle" else "categories"
    lines = [t.say(facts.locale, "share", name=t.word(facts.locale, table, i["name"]), pct=t.number(i.get("pct", 0)))
             for i in items[:8]]
    if not lines:
        return Say(t.say(facts.locale, "no_logs"))
    return Say(t.say(facts.locale, f"breakdown_{by}", when=t.word(facts.locale, "periods", _period(req))) + "\n"
               + t.bullets(lines))


def trend_move(facts: Facts, req: Request) -> Next:
    name = exercise_name(req.args.get("exercise") or "") if req.args.get("exercise") else None
    step = facts.last("stats__get_progress_trends")
    if step is None:
        args: dict[str, Any] = {"metric": "weight" if name else "volume", "period": "quarter"}
        if name:
            args["exercise"] = name
        return Call("stats__get_progress_trends", args)
    points = [p for p in ((step.result or {}).get("points", []) if isinstance(step.result, dict) else [])
              if p.get("value") is not None]
    if not points:
        return Say(t.say(facts.locale, "no_logs"))
    unit = facts.unit if step.input["metric"] == "weight" else "kg"
    values = " → ".join(t.number(p["value"]) for p in points[-6:])
    return Say(t.say(facts.locale, f"trend_{step.input['metric']}", name=name or "", values=values, unit=unit))


def summary_move(facts: Facts, req: Request) -> Next:
    step = facts.last("stats__generate_stats_summary")
    if step is None:
        return Call("stats__generate_stats_summary", {"period": _period(req)})
    numbers = (step.result or {}).get("numbers", {}) if isinstance(step.result, dict) else {}
    return Say(t.say(facts.locale, "summary", when=t.word(facts.locale, "periods", _period(req))) + "\n"
               + (t.overview(facts.locale, numbers) or t.say(facts.locale, "no_logs")))


def recovery_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "recovery_status")) is not None:
        return loading
    recovering = facts.recovering()
    if not recovering:
        return Say(t.say(facts.locale, "all_recovered"))
    return Say(t.say(facts.locale, "recovery", muscles=t.percents(facts.locale, recovering)))


# --- preferences, injuries, goals ----------------------------------------------------------------------------

def _until(facts: Facts, days: int) -> str | None:
    return (facts.now + timedelta(days=days)).isoformat() if facts.now else None


def injury_move(facts: Facts, req: Request) -> Next:
    part, side = req.args.get("part") or "knee", req.args.get("side")
    muscles, guidance = INJURIES.get(part, INJURIES["knee"])
    patterns = [p.replace("_", " ") for p in REGION_PATTERNS[REGIONS.get(part, part)]]  # the rules' one mapping
    days = req.args.get("days") or INJURY_DAYS
    step = facts.last(PREFERENCE)
    if step is None:
        where = f"{side} {part.replace('_', ' ')}" if side else part.replace("_", " ")
        args: dict[str, Any] = {"type": "injury", "description": f"{where}: {facts.words}"[:300],
                                "guidance": f"{where.capitalize()} hurts. {guidance}"[:500]}
        if (until := _until(facts, days)) is not None:
            args["expires_at"] = until
        args.update(exclusions_input(facts.inputs.get(PREFERENCE), {"patterns": list(patterns), "muscles": list(muscles)}))
        return Call(PREFERENCE, args)
    loc = facts.locale
    left_out = ", ".join(t.word(loc, "patterns", p) for p in patterns) or t.muscles(loc, muscles)
    date = step.input.get("expires_at")
    return Say(t.say(loc, "injury_saved", part=t.word(loc, "parts", part), until=t.day(loc, datetime.fromisoformat(
        date).date()) if date else "—", left_out=left_out))


def avoid_move(facts: Facts, req: Request) -> Next:
    """A "never" / "avoid" rule as structured exclusions: a muscle group, or what the rules' one mapping
    (gym.training.restrictions.said_rule) finds in the words — a pattern family ("lunges" → lunge, "no jumping")
    or a library exercise; words that name none of these are said back, not saved."""
    group, thing, named = req.args.get("target"), req.args.get("thing") or "", req.args.get("exercise")
    loc = facts.locale
    step = facts.last(PREFERENCE)
    if step is None:
        if not group and not thing and not named:
            return Say(t.say(loc, "avoid_how"))
        muscles = [] if named else list(GROUPS.get(group, ())) if group else []
        said = said_rule(named or thing, whole=True).exclusions if not muscles else None
        patterns: list[str] = list(said.patterns) if said else []
        # a named exercise that is a whole pattern family ("lunges") is the family, not one library item
        exercises = [] if patterns else [named] if named else list(said.exercises[:1]) if said else []
        if not (muscles or patterns or exercises):
            return Say(t.say(loc, "avoid_unknown", what=thing))
        what = named or (", ".join(muscles).lower() if muscles else ", ".join(patterns) or exercises[0])
        args: dict[str, Any] = {"type": "muscle_group" if muscles else "exercise",
                                "description": facts.words[:300], "guidance": f"avoid {what}: no exercises for {what}"}
        if req.args.get("days") and (until := _until(facts, req.args["days"])) is not None:
            args["expires_at"] = until
        args.update(exclusions_input(facts.inputs.get(PREFERENCE), {"muscles": muscles, "exercises": exercises,
                                                                    "patterns": patterns}))
        return Call(PREFERENCE, args)
    date = step.input.get("expires_at")
    until = t.say(loc, "until", date=t.day(loc, datetime.fromisoformat(date).date())) if date else ""
    if named:
        return Say(t.say(loc, "never_saved", what=display_name(named, loc), until=until))
    what = t.muscles(loc, GROUPS.get(group, ())).lower() if group else thing
    return Say(t.say(loc, "avoid_saved", what=what, until=until))


def forget_move(facts: Facts, req: Request) -> Next:
    if (loading := need(facts, "active_preferences")) is not None:
        return loading
    prefs = [p for p in facts.knowledge.get("active_preferences") or [] if isinstance(p, dict) and p.get("id")]
    part, group = body_part_of(facts.words)[0], target_of(facts.words)
    words = [w for w in re.findall(r"\w{4,}", facts.words.lower()) if w not in ("forget", "preference", "remove")]

    def matches(p: dict[str, Any]) -> bool:
        text = f"{p.get('description', '')} {p.get('guidance', '')}".lower()
        if part and (part.replace("_", " ") in text or p.get("type") == "injury" and part in text):
            return True
        if group and any(m.lower() in text for m in GROUPS.get(group, ())):
            return True
        return any(w in text for w in words)

    found = next((p for p in prefs if matches(p)), None)
    if found is None:
        return Say(t.say(facts.locale, "nothing_to_forget"))
    if facts.last("prefs__delete_preference") is None:
        return Call("prefs__delete_preference", {"id": found["id"]})
    return Say(t.say(facts.locale, "forgot", what=found.get("description", "")))


def goal_move(facts: Facts, req: Request) -> Next:
    category = req.args.get("category")
    if category is None:
        return Say(t.say(facts.locale, "goal_how"))
    if (loading := need(facts, "category_goals")) is not None:
        return loading
    step = facts.last("goals__set_goals")
    if step is None:
        current = {g["name"]: float(g.get("target") or 0) for g in facts.knowledge.get("category_goals") or []
                   if isinstance(g, dict) and g.get("name")}
        others = {n: w for n, w in current.items() if n != category} or {"Strength": 1.0}
        rest = sum(others.values()) or 1.0
        weights = {category: 50.0, **{n: round(50.0 * w / rest, 1) for n, w in others.items() if w > 0}}
        return Call("goals__set_goals", {"goal_type": "category", "goals": [{"name": n, "weight": w}
                                                                            for n, w in weights.items()]})
    goals = (step.result or {}).get("goals", {}) if isinstance(step.result, dict) else {}
    shown = ", ".join(t.say(facts.locale, "share", name=t.word(facts.locale, "categories", n), pct=t.number(w))
                      for n, w in sorted(goals.items(), key=lambda kv: -kv[1]))
    return Say(t.say(facts.locale, "goal_set", goals=shown))


def milestone_move(facts: Facts, req: Request) -> Next:
    step = facts.last("goals__create_milestone")
    if step is None:
        distance = req.args.get("distance")
        args: dict[str, Any] = {"name": facts.words[:200], "goal_type": "distance" if distance else "other"}
        if distance:
            args["target_value"], args["target_unit"] = distance
        if req.args.get("date"):
            args["target_date"] = req.args["date"]
        return Call("goals__create_milestone", args)
    return Say(t.say(facts.locale, "milestone_saved", name=step.input["name"]))
