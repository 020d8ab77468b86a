"""The offline trainer's exercises and how it builds a workout with the rules (TRAINER.md "Demo"): the muscles a
request targets, equipment at the current location, the member's preferences and injuries (their structured
exclusions and their words), recovery, distribution debt and the suggested loads.

Names are the exercise library's (gym/exercise_library.py), so a member's words in English, Hebrew or Russian
find them; loads are conservative starts for a new exercise in kg, converted to the member's unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gym.exercise_library import LIBRARY as NAMES
from gym.training.equipment import missing_equipment
from gym.training.vocab import LARGE_MUSCLES

LOAD_SHARE = 0.3
LB_PER_KG = 2.20462
ISOLATION = re.compile(r"\bcurls?\b|\braises?\b|\bfly\b|\bflye\b|kickback|push ?down|extension|pull-?apart|face pull|shrug")
COMPOUND = re.compile(r"squat|deadlift|\bpress\b|\brow\b|pull-?up|chin-?up|lunge|clean|snatch|thruster|\bdips?\b|"
                      r"push-?up|swing|step-?up|bridge|thrust")


@dataclass(frozen=True)
class Move:
    name: str
    muscles: dict[str, float]
    equipment: tuple[str, ...] = ()
    load_kg: float | None = None  # a conservative start; None: bodyweight
    patterns: tuple[str, ...] = ()  # the library's movement patterns an injury may rule out
    kind: str = "reps"  # reps | hold | intervals

    @property
    def compound(self) -> bool:
        """Compound lifts go before isolation work (001 §4.9 rule 4; the words the rules read for it)."""
        return self.kind == "reps" and not ISOLATION.search(self.name.lower())

    @property
    def primary(self) -> str:
        return max(self.muscles, key=lambda m: self.muscles[m])

    def loads(self, muscle: str) -> bool:
        return self.muscles.get(muscle, 0.0) >= LOAD_SHARE - 1e-9


MOVES: tuple[Move, ...] = (
    Move("Bench Press", {"Chest": 0.7, "Triceps": 0.3}, ("barbell", "bench", "rack"), 30),
    Move("Dumbbell Bench Press", {"Chest": 0.7, "Triceps": 0.2, "Shoulders": 0.1}, ("dumbbell", "bench"), 12),
    Move("Dumbbell Floor Press", {"Chest": 0.7, "Triceps": 0.3}, ("dumbbell", "mat"), 10),
    Move("Push-up", {"Chest": 0.7, "Triceps": 0.3}, (), None, ("push-up",)),
    Move("Band Chest Press", {"Chest": 0.8, "Triceps": 0.2}, ("band",)),
    Move("Dumbbell Fly", {"Chest": 1.0}, ("dumbbell", "mat"), 6),
    Move("Pull-up", {"Back": 0.7, "Biceps": 0.3}, ("pull-up bar",), None, ("hanging",)),
    Move("Bent-Over Row", {"Back": 0.6, "Biceps": 0.2, "Trapezius": 0.2}, ("barbell",), 40, ("hinge", "spinal loading")),
    Move("Dumbbell Row", {"Back": 0.8, "Biceps": 0.2}, ("dumbbell",), 12),
    Move("Band Row", {"Back": 0.7, "Biceps": 0.3}, ("band",)),
    Move("Band Pull-Apart", {"Back": 0.6, "Shoulders": 0.4}, ("band",)),
    Move("Back Squat", {"Quadriceps": 0.5, "Glutes": 0.3, "Hamstrings": 0.2}, ("barbell", "rack"), 40,
         ("squat", "deep knee flexion", "spinal loading")),
    Move("Goblet Squat", {"Quadriceps": 0.6, "Glutes": 0.4}, ("dumbbell",), 12, ("squat", "deep knee flexion")),
    Move("Reverse Lunge", {"Quadriceps": 0.5, "Glutes": 0.5}, (), None, ("lunge", "deep knee flexion")),
    Move("Dumbbell Romanian Deadlift", {"Hamstrings": 0.6, "Glutes": 0.4}, ("dumbbell",), 14, ("hinge",)),
    Move("Glute Bridge", {"Glutes": 0.7, "Hamstrings": 0.3}, ("mat",)),
    Move("Jump Squat", {"Quadriceps": 0.6, "Glutes": 0.4}, (), None, ("jumping", "deep knee flexion")),
    Move("Calf Raise", {"Calves": 1.0}),
    Move("Dumbbell Shoulder Press", {"Shoulders": 0.8, "Triceps": 0.2}, ("dumbbell",), 8, ("overhead press",)),
    Move("Dumbbell Push Press", {"Shoulders": 0.6, "Triceps": 0.2, "Quadriceps": 0.2}, ("dumbbell",), 10,
         ("overhead press",)),
    Move("Lateral Raise", {"Shoulders": 1.0}, ("dumbbell",), 4),
    Move("Band Face Pull", {"Shoulders": 0.6, "Trapezius": 0.4}, ("band",)),
    Move("Dumbbell Curl", {"Biceps": 1.0}, ("dumbbell",), 8),
    Move("Hammer Curl", {"Biceps": 0.7, "Forearms": 0.3}, ("dumbbell",), 8),
    Move("Bench Dip", {"Triceps": 1.0}, ("bench",), None, ("dip",)),
    Move("Band Triceps Pushdown", {"Triceps": 1.0}, ("band",)),
    Move("Dead Bug", {"Abs": 1.0}, ("mat",)),
    Move("Plank", {"Abs": 1.0}, ("mat",), None, (), "hold"),
    Move("Mountain Climber", {"Abs": 0.5, "Shoulders": 0.2, "Quadriceps": 0.3}, (), None, ("jumping",), "intervals"),
    Move("Burpee", {"Chest": 0.3, "Quadriceps": 0.4, "Abs": 0.3}, (), None, ("burpee", "jumping"), "intervals"),
)
GROUPS: dict[str, tuple[str, ...]] = {
    "chest": ("Chest",), "pull": ("Back", "Biceps"), "push": ("Chest", "Shoulders", "Triceps"),
    "legs": ("Quadriceps", "Glutes", "Hamstrings"), "lower": ("Quadriceps", "Glutes", "Hamstrings", "Calves"),
    "shoulders": ("Shoulders",), "arms": ("Biceps", "Triceps"), "core": ("Abs",), "glutes": ("Glutes",),
    "upper": ("Chest", "Back", "Shoulders"), "full": ()}
# What to offer instead of a group whose muscles are recovering.
INSTEAD = {"chest": "pull", "push": "pull", "pull": "push", "legs": "upper", "lower": "upper", "glutes": "upper",
           "shoulders": "legs", "arms": "legs", "upper": "legs", "core": "upper", "full": "core"}
# The words that rule a pattern out when a preference's text says them (its structured exclusions say it exactly).
PATTERN_WORDS = {"overhead press": r"overhead press|push press|strict press|handstand push",
                 "overhead hold": r"overhead (?:hold|carry|squat)|handstand|snatch", "dip": r"\bdips?\b",
                 "running": r"\brun(?:ning)?\b|sprint",
                 "jumping": r"\bjump|plyo|box jump", "burpee": r"burpee", "deep knee flexion": r"deep knee|knee flexion|"
                 r"deep squat", "spinal loading": r"spinal|axial|heavy back", "hinge": r"\bhinge|deadlift",
                 "squat": r"\bsquat", "lunge": r"\blunge", "push-up": r"push-?up", "hanging": r"\bhang"}
SHORTHANDS = {"bench": "Bench Press", "squat": "Back Squat", "squats": "Back Squat", "deadlift": "Deadlift",
              "row": "Dumbbell Row", "rows": "Dumbbell Row", "curl": "Dumbbell Curl", "curls": "Dumbbell Curl",
              "press": "Dumbbell Shoulder Press", "dips": "Bench Dip", "pushups": "Push-up", "push-ups": "Push-up",
              "plank": "Plank", "floor press": "Dumbbell Floor Press"}


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s-]", " ", text.lower()).split())


_ALIASES = {_key(a): e.name for e in NAMES for a in (e.name, *e.all_aliases)}
_ALIASES.update({_key(m.name): m.name for m in MOVES})


def _stem(word: str) -> str:
    return word[:max(3, len(word) - 2)]


def _same_stems(alias: str, key: str) -> bool:
    a, k = alias.split(), key.split()
    return len(a) == len(k) and all(x.startswith(_stem(y)) or y.startswith(_stem(x)) for x, y in zip(a, k, strict=True))


def exercise_name(words: str) -> str:
    """The library name a member's words mean (any of its names in en / he / ru), else their words titled."""
    key = _key(words)
    if key in _ALIASES:
        return _ALIASES[key]
    if key in SHORTHANDS:
        return SHORTHANDS[key]
    hits = sorted(((alias, name) for alias, name in _ALIASES.items() if key and (alias.startswith(key) or key in alias)),
                  key=lambda hit: len(hit[0]))
    if not hits:  # inflected words ("планки" for "планка", "жиме лёжа" for "жим лёжа"): word by word, by stem
        hits = sorted(((alias, name) for alias, name in _ALIASES.items() if _same_stems(alias, key)),
                      key=lambda hit: len(hit[0]))
    return hits[0][1] if hits else " ".join(w[:1].upper() + w[1:] for w in words.split())


