"""Distribution: targets are normalized weights, actual = credit share over 28 days, debt = target − actual."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gym.training.distribution import distribution, normalize_weights, primary_goals
from gym.training.entries import LogEntry

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def log(goals: dict, *, ago: timedelta = timedelta(days=1), undone: bool = False, muscles: dict | None = None):
    return LogEntry("x", NOW - ago, goals=goals, muscles=muscles or {}, undone=undone)


@pytest.mark.parametrize(("weights", "expected"), [
    ({"A": 45, "B": 25, "C": 20, "D": 10}, {"A": 0.45, "B": 0.25, "C": 0.20, "D": 0.10}),
    ({"A": 30, "B": 30, "C": 20}, {"A": 0.375, "B": 0.375, "C": 0.25}),   # sums to 80, not 100
    ({"A": 60, "B": 90}, {"A": 0.4, "B": 0.6}),                          # sums to 150
    ({"A": 1}, {"A": 1.0}),
    ({"A": 0, "B": 0}, {"A": 0.0, "B": 0.0}),
    ({"A": -5, "B": 5}, {"A": 0.0, "B": 1.0}),
])
def test_normalize_weights(weights: dict, expected: dict) -> None:
    assert normalize_weights(weights) == pytest.approx(expected)


@pytest.mark.parametrize(("weights", "expected"), [
    ({"A": 0.45, "B": 0.25, "C": 0.2, "D": 0.1}, ["A"]),
    ({"A": 10, "B": 7}, ["A", "B"]),         # exactly 0.7 of the largest
    ({"A": 10, "B": 6.9}, ["A"]),
    ({"A": 0.375, "B": 0.375, "C": 0.25}, ["A", "B"]),  # 0.25 < 0.2625
    ({}, []),
    ({"A": 0}, []),
])
def test_primary_goals(weights: dict, expected: list) -> None:
    assert primary_goals(weights) == expected


def test_actual_and_debt_by_hand() -> None:
    """S 1.5, H 0.5, C 1.5, M 0.5 of 4 credits → 37.5/12.5/37.5/12.5 %."""
    logs = [log({"Strength": 1}), log({"Strength": 0.5, "Hypertrophy": 0.5}), log({"Conditioning": 1}),
            log({"Mobility": 0.5, "Conditioning": 0.5})]
    d = distribution({"Strength": 45, "Hypertrophy": 25, "Conditioning": 20, "Mobility": 10}, logs, "goals", NOW)
    rows = {r.name: r for r in d.rows}
    assert [r.name for r in d.rows] == ["Strength", "Hypertrophy", "Conditioning", "Mobility"]
    assert rows["Strength"].actual == pytest.approx(0.375)
    assert rows["Strength"].debt == pytest.approx(0.075)
    assert rows["Hypertrophy"].debt == pytest.approx(0.125)
    assert rows["Conditioning"].debt == pytest.approx(-0.175)
    assert rows["Mobility"].debt == pytest.approx(-0.025)
    assert rows["Strength"].primary and not rows["Hypertrophy"].primary
    assert d.exercises_counted == 4
    assert rows["Strength"].as_dict()["debtPct"] == 7.5


def test_window_is_28_days_and_undone_or_future_logs_count_nowhere() -> None:
    logs = [log({"Strength": 1}, ago=timedelta(days=28)),                 # exactly 28 days: outside
            log({"Strength": 1}, ago=timedelta(days=28) - timedelta(seconds=1)),
            log({"Mobility": 1}, undone=True),
            log({"Mobility": 1}, ago=timedelta(hours=-1)),                 # in the future
            log({"strength": 1})]                                         # names match case-insensitively
    d = distribution({"Strength": 50, "Mobility": 50}, logs, "goals", NOW)
    rows = {r.name: r for r in d.rows}
    assert d.exercises_counted == 2
    assert rows["Strength"].actual == pytest.approx(1.0)
    assert rows["Mobility"].actual == 0.0
    assert rows["Mobility"].debt == pytest.approx(0.5)


def test_logged_names_without_a_goal_are_untracked_but_share_the_whole() -> None:
    d = distribution({"Strength": 100}, [log({"Strength": 1}), log({"Yoga": 1})], "goals", NOW)
    assert d.rows[0].actual == pytest.approx(0.5)
    assert d.rows[0].debt == pytest.approx(0.5)
    assert d.untracked == {"yoga": pytest.approx(0.5)}


def test_no_logs_means_debt_equals_target() -> None:
    d = distribution({"Chest": 2, "Back": 2}, [], "muscles", NOW)
    assert [(r.target, r.actual, r.debt) for r in d.rows] == [(0.5, 0.0, 0.5), (0.5, 0.0, 0.5)]


def test_muscle_distribution_reads_muscle_credits() -> None:
    logs = [log({}, muscles={"Chest": 0.65, "Triceps": 0.25, "Shoulders": 0.1}),
            log({}, muscles={"Quadriceps": 1.0})]
    d = distribution({"Chest": 50, "Quadriceps": 50}, logs, "muscles", NOW)
    rows = {r.name: r for r in d.rows}
    assert rows["Chest"].actual == pytest.approx(0.325)
    assert rows["Quadriceps"].actual == pytest.approx(0.5)
    assert rows["Chest"].debt == pytest.approx(0.175)
