"""Who may read a member's health data: one rule for every endpoint, staff tool and console page.

Health data is a member's training record (injuries, goals, logs, recovery) and everything of the
nutrition pipeline (intake, weights, cycle, medical context, plans, check-ins). NUTRITION.md "Who uses
it": owner, admin and coach for their org's members, a member for themself only; front desk never.
"""

from __future__ import annotations

from core.errors import Forbidden
from core.tenancy import STAFF_ROLES

_STAFF_READERS = frozenset({"owner", "admin", "coach"})


def may_read_health_data(role: str, *, own_record: bool = False) -> bool:
    """True when a caller in `role` may read a member's health data; `own_record`: the record is the
    caller's own (a member reading themself)."""
    return role in _STAFF_READERS or (role == "member" and own_record)


def require_health_data(role: str, *, own_record: bool = False) -> None:
    """403 `forbidden` unless `may_read_health_data`."""
    if not may_read_health_data(role, own_record=own_record):
        raise Forbidden("forbidden")


# The staff roles the registry offers health-data tools to: the same rule, read once.
HEALTH_DATA_STAFF: frozenset[str] = frozenset(role for role in STAFF_ROLES if may_read_health_data(role))
