"""CHEF's last check (NUTRITION.md, Checks between agents): every substitution the meal plan names — a slot's
`alternatives`, the `substitution_bank`, the solo week's recipes — is a recipe the run produced, so a member who
swaps a meal finds its recipe. Broken, it is a rank-4 conflict (DIETITIAN's plan stands; CHEF re-runs once)."""

from __future__ import annotations

from gym.nutrition.checks import Conflict
from gym.nutrition.payloads.common import DAYS
from gym.nutrition.payloads.meals import Recipes, WeeklyMealPlan


def named_recipes(plan: WeeklyMealPlan) -> dict[str, str]:
    """Every recipe id the meal plan names, with where it first names it."""
    named: dict[str, str] = {}
    for day in DAYS:
        for meal, slot in plan.weekly_template.day(day).items():
            for recipe_id in slot.alternatives:
                named.setdefault(recipe_id, f"{day}.{meal}.alternatives")
    for meal, ids in plan.substitution_bank.items():
        for recipe_id in ids:
            named.setdefault(recipe_id, f"substitution_bank.{meal}")
    for recipe_id in plan.solo_week_protocol.recipe_ids:
        named.setdefault(recipe_id, "solo_week_protocol.recipe_ids")
    return named


def check_substitutions(plan: WeeklyMealPlan, recipes: Recipes) -> list[Conflict]:
    produced = {recipe.recipe_id for recipe in recipes.recipes}
    return [Conflict(4, where, recipe_id, None, f"the meal plan names recipe {recipe_id} ({where}): produce a recipe "
                     f"with that recipe_id")
            for recipe_id, where in named_recipes(plan).items() if recipe_id not in produced]