def move_named(name: str) -> Move | None:
    return next((m for m in MOVES if m.name.lower() == exercise_name(name).lower()), None)


# --- what the member's preferences rule out -----------------------------------------------------------------

def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@dataclass(frozen=True)
class Rules:
    """What the member's active preferences and injuries rule out, from their exclusions and their words."""

    text: str  # every preference's description and guidance, lower case
    excluded: frozenset[str]  # every value of a structured exclusion, lower case

    @classmethod
    def of(cls, preferences: Iterable[Any]) -> Rules:
        text: list[str] = []
        excluded: set[str] = set()
        for pref in preferences:
            if not isinstance(pref, dict):
                continue
            values = {key_of(s) for s in _strings(pref.get("exclusions"))}  # gym.training.preferences.pref_dict
            excluded.update(values)
            if not values:  # words are read only where the rule has no codes (the codes say it exactly)
                text.append(f"{pref.get('description', '')} {pref.get('guidance', '')}".lower())
        return cls(" ".join(text), frozenset(excluded))

    def allows(self, move: Move) -> bool:
        names = {move.name.lower(), *(a.lower() for a in _names_of(move.name) if len(a) > 3)}
        if {key_of(n) for n in names} & self.excluded or any(
                re.search(rf"(?<!\w){re.escape(n)}(?:e?s)?(?!\w)", self.text) for n in names):
            return False
        if any(key_of(p) in self.excluded or re.search(PATTERN_WORDS.get(p, re.escape(p)), self.text)
               for p in move.patterns) or {key_of(p) for p in _tags_of(move.name)} & self.excluded:
            return False
        if any(key_of(e) in self.excluded for e in move.equipment):
            return False
        return not any(move.loads(m) and (key_of(m) in self.excluded or re.search(rf"\b{m.lower()}\b", self.text))
                       for m in move.muscles)


