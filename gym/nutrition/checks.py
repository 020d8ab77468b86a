"""The checks between agents (004 §8 conflict detection, as NUTRITION.md makes exact).

Each check compares an agent's output with the authoritative upstream output and returns conflicts
tagged with the rank of the rule broken: 2 (SCIENTIST over NUTRITIONIST on numbers), 3 (NUTRITIONIST
over DIETITIAN: each day within 5 % of the daily targets), 4 (DIETITIAN over CHEF: each recipe within
10 % of every slot it serves). An empty list means the output may travel on.
"""

from __future__ import annotations

from dataclasses import dataclass

from gym.nutrition.payloads.common import DAYS
from gym.nutrition.payloads.meals import Recipes, WeeklyMealPlan
from gym.nutrition.payloads.nutrition import MacroTargets, NutritionStrategy

PROTEIN_DISTRIBUTION_TOLERANCE_G = 5
DAY_TOLERANCE = 0.05
RECIPE_TOLERANCE = 0.10
RULE_AGENTS: dict[int, tuple[str, str]] = {2: ("SCIENTIST", "NUTRITIONIST"), 3: ("NUTRITIONIST", "DIETITIAN"),
                                          4: ("DIETITIAN", "CHEF")}


@dataclass(frozen=True)
class Conflict:
    rule: int
    field: str
    expected: float | str | None
    actual: float | str | None
    message: str

    @property
    def authoritative(self) -> str:
        return RULE_AGENTS[self.rule][0]

    @property
    def overridden(self) -> str:
        return RULE_AGENTS[self.rule][1]


def within(actual: float, target: float, tolerance: float) -> bool:
    return abs(actual - target) <= tolerance * target + 1e-9


def check_strategy(targets: MacroTargets, strategy: NutritionStrategy, *, tier: int | None = None) -> list[Conflict]:
    """NUTRITIONIST: pass-through macros equal SCIENTIST's; distribution sums to protein ± 5 g; fiber floor."""
    out = [Conflict(2, name, getattr(targets, name), getattr(strategy, name),
                    f"{name} must pass through unchanged as {getattr(targets, name):g}")
           for name in ("target_intake_kcal", "protein_g", "fat_g", "carbs_g")
           if abs(getattr(targets, name) - getattr(strategy, name)) > 1e-9]
    total = strategy.protein_distribution.total()
    if abs(total - targets.protein_g) > PROTEIN_DISTRIBUTION_TOLERANCE_G:
        out.append(Conflict(2, "protein_distribution", targets.protein_g, total,
                            f"protein_distribution must sum to {targets.protein_g:g} g ± "
                            f"{PROTEIN_DISTRIBUTION_TOLERANCE_G} g"))
    if strategy.fiber_target_g < targets.fiber_g_min:
        out.append(Conflict(2, "fiber_target_g", targets.fiber_g_min, strategy.fiber_target_g,
                            f"fiber_target_g must be at least fiber_g_min {targets.fiber_g_min:g}"))
    if tier is not None and strategy.current_tier != tier:
        out.append(Conflict(2, "current_tier", tier, strategy.current_tier, f"current_tier must be {tier}"))
    return out


def check_meal_plan(strategy: NutritionStrategy, plan: WeeklyMealPlan) -> list[Conflict]:
    """DIETITIAN: each day's slot calories and protein within 5 % of the daily targets."""
    out: list[Conflict] = []
    for day in DAYS:
        slots = plan.weekly_template.day(day).values()
        for field, target, total in (
                ("calories", strategy.target_intake_kcal, sum(s.slot_spec.calories for s in slots)),
                ("protein_g", strategy.protein_g, sum(s.slot_spec.protein_g for s in slots))):
            if not within(total, target, DAY_TOLERANCE):
                out.append(Conflict(3, f"{day}.{field}", target, total,
                                    f"{day} {field} {total:g} must be within 5% of {target:g}"))
    return out


def check_recipes(plan: WeeklyMealPlan, recipes: Recipes) -> list[Conflict]:
    """CHEF: ids unique, every slot served, each recipe within 10 % of each slot spec it serves."""
    out: list[Conflict] = []
    seen: set[str] = set()
    served: set[tuple[str, str]] = set()
    for recipe in recipes.recipes:
        if recipe.recipe_id in seen:
            out.append(Conflict(4, f"{recipe.recipe_id}.recipe_id", None, recipe.recipe_id,
                                f"recipe_id {recipe.recipe_id} is used twice"))
        seen.add(recipe.recipe_id)
        macros = recipe.macros_per_serving
        for ref in recipe.slots:
            slot = plan.weekly_template.day(ref.day).get(ref.meal)
            where = f"{recipe.recipe_id}@{ref.day}.{ref.meal}"
            if slot is None:
                out.append(Conflict(4, where, None, ref.meal, f"{ref.day} has no {ref.meal} slot"))
                continue
            served.add((ref.day, ref.meal))
            for field, target, actual in (("calories", slot.slot_spec.calories, macros.calories),
                                          ("protein_g", slot.slot_spec.protein_g, macros.protein_g)):
                if not within(actual, target, RECIPE_TOLERANCE):
                    out.append(Conflict(4, f"{where}.{field}", target, actual,
                                        f"{recipe.recipe_id} {field} {actual:g} must be within 10% of the "
                                        f"{ref.day} {ref.meal} slot's {target:g}"))
    for day in DAYS:
        for meal in plan.weekly_template.day(day):
            if (day, meal) not in served:
                out.append(Conflict(4, f"{day}.{meal}", None, None, f"no recipe serves {day} {meal}"))
    return out
