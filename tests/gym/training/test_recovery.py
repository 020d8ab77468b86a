"""Recovery: 48 h for the six large muscles, 24 h for the rest, from the last log with share ≥ 0.3."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gym.training.entries import LogEntry
from gym.training.recovery import recovering_muscles, recovery_status, recovery_warnings, window_hours
from gym.training.vocab import LARGE_MUSCLES, MUSCLES

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def trained(muscles: dict, hours_ago: float, *, undone: bool = False) -> LogEntry:
    return LogEntry("x", NOW - timedelta(hours=hours_ago), muscles=muscles, undone=undone)


def test_six_large_muscles_take_48_hours_the_other_ten_24() -> None:
    assert sorted(m for m in MUSCLES if window_hours(m) == 48) == sorted(LARGE_MUSCLES)
    assert len(LARGE_MUSCLES) == 6
    assert sum(window_hours(m) == 24 for m in MUSCLES) == 10


@pytest.mark.parametrize(("muscle", "share", "hours_ago", "recovering", "remaining"), [
    ("Quadriceps", 0.5, 20, True, 28.0),
    ("Quadriceps", 0.5, 47.9, True, 0.1),
    ("Quadriceps", 0.5, 48, False, 0.0),     # exactly 48 h: ready
    ("Quadriceps", 0.3, 10, True, 38.0),     # share exactly 0.3 counts
    ("Quadriceps", 0.29, 10, None, None),    # below 0.3: never started the clock
    ("Biceps", 0.4, 23, True, 1.0),
    ("Biceps", 0.4, 24, False, 0.0),         # exactly 24 h for a small muscle
    ("Chest", 1.0, 30, True, 18.0),
    ("Shoulders", 1.0, 30, False, 0.0),
])
def test_recovery_table(muscle, share, hours_ago, recovering, remaining) -> None:
    rest = {"Neck": round(1 - share, 2)} if share < 1 else {}
    rows = {r.muscle: r for r in recovery_status([trained({muscle: share, **rest}, hours_ago)], NOW)}
    if recovering is None:
        assert muscle not in rows
        return
    assert rows[muscle].recovering is recovering
    assert rows[muscle].hours_remaining == pytest.approx(remaining)


def test_the_latest_loading_log_counts_and_undone_ones_do_not() -> None:
    logs = [trained({"Glutes": 1.0}, 60), trained({"Glutes": 1.0}, 30), trained({"Glutes": 1.0}, 5, undone=True),
            trained({"Glutes": 0.2, "Abs": 0.8}, 2)]
    rows = {r.muscle: r for r in recovery_status(logs, NOW)}
    assert rows["Glutes"].hours_since == pytest.approx(30)
    assert rows["Glutes"].ready_at == NOW + timedelta(hours=18)
    assert rows["Abs"].recovering


def test_warnings_name_the_recovering_muscles_an_exercise_loads() -> None:
    recovering = recovering_muscles([trained({"Quadriceps": 0.5, "Glutes": 0.5}, 20)], NOW)
    assert set(recovering) == {"Quadriceps", "Glutes"}
    assert recovery_warnings({"Quadriceps": 0.6, "Glutes": 0.4}, recovering) == ["Quadriceps", "Glutes"]
    assert recovery_warnings({"Quadriceps": 0.3, "Chest": 0.7}, recovering) == ["Quadriceps"]
    assert recovery_warnings({"Quadriceps": 0.29, "Chest": 0.71}, recovering) == []
