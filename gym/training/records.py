"""Personal records, computed in code over the member's sets (undone ones never count).

Three kinds, per exercise (one exercise under any of its names: gym.training.movements.canonical_name):

- `heaviest_load`: a set at a load heavier than every earlier set of the exercise;
- `most_reps_at_load`: more reps in one set than any earlier set at exactly that load (the first set ever at a load
  sets it and earns nothing: it is a heaviest-load record or no record at all);
- `estimated_1rm`: an estimated one-rep max above every earlier set's, by the Epley formula
  (1RM = load × (1 + reps / 30); one rep is the load itself), for sets of 1 to 12 reps (beyond that it guesses).

A record beats something: the first session of an exercise sets its baseline and earns none. Loads are in kg here;
the views show them in the member's unit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gym.training.entries import LogEntry
from gym.training.movements import canonical_name, name_key

FORMULA = "epley"
MAX_E1RM_REPS = 12
KINDS = ("heaviest_load", "most_reps_at_load", "estimated_1rm")


def estimated_1rm(load_kg: float | None, reps: int | None) -> float | None:
    """Epley's estimate of the one-rep max, for 1..12 reps at a load; None otherwise."""
    if not load_kg or not reps or reps < 1 or reps > MAX_E1RM_REPS:
        return None
    return round(float(load_kg) if reps == 1 else float(load_kg) * (1 + reps / 30), 2)


@dataclass(frozen=True)
class SetFact:
    """One set as the records read it: which log and exercise, when, which set, the load and the reps."""

    log_id: object
    exercise: str
    performed_at: datetime
    set_number: int
    load_kg: float | None
    reps: int | None


@dataclass(frozen=True)
class Record:
    kind: str
    exercise: str
    log_id: object
    set_number: int
    performed_at: datetime
    load_kg: float | None
    reps: int | None
    value: float                      # kg for heaviest_load and estimated_1rm, reps for most_reps_at_load
    previous: float | None = None     # what it beat

    def as_dict(self, show_load: Any = None) -> dict[str, Any]:
        """`show_load(kg) -> member's unit`; the record in words' numbers (value in the unit for loads)."""
        shown = show_load or (lambda kg: kg)
        by_load = self.kind != "most_reps_at_load"
        out = {"kind": self.kind, "exercise": self.exercise, "setNumber": self.set_number,
               "load": None if self.load_kg is None else shown(self.load_kg), "reps": self.reps,
               "value": shown(self.value) if by_load else self.value,
               "previous": None if self.previous is None else shown(self.previous) if by_load else self.previous}
        if self.kind == "estimated_1rm":
            out["formula"] = FORMULA
        return out


def exercise_key(name: str) -> str:
    return name_key(canonical_name(name))


def set_facts(entries: Iterable[LogEntry]) -> list[SetFact]:
    """Every set of the live logs, in the order they happened."""
    facts: list[SetFact] = []
    for e in entries:
        if e.undone:
            continue
        done = e.done_reps or ()
        for n, (reps, load) in enumerate(zip(done, e.set_loads(), strict=True), start=1):
            facts.append(SetFact(e.log_id, canonical_name(e.name), e.performed_at, n, load, reps))
    return sorted(facts, key=lambda f: (f.performed_at, str(f.log_id), f.set_number))


@dataclass
class _Best:
    load: float | None = None
    e1rm: float | None = None
    reps_at: dict[float, int] | None = None
    sessions: set[object] | None = None


def records(facts: Iterable[SetFact]) -> list[Record]:
    """Every record, set by set, in order: each set compared with all earlier sets of its exercise. Sets of one log
    compete only with earlier logs for heaviest load and 1RM (one session's ramp is one record: its best set)."""
    out: list[Record] = []
    best: dict[str, _Best] = {}
    by_log: dict[object, list[SetFact]] = {}
    for f in facts:
        by_log.setdefault(f.log_id, []).append(f)
    for log_id, sets in sorted(by_log.items(), key=lambda kv: (kv[1][0].performed_at, str(kv[0]))):
        key = exercise_key(sets[0].exercise)
        b = best.setdefault(key, _Best(reps_at={}, sessions=set()))
        assert b.reps_at is not None and b.sessions is not None
        baseline = not b.sessions
        top = max((s for s in sets if s.load_kg), key=lambda s: (s.load_kg, s.reps or 0, -s.set_number), default=None)
        if top is not None and not baseline and b.load is not None and top.load_kg and top.load_kg > b.load + 1e-9:
            out.append(Record("heaviest_load", top.exercise, log_id, top.set_number, top.performed_at, top.load_kg,
                              top.reps, top.load_kg, b.load))
        strongest = max(((s, estimated_1rm(s.load_kg, s.reps)) for s in sets), key=lambda p: (p[1] or 0, -p[0].set_number),
                        default=(None, None))
        if strongest[0] is not None and strongest[1] is not None and not baseline and b.e1rm is not None \
                and strongest[1] > b.e1rm + 1e-9:
            s = strongest[0]
            out.append(Record("estimated_1rm", s.exercise, log_id, s.set_number, s.performed_at, s.load_kg, s.reps,
                              strongest[1], b.e1rm))
        for s in sets:  # reps at a load: every set, against every earlier set (this session's included)
            if not s.load_kg or not s.reps:
                continue
            load = round(s.load_kg, 2)
            before = b.reps_at.get(load)
            if before is not None and s.reps > before and not baseline:
                out.append(Record("most_reps_at_load", s.exercise, log_id, s.set_number, s.performed_at, s.load_kg,
                                  s.reps, s.reps, before))
            b.reps_at[load] = max(before or 0, s.reps)
        loads = [s.load_kg for s in sets if s.load_kg]
        if loads:
            b.load = max([*loads, b.load or 0.0])
        e1rms = [v for v in (estimated_1rm(s.load_kg, s.reps) for s in sets) if v is not None]
        if e1rms:
            b.e1rm = max([*e1rms, b.e1rm or 0.0])
        b.sessions.add(log_id)
    return out


def records_by_log(entries: Iterable[LogEntry]) -> dict[object, list[Record]]:
    """The records each log earned (keyed by its log id)."""
    out: dict[object, list[Record]] = {}
    for r in records(set_facts(entries)):
        out.setdefault(r.log_id, []).append(r)
    return out


def bests(entries: Iterable[LogEntry]) -> dict[str, dict[str, Any]]:
    """Per exercise (its canonical name): the heaviest load, the best estimated 1RM and when, in kg."""
    out: dict[str, dict[str, Any]] = {}
    for f in set_facts(entries):
        row = out.setdefault(f.exercise, {"exercise": f.exercise, "heaviestLoadKg": None, "heaviestAt": None,
                                          "bestE1rmKg": None, "bestE1rmAt": None, "formula": FORMULA})
        if f.load_kg and (row["heaviestLoadKg"] is None or f.load_kg > row["heaviestLoadKg"]):
            row["heaviestLoadKg"], row["heaviestAt"] = f.load_kg, f.performed_at.isoformat()
        e1rm = estimated_1rm(f.load_kg, f.reps)
        if e1rm is not None and (row["bestE1rmKg"] is None or e1rm > row["bestE1rmKg"]):
            row["bestE1rmKg"], row["bestE1rmAt"] = e1rm, f.performed_at.isoformat()
    return out
