"""The member's food log, body weights, trend and expenditure as one service over a request's session: the caller's
own member record, their language, their gym's timezone (whose local days the log is kept in) and their units.
Each method is one screen's read or one action, so the HTTP handlers only parse, call and shape."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import InvalidInput
from gym.nutrition import body_weights, expenditure, food_log
from gym.nutrition.food_search import search
from gym.nutrition.member_plan import current_plan
from gym.nutrition.portions import Unit, portion_unit, serving_of
from gym.nutrition.units import in_unit, to_kg
from gym.nutrition.weight_trend import trend
from gym.training.profiles import Units, get_units

MAX_PAST_DAYS = 730  # a log two years back is the furthest a member edits
MIN_KG, MAX_KG = 25.0, 350.0  # the check-in's bounds for weight_kg
WEEK = timedelta(days=7)


@dataclass
class MemberLog:
    session: AsyncSession
    org_id: uuid.UUID
    member_id: uuid.UUID
    locale: str
    tz: tzinfo

    @property
    def _who(self) -> tuple[AsyncSession, uuid.UUID, uuid.UUID]:
        return self.session, self.org_id, self.member_id

    def today(self) -> date:
        return datetime.now(UTC).astimezone(self.tz).date()

    def day(self, on: date | None) -> date:
        """A local day the member may log: 422 `date_in_future` after today, `date_too_old` two years back."""
        today = self.today()
        on = on or today
        if on > today:
            raise InvalidInput("date_in_future", errors=[{"field": "date", "code": "date_in_future"}])
        if on < today - timedelta(days=MAX_PAST_DAYS):
            raise InvalidInput("date_too_old", errors=[{"field": "date", "code": "date_too_old"}])
        return on

    async def _units(self) -> Units:
        return await get_units(*self._who)

    # --- food ------------------------------------------------------------------------------------------------------

    async def foods(self, query: str | None) -> dict[str, Any]:
        """Library foods by the member's words, with their per-100 g values and serving."""
        found = search(query, self.locale)
        return {"portionUnit": portion_unit((await self._units()).weight_unit), "foods": [{
            "key": f.key, "name": f.names.get(self.locale, f.key), "state": f.state,
            "per100g": {"calories": f.kcal, "proteinG": f.protein_g, "fatG": f.fat_g, "carbsG": f.carbs_g,
                        "fiberG": f.fiber_g},
            "serving": {"kind": s.kind, "grams": s.grams} if (s := serving_of(f)) else None} for f in found]}

    async def day_log(self, on: date | None, *, entry_id: uuid.UUID | None = None) -> dict[str, Any]:
        """The day's entries by meal, totals against the current plan's targets, and the day's weight."""
        on = self.day(on)
        units = await self._units()
        plan = await current_plan(*self._who)
        shown = food_log.day_view(await food_log.entries_on(*self._who, on), on, locale=self.locale,
                                  targets=plan.targets if plan else None)
        weight = (await body_weights.weights(*self._who, until=on)).get(on)
        return {**shown, "today": self.today().isoformat(), "portionUnit": portion_unit(units.weight_unit),
                "weightUnit": units.weight_unit, "weight": None if weight is None else in_unit(weight, units.weight_unit),
                "entryId": str(entry_id) if entry_id else None}

    async def add_food(self, on: date | None, meal: str, food_key: str, amount: float,
                       unit: Unit | None) -> dict[str, Any]:
        on = self.day(on)
        unit = unit or portion_unit((await self._units()).weight_unit)
        row = await food_log.add_food(*self._who, on=on, meal=meal, food_key=food_key, amount=amount, unit=unit)
        return await self.day_log(on, entry_id=row.id)

    async def add_quick(self, on: date | None, meal: str, quick: food_log.Quick) -> dict[str, Any]:
        on = self.day(on)
        row = await food_log.add_quick(*self._who, on=on, meal=meal, quick=quick)
        return await self.day_log(on, entry_id=row.id)

    async def remove(self, entry_id: uuid.UUID) -> dict[str, Any]:
        return await self.day_log(await food_log.remove(*self._who, entry_id))

    # --- weight and trend ----------------------------------------------------------------------------------------

    async def put_weight(self, on: date, value: float, unit: str | None) -> dict[str, Any]:
        """The day's weight in the member's unit (or `unit`); 422 `weight_out_of_range` outside 25–350 kg."""
        on = self.day(on)
        shown = (await self._units()).weight_unit
        kg = to_kg(value, unit or shown)
        if not MIN_KG <= kg <= MAX_KG:
            raise InvalidInput("weight_out_of_range", errors=[{"field": "weight", "code": "weight_out_of_range"}])
        stored = await body_weights.put_weight(*self._who, on, kg)
        return await self._weight_view(on, stored, shown)

    async def delete_weight(self, on: date) -> dict[str, Any]:
        on = self.day(on)
        await body_weights.delete_weight(*self._who, on)
        return await self._weight_view(on, None, (await self._units()).weight_unit)

    async def _weight_view(self, on: date, kg: float | None, unit: str) -> dict[str, Any]:
        value = trend(await body_weights.weights(*self._who), until=on).get(on)
        return {"date": on.isoformat(), "unit": unit, "weight": None if kg is None else in_unit(kg, unit),
                "trend": None if value is None else in_unit(value, unit)}

    async def trend(self, days: int) -> dict[str, Any]:
        """The last `days` local days: each day's weight (the dots) and trend (the line), the trend now and its change
        over the last week, and the expenditure estimate with the TDEE offer."""
        today = self.today()
        unit = (await self._units()).weight_unit
        logged = await body_weights.weights(*self._who, until=today)
        series = trend(logged, until=today)
        first = today - timedelta(days=days - 1)
        points = [{"date": (d := first + timedelta(days=i)).isoformat(),
                   "weight": None if d not in logged else in_unit(logged[d], unit),
                   "trend": None if d not in series else in_unit(series[d], unit)} for i in range(days)]
        now, before = series.get(today), series.get(today - WEEK)
        return {"unit": unit, "today": today.isoformat(), "points": points,
                "trendNow": None if now is None else in_unit(now, unit),
                "weeklyChange": None if now is None or before is None else in_unit(now - before, unit),
                "expenditure": await expenditure.overview(*self._who, today)}

    async def choose_tdee(self, choice: str) -> dict[str, Any]:
        return await expenditure.choose(*self._who, choice, self.today())
