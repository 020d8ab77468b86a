"""Injuries and "never" preferences as constraints enforced in code (TRAINER.md "Preferences and injuries are
constraints" and "Library-only prescriptions and structured constraints").

A preference or injury carries structured exclusions: exercises (library names and aliases; a name also excludes
its family, the library exercises whose name contains it: "Burpee" → "Burpee Box Jump Over"), movement patterns,
muscles and equipment; an injury also names its body region and side. Every check runs on the library's tags of the
exercise: its movement patterns, the muscles it loads (the library's prime mover, and any the prescription gives a
share ≥ 0.3) and the equipment it uses. A hard one (every injury; a "never" preference) refuses the exercise
with a typed error naming it and the rule; a soft one ("prefers kettlebells") is guidance and yields a note.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gym.errors import GymError
from gym.library_vocab import (
    BODY_REGIONS,
    LEGACY_PATTERNS,
    MOVEMENT_PATTERNS,
    SIDES,
    BodyRegion,
    MovementPattern,
    Side,
)
from gym.training.equipment import VOCABULARY, equipment_key
from gym.training.movements import canonical_name, name_forms, name_key, resolve_loosely
from gym.training.muscles import LIBRARY_TO_TRAINER
from gym.training.preference_rules import Pref
from gym.training.vocab import MUSCLES, Muscle

LOAD_SHARE = 0.3
PATTERN_HELP = "; ".join(f"{name}: {about}" for name, about in MOVEMENT_PATTERNS.items())


class Exclusions(BaseModel):
    """What a preference or injury rules out. Empty lists rule out nothing (a soft wish with words only)."""

    model_config = ConfigDict(extra="forbid")

    exercises: list[str] = Field(default_factory=list, max_length=30, description=(
        'Exercise names from the library (aliases accepted), e.g. ["Burpee"]; a name also rules out exercises '
        'whose name contains it.'))
    patterns: list[MovementPattern] = Field(default_factory=list, max_length=len(MOVEMENT_PATTERNS),
                                            description="Movement patterns ruled out. " + PATTERN_HELP)
    muscles: list[Muscle] = Field(default_factory=list, max_length=16,
                                  description="Muscles that must not be loaded (of the 16).")
    equipment: list[str] = Field(default_factory=list, max_length=20,
                                 description="Equipment ruled out (library names: barbell, kettlebell, box, ...).")
    region: BodyRegion | None = Field(None, description="An injury's body region (where it hurts).")
    side: Side | None = Field(None, description="An injury's side: left, right or both.")

    @field_validator("patterns", mode="before")
    @classmethod
    def _current_names(cls, value: Any) -> Any:
        """Earlier names of three patterns ("jumping", "burpee", "hip_hinge") mean today's."""
        if isinstance(value, list):
            return [LEGACY_PATTERNS.get(v, v) if isinstance(v, str) else v for v in value]
        return value

    def is_empty(self) -> bool:
        return not (self.exercises or self.patterns or self.muscles or self.equipment)

    def canonical(self) -> Exclusions:
        """Library names, vocabulary order, no duplicates: two ways of saying the same exclusions compare equal."""
        exercises = {name_key(canonical_name(n)): canonical_name(n) for n in self.exercises if n.strip()}
        vocabulary = {equipment_key(e): e for e in VOCABULARY}
        equipment = {equipment_key(e): vocabulary.get(equipment_key(e), " ".join(e.split()).lower())
                     for e in self.equipment if e.strip()}
        return Exclusions(exercises=[exercises[k] for k in sorted(exercises)],
                          patterns=[p for p in MOVEMENT_PATTERNS if p in self.patterns],
                          muscles=[m for m in MUSCLES if m in self.muscles],
                          equipment=[equipment[k] for k in sorted(equipment)], region=self.region, side=self.side)

    def lists(self) -> dict[str, list[str]]:
        """The four kinds of exclusion (not the injury's place)."""
        return {k: list(getattr(self, k)) for k in EXCLUSION_KINDS}

    def as_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, list) else v) for k, v in self.model_dump().items() if v}


EXCLUSION_KINDS = ("exercises", "patterns", "muscles", "equipment")


def union(a: Exclusions, b: Exclusions) -> Exclusions:
    """Both sets of exclusions (canonical); the place of `b` when it names one, else `a`'s."""
    return Exclusions(**{k: [*getattr(a, k), *getattr(b, k)] for k in EXCLUSION_KINDS},
                      region=b.region or a.region, side=b.side or a.side).canonical()


def exclusions_of(raw: Mapping[str, Any] | None) -> Exclusions:
    """Stored exclusions as the model; a pattern or muscle name the vocabulary no longer has is dropped rather than
    breaking every check (what a row holds was valid when it was saved)."""
    data = dict(raw or {})
    known = {"patterns": set(MOVEMENT_PATTERNS), "muscles": set(MUSCLES)}
    lists = {k: [LEGACY_PATTERNS.get(v, v) if k == "patterns" else v for v in data.get(k) or []]
             for k in EXCLUSION_KINDS}
    return Exclusions.model_validate({
        **{k: [v for v in values if k not in known or v in known[k]] for k, values in lists.items()},
        "region": data.get("region") if data.get("region") in BODY_REGIONS else None,
        "side": data.get("side") if data.get("side") in SIDES else None})


