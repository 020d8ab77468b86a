"""Personal records in code: heaviest load, most reps at a load, estimated 1RM by Epley; a first session only sets
the baseline; a session's ramp is one record; undone sets never count."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gym.training.entries import LogEntry
from gym.training.records import FORMULA, bests, estimated_1rm, records_by_log

DAY = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)


def _log(log_id: str, day: int, reps: tuple[int, ...], loads: tuple[float, ...], name: str = "Bench Press",
         undone: bool = False) -> LogEntry:
    return LogEntry(name, DAY + timedelta(days=day), reps_per_set=reps, sets=len(reps), load_kg=loads[0],
                    loads_per_set=loads, log_id=log_id, undone=undone)


def _kinds(found, log_id):
    return [(r.kind, r.set_number, r.value, r.previous) for r in found.get(log_id, [])]


def test_epley_for_one_to_twelve_reps() -> None:
    assert FORMULA == "epley"
    assert estimated_1rm(100, 1) == 100 and estimated_1rm(100, 10) == 133.33 and estimated_1rm(60, 5) == 70.0
    assert estimated_1rm(100, 13) is None and estimated_1rm(None, 5) is None and estimated_1rm(100, 0) is None


def test_a_first_session_is_the_baseline_and_later_sets_beat_it() -> None:
    found = records_by_log([
        _log("a", 0, (5, 5, 5), (60, 60, 60)),
        _log("b", 3, (5, 5, 6), (60, 60, 60)),             # 6 reps at 60: more reps at a load, a better 1RM
        _log("c", 7, (5, 5, 4), (62.5, 62.5, 62.5)),       # a heavier load, a better 1RM (5 × 62.5)
        _log("d", 10, (3,), (62.5,)),                      # nothing beaten
    ])
    assert _kinds(found, "a") == []
    assert _kinds(found, "b") == [("estimated_1rm", 3, 72.0, 70.0), ("most_reps_at_load", 3, 6, 5)]
    assert _kinds(found, "c") == [("heaviest_load", 1, 62.5, 60), ("estimated_1rm", 1, 72.92, 72.0)]
    assert _kinds(found, "d") == []


def test_a_ramp_is_one_heaviest_record_and_names_and_undone_logs_are_respected() -> None:
    found = records_by_log([
        _log("a", 0, (8,), (40,), name="Barbell Bench Press"),
        _log("x", 1, (8,), (80,), undone=True),            # undone: never counts
        _log("b", 2, (5, 3, 2), (42.5, 45, 47.5)),         # one session: its heaviest set holds the record
    ])
    assert [(r.kind, r.set_number, r.load_kg) for r in found["b"] if r.kind == "heaviest_load"] == [
        ("heaviest_load", 3, 47.5)]
    assert "x" not in found
    best = bests([_log("a", 0, (8,), (40,)), _log("b", 2, (5, 3, 2), (42.5, 45, 47.5))])
    assert best["Bench Press"]["heaviestLoadKg"] == 47.5 and best["Bench Press"]["bestE1rmKg"] == 50.67
