"""The week's grocery list (issue 25 item 8): every recipe ingredient summed over the meal grid, by aisle.

A recipe's ingredients are one serving (its `macros_per_serving` are theirs: the CHEF's check compares them with
each slot's spec; `servings` says how many the week's slots take), and each slot it serves eats one serving, so
a week needs `amount_g × slots served` of each. Ingredients are summed per library food (`gym.nutrition.foods`:
"cooked white rice" and "rice" are one food) and shelved by the food's aisle, aisles in the order of
`AISLES` (a walk through the shop), foods by key within one; grams round up (a shopper buys at least what the
week needs). An ingredient the library does not know (a run from before the library: every served food is now
checked against it) is listed under `other` by its own words. Keys, not words: a person reads
`console.nutrition.aisle.<aisle>` and `console.nutrition.food.<food>` from locales/ (the nutrition page).
"""

from __future__ import annotations

import math
from typing import Any

from gym.nutrition.food_rules import find_food
from gym.nutrition.foods import AISLES

OTHER = "other"


def grocery_list(recipes: dict[str, Any] | None) -> list[dict[str, Any]] | None:
    """`[{aisle, items: [{food, grams}]}]` for a `recipes` payload (dict form); None when there are no recipes."""
    if not recipes or not recipes.get("recipes"):
        return None
    grams: dict[tuple[str, str], float] = {}
    for recipe in recipes["recipes"]:
        eaten = len(recipe["slots"])
        for ingredient in recipe["ingredients"]:
            food = find_food(ingredient["item"])
            key = (food.aisle, food.slug) if food else (OTHER, ingredient["item"].strip().lower())
            grams[key] = grams.get(key, 0.0) + ingredient["amount_g"] * eaten
    order = {aisle: i for i, aisle in enumerate((*AISLES, OTHER))}
    shelves: dict[str, list[dict[str, Any]]] = {}
    for (aisle, food_key), total in sorted(grams.items(), key=lambda kv: (order[kv[0][0]], kv[0][1])):
        if total > 0:
            shelves.setdefault(aisle, []).append({"food": food_key, "grams": math.ceil(round(total, 6))})
    return [{"aisle": aisle, "items": items} for aisle, items in shelves.items()]
