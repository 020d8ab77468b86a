"""Typed bodies of the member's food log, weights and trend (api/controllers/food_log.py): what `/schema` documents
and what `shape()` checks every answer against. Amounts are in the unit named beside them; energy in kcal."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from msgspec import Struct
from pydantic import ConfigDict, Field

from api.bodies import NOT_BLANK, NumbersBody

Meal = Literal["breakfast", "lunch", "dinner", "snack"]
DAY = Field(None, description="The local day of the gym it counts for (YYYY-MM-DD); default: today there.")

# --- request bodies ------------------------------------------------------------------------------------------------


class _Body(NumbersBody):
    model_config = ConfigDict(extra="forbid")


class FoodEntryBody(_Body):
    """A library food and how much of it."""

    date: dt.date | None = DAY
    meal: Meal
    foodKey: str = Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z ]{0,38}[a-z]$",
                         description="A library food's key, as GET .../nutrition/log/foods lists it.")
    amount: float = Field(gt=0, le=5_000, description="How much, in unit.")
    unit: Literal["g", "oz", "serving"] | None = Field(
        None, description="g, oz or the food's serving (422 no_serving for a food without one); default: the "
                          "member's portion unit (g with kg, oz with lbs).")


class QuickEntryBody(_Body):
    """Calories and macros as the member has them; calories left out are the macros' 4/4/9 kcal per gram."""

    date: dt.date | None = DAY
    meal: Meal
    calories: float | None = Field(None, ge=0, le=10_000)
    proteinG: float | None = Field(None, ge=0, le=1_000)
    fatG: float | None = Field(None, ge=0, le=1_000)
    carbsG: float | None = Field(None, ge=0, le=1_000)
    label: str | None = Field(None, min_length=1, max_length=80, pattern=NOT_BLANK,
                              description="What it was, in the member's words (shown back only to them).")


class WeightBody(_Body):
    weight: float = Field(gt=0, le=800, description="The day's body weight in unit (422 weight_out_of_range "
                                                    "outside 25–350 kg).")
    unit: Literal["kg", "lbs"] | None = Field(None, description="Default: the member's weight unit.")


class TdeeChoiceBody(_Body):
    choice: Literal["estimate", "formula"] = Field(description="estimate: the estimated expenditure as the plan's "
                                                               "TDEE (409 expenditure_not_offered unless offered); "
                                                               "formula: SCIENTIST's formula.")


# --- responses -----------------------------------------------------------------------------------------------------


class Nutrients(Struct):
    calories: float
    proteinG: float
    fatG: float
    carbsG: float
    fiberG: float


class FoodServing(Struct):
    kind: str  # piece, slice, tbsp, container
    grams: float


class FoodChoice(Struct):
    key: str
    name: str
    state: str  # raw, dry or cooked: what the values are for
    per100g: Nutrients
    serving: FoodServing | None


class FoodsOut(Struct):
    portionUnit: str
    foods: list[FoodChoice]


class LogEntry(Struct):
    id: str
    meal: str
    kind: str  # food | quick
    foodKey: str | None
    name: str | None  # the food's name in the caller's language, or a quick entry's label
    state: str | None
    amount: float | None
    unit: str | None  # g, oz or serving
    grams: float | None
    servingKind: str | None
    calories: float
    proteinG: float | None
    fatG: float | None
    carbsG: float | None
    fiberG: float | None


class MealLog(Struct):
    meal: str
    entries: list[LogEntry]
    totals: Nutrients


class DayTargets(Struct):
    calories: float
    proteinG: float
    fatG: float
    carbsG: float
    fiberMinG: float


class DayRemaining(Struct):
    calories: float
    proteinG: float
    fatG: float
    carbsG: float


class DayLog(Struct):
    date: str
    today: str
    portionUnit: str
    weightUnit: str
    meals: list[MealLog]
    totals: Nutrients
    targets: DayTargets | None  # the current plan's; null without one (or while it is on medical hold)
    remaining: DayRemaining | None
    weight: float | None  # the day's weight in weightUnit
    entryId: str | None  # the entry just added


class WeightOut(Struct):
    date: str
    unit: str
    weight: float | None
    trend: float | None


class TrendPoint(Struct):
    date: str
    weight: float | None
    trend: float | None


class Needs(Struct):
    days: int
    weights: int
    loggedDays: int


class TdeeChoice(Struct):
    choice: str
    estimateKcal: int | None
    formulaKcal: int | None
    confidence: str | None
    decidedAt: str | None


class ExpenditureOut(Struct):
    """The energy-balance estimate (gym/nutrition/weight_trend.py), the plan's formula TDEE and the offer."""

    ready: bool
    estimateKcal: int | None
    confidence: str | None  # high | medium | low
    start: str | None
    end: str
    days: int
    weights: int
    loggedDays: int
    averageIntakeKcal: float | None
    trendChangeKg: float | None
    trendChange: float | None  # in unit
    unit: str
    needs: Needs
    formulaKcal: int | None
    differencePct: float | None
    offered: bool
    hasPlan: bool
    choice: TdeeChoice | None
    inUse: str | None  # estimate | formula: the TDEE the plan uses now
    inUseKcal: int | None


class TrendOut(Struct):
    unit: str
    today: str
    points: list[TrendPoint]
    trendNow: float | None
    weeklyChange: float | None
    expenditure: ExpenditureOut
