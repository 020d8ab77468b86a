"""A logged portion in grams: what a member entered (grams, ounces or the food's serving) and what it weighs.

Servings are USDA FoodData Central's household measures for the same SR Legacy entry as the food's values (its
FDC id in `gym.nutrition.foods`), so a serving's energy is the food's per-100 g values × its grams. A food without
one here is logged by weight only. The unit a member types in follows their weight setting: grams with kg, ounces
with lbs (`portion_unit`); everything is stored in grams.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.errors import InvalidInput
from gym.nutrition.foods import Food

GRAMS_PER_OUNCE = 28.349523125  # the international avoirdupois ounce
MAX_GRAMS = 3_000.0  # one entry; more is a typing slip, not a portion
Unit = Literal["g", "oz", "serving"]


@dataclass(frozen=True)
class Serving:
    kind: str  # what the member counts: piece, slice, tbsp, container (console.food.serving.<kind>)
    grams: float
    measure: str  # USDA's household measure it is


SERVINGS: dict[str, Serving] = {
    "egg": Serving("piece", 50, "1 large"),
    "egg white": Serving("piece", 33, "1 large"),
    "banana": Serving("piece", 118, "1 medium (7\" to 7-7/8\" long)"),
    "apple": Serving("piece", 182, "1 medium (3\" dia)"),
    "avocado": Serving("piece", 201, "1 avocado, NS as to Florida or California"),
    "multigrain bread": Serving("slice", 26, "1 slice regular"),
    "rye bread": Serving("slice", 32, "1 slice"),
    "wholewheat pita": Serving("piece", 64, "1 pita, large (6-1/2\" dia)"),
    "greek yogurt": Serving("container", 170, "1 container (6 oz)"),
    "olive oil": Serving("tbsp", 13.5, "1 tablespoon"),
    "almond butter": Serving("tbsp", 16, "1 tbsp"),
}


def serving_of(food: Food) -> Serving | None:
    return SERVINGS.get(food.key)


def portion_unit(weight_unit: str) -> Literal["g", "oz"]:
    """The weight a member enters portions in: ounces when their weights are in pounds, else grams."""
    return "oz" if weight_unit == "lbs" else "g"


def grams(food: Food, amount: float, unit: Unit) -> float:
    """The portion's weight; 422 `no_serving` for a serving of a food without one, `portion_too_large` past
    3 kg."""
    if unit == "serving":
        serving = serving_of(food)
        if serving is None:
            raise InvalidInput("no_serving", detail="this food is logged by weight",
                               errors=[{"field": "unit", "code": "no_serving"}])
        weight = amount * serving.grams
    else:
        weight = amount * (GRAMS_PER_OUNCE if unit == "oz" else 1.0)
    if weight > MAX_GRAMS:
        raise InvalidInput("portion_too_large", detail="at most 3 kg in one entry",
                           errors=[{"field": "amount", "code": "portion_too_large"}])
    return weight
