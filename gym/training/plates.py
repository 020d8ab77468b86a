"""The plate calculator: a barbell load as the bar and the plates on each side, heaviest first, from the gym's own
bar and plates (`organizations.plates`: {unit, bar, plates}) or, when the gym has not said, a commercial gym's
standard set (a 20 kg bar with 25…1.25 kg plates; a 45 lb bar with 45…2.5 lb plates). Everything is said in the
member's unit; a load the plates cannot make exactly is answered with the nearest one under it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from core.tenancy import Organization
from gym.errors import GymError
from gym.training.profiles import get_units
from gym.training.units import kg_to, to_kg

STANDARD: dict[str, dict[str, Any]] = {"kg": {"unit": "kg", "bar": 20, "plates": [25, 20, 15, 10, 5, 2.5, 1.25]},
                                       "lbs": {"unit": "lbs", "bar": 45, "plates": [45, 35, 25, 10, 5, 2.5]}}


@dataclass(frozen=True)
class PlateSet:
    unit: str
    bar: float
    plates: tuple[float, ...]  # heaviest first
    source: str  # "gym" or "standard"


def _in(value: float, source_unit: str, unit: str) -> float:
    return round(kg_to(to_kg(float(value), source_unit), unit), 2) if source_unit != unit else float(value)


def plate_set(stored: dict[str, Any] | None, unit: str) -> PlateSet:
    """The gym's bar and plates in the member's `unit`; the standard set of that unit when the gym has none."""
    valid = (isinstance(stored, dict) and stored.get("unit") in STANDARD and isinstance(stored.get("bar"), int | float)
             and isinstance(stored.get("plates"), list) and stored["plates"]
             and all(isinstance(p, int | float) and p > 0 for p in stored["plates"]))
    chosen, source = (stored, "gym") if valid and stored else (STANDARD[unit], "standard")
    return PlateSet(unit, _in(chosen["bar"], chosen["unit"], unit),
                    tuple(sorted((_in(p, chosen["unit"], unit) for p in chosen["plates"]), reverse=True)), source)


def load_on_bar(load: float, plates: PlateSet) -> dict[str, Any]:
    """The plates per side for `load` (greedy by hundredths: exact for any standard set), the total they make and
    whether it is the load asked; below the bar's own weight, no plates and `belowBar`."""
    out: dict[str, Any] = {"unit": plates.unit, "bar": plates.bar, "plates": list(plates.plates),
                           "source": plates.source, "load": load}
    if load < plates.bar:
        return {**out, "belowBar": True, "perSide": [], "total": plates.bar, "exact": False}
    side = round((load - plates.bar) / 2 * 100)
    per_side: list[float] = []
    for plate in plates.plates:
        p = round(plate * 100)
        while p > 0 and side >= p:
            per_side.append(plate)
            side -= p
    total = round(plates.bar + 2 * sum(per_side), 2)
    return {**out, "belowBar": False, "perSide": per_side, "total": total, "exact": abs(total - load) < 0.005}


MIN_BAR, MAX_BAR = 0.5, 110.0  # a technique bar to a 110 lb (50 kg) one; the same bounds in either unit
MIN_PLATE, MAX_PLATE = 0.25, 100.0  # a fractional plate to a 100 lb one
MAX_PLATES = 12
PLATES_ROLES = frozenset({"owner", "admin"})  # who says what the gym has


def checked_plates(unit: str, bar: float, plates: list[float]) -> dict[str, Any]:
    """The gym's bar and plates as stored: one unit, the bar and 1–12 plates within the bounds above (the HTTP body
    states the same bounds), each plate weight once, heaviest first, in hundredths; else GymError invalid_plates."""
    distinct = sorted({round(float(p), 2) for p in plates}, reverse=True)
    if (unit not in STANDARD or not MIN_BAR <= bar <= MAX_BAR or not 1 <= len(plates) <= MAX_PLATES
            or not all(MIN_PLATE <= p <= MAX_PLATE for p in distinct)):
        raise GymError("invalid_plates", f"unit kg or lbs, a bar of {MIN_BAR:g}-{MAX_BAR:g}, 1-{MAX_PLATES} plates of "
                                         f"{MIN_PLATE:g}-{MAX_PLATE:g}")
    return {"unit": unit, "bar": round(float(bar), 2), "plates": distinct}


async def gym_plates(session: AsyncSession, org_id: uuid.UUID) -> dict[str, Any]:
    """What the gym said it has, or the standard kg set (`source` says which)."""
    stored = await session.scalar(select(Organization.plates).where(Organization.id == org_id))
    chosen = plate_set(stored, stored["unit"] if isinstance(stored, dict) and stored.get("unit") in STANDARD else "kg")
    return {"unit": chosen.unit, "bar": chosen.bar, "plates": list(chosen.plates), "source": chosen.source}


async def set_gym_plates(session: AsyncSession, org_id: uuid.UUID, unit: str, bar: float,
                         plates: list[float]) -> dict[str, Any]:
    """Store the gym's bar and plates (every member's plate calculator uses them from now on)."""
    stored = checked_plates(unit, bar, plates)
    await session.execute(update(Organization).where(Organization.id == org_id).values(plates=stored))
    return await gym_plates(session, org_id)


async def plates_for(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, load: float) -> dict[str, Any]:
    stored = await session.scalar(select(Organization.plates).where(Organization.id == org_id))
    units = await get_units(session, org_id, member_id)
    return load_on_bar(load, plate_set(stored, units.weight_unit))
