"""Workout validation beyond the schema (TRAINER.md "Validation"): what the model must fix, and warnings.

Errors: equipment the current location lacks — what the exercise library says the exercise needs, never the list a
model sent (`equipment_unavailable`) —, loads or distances not in the member's unit (`unit_mismatch`), an order that breaks 001 §4.9 rule 4 (`exercise_order`). Injuries and hard preferences
are checked before these, by gym.training.preferences.enforce_preferences. Warnings: an exercise loading a
recovering muscle, a load above the progression's suggestion. Per exercise: its recovering muscles with their
recovery percentage, and the progression suggestion for loaded work.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gym.exercise_library import LibraryExercise
from gym.training.entries import LogEntry
from gym.training.equipment import LOAD_IMPLEMENTS, missing_equipment, needs
from gym.training.exercise_order import order_problems
from gym.training.movements import resolve
from gym.training.progression import suggest
from gym.training.recovery import MuscleRecovery, exercise_recovery, recovery_warnings
from gym.training.workout import DurationExercise, Exercise, RepsExercise, Workout


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    exercise_order: int | None = None
    hint: str | None = None

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "order": self.exercise_order}


@dataclass
class WorkoutCheck:
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    suggestions: list[dict] = field(default_factory=list)  # {"order", **Suggestion.as_dict()} for loaded reps work
    recovery: dict[int, list[dict]] = field(default_factory=dict)  # order → recovering muscles it loads

    @property
    def ok(self) -> bool:
        return not self.errors

    def suggestion_for(self, order: int) -> dict | None:
        return next((s for s in self.suggestions if s["order"] == order), None)


def exercise_notes(exercise: Exercise, *, recovering: Mapping[str, MuscleRecovery], history: list[LogEntry],
                   weight_unit: str) -> tuple[list[dict], dict | None]:
    """What a workout card shows for one exercise: its recovering muscles with their recovery percentage, and the
    progression suggestion when it is loaded set-and-rep work."""
    shares = {str(m.name): float(m.share) for m in exercise.muscles}
    suggestion = None
    if isinstance(exercise, RepsExercise):  # bodyweight too (double progression), once there is a session to progress
        found = suggest(exercise.name, history, weight_unit, exercise.equipment)
        suggestion = None if exercise.load is None and found.last is None else found.as_dict()
    return exercise_recovery(shares, recovering), suggestion


def _load_warning(ex: RepsExercise, suggestion: dict[str, Any]) -> Problem | None:
    """A prescribed load above what progression allows for a familiar exercise."""
    allowed = suggestion.get("suggestedLoad")
    if ex.load is None or allowed is None or ex.load <= allowed + 1e-9:
        return None
    last = (suggestion.get("last") or {}).get("load")
    unit = suggestion["unit"]
    since = f" (last {last:g} {unit}, +{(ex.load / last - 1) * 100:.0f} %)" if last else ""
    return Problem("load_above_suggestion", f"{ex.name}: {ex.load:g} {unit} is above the suggested "
                                            f"{allowed:g} {unit}{since}", ex.order)


def requirement(exercise: LibraryExercise) -> str:
    """What the library says an exercise needs, in words for the model ("bench and a dumbbell or a barbell")."""
    implements = [e for e in exercise.equipment if e in LOAD_IMPLEMENTS]
    others = [e for e in exercise.equipment if e not in LOAD_IMPLEMENTS]
    return " and ".join([*others, *([" or ".join(implements)] if implements else [])])


def _lacking(name: str, listed: list[str], available: list[str], *, by_library: bool) -> str | None:
    """What is missing for an exercise here: for one a change adds or alters (`by_library`), the library's equipment
    (what it uses, not what a model listed); for one already in the workout, what it was stored with."""
    found = resolve(name) if by_library else None
    if found is not None:
        return requirement(found) if needs(found, available, listed) is None else None
    return ", ".join(missing) if (missing := missing_equipment(listed, available)) else None


def check_workout(workout: Workout, *, weight_unit: str, distance_unit: str, equipment: Iterable[str] | None,
                  recovering: Mapping[str, MuscleRecovery], history: Iterable[LogEntry] = (),
                  check_order: bool = True, touched: Collection[str] | None = None) -> WorkoutCheck:
    """Check a schema-valid workout against the member's location, units, recovery and history.

    `equipment` is the current location's list; None (no current location) allows bodyweight only. `touched`: the
    ids of the exercises a change adds or alters (None: all) — their equipment is the library's.
    """
    available = list(equipment or [])
    past = list(history)
    check = WorkoutCheck()
    for ex in sorted(workout.exercises, key=lambda e: e.order):
        lacking = _lacking(ex.name, ex.equipment, available, by_library=touched is None or ex.id in touched)
        if lacking:
            where = "the current location" if equipment is not None else "any location (none is current)"
            check.errors.append(Problem("equipment_unavailable", f"{ex.name} needs {lacking}, which {where} does not "
                                                                 "have", ex.order))
        if isinstance(ex, RepsExercise) and ex.load is not None and ex.load_unit != weight_unit:
            check.errors.append(Problem("unit_mismatch", f"{ex.name}: load must be in {weight_unit}, "
                                                         f"not {ex.load_unit}", ex.order))
        if isinstance(ex, DurationExercise) and ex.distance is not None and ex.distance_unit != distance_unit:
            check.errors.append(Problem("unit_mismatch", f"{ex.name}: distance must be in {distance_unit}, "
                                                         f"not {ex.distance_unit}", ex.order))
        recovery, suggestion = exercise_notes(ex, recovering=recovering, history=past, weight_unit=weight_unit)
        check.recovery[ex.order] = recovery
        loaded = recovery_warnings({m.name: m.share for m in ex.muscles}, recovering)
        if loaded:
            ready = ", ".join(f"{m} ({recovering[m].percent} % recovered, ready in "
                              f"{recovering[m].hours_remaining:.0f} h)" for m in loaded)
            check.warnings.append(Problem("muscle_recovering", f"{ex.name} loads recovering {ready}", ex.order))
        if isinstance(ex, RepsExercise) and suggestion is not None:
            check.suggestions.append({"order": ex.order, **suggestion})
            if (warning := _load_warning(ex, suggestion)) is not None:
                check.warnings.append(warning)
    if check_order:
        check.errors += [Problem("exercise_order", p.message, None, p.hint) for p in order_problems(workout.exercises)]
    return check
