"""What a plan must be to be handed to a member, asserted on the stored payloads: every check between agents met,
every served day within NUTRITION.md's bands, no averted, allergenic or off-diet food, a varied week of real
recipes. Shared by the property test over the offline agents and the HTTP tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from gym.nutrition.checks import NOT_FOOD_TEXT, check_output, texts
from gym.nutrition.envelope import validate_payload
from gym.nutrition.food_rules import FoodRules, find_food, meal_refusal, refusal, text_refusal
from gym.nutrition.foods import FOODS
from gym.nutrition.payloads.common import DAYS, MEALS
from gym.nutrition.substitutions import check_substitutions
from pipeline.offline.planner import MAX_REPEATS, portion_scale
from pipeline.offline.recipes import menu

NUTRIENTS = ("calories", "protein_g", "fat_g", "carbs_g", "fiber_g")
NARROW = 8  # dishes a slot offers
BANDS = {"calories": 0.05, "protein_g": 0.05, "fat_g": 0.10, "carbs_g": 0.10}


def served_days(recipes: dict[str, Any]) -> dict[str, dict[str, float]]:
    """What each day serves: a serving of every recipe serving one of its slots."""
    days = {day: dict.fromkeys(NUTRIENTS, 0.0) for day in DAYS}
    for recipe in recipes["recipes"]:
        for slot in recipe["slots"]:
            for name in NUTRIENTS:
                days[slot["day"]][name] += recipe["macros_per_serving"][name]
    return days


def assert_plan_serves(targets: dict[str, Any], strategy: dict[str, Any], plan: dict[str, Any],
                       recipes: dict[str, Any], *, tier: int | None = None, offline: bool = True) -> None:
    inputs = {"macro_targets": validate_payload("macro_targets", targets)}
    s = validate_payload("nutrition_strategy", strategy)
    p = validate_payload("weekly_meal_plan", plan)
    assert check_output("NUTRITIONIST", s, inputs, tier=tier) == []
    assert check_output("DIETITIAN", p, {**inputs, "nutrition_strategy": s}) == []
    r = validate_payload("recipes", recipes)
    assert check_output("CHEF", r, {**inputs, "weekly_meal_plan": p}) == []
    assert check_substitutions(p, r) == []

    for day, served in served_days(recipes).items():
        for name, band in BANDS.items():
            target = targets["target_intake_kcal" if name == "calories" else name]
            assert abs(served[name] - target) <= band * target, (day, name, served[name], target)
        assert served["fiber_g"] >= targets["fiber_g_min"], (day, served["fiber_g"])

    rules = FoodRules.of(targets["client_constraints"])
    for recipe in recipes["recipes"]:
        for ingredient in recipe["ingredients"]:
            assert refusal(ingredient["item"], rules) is None, (recipe["recipe_name"], ingredient["item"])
        foods = [find_food(i["item"]) for i in recipe["ingredients"]]
        assert meal_refusal([f for f in foods if f], [recipe["recipe_name"]], rules) is None, recipe["recipe_name"]
    for output in (strategy, plan, recipes):  # no food the member may not eat named anywhere in the plan's text
        for where, text in texts(output, skip=NOT_FOOD_TEXT):
            assert text_refusal(text, rules) is None, (where, text)
    if offline:
        assert_offline_week(rules, targets["target_intake_kcal"], plan, recipes)


def assert_offline_week(rules: FoodRules, kcal: float, plan: dict[str, Any], recipes: dict[str, Any]) -> None:
    """The offline plan's week: dishes vary (a dish at most MAX_REPEATS times, once more only where no day could
    be built otherwise; never twice a day; a dozen dishes at least), recipes are real (several ingredients within
    the template's portion ranges, steps), every slot is served."""
    variants = {v.key: v for meal in MEALS for v in menu(rules)[meal]}
    scale = portion_scale(kcal)
    per_day: dict[str, list[str]] = {day: [] for day in DAYS}
    for recipe in recipes["recipes"]:
        key = recipe["recipe_id"]
        variant = variants[key] if key in variants else variants[key.rsplit("-", 1)[0]]
        bounds = {food.key: (c.lo, c.hi * scale) for food, c in variant.parts}
        assert len(recipe["ingredients"]) >= 2 and recipe["instructions"], recipe["recipe_name"]
        assert not any("∅" in step for step in recipe["instructions"])
        for ingredient in recipe["ingredients"]:
            lo, hi = bounds[ingredient["item"]]
            factor = FOODS[ingredient["item"]].yield_factor or 1.0  # listed as bought: the range is cooked grams
            slack = 0.5 * factor + 0.5
            assert lo - slack <= ingredient["amount_g"] * factor <= hi + slack, (recipe["recipe_name"], ingredient)
        for slot in recipe["slots"]:
            per_day[slot["day"]].append(variant.dish)
    for dishes in per_day.values():
        assert len(dishes) == len(MEALS) == len(set(dishes))  # every slot served, no dish twice a day
    uses = Counter(dish for dishes in per_day.values() for dish in dishes)
    # Allergies and a diet together (issue 37: "vegan" with "wheat allergy", or three allergies at once) can leave a
    # slot fewer than NARROW dishes; the week then repeats a dish once more (the planner's cap rises only as far as the
    # week needs): a fourth time, never more.
    narrow = min(len({v.dish for v in menu(rules)[meal]}) for meal in MEALS) < NARROW
    assert max(uses.values()) <= MAX_REPEATS + (2 if narrow else 1), uses.most_common(3)
    assert len(uses) >= 12, uses  # not two menus alternating
    for day in DAYS:
        slots = plan["weekly_template"][day]
        assert set(slots) == set(MEALS)