@dataclass(frozen=True)
class ExerciseFacts:
    """An exercise as the constraint check sees it."""

    name: str
    order: int | None
    forms: frozenset[str]
    patterns: frozenset[str]
    muscles: frozenset[str]
    equipment: frozenset[str]


def _get(exercise: Any, field: str, default: Any = None) -> Any:
    return exercise.get(field, default) if isinstance(exercise, Mapping) else getattr(exercise, field, default)


def facts(exercise: Any) -> ExerciseFacts:
    """From a §4.9 exercise (a model or its dict): the library's tags of the exercise it names — movement patterns,
    its prime mover, its equipment — with the prescription's loaded muscles and its equipment."""
    name = str(_get(exercise, "name", ""))
    found = resolve_loosely(name)
    shares = {(_get(m, "name")): float(_get(m, "share", 0)) for m in _get(exercise, "muscles", []) or []}
    loaded = {m for m, s in shares.items() if s >= LOAD_SHARE - 1e-9}
    if found is not None and found.primary is not None:  # the library's prime mover is always loaded
        loaded.add(LIBRARY_TO_TRAINER[found.primary])
    listed = [str(e) for e in _get(exercise, "equipment", []) or [] if str(e).strip()]
    equipment = {equipment_key(e) for e in (listed or (found.equipment if found else ()))}
    return ExerciseFacts(name, _get(exercise, "order"), frozenset(name_forms(name)),
                         frozenset(found.patterns if found else ()), frozenset(loaded), frozenset(equipment))


@dataclass(frozen=True)
class Conflict:
    exercise: str
    order: int | None
    preference_id: object
    injury: bool
    hard: bool
    description: str
    rule: str            # exercise | pattern | muscle | equipment
    values: tuple[str, ...]
    region: str | None = None  # an injury's place
    side: str | None = None

    @property
    def code(self) -> str:
        return "injury_conflict" if self.injury else "preference_conflict"

    @property
    def what(self) -> str:
        return ", ".join(v.replace("_", " ") for v in self.values)

    @property
    def message(self) -> str:
        where = f" (exercise {self.order})" if self.order is not None else ""
        kind = "injury" if self.injury else ("preference" if self.hard else "soft preference")
        return f'{self.exercise}{where} breaks the {kind} "{self.description}": {self.rule} {self.what}'

    def as_dict(self) -> dict[str, Any]:
        out = {"code": self.code, "exercise": self.exercise, "order": self.order,
               "preferenceId": str(self.preference_id), "description": self.description, "rule": self.rule,
               "values": list(self.values), "hard": self.hard, "injury": self.injury}
        return out | {k: v for k, v in (("region", self.region), ("side", self.side)) if v}


def _contains(whole: str, part: str) -> bool:
    return f" {part} " in f" {whole} "


def _matches(exercise: ExerciseFacts, rules: Exclusions) -> tuple[str, tuple[str, ...]] | None:
    """The first kind of exclusion the exercise hits, with the values it hits."""
    hit = tuple(x for x in rules.exercises
                if any(_contains(form, name_key(x)) for form in exercise.forms) or name_forms(x) & exercise.forms)
    if hit:
        return "exercise", hit
    if hit := tuple(p for p in rules.patterns if p in exercise.patterns):
        return "pattern", hit
    if hit := tuple(m for m in rules.muscles if m in exercise.muscles):
        return "muscle", hit
    if hit := tuple(e for e in rules.equipment if equipment_key(e) in exercise.equipment):
        return "equipment", hit
    return None


def conflicts(exercise: ExerciseFacts, prefs: Iterable[Pref]) -> list[Conflict]:
    """Every active preference this exercise breaks, injuries first."""
    found = []
    for pref in prefs:
        rules = exclusions_of(pref.exclusions).canonical()
        if rules.is_empty():
            continue
        match = _matches(exercise, rules)
        if match is not None:
            found.append(Conflict(exercise.name, exercise.order, pref.id, pref.type == "injury", pref.enforced,
                                  pref.description, *match, region=rules.region, side=rules.side))
    return sorted(found, key=lambda c: (not c.injury, not c.hard))


def check(exercises: Iterable[Any], prefs: Iterable[Pref]) -> list[Conflict]:
    """Raise the hard conflicts of these exercises as one typed error (`injury_conflict` first, else
    `preference_conflict`); return the soft ones, which are guidance only."""
    live = list(prefs)
    found = [c for ex in exercises for c in conflicts(facts(ex), live)]
    hard = sorted((c for c in found if c.hard), key=lambda c: (not c.injury, c.order or 0))
    if hard:
        first = hard[0]
        values = ", ".join(dict.fromkeys(v.replace("_", " ") for c in hard for v in c.values))
        names = ", ".join(dict.fromkeys(c.exercise for c in sorted(hard, key=lambda c: c.order or 0)))
        raise GymError(first.code, "; ".join(c.message for c in hard),
                       f"Replace {names} with an exercise without {values}, or leave it out. Injuries and never-"
                       "rules are enforced on every workout change; only the member can lift one (then delete or "
                       "change the preference).", data={"refused": [c.as_dict() for c in hard]})
    return [c for c in found if not c.hard]
