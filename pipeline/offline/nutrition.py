"""Deterministic NUTRITIONIST, DIETITIAN and CHEF for the offline provider, solving for portions
(`pipeline.offline.planner`, HiGHS) over the food library filtered by the member's food rules.

NUTRITIONIST passes SCIENTIST's macros through and solves the protein distribution; DIETITIAN solves the week's
dishes and grams day by day (calories and protein within 3 %, fat and carbohydrate within 8 %, fibre at least
the target) and writes each slot's spec from its solved dish, the dish first among the slot's alternatives;
CHEF solves each slot's dish (the first alternative it knows, else the one that fits best) to its spec and
writes the recipes, a recipe serving every slot that gets the same dish in the same portions.
"""

from __future__ import annotations

import re
from typing import Any

from gym.nutrition.checks import RECIPE_TOLERANCE, within
from gym.nutrition.food_rules import FoodRules, food_refusal
from gym.nutrition.foods import FOODS
from gym.nutrition.payloads.common import DAYS, MEALS
from pipeline.offline.meal_plan import Uncookable
from pipeline.offline.planner import (
    DayTargets,
    Portion,
    cook_day,
    plan_week,
    portion,
    portion_scale,
    protein_distribution,
)
from pipeline.offline.recipes import Variant, menu

PREP_MAX = {"breakfast": 15, "lunch": 45, "snack": 10, "dinner": 50, "presleep": 10}
BOOSTS = (("olive oil", 5, "A drizzle of olive oil"), ("pumpkin seeds", 15, "A spoon of pumpkin seeds"),
          ("sunflower seeds", 15, "A spoon of sunflower seeds"), ("almonds", 15, "A handful of almonds"))


def _rules(inputs: dict[str, Any]) -> FoodRules:
    return FoodRules.of(inputs["macro_targets"]["client_constraints"])


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
    if c.get("diet_pattern", "omnivore") == "vegan":
        considerations.append("Vegan: vitamin B12 supplement; pair legumes and grains across the day")
    if cycle == "luteal":
        considerations.append("Luteal phase: carbohydrate-forward evening meals")
    split = protein_distribution(t["protein_g"])
    return {
        "target_intake_kcal": t["target_intake_kcal"], "protein_g": t["protein_g"], "fat_g": t["fat_g"],
        "carbs_g": t["carbs_g"],
        "protein_distribution": {f"{m}_g": v for m, v in split.items()},
        "hardgainer_tactics": tactics if t["weekly_weight_target_kg"] > 0 else ["Protein at every meal"],
        "supplement_protocol": [] if "creatine" in c.get("supplements_excluded", []) else [
            {"supplement": "creatine monohydrate", "dose": "3 g", "timing": "daily, any time"}],
        "hydration_target_L": round(t["hydration_L"] + 0.3, 1),
        "fiber_target_g": max(t["fiber_g_min"] + 2, 25),
        "special_considerations": considerations,
        "cycle_adjustments": {"follicular": "Standard distribution",
                              "luteal": "Shift 10% of carbohydrates to dinner; keep protein steady"},
        "current_tier": inputs["current_tier"],
    }


def day_targets(strategy: dict[str, Any]) -> DayTargets:
    return DayTargets(strategy["target_intake_kcal"], strategy["protein_g"], strategy["fat_g"], strategy["carbs_g"],
                      strategy["fiber_target_g"],
                      {m: strategy["protein_distribution"][f"{m}_g"] for m in MEALS})


def _spec(p: Portion) -> dict[str, Any]:
    m = p.macros
    return {"protein_g": round(m["protein_g"], 1), "calories": round(m["calories"]), "carbs_g": float(round(m["carbs_g"])),
            "fat_g": round(m["fat_g"], 1), "fiber_g": round(m["fiber_g"], 1)}


def _constraints(rules: FoodRules) -> list[str]:
    out = [f"{rules.diet_pattern} diet"] if rules.diet_pattern != "omnivore" else []
    out += [f"allergy: {code}" for code in rules.allergies] + [f"avoid: {a}" for a in rules.aversions]
    return out[:20]


