"""Workout validation beyond the schema (TRAINER.md "Validation"): what the model must fix, and warnings.

Errors: equipment the current location lacks (`equipment_unavailable`), loads or distances not in the
member's unit (`unit_mismatch`). Warnings: an exercise loading a recovering muscle. Suggestions: the
progressive-overload load for each loaded exercise with history.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from gym.training.entries import LogEntry
from gym.training.equipment import missing_equipment
from gym.training.progression import suggest
from gym.training.recovery import MuscleRecovery, recovery_warnings
from gym.training.workout import DurationExercise, RepsExercise, Workout


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    exercise_order: int | None = None

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "order": self.exercise_order}


@dataclass
class WorkoutCheck:
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    suggestions: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def check_workout(workout: Workout, *, weight_unit: str, distance_unit: str, equipment: Iterable[str] | None,
                  recovering: Mapping[str, MuscleRecovery], history: Iterable[LogEntry] = ()) -> WorkoutCheck:
    """Check a schema-valid workout against the member's location, units, recovery and history.

    `equipment` is the current location's list; None (no current location) allows bodyweight only.
    """
    available = list(equipment or [])
    past = list(history)
    check = WorkoutCheck()
    for ex in sorted(workout.exercises, key=lambda e: e.order):
        lacking = missing_equipment(ex.equipment, available)
        if lacking:
            where = "the current location" if equipment is not None else "any location (none is current)"
            check.errors.append(Problem("equipment_unavailable",
                                        f"{ex.name} needs {', '.join(lacking)}, which {where} does not have",
                                        ex.order))
        if isinstance(ex, RepsExercise) and ex.load is not None and ex.load_unit != weight_unit:
            check.errors.append(Problem("unit_mismatch", f"{ex.name}: load must be in {weight_unit}, "
                                                         f"not {ex.load_unit}", ex.order))
        if isinstance(ex, DurationExercise) and ex.distance is not None and ex.distance_unit != distance_unit:
            check.errors.append(Problem("unit_mismatch", f"{ex.name}: distance must be in {distance_unit}, "
                                                         f"not {ex.distance_unit}", ex.order))
        loaded = recovery_warnings({m.name: m.share for m in ex.muscles}, recovering)
        if loaded:
            ready = ", ".join(f"{m} (ready in {recovering[m].hours_remaining:.0f} h)" for m in loaded)
            check.warnings.append(Problem("muscle_recovering", f"{ex.name} loads recovering {ready}", ex.order))
        if isinstance(ex, RepsExercise):
            s = suggest(ex.name, past, weight_unit)
            if s.reason == "progress":
                check.suggestions.append({"order": ex.order, **s.as_dict()})
    return check
