"""Timers (TRAINER.md "Timers"): the phase list of an exercise derived from its fields; total = Σ phases.

reps: one work phase per set (reps × 3 s, the tempo the app counts), rest between sets; hold: one hold
phase per set, rest between; duration: one work phase; intervals: work and rest per round (no rest after
the last). A workout's timers put a transition between blocks. A superset, giant set or circuit is one block,
interleaved by round: round r is each member's set r in group order, one straight after the other, then the
rest between rounds (the group's `rest_between_rounds_sec`, else its first member's rest) — none after the last.
Its rounds are the group's `rounds`, else the most sets any member has; a member with fewer sets than rounds
repeats its last set (a circuit written as one set per member and 3 rounds does each member every round).

Every phase names its exercise (`exercise_id`, `exercise_name`), set or round and, for reps, the reps and load,
so an app can say it in the member's language; `cue` and `detail` are the English line the model reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gym.training.workout import DurationExercise, HoldExercise, IntervalsExercise, RepsExercise

SECONDS_PER_REP = 3
TRANSITION_SEC = 60


INTERLEAVED = frozenset({"superset", "giant_set", "circuit"})


@dataclass(frozen=True)
class Phase:
    phase_type: str  # work | rest | hold | transition
    duration_sec: int
    cue: str
    detail: str = ""
    countdown: bool = True
    set_number: int | None = None
    exercise_id: str | None = None
    exercise_name: str | None = None
    round: int | None = None      # the group's round, for a phase of an interleaved group
    reps: int | None = None
    load: float | None = None
    load_unit: str | None = None

    def as_dict(self) -> dict:
        data = {"phase_type": self.phase_type, "duration_sec": self.duration_sec, "cue": self.cue,
                "detail": self.detail, "countdown": self.countdown}
        for key in ("set_number", "exercise_id", "exercise_name", "round", "reps", "load", "load_unit"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
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
    if not isinstance(exercise, RepsExercise | HoldExercise | DurationExercise | IntervalsExercise):
        raise TypeError(f"not an exercise: {type(exercise).__name__}")
    count = set_count(exercise)
    for n in range(1, count + 1):
        phases.append(set_phase(exercise, n))
        rest = exercise.rest_sec if isinstance(exercise, RepsExercise | HoldExercise | IntervalsExercise) else 0
        if n < count and rest:
            word = "round" if isinstance(exercise, IntervalsExercise) else "set"
            phases.append(Phase("rest", rest, "Rest", f"next: {word} {n + 1}", set_number=n, exercise_id=exercise.id,
                                exercise_name=name))
    return Timer(name, exercise.type, phases)


def set_count(exercise) -> int:
    """The sets (rounds, bouts) an exercise prescribes."""
    if isinstance(exercise, RepsExercise | HoldExercise):
        return exercise.sets
    return exercise.rounds if isinstance(exercise, IntervalsExercise) else 1


def set_phase(exercise, n: int, group_round: int | None = None) -> Phase:
    """The work (or hold) phase of set / round `n` of one exercise (past its last set, its last set again)."""
    name, ids = exercise.name, {"exercise_id": exercise.id, "exercise_name": exercise.name, "round": group_round}
    i = min(n, set_count(exercise)) - 1
    if isinstance(exercise, RepsExercise):
        count = exercise.reps[i]
        return Phase("work", count * SECONDS_PER_REP, f"{name} - Set {n}", f"{count} reps{_load(exercise)}",
                     set_number=n, reps=count, load=exercise.load, load_unit=exercise.load_unit, **ids)
    if isinstance(exercise, HoldExercise):
        seconds = exercise.hold_sec[i]
        return Phase("hold", seconds, f"{name} - Set {n}", f"hold {seconds} s", set_number=n, **ids)
    if isinstance(exercise, IntervalsExercise):
        return Phase("work", exercise.work_sec, f"{name} - Round {n}", f"{exercise.work_sec} s work", set_number=n,
                     **ids)
    detail = f"{exercise.duration_min:g} min"
    if exercise.distance is not None:
        detail += f", {exercise.distance:g} {exercise.distance_unit}"
    return Phase("work", round(exercise.duration_min * 60), name, detail, set_number=n if group_round else None,
                 **ids)


def group_timer(members: list) -> Timer:
    """One superset / giant set / circuit, interleaved by round with the rest between rounds."""
    members = sorted(members, key=lambda e: e.group.position)
    first = members[0]
    rounds = first.group.rounds or max(set_count(m) for m in members)
    rest = first.group.rest_between_rounds_sec
    if rest is None:
        rest = getattr(first, "rest_sec", 0) or 0
    label = first.group.name or " + ".join(m.name for m in members)
    phases: list[Phase] = []
    for r in range(1, rounds + 1):
        for m in members:
            phases.append(set_phase(m, r, group_round=r))
        if r < rounds and rest:
            phases.append(Phase("rest", rest, "Rest", f"next: round {r + 1} of {label}", round=r))
    return Timer(label, first.group.type, phases)


def blocks(exercises: list) -> list[list]:
    """The workout in order as blocks: each interleaved group together, every other exercise alone."""
    out: list[list] = []
    seen: dict[str, list] = {}
    for e in sorted(exercises, key=lambda e: e.order):
        group = e.group
        if group is not None and group.type in INTERLEAVED:
            if group.id in seen:
                seen[group.id].append(e)
                continue
            seen[group.id] = [e]
            out.append(seen[group.id])
        else:
            out.append([e])
    return out


def workout_timers(exercises: list) -> dict:
    """Timers for every block in order (an exercise, or an interleaved group), with a transition between blocks;
    total = Σ all phases."""
    timers = [group_timer(b) if len(b) > 1 or (b[0].group and b[0].group.type in INTERLEAVED) else exercise_timer(b[0])
              for b in blocks(exercises)]
    transitions = [Phase("transition", TRANSITION_SEC, f"Next: {t.exercise_name}", countdown=True,
                         exercise_name=t.exercise_name) for t in timers[1:]]
    total = sum(t.total_duration_sec for t in timers) + sum(p.duration_sec for p in transitions)
    return {"timers": [t.as_dict() for t in timers], "transitions": [p.as_dict() for p in transitions],
            "total_duration_sec": total}


def run_phases(exercises: list) -> list[dict]:
    """The workout's phases in the order an app runs them: each block's phases, a transition between blocks."""
    out = workout_timers(exercises)
    flat: list[dict] = []
    for i, timer in enumerate(out["timers"]):
        if i:
            flat.append({**out["transitions"][i - 1], "block": i})
        flat += [{**p, "block": i, "block_name": timer["exercise_name"], "block_type": timer["exercise_type"]}
                 for p in timer["phases"]]
    return flat


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
