"""Deterministic NUTRITIONIST, DIETITIAN and CHEF for the offline provider: valid under every check of
`gym.nutrition.checks` by construction (pass-through macros, days summing to the daily targets exactly,
recipes solved to their slot's calories and protein)."""

from __future__ import annotations

from typing import Any

from gym.nutrition.payloads.common import DAYS, MEALS
from pipeline.offline.foods import FOODS, RECIPES, RecipeTemplate

SHARES = {"breakfast": 0.25, "lunch": 0.25, "snack": 0.15, "dinner": 0.25, "presleep": 0.10}
PROTEINS = ("chicken", "salmon", "beef", "tofu", "eggs", "yogurt", "cottage cheese")
PREP_MAX = {"breakfast": 10, "lunch": 30, "snack": 5, "dinner": 40, "presleep": 5}


def _split(total: float, digits: int = 1) -> dict[str, float]:
    """`total` shared by meal, rounded, the last share absorbing the rounding so the sum is exact."""
    parts = {m: round(total * SHARES[m], digits) for m in MEALS}
    parts["presleep"] = round(total - sum(v for m, v in parts.items() if m != "presleep"), digits)
    return parts


def nutritionist(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    t = inputs["macro_targets"]
    c = t["client_constraints"]
    low_appetite = c["appetite_level"] == "low"
    tactics = ["Eat every 3-4 hours", "Liquid calories between meals"] if low_appetite else [
        "Protein at every meal", "Plan meals the day before"]
    cycle = inputs.get("cycle_phase")
    considerations = ["Low appetite: energy-dense foods, smaller volumes"] if low_appetite else []
    if c["partner_cooks"]:
        considerations.append("Partner cooks dinner: share the slot specs")
    considerations.append("Separate calcium and iron sources by 2 hours")
    if cycle == "luteal":
        considerations.append("Luteal phase: carbohydrate-forward evening meals")
    return {
        "target_intake_kcal": t["target_intake_kcal"], "protein_g": t["protein_g"], "fat_g": t["fat_g"],
        "carbs_g": t["carbs_g"],
        "protein_distribution": {f"{m}_g": v for m, v in _split(t["protein_g"]).items()},
        "hardgainer_tactics": tactics if t["weekly_weight_target_kg"] > 0 else ["Protein at every meal"],
        "supplement_protocol": [{"supplement": "creatine monohydrate", "dose": "3 g", "timing": "daily, any time"}],
        "hydration_target_L": round(t["hydration_L"] + 0.3, 1),
        "fiber_target_g": max(t["fiber_g_min"], 25),
        "special_considerations": considerations,
        "cycle_adjustments": {"follicular": "Standard distribution",
                              "luteal": "Shift 10% of carbohydrates to dinner; keep protein steady"},
        "current_tier": inputs["current_tier"],
    }


def _templates(meal: str) -> list[RecipeTemplate]:
    return [t for t in RECIPES if t.meal == meal]


def dietitian(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    s = inputs["nutrition_strategy"]
    kcal, carbs, fat = _split(s["target_intake_kcal"], 0), _split(s["carbs_g"], 0), _split(s["fat_g"], 0)
    protein = {m: s["protein_distribution"][f"{m}_g"] for m in MEALS}
    template: dict[str, Any] = {}
    for index, day in enumerate(DAYS):
        template[day] = {m: {
            "slot_spec": {"protein_g": protein[m], "calories": kcal[m], "carbs_g": carbs[m], "fat_g": fat[m],
                          "prep_time_max_min": PREP_MAX[m], "constraints": []},
            "alternatives": [t.recipe_id for t in _templates(m)],
            "primary_protein": _templates(m)[index % len(_templates(m))].protein_food,
            "cuisine_theme": _templates(m)[index % len(_templates(m))].cuisine,
        } for m in MEALS}
    return {
        "weekly_template": template,
        "substitution_bank": {m: [t.recipe_id for t in _templates(m)] for m in MEALS},
        "emergency_protocol": {"meals": ["Protein shake with banana", "Eggs on toast", "Yogurt and granola"],
                               "calories": round(s["target_intake_kcal"] * 0.7),
                               "protein_g": round(s["protein_g"] * 0.8)},
        "solo_week_protocol": {"strategy": "Batch-cook two dinners on Sunday; breakfasts need no cooking",
                               "recipe_ids": ["chicken-rice-bowl", "beef-rice"]},
        "tracking_protocol": {"weeks_1_4": "Weigh portions and log every meal",
                              "weeks_5_plus": "Hand-size portions; log only dinners"},
    }


def _solve(template: RecipeTemplate, kcal: float, protein: float) -> dict[str, float] | None:
    """Grams of the protein and energy foods so a serving (with the extras) hits kcal and protein."""
    p, e = FOODS[template.protein_food], FOODS[template.energy_food]
    extra_kcal = sum(FOODS[n].kcal * g / 100 for n, g in template.extras)
    extra_protein = sum(FOODS[n].protein_g * g / 100 for n, g in template.extras)
    k, q = kcal - extra_kcal, protein - extra_protein
    det = p.kcal * e.protein_g - e.kcal * p.protein_g
    if det == 0:
        return None
    grams_p = 100 * (k * e.protein_g - e.kcal * q) / det
    grams_e = 100 * (p.kcal * q - k * p.protein_g) / det
    if grams_p <= 0 or grams_e <= 0:
        return None
    return {template.protein_food: round(grams_p, 1), template.energy_food: round(grams_e, 1), **dict(template.extras)}


def _macros(grams: dict[str, float]) -> dict[str, float]:
    total = {"protein_g": 0.0, "fat_g": 0.0, "carbs_g": 0.0, "fiber_g": 0.0, "calories": 0.0}
    for name, g in grams.items():
        food = FOODS[name]
        for key, per100 in (("protein_g", food.protein_g), ("fat_g", food.fat_g), ("carbs_g", food.carbs_g),
                            ("fiber_g", food.fiber_g), ("calories", food.kcal)):
            total[key] += per100 * g / 100
    return {key: round(value, 1) for key, value in total.items()}


def chef(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    """One recipe per distinct (slot spec, template): the week's identical slots share a batch recipe."""
    plan = inputs["weekly_meal_plan"]["weekly_template"]
    recipes: dict[tuple, dict[str, Any]] = {}
    for index, day in enumerate(DAYS):
        for meal, slot in plan[day].items():
            spec = slot["slot_spec"]
            options = _templates(meal)
            ordered = options[index % len(options):] + options[:index % len(options)]
            for template in ordered:
                grams = _solve(template, spec["calories"], spec["protein_g"])
                if grams is not None:
                    break
            else:
                template, grams = ordered[0], {ordered[0].protein_food: 100.0}
            key = (template.recipe_id, spec["calories"], spec["protein_g"])
            if key not in recipes:
                variants = sum(1 for other in recipes if other[0] == template.recipe_id)
                recipes[key] = {  # the first of a template is the recipe the meal plan's substitutions name
                    "recipe_id": f"{template.recipe_id}-{variants + 1}" if variants else template.recipe_id,
                    "slots": [],
                    "recipe_name": template.name, "cuisine": template.cuisine, "servings": 1,
                    "ingredients": [{"item": n, "amount_g": g, "prep_notes": ""} for n, g in grams.items()],
                    "macros_per_serving": _macros(grams), "instructions": list(template.steps),
                    "time": {"prep_min": template.prep_min, "cook_min": template.cook_min},
                    "batch_notes": "Cook once for every day it serves",
                    "storage": {"fridge_days": template.fridge_days, "freezer_friendly": template.freezer_friendly},
                    "calorie_boost_options": ["A drizzle of olive oil (+44 kcal per 5 g)"],
                }
            recipes[key]["slots"].append({"day": day, "meal": meal})
    for recipe in recipes.values():
        recipe["servings"] = len(recipe["slots"])
    return {"recipes": list(recipes.values())}
