"""Timers (TRAINER.md "Timers"): the phase list of an exercise derived from its fields; total = Σ phases.

reps: one work phase per set (reps × 3 s, the tempo the app counts), rest between sets; hold: one hold
phase per set, rest between; duration: one work phase; intervals: work and rest per round (no rest after
the last). A workout's timers put a transition between exercises.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gym.training.workout import DurationExercise, HoldExercise, IntervalsExercise, RepsExercise

SECONDS_PER_REP = 3
TRANSITION_SEC = 60


@dataclass(frozen=True)
class Phase:
    phase_type: str  # work | rest | hold | transition
    duration_sec: int
    cue: str
    detail: str = ""
    countdown: bool = True
    set_number: int | None = None

    def as_dict(self) -> dict:
        data = {"phase_type": self.phase_type, "duration_sec": self.duration_sec, "cue": self.cue,
                "detail": self.detail, "countdown": self.countdown}
        if self.set_number is not None:
            data["set_number"] = self.set_number
        return data


@dataclass(frozen=True)
class Timer:
    exercise_name: str
    exercise_type: str
    phases: list[Phase] = field(default_factory=list)

    @property
    def total_duration_sec(self) -> int:
        return sum(p.duration_sec for p in self.phases)

    def as_dict(self) -> dict:
        return {"exercise_name": self.exercise_name, "exercise_type": self.exercise_type,
                "total_duration_sec": self.total_duration_sec, "phases": [p.as_dict() for p in self.phases]}


def _load(exercise: RepsExercise) -> str:
    return f" at {exercise.load:g}{exercise.load_unit}" if exercise.load is not None else ""


def exercise_timer(exercise) -> Timer:
    """The timer of one §4.9 exercise."""
    name, phases = exercise.name, []
    if isinstance(exercise, RepsExercise | HoldExercise):
        counts = exercise.reps if isinstance(exercise, RepsExercise) else exercise.hold_sec
        for n, count in enumerate(counts, start=1):
            if isinstance(exercise, RepsExercise):
                phases.append(Phase("work", count * SECONDS_PER_REP, f"{name} - Set {n}",
                                    f"{count} reps{_load(exercise)}", set_number=n))
            else:
                phases.append(Phase("hold", count, f"{name} - Set {n}", f"hold {count} s", set_number=n))
            if n < len(counts) and exercise.rest_sec:
                phases.append(Phase("rest", exercise.rest_sec, "Rest", f"next: set {n + 1}", set_number=n))
    elif isinstance(exercise, DurationExercise):
        detail = f"{exercise.duration_min:g} min"
        if exercise.distance is not None:
            detail += f", {exercise.distance:g} {exercise.distance_unit}"
        phases.append(Phase("work", round(exercise.duration_min * 60), name, detail))
    elif isinstance(exercise, IntervalsExercise):
        for n in range(1, exercise.rounds + 1):
            phases.append(Phase("work", exercise.work_sec, f"{name} - Round {n}", f"{exercise.work_sec} s work",
                                set_number=n))
            if n < exercise.rounds and exercise.rest_sec:
                phases.append(Phase("rest", exercise.rest_sec, "Rest", f"next: round {n + 1}", set_number=n))
    else:
        raise TypeError(f"not an exercise: {type(exercise).__name__}")
    return Timer(name, exercise.type, phases)


def workout_timers(exercises: list) -> dict:
    """Timers for every exercise in order, with a transition between exercises; total = Σ all phases."""
    timers = [exercise_timer(e) for e in sorted(exercises, key=lambda e: e.order)]
    transitions = [Phase("transition", TRANSITION_SEC, f"Next: {t.exercise_name}", countdown=True)
                   for t in timers[1:]]
    total = sum(t.total_duration_sec for t in timers) + sum(p.duration_sec for p in transitions)
    return {"timers": [t.as_dict() for t in timers], "transitions": [p.as_dict() for p in transitions],
            "total_duration_sec": total}


HOLD_TYPES = frozenset({"isometric", "balance", "flexibility", "yoga"})


def spec_timer(name: str, exercise_type: str, *, sets: int | None = None, reps: int | None = None,
               rest_seconds: int | None = None, work_duration_seconds: int | None = None) -> Timer:
    """The timer of a 001 §4.6 request (name, log type, sets, reps, rest, work duration)."""
    sets = max(1, sets or 1)
    rest = max(0, rest_seconds or 0)
    phases: list[Phase] = []
    for n in range(1, sets + 1):
        if work_duration_seconds:
            kind = "hold" if exercise_type in HOLD_TYPES else "work"
            phases.append(Phase(kind, work_duration_seconds, f"{name} - Set {n}", f"{work_duration_seconds} s",
                                set_number=n))
        else:
            count = max(1, reps or 1)
            phases.append(Phase("work", count * SECONDS_PER_REP, f"{name} - Set {n}", f"{count} reps", set_number=n))
        if n < sets and rest:
            phases.append(Phase("rest", rest, "Rest", f"next: set {n + 1}", set_number=n))
    return Timer(name, exercise_type, phases)
