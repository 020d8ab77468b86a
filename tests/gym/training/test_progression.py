"""Progressive overload: smallest 2.5 kg / 5 lb step at least 5 % above the last successful load."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gym.training.entries import LogEntry
from gym.training.progression import next_load, suggest, suggested_kg

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def lifted(kg: float | None, days_ago: float, *, name: str = "Back Squat", rpe: float | None = None,
           undone: bool = False, reps: int = 5) -> LogEntry:
    return LogEntry(name, NOW - timedelta(days=days_ago), sets=3, reps=reps, load_kg=kg, rpe=rpe, undone=undone)


@pytest.mark.parametrize(("last", "unit", "expected"), [
    (100, "kg", 105.0),    # 105 is a step: +5 %
    (60, "kg", 65.0),      # 63 → 65 (+8.3 %)
    (20, "kg", 22.5),      # 21 → one step, +12.5 %: light loads still move by one step
    (40, "kg", 42.5),
    (135, "lbs", 145.0),   # 141.75 → 145
    (100, "lbs", 105.0),
    (200, "lbs", 210.0),
])
def test_next_load(last, unit, expected) -> None:
    assert next_load(last, unit) == expected


def test_kg_history_shown_to_a_lbs_member_is_rounded_in_lbs() -> None:
    """60 kg = 132.28 lb; ×1.05 = 138.89 → 140 lb (63.5 kg)."""
    s = suggest("Back Squat", [lifted(60, 2)], "lbs")
    assert (s.last_load, s.suggested_load, s.unit) == (132.3, 140.0, "lbs")
    assert (s.range_low, s.range_high) == (138.9, 145.5)
    assert suggested_kg(s) == 63.5


def test_new_exercise_gets_no_suggestion() -> None:
    s = suggest("Front Squat", [lifted(60, 2)], "kg")
    assert s.reason == "new_exercise" and s.suggested_load is None
    assert suggest("Push-up", [lifted(None, 1, name="Push-up")], "kg").suggested_load is None


def test_failure_and_undone_sessions_are_not_the_last_successful_one() -> None:
    history = [lifted(75, 7, rpe=8), lifted(80, 3, rpe=10), lifted(90, 1, undone=True)]
    s = suggest("back  squat", history, "kg")
    assert (s.last_load, s.suggested_load) == (75.0, 80.0)   # 78.75 → 80
    assert s.last_performed_at == NOW - timedelta(days=7)


def test_unknown_unit_is_refused() -> None:
    with pytest.raises(ValueError):
        suggest("Back Squat", [], "stone")
