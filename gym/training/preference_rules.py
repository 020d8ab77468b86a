"""Preference lifecycle (TRAINER.md "Preferences"), as pure functions over plain values.

An expired preference (expires_at ≤ now) is never shown; injuries and hard preferences are enforced in code
(gym.training.constraints), soft ones are guidance; a `delete_after_use` one is removed after the
next generated workout; temporary ones (expiring or one-shot) come before permanent ones. The full
priority order is stated to the model; the first four are checked in the generate result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

PRIORITY: tuple[str, ...] = ("temporary_preference", "explicit_request", "permanent_preference", "distribution_debt",
                             "goal_weights", "history")


@dataclass(frozen=True)
class Pref:
    id: object
    type: str
    description: str
    guidance: str
    created_at: datetime
    expires_at: datetime | None = None
    delete_after_use: bool = False
    exclusions: Mapping[str, Any] = field(default_factory=dict)  # gym.training.constraints.Exclusions, as stored
    hard: bool = False

    @property
    def temporary(self) -> bool:
        return self.expires_at is not None or self.delete_after_use

    @property
    def enforced(self) -> bool:
        """Refused in code when broken: every injury, and the preferences the member made a rule ("never ...")."""
        return self.hard or self.type == "injury"


def is_active(pref: Pref, now: datetime) -> bool:
    return pref.expires_at is None or pref.expires_at > now


def active(prefs: Iterable[Pref], now: datetime) -> list[Pref]:
    """Unexpired preferences by priority: temporary first, then permanent; oldest first within each."""
    live = [p for p in prefs if is_active(p, now)]
    return sorted(live, key=lambda p: (not p.temporary, p.created_at, str(p.id)))


def consumed_by_generation(prefs: Iterable[Pref], now: datetime) -> list[object]:
    """Ids to delete once a workout was generated: the active `delete_after_use` preferences."""
    return [p.id for p in active(prefs, now) if p.delete_after_use]


def injuries(prefs: Iterable[Pref], now: datetime) -> list[Pref]:
    return [p for p in active(prefs, now) if p.type == "injury"]