def dietitian(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    s = inputs["nutrition_strategy"]
    rules = _rules(inputs)
    dishes = menu(rules)
    week = plan_week(day_targets(s), dishes)
    template: dict[str, Any] = {}
    for day in DAYS:
        template[day] = {}
        for meal, p in week[day].items():
            others = [v.key for v in dishes[meal] if v.dish != p.variant.dish][:4]
            template[day][meal] = {
                "slot_spec": {**_spec(p), "prep_time_max_min": max(PREP_MAX[meal], p.variant.template.prep_min
                                                                   + p.variant.template.cook_min),
                              "constraints": _constraints(rules)},
                "alternatives": [p.variant.key, *others], "primary_protein": p.variant.main_protein,
                "cuisine_theme": p.variant.template.cuisine}
    quick = [v for v in dishes["snack"] + dishes["presleep"] if v.template.cook_min <= 5]
    frozen = [v.key for v in dishes["dinner"] if v.template.freezer][:6] or [dishes["dinner"][0].key]
    return {
        "weekly_template": template,
        "substitution_bank": {m: [v.key for v in dishes[m]][:50] for m in MEALS},
        "emergency_protocol": {"meals": list(dict.fromkeys(v.name for v in quick))[:3] or [dishes["snack"][0].name],
                               "calories": round(s["target_intake_kcal"] * 0.7),
                               "protein_g": round(s["protein_g"] * 0.8)},
        "solo_week_protocol": {"strategy": "Batch-cook two freezer-friendly dinners on Sunday; breakfasts need no "
                                           "cooking", "recipe_ids": frozen},
        "tracking_protocol": {"weeks_1_4": "Weigh portions and log every meal",
                              "weeks_5_plus": "Hand-size portions; log only dinners"},
    }


def _clean(step: str, used: set[str], unused: set[str]) -> str:
    """A step without the optional ingredients left out of this portion: a clause naming only left-out foods goes,
    a left-out food named beside used ones is dropped from its clause."""
    def names(clause: str, foods: set[str]) -> bool:
        return any(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", clause, re.IGNORECASE) for f in foods)

    clauses = [c for c in re.split(r";\s*", step.rstrip(".")) if not names(c, unused) or names(c, used)]
    text = "; ".join(clauses)
    for food in unused:
        name = re.escape(food)
        text = re.sub(rf"\s*\([^()]*(?<!\w){name}(?!\w)[^()]*\)", "", text, flags=re.IGNORECASE)
        text = re.sub(rf"(,| and| with| or)?( the)? {name}(?!\w)", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s+([,.;])", r"\1", re.sub(r"\s{2,}", " ", text)).strip(" ,;")
    return (text[:1].upper() + text[1:] + ".") if text else ""


def as_bought(food: str, grams: float) -> dict[str, Any]:
    """A recipe's ingredient in the weight a member buys and weighs it (NUTRITION.md: raw or dry), a cooked weight
    only as converted by the food's stated yield (`Food.yield_factor`, from its two USDA entries)."""
    factor = FOODS[food].yield_factor
    if factor is None:
        return {"item": food, "amount_g": grams, "prep_notes": ""}
    bought = FOODS[food].bought
    assert bought is not None
    return {"item": food, "amount_g": float(max(1, round(grams / factor))),
            "prep_notes": f"weighed {bought.state}; cooks to about {grams:g} g (yield {factor:.2f}: USDA FDC "
                          f"{bought.fdc_id} {bought.state} vs {FOODS[food].fdc_id} cooked)"}


def _weighed(found: Portion) -> Portion:
    """The portion in whole grams, as the recipe lists it (an ingredient under a gram left out)."""
    return Portion(found.variant, {food: float(round(g)) for food, g in found.grams.items() if round(g) >= 1})


def _dish(dishes: list[Variant], recipe_ids: list[str]) -> Variant | None:
    """The member's dish the first of `recipe_ids` names: a variant's key, or a recipe id of one (`<key>-2`)."""
    by_key = {v.key: v for v in dishes}
    for recipe_id in recipe_ids:
        base, _, number = recipe_id.rpartition("-")
        found = by_key.get(recipe_id) or (by_key.get(base) if number.isdigit() else None)
        if found is not None:
            return found
    return None


def _pick(dishes: dict[str, list[Variant]], day: str, meal: str, slot: dict[str, Any], scale: float) -> Portion:
    """The slot's dish in whole grams: its first alternative the cookbook knows, else the member's dish that fits
    the spec; solved within 8 % of the spec's calories and protein where a dish can be (whole grams then stay
    within CHEF's 10 %), else within 9.5 %, and kept only when the weighed portion is within 10 %."""
    spec = slot["slot_spec"]
    first = _dish(dishes[meal], slot.get("alternatives", [])[:1])
    known = [first] if first else []
    for band, fibre in ((0.08, True), (0.095, True), (0.095, False)):  # last: the slot's fibre left to the day
        target = spec if fibre else {**spec, "fiber_g": 0}
        for variant in [*known[:1], *(v for v in dishes[meal] if v not in known[:1])]:
            found = portion(variant, target, scale, band)
            if found is None:
                continue
            weighed = _weighed(found)
            if all(within(weighed.macros[name], spec[name], RECIPE_TOLERANCE) for name in ("calories", "protein_g")):
                return weighed
    raise Uncookable(day, meal, spec)


def _cook_day(t: dict[str, Any], dishes: dict[str, list[Variant]], slots: dict[str, Any]) -> dict[str, Portion]:
    """A day's slots cooked together (`planner.cook_day`) in whole grams; a slot whose weighed portion leaves its
    spec by more than CHEF's 10 % is left out (to be cooked alone), as is every slot when the day cannot be."""
    targets = DayTargets(t["target_intake_kcal"], t["protein_g"], t["fat_g"], t["carbs_g"], t["fiber_g_min"],
                         {m: s["slot_spec"]["protein_g"] for m, s in slots.items()})
    first = {meal: _dish(dishes[meal], slot.get("alternatives", [])[:1]) for meal, slot in slots.items()}
    day = cook_day(targets, {m: s["slot_spec"] for m, s in slots.items()}, first, dishes)
    out: dict[str, Portion] = {}
    for meal, found in (day or {}).items():
        weighed, spec = _weighed(found), slots[meal]["slot_spec"]
        if all(within(weighed.macros[name], spec[name], RECIPE_TOLERANCE) for name in ("calories", "protein_g")):
            out[meal] = weighed
    return out


def chef(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
    """The recipes for a weekly meal plan: a function of the plan and the macro targets alone (a re-run's
    constraint adds nothing the plan does not say)."""
    plan = inputs["weekly_meal_plan"]["weekly_template"]
    rules = _rules(inputs)
    dishes = menu(rules)
    boosts = [f"{text} (+{round(FOODS[food].kcal * grams / 100)} kcal)" for food, grams, text in BOOSTS
              if food_refusal(FOODS[food], rules) is None][:2]
    recipes: dict[tuple, dict[str, Any]] = {}
    t = inputs["macro_targets"]
    scale = portion_scale(t["target_intake_kcal"])  # the DIETITIAN's portions
    for day in DAYS:
        cooked_day = _cook_day(t, dishes, plan[day])
        for meal, slot in plan[day].items():
            cooked = found = cooked_day.get(meal) or _pick(dishes, day, meal, slot, scale)
            grams = found.grams
            key = (found.variant.key, tuple(sorted(grams.items())))
            if key not in recipes:
                template = found.variant.template
                unused = {f or "∅" for f in found.variant.foods if not f or f not in grams}
                m = cooked.macros
                same = sum(1 for other in recipes if other[0] == found.variant.key)
                recipes[key] = {  # the first of a dish is the recipe the meal plan's substitutions name
                    "recipe_id": f"{found.variant.key}-{same + 1}" if same else found.variant.key, "slots": [],
                    "recipe_name": _clean(template.name.format(*(f or "∅" for f in found.variant.foods)), set(grams),
                                          unused).rstrip(".") or found.variant.name,
                    "cuisine": template.cuisine, "servings": 1,
                    "ingredients": [as_bought(f, g) for f, g in grams.items()],
                    "macros_per_serving": {"protein_g": round(m["protein_g"], 1), "fat_g": round(m["fat_g"], 1),
                                           "carbs_g": round(m["carbs_g"], 1), "fiber_g": round(m["fiber_g"], 1),
                                           "calories": round(m["calories"])},
                    "instructions": [s for s in (_clean(step, set(grams), unused) for step in found.variant.steps()) if s],
                    "time": {"prep_min": template.prep_min, "cook_min": template.cook_min},
                    "batch_notes": f"Keeps {template.fridge_days} days in the fridge"
                                   + ("; freezes well" if template.freezer else ""),
                    "storage": {"fridge_days": template.fridge_days, "freezer_friendly": template.freezer},
                    "calorie_boost_options": boosts,
                }
            recipes[key]["slots"].append({"day": day, "meal": meal})
    for recipe in recipes.values():
        recipe["servings"] = len(recipe["slots"])
    return {"recipes": list(recipes.values())}
