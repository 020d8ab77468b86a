"""The member's food log: what they ate on a local day of their gym, meal by meal, and the day's totals against
their current plan's targets.

An entry is a library food with a portion (`gym.nutrition.portions`: grams, ounces or the food's serving; energy and
macros from its USDA per-100 g values), or a quick entry of calories and macros (calories left out are the macros'
Atwater energy, 4/4/9 kcal per gram of protein, carbohydrate and fat). Energy is stored to 0.1 kcal and grams of
macros to 0.01 g as computed when logged, so a day's totals are sums of what each entry showed.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import Conflict, InvalidInput, NotFound
from gym.nutrition.foods import FOODS
from gym.nutrition.log_models import FoodLogEntry
from gym.nutrition.portions import Unit, grams, serving_of
from gym.nutrition.scientist import round_half_up

MEALS = ("breakfast", "lunch", "dinner", "snack")
MAX_ENTRIES_PER_DAY = 100
ATWATER = {"protein_g": 4, "carbs_g": 4, "fat_g": 9}
MACROS = ("protein_g", "fat_g", "carbs_g", "fiber_g")
WIRE = {"calories": "calories", "protein_g": "proteinG", "fat_g": "fatG", "carbs_g": "carbsG", "fiber_g": "fiberG"}


@dataclass(frozen=True)
class Quick:
    """A quick entry as the member typed it: calories, or macros, or both; an optional label."""

    calories: float | None = None
    protein_g: float | None = None
    fat_g: float | None = None
    carbs_g: float | None = None
    label: str | None = None

    def energy(self) -> float:
        if self.calories is not None:
            return self.calories
        return sum(getattr(self, name) * kcal for name, kcal in ATWATER.items() if getattr(self, name) is not None)


def _dec(value: float | None, step: float) -> Decimal | None:
    return None if value is None else Decimal(str(round_half_up(value, step)))


async def _room(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, on: date) -> None:
    count = await session.scalar(select(func.count()).select_from(FoodLogEntry).where(
        FoodLogEntry.org_id == org_id, FoodLogEntry.member_id == member_id, FoodLogEntry.eaten_on == on))
    if (count or 0) >= MAX_ENTRIES_PER_DAY:
        raise Conflict("food_log_day_full", detail=f"at most {MAX_ENTRIES_PER_DAY} entries a day")


async def add_food(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, on: date, meal: str,
                   food_key: str, amount: float, unit: Unit, entry_id: uuid.UUID | None = None) -> FoodLogEntry:
    """A library food's portion; 422 `unknown_food` for a key the library lacks (`entry_id`: a seed's own id)."""
    food = FOODS.get(food_key)
    if food is None:
        raise InvalidInput("unknown_food", detail="no such food in the library",
                           errors=[{"field": "foodKey", "code": "unknown_food"}])
    weight = grams(food, amount, unit)
    await _room(session, org_id, member_id, on)
    values = food.per(weight)
    row = FoodLogEntry(id=entry_id or uuid.uuid4(), org_id=org_id, member_id=member_id, eaten_on=on, meal=meal,
                       food_key=food.key, amount=_dec(amount, 0.01), unit=unit, grams=_dec(weight, 0.01),
                       kcal=_dec(values["calories"], 0.1), **{m: _dec(values[m], 0.01) for m in MACROS})
    session.add(row)
    await session.flush()
    return row


async def add_quick(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, on: date, meal: str,
                    quick: Quick) -> FoodLogEntry:
    """Calories and macros as typed; 422 `empty_entry` when it says nothing, `energy_too_high` past 10,000 kcal."""
    energy = quick.energy()
    if energy <= 0 and not any(getattr(quick, m) for m in ATWATER):
        raise InvalidInput("empty_entry", detail="give calories or a macro",
                           errors=[{"field": "calories", "code": "empty_entry"}])
    if energy > 10_000:
        raise InvalidInput("energy_too_high", detail="at most 10,000 kcal in one entry",
                           errors=[{"field": "calories", "code": "energy_too_high"}])
    await _room(session, org_id, member_id, on)
    row = FoodLogEntry(id=uuid.uuid4(), org_id=org_id, member_id=member_id, eaten_on=on, meal=meal,
                       label=quick.label, kcal=_dec(energy, 0.1), protein_g=_dec(quick.protein_g, 0.01),
                       fat_g=_dec(quick.fat_g, 0.01), carbs_g=_dec(quick.carbs_g, 0.01))
    session.add(row)
    await session.flush()
    return row


async def remove(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, entry_id: uuid.UUID) -> date:
    """Delete the member's own entry (404 `food_entry_not_found` for another's, or the second time); its day."""
    row = await session.scalar(select(FoodLogEntry).where(FoodLogEntry.org_id == org_id, FoodLogEntry.id == entry_id,
                                                          FoodLogEntry.member_id == member_id))
    if row is None:
        raise NotFound("food_entry_not_found")
    on = row.eaten_on
    await session.delete(row)
    await session.flush()
    return on


async def entries_on(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                     on: date) -> Sequence[FoodLogEntry]:
    return (await session.scalars(select(FoodLogEntry).where(
        FoodLogEntry.org_id == org_id, FoodLogEntry.member_id == member_id, FoodLogEntry.eaten_on == on)
        .order_by(FoodLogEntry.created_at, FoodLogEntry.id))).all()


async def daily_kcal(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, start: date,
                     end: date) -> dict[date, float]:
    """Energy per logged day from `start` to `end` (a day without entries is absent: unknown, not zero)."""
    rows = await session.execute(select(FoodLogEntry.eaten_on, func.sum(FoodLogEntry.kcal)).where(
        FoodLogEntry.org_id == org_id, FoodLogEntry.member_id == member_id, FoodLogEntry.eaten_on >= start,
        FoodLogEntry.eaten_on <= end).group_by(FoodLogEntry.eaten_on))
    return {on: float(kcal) for on, kcal in rows.all()}


def _num(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def entry_view(row: FoodLogEntry, locale: str) -> dict[str, Any]:
    food = FOODS.get(row.food_key) if row.food_key else None
    serving = serving_of(food) if food is not None and row.unit == "serving" else None
    return {"id": str(row.id), "meal": row.meal, "kind": "food" if food is not None else "quick",
            "foodKey": row.food_key, "name": food.names.get(locale, food.key) if food is not None else row.label,
            "state": food.state if food is not None else None, "amount": _num(row.amount), "unit": row.unit,
            "grams": _num(row.grams), "servingKind": serving.kind if serving else None,
            "calories": float(row.kcal), **{WIRE[m]: _num(getattr(row, m)) for m in MACROS}}


def totals(rows: Sequence[FoodLogEntry]) -> dict[str, float]:
    out = {"calories": sum((r.kcal for r in rows), Decimal(0))}
    for name in MACROS:
        out[name] = sum((getattr(r, name) or Decimal(0) for r in rows), Decimal(0))
    return {WIRE[name]: float(value) for name, value in out.items()}


def plan_targets(targets: dict[str, Any] | None) -> dict[str, float] | None:
    """The plan's daily targets as the log compares with them."""
    if not targets:
        return None
    return {"calories": targets["target_intake_kcal"], "proteinG": targets["protein_g"], "fatG": targets["fat_g"],
            "carbsG": targets["carbs_g"], "fiberMinG": targets["fiber_g_min"]}


def day_view(rows: Sequence[FoodLogEntry], on: date, *, locale: str, targets: dict[str, Any] | None) -> dict[str, Any]:
    """The day by meal with its totals, the plan's targets and what is left of them (None without a plan)."""
    wanted = plan_targets(targets)
    day = totals(rows)
    remaining = None if wanted is None else {
        name: round(wanted[name] - day[name], 1) for name in ("calories", "proteinG", "fatG", "carbsG")}
    return {"date": on.isoformat(),
            "meals": [{"meal": meal, "entries": [entry_view(r, locale) for r in rows if r.meal == meal],
                       "totals": totals([r for r in rows if r.meal == meal])} for meal in MEALS],
            "totals": day, "targets": wanted, "remaining": remaining}