def key_of(value: str) -> str:
    """One form of a name or a vocabulary word ("Deep knee flexion" = "deep_knee_flexion", "Lower Back")."""
    return re.sub(r"[\s_-]+", "_", value.strip().lower())


def _names_of(name: str) -> tuple[str, ...]:
    return next((tuple(e.all_aliases) for e in NAMES if e.name == name), ())


def _tags_of(name: str) -> tuple[str, ...]:
    """The library's movement patterns of a move (what a rule's patterns are checked against)."""
    return next((e.patterns for e in NAMES if e.name == name), ())


# --- building ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Context:
    """What a workout is built from: the location's equipment, the unit, the rules, what is recovering (muscle →
    percent), the goal with the most debt, the suggested loads (exercise → load in the member's unit)."""

    equipment: tuple[str, ...]
    unit: str = "kg"
    rules: Rules = Rules("", frozenset())
    recovering: dict[str, int] | None = None
    goal: str = "Strength"
    suggested: dict[str, float] | None = None

    def pool(self) -> list[Move]:
        return [m for m in MOVES if not missing_equipment(m.equipment, self.equipment) and self.rules.allows(m)]

    def fresh(self, move: Move) -> bool:
        return not any(move.loads(m) for m in (self.recovering or {}))


def recovering_in(group: str, ctx: Context) -> dict[str, int]:
    """The group's muscles that are still recovering, with their percent."""
    return {m: p for m, p in (ctx.recovering or {}).items() if m in GROUPS.get(group, ())}


def _start_load(move: Move, ctx: Context, light: bool) -> float | None:
    if move.load_kg is None:
        return None
    suggested = (ctx.suggested or {}).get(move.name.lower())
    load = suggested if suggested else move.load_kg if ctx.unit == "kg" else max(5, round(move.load_kg * LB_PER_KG / 5) * 5)
    if light:
        step = 1 if ctx.unit == "kg" else 2
        load = max(step, round(load * 0.7 / step) * step)
    return float(load)


def exercise(move: Move, order: int, ctx: Context, *, light: bool = False) -> dict[str, Any]:
    """One §4.9 exercise of `move` for the member."""
    goal = ctx.goal if move.kind == "reps" else "Conditioning" if move.kind == "intervals" else "Mobility"
    base = {"name": move.name, "order": order, "muscles": [{"name": m, "share": s} for m, s in move.muscles.items()],
            "goals": [{"name": goal, "share": 1.0}], "equipment": list(move.equipment)}
    if move.kind == "hold":
        return {**base, "type": "hold", "sets": 2, "hold_sec": [30, 30], "rest_sec": 30, "reasoning": "Core finisher."}
    if move.kind == "intervals":
        return {**base, "type": "intervals", "rounds": 6, "work_sec": 30, "rest_sec": 30,
                "reasoning": "Conditioning finisher."}
    load = _start_load(move, ctx, light)
    reps = 12 if light or goal != "Strength" else 8
    sets = 2 if light else 3
    why = "Light on purpose: still recovering." if light else f"{goal} debt first; fits your equipment."
    return {**base, "type": "reps", "sets": sets, "reps": [reps] * sets, "load": load,
            "load_unit": ctx.unit if load is not None else None, "rest_sec": 60 if light or goal != "Strength" else 90,
            "reasoning": why}


