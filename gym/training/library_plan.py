"""The exercise library as the member's app offers it: each exercise in the member's language, whether it can be
done where they train now and within their injuries and never-rules, and a §4.9 exercise built from it for an
add or a swap.

Equipment: what the library says the exercise needs at the current location (gym.training.equipment.needs).
A name resolves as every prescription does (gym.training.movements.prescribed: a name or alias in en/he/ru, or a
library id; else `unknown_exercise` with the nearest library names). A built exercise is set-and-rep work unless it is a hold (planks, hangs, stretches, carries) or
a bout (running, rowing, riding); its muscles are the library's, evenly shared onto the 16; its goal follows its
category; its load is what the member gives, else the progression's suggestion, else none yet (the member enters
the first one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gym.errors import GymError
from gym.exercise_library import LIBRARY, LibraryExercise
from gym.training import constraints
from gym.training.entries import LogEntry
from gym.training.equipment import LOAD_IMPLEMENTS, needs
from gym.training.exercise_words import display_name, how_to
from gym.training.movements import prescribed
from gym.training.muscles import library_muscle_shares
from gym.training.preference_rules import Pref
from gym.training.progression import suggest
from gym.training.recovery import LOAD_SHARE
from gym.training.workout import DurationExercise, Exercise, HoldExercise, RepsExercise

HOLDS = re.compile(r"plank|hold|wall sit|l-sit|support|carry|sled|handstand walk", re.IGNORECASE)
GOAL_BY_CATEGORY = {"squat": "Strength", "lunge": "Strength", "hinge": "Strength", "press": "Strength",
                    "pull": "Strength", "olympic": "Strength", "gymnastics": "Strength", "carry": "Strength",
                    "core": "Strength", "accessory": "Hypertrophy", "monostructural": "Conditioning",
                    "plyometric": "Conditioning", "mobility": "Mobility"}
COMPOUND_CATEGORIES = frozenset({"squat", "lunge", "hinge", "press", "pull", "olympic"})


def find(name: str) -> LibraryExercise:
    """The library exercise the app names (by library name, alias in any language, or id)."""
    return prescribed(name)


def kind(exercise: LibraryExercise) -> str:
    """reps, hold or duration: how the app prescribes and logs it."""
    if exercise.category == "monostructural":
        return "duration"
    if exercise.category == "mobility" or HOLDS.search(exercise.name):
        return "hold"
    return "reps"


def equipment_for(exercise: LibraryExercise, available: Iterable[str] | None) -> list[str] | None:
    """What the exercise needs at a location with `available`, or None when the location cannot host it."""
    return needs(exercise, available)


def blocked_by(exercise: dict[str, Any], prefs: Iterable[Pref]) -> dict[str, Any] | None:
    """The first active injury or hard preference the exercise breaks: its words and the rule."""
    hard = [c for c in constraints.conflicts(constraints.facts(exercise), prefs) if c.hard]
    if not hard:
        return None
    first = hard[0]
    return {"code": first.code, "description": first.description, "rule": first.rule, "values": list(first.values)}


def _plan(exercise: LibraryExercise, equipment: list[str]) -> dict[str, Any]:
    return {"name": exercise.name, "muscles": library_muscle_shares(exercise.muscles),
            "goals": [{"name": GOAL_BY_CATEGORY.get(exercise.category, "Strength"), "share": 1.0}],
            "equipment": equipment, "reasoning": "Chosen by the member."}


@dataclass(frozen=True)
class Prescription:
    """What the member chose for a library exercise they add or swap in (in their units); None: the default."""

    sets: int | None = None
    reps: int | None = None
    load: float | None = None
    hold_sec: int | None = None
    duration_min: float | None = None
    rest_sec: int | None = None


def build(exercise: LibraryExercise, *, available: Iterable[str] | None, unit: str, history: Iterable[LogEntry],
          like: Exercise | None = None, chosen: Prescription | None = None) -> dict[str, Any]:
    """A §4.9 exercise (without id and order) for `exercise`, as the JSON its caller parses; `like`: the exercise
    it replaces (its prescription, goals and group carry over when it is of the same kind)."""
    equipment = equipment_for(exercise, available)
    if equipment is None:
        raise GymError("equipment_unavailable", f"{exercise.name} needs {', '.join(exercise.equipment)}, which the "
                                                "current location does not have.", "Pick another exercise.")
    chosen = chosen or Prescription()
    base = _plan(exercise, equipment)
    how = kind(exercise)
    prior = like if like is not None and like.type == how else None
    if like is not None:
        base["goals"] = [g.model_dump(mode="json") for g in like.goals] or base["goals"]
        if like.group:
            base["group"] = like.group.model_dump(mode="json")
    if how == "duration":
        before = prior.duration_min if isinstance(prior, DurationExercise) else None
        return {**base, "type": "duration", "duration_min": float(chosen.duration_min or before or 10)}
    sets_before = prior.sets if isinstance(prior, RepsExercise | HoldExercise) else None
    count = int(chosen.sets or sets_before or 3)
    rest = chosen.rest_sec if chosen.rest_sec is not None else (
        prior.rest_sec if isinstance(prior, RepsExercise | HoldExercise) else None)
    if how == "hold":
        seconds = int(chosen.hold_sec or (prior.hold_sec[0] if isinstance(prior, HoldExercise) else None) or 30)
        return {**base, "type": "hold", "sets": count, "hold_sec": [seconds] * count,
                "rest_sec": int(rest if rest is not None else 45)}
    compound = exercise.category in COMPOUND_CATEGORIES
    reps_before = prior.reps[0] if isinstance(prior, RepsExercise) else None
    target = int(chosen.reps or reps_before or (8 if compound else 10))
    loaded = any(e in LOAD_IMPLEMENTS for e in equipment)
    load = chosen.load
    if load is None and loaded:
        load = suggest(exercise.name, history, unit, equipment).load
    weight = float(load) if loaded and load is not None else None
    return {**base, "type": "reps", "sets": count, "reps": [target] * count, "load": weight,
            "load_unit": unit if weight is not None else None,
            "rest_sec": int(rest if rest is not None else 90 if compound else 60)}


def library_items(*, locale: str, available: Iterable[str] | None, prefs: list[Pref], unit: str,
                  history: list[LogEntry], query: str | None = None) -> list[dict[str, Any]]:
    """Every library exercise (or those whose name in any language contains `query`) as the app's picker shows it:
    its name in the member's language, kind, muscles, the equipment it would use here (None: not here), the rule
    that blocks it, the suggested load, its cues."""
    wanted = " ".join(query.split()).lower() if query else None
    kit = list(available or [])
    out = []
    for exercise in LIBRARY:
        shown = display_name(exercise.name, locale)
        if wanted and not any(wanted in n.lower() for n in (exercise.name, shown, *exercise.all_aliases)):
            continue
        equipment = equipment_for(exercise, kit if available is not None else None)
        plan = _plan(exercise, equipment or list(exercise.equipment))
        loaded = any(e in LOAD_IMPLEMENTS for e in equipment or ())
        suggestion = suggest(exercise.name, history, unit, equipment or ()) if loaded else None
        out.append({"name": exercise.name, "displayName": shown, "category": exercise.category, "kind": kind(exercise),
                    "muscles": [m["name"] for m in plan["muscles"] if m["share"] >= LOAD_SHARE - 1e-9]
                    or [m["name"] for m in plan["muscles"]],
                    "equipment": equipment, "available": equipment is not None,
                    "blockedBy": blocked_by(plan, prefs),
                    "suggestedLoad": suggestion.load if suggestion else None, "unit": unit,
                    "how": how_to(exercise.name, locale)})
    return out
