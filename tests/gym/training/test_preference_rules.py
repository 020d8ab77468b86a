"""Preference lifecycle: expiry, delete-after-use, temporary before permanent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gym.training.preference_rules import PRIORITY, Pref, active, consumed_by_generation, injuries

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def pref(pid: str, *, expires: timedelta | None = None, once: bool = False, kind: str = "exercise",
         age_days: int = 1) -> Pref:
    return Pref(pid, kind, pid, "", NOW - timedelta(days=age_days), NOW + expires if expires is not None else None,
                once)


def test_expired_preferences_are_never_active() -> None:
    prefs = [pref("gone", expires=timedelta(0)), pref("past", expires=-timedelta(days=1)),
             pref("still", expires=timedelta(seconds=1)), pref("forever")]
    assert [p.id for p in active(prefs, NOW)] == ["still", "forever"]


def test_temporary_come_before_permanent_oldest_first() -> None:
    prefs = [pref("perm-old", age_days=30), pref("perm-new", age_days=1), pref("once", once=True, age_days=2),
             pref("injury", expires=timedelta(days=10), kind="injury", age_days=5)]
    assert [p.id for p in active(prefs, NOW)] == ["injury", "once", "perm-old", "perm-new"]


def test_generation_consumes_only_active_delete_after_use() -> None:
    prefs = [pref("once", once=True), pref("expired-once", once=True, expires=-timedelta(hours=1)), pref("keep")]
    assert consumed_by_generation(prefs, NOW) == ["once"]


def test_injuries_are_active_injury_preferences() -> None:
    prefs = [pref("shoulder", kind="injury", expires=timedelta(days=10)),
             pref("old knee", kind="injury", expires=-timedelta(days=1)), pref("no burpees")]
    assert [p.id for p in injuries(prefs, NOW)] == ["shoulder"]


def test_priority_order_is_the_specs() -> None:
    assert PRIORITY[:4] == ("temporary_preference", "explicit_request", "permanent_preference", "distribution_debt")
    assert PRIORITY[4:] == ("goal_weights", "history")
