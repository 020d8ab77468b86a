"""Statistics by hand: sessions, volume Σ sets×reps×kg, hours, RPE, frequency, breakdowns, records, trends."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gym.training.entries import LogEntry
from gym.training.statistics import breakdown, statistics, top_exercises, trend

NOW = datetime(2026, 11, 12, 12, 0, tzinfo=UTC)
LOGS = [
    LogEntry("Back Squat", datetime(2026, 11, 2, 10, 0, tzinfo=UTC), "strength", 3, 5, 100, 10, None, 8,
             {"Strength": 1}, {"Quadriceps": 0.6, "Glutes": 0.4}, workout_id="w1"),
    LogEntry("Bench Press", datetime(2026, 11, 2, 10, 20, tzinfo=UTC), "strength", 3, 8, 60, None, None, 7,
             {"Strength": 0.5, "Hypertrophy": 0.5}, {"Chest": 1.0}, workout_id="w1"),
    LogEntry("Run", datetime(2026, 11, 4, 7, 0, tzinfo=UTC), "cardio_distance", None, None, None, 30, 5, 6,
             {"Conditioning": 1}, {"Quadriceps": 0.5, "Calves": 0.5}),
    LogEntry("Back Squat", datetime(2026, 11, 9, 10, 0, tzinfo=UTC), "strength", 3, 5, 105, None, None, 9,
             {"Strength": 1}, {"Quadriceps": 0.6, "Glutes": 0.4}),
    LogEntry("Back Squat", datetime(2026, 11, 10, 10, 0, tzinfo=UTC), "strength", 3, 5, 200, undone=True),
]


def test_overview_by_hand() -> None:
    o = statistics(LOGS, "month", NOW)["overview"]
    assert o == {"total_workouts": 3,             # w1, 4 Nov, 9 Nov
                 "total_exercises": 4,
                 "total_duration_hours": 0.67,    # 40 min (001's name)
                 "duration_hours": 0.67,          # TRAINER.md's name for the same sum
                 "total_volume_kg": 4515.0,       # 1500 + 1440 + 1575
                 "average_rpe": 7.5,
                 "workout_frequency": 0.7,        # 001's name
                 "workout_frequency_per_week": 0.7}  # 3 / (30 / 7)


def test_period_cuts_older_logs() -> None:
    o = statistics(LOGS, "week", NOW)["overview"]   # after 5 Nov 12:00
    assert (o["total_workouts"], o["total_volume_kg"]) == (1, 1575.0)


def test_breakdowns() -> None:
    rows = [g for g in LOGS if not g.undone]
    assert breakdown(rows, "category") == [{"name": "Strength", "value": 2.5, "pct": 62.5},
                                           {"name": "Conditioning", "value": 1.0, "pct": 25.0},
                                           {"name": "Hypertrophy", "value": 0.5, "pct": 12.5}]
    muscles = {r["name"]: r["pct"] for r in breakdown(rows, "muscle")}
    assert muscles == {"Quadriceps": 42.5, "Glutes": 20.0, "Chest": 25.0, "Calves": 12.5}
    assert breakdown(rows, "exercise_type")[0] == {"name": "strength", "value": 3, "pct": 75.0}
    assert top_exercises(rows) == [{"name": "Back Squat", "count": 2}, {"name": "Bench Press", "count": 1},
                                   {"name": "Run", "count": 1}]


def test_top_ten_only() -> None:
    rows = [LogEntry(f"Ex {i:02d}", NOW) for i in range(12)]
    assert len(top_exercises(rows)) == 10


def test_personal_records_ignore_undone_logs() -> None:
    records = {r["exercise"]: r for r in statistics(LOGS, "all_time", NOW)["personal_records"]}
    assert records["Back Squat"]["max_load_kg"] == 105.0
    assert records["Back Squat"]["max_load_at"].startswith("2026-11-09")
    assert records["Bench Press"]["max_reps"] == 8
    assert "Run" not in records


@pytest.mark.parametrize(("metric", "by", "exercise", "expected"), [
    ("weight", "week", "back squat", [("2026-11-02", 100.0), ("2026-11-09", 105.0)]),
    ("volume", "week", None, [("2026-11-02", 2940.0), ("2026-11-09", 1575.0)]),
    ("frequency", "week", None, [("2026-11-02", 2), ("2026-11-09", 1)]),
    ("duration", "month", None, [("2026-11-01", 40.0)]),
    ("reps", "month", "Bench Press", [("2026-11-01", 8)]),
])
def test_trends(metric, by, exercise, expected) -> None:
    points = trend(LOGS, metric, by=by, exercise=exercise)
    assert [(p["start"], p["value"]) for p in points] == expected