def pick(group: str | None, ctx: Context, count: int, *, ignore_recovery: bool = False) -> list[Move]:
    """Up to `count` moves for the group (compounds first), fresh muscles first unless told otherwise."""
    pool = [m for m in ctx.pool() if m.kind == "reps"]
    muscles = GROUPS.get(group or "full", ())
    wanted = [m for m in pool if not muscles or m.primary in muscles]
    if not ignore_recovery:
        wanted = [m for m in wanted if ctx.fresh(m)] or ([] if muscles else wanted)
    wanted.sort(key=lambda m: (not m.compound, m.primary not in LARGE_MUSCLES,
                               -len([s for s in m.muscles.values() if s >= LOAD_SHARE]), -(m.load_kg or 0)))
    chosen: list[Move] = []
    for m in wanted:  # one exercise per primary muscle first, so a group's muscles all get work
        if m.primary not in {c.primary for c in chosen}:
            chosen.append(m)
    chosen += [m for m in wanted if m not in chosen]
    picked = chosen[:count]
    finisher = next((m for m in chosen[count:] if not m.compound), None)
    if count >= 3 and finisher is not None and all(m.compound for m in picked):
        picked = [*picked[:-1], finisher]  # compounds, then one isolation finisher
    return sorted(picked, key=lambda m: not m.compound)  # compounds before isolation


def build(group: str | None, ctx: Context, *, quick: bool = False, light: bool = False, title: str,
          ignore_recovery: bool = False) -> dict[str, Any] | None:
    """A workout for the group (None: none of its exercises fits), compounds first and a core finisher last."""
    moves = pick(group, ctx, 3 if quick else 4, ignore_recovery=ignore_recovery or light)
    if not moves:
        return None
    exercises = [exercise(m, n, ctx, light=light) for n, m in enumerate(moves, start=1)]
    finisher = next((m for m in ctx.pool() if m.kind == "hold" and m not in moves), None)
    if finisher is not None and group != "core":
        exercises.append(exercise(finisher, len(exercises) + 1, ctx))
    minutes = sum(e.get("sets", 2) * 2.5 for e in exercises)
    summary = {"estimated_duration_min": round(minutes), "primary_goals": [ctx.goal],
               "muscles_targeted": sorted({m for e in exercises for m in (s["name"] for s in e["muscles"]
                                                                          if s["share"] >= LOAD_SHARE)})}
    return {"title": title, "exercises": exercises, "summary": summary}


def kind_of(name: str) -> str | None:
    """compound, isolation, or None (core, conditioning, unknown): what 001 §4.9 rule 4 ranks."""
    move = move_named(name)
    if move is not None:
        return None if move.kind != "reps" else "compound" if move.compound else "isolation"
    lowered = name.lower()
    if ISOLATION.search(lowered):
        return "isolation"
    return "compound" if COMPOUND.search(lowered) else None


def fits_order(move: Move, order: int, exercises: Iterable[dict[str, Any]]) -> bool:
    """Whether `move` at `order` keeps compounds before isolation among the workout's set-and-rep work."""
    if move.kind != "reps":
        return True
    kinds = [(e.get("order", 0), kind_of(str(e.get("name", "")))) for e in exercises if e.get("type") == "reps"]
    if move.compound:
        return not any(k == "isolation" for o, k in kinds if o < order)
    return not any(k == "compound" for o, k in kinds if o > order)


def alternatives(old: dict[str, Any], exercises: list[dict[str, Any]], ctx: Context) -> tuple[list[Move], list[Move]]:
    """Replacements for an exercise: (same main muscle, any other that fits), none already in the workout and each
    keeping its order (compounds before isolation)."""
    shares = old.get("muscles") or []
    main = max(shares, key=lambda s: s.get("share", 0))["name"] if shares else None
    names = {str(e.get("name", "")).lower() for e in exercises}
    order = int(old.get("order", 0))
    pool = [m for m in ctx.pool() if m.name.lower() not in names and m.kind == old.get("type", "reps")
            and fits_order(m, order, [e for e in exercises if e.get("order") != order])]
    same = [m for m in pool if main is not None and m.primary == main]
    return same, [m for m in pool if m not in same]
