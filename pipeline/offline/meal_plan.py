"""What the offline DIETITIAN does on top of the packaged meal plan (NUTRITION.md, Weekly feedback and Checks):

- the luteal-phase adjustment (004 §10: a luteal check-in re-runs DIETITIAN and CHEF with the NUTRITIONIST's
  `cycle_adjustments`): a tenth of each day's carbohydrate moves to dinner, taken from the other slots in
  proportion to their carbohydrate, with their calories (4 kcal per gram); each day's totals stay as they were.
  Where the kitchen cannot cook a day so shifted (a low-protein dinner that no dish of the member's cookbook
  serves with that much more carbohydrate at that protein), that day moves half as much, down to a fortieth;
- substitutions only the kitchen can cook: the plan names (as alternatives, in the substitution bank, for the solo
  week) only recipes the offline CHEF produces for it, so every substitution names a recipe of the run.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

LUTEAL_CARB_SHARE = 0.10
LUTEAL_LEAST_SHARE = 0.025  # a day's shift halves, when the CHEF cannot cook it, down to this
ROUNDS = 3
KCAL_PER_G_CARB = 4
Agent = Callable[[dict[str, Any], str | None], dict[str, Any]]


class Uncookable(ValueError):
    """The CHEF has no dish for a slot of a day's plan (`day`, `meal`)."""

    def __init__(self, day: str, meal: str, spec: dict[str, Any]) -> None:
        super().__init__(f"{day}: no dish of the cookbook fits {meal} {spec}")
        self.day, self.meal = day, meal


def shift_carbs_to_dinner(plan: dict[str, Any], share: float | dict[str, float] = LUTEAL_CARB_SHARE) -> dict[str, Any]:
    """The weekly meal plan with `share` (of every day, or per day) of each day's carbohydrate moved to its
    dinner slot."""
    out = copy.deepcopy(plan)
    for day, slots in out["weekly_template"].items():
        dinner = slots.get("dinner")
        others = [meal for meal in slots if meal != "dinner" and slots[meal]["slot_spec"]["carbs_g"] > 0]
        if dinner is None or not others:
            continue
        carbs = {meal: slots[meal]["slot_spec"]["carbs_g"] for meal in others}
        day_share = share[day] if isinstance(share, dict) else share
        moved = round(day_share * (sum(carbs.values()) + dinner["slot_spec"]["carbs_g"]))
        taken = 0
        for index, meal in enumerate(others):
            take = moved - taken if index == len(others) - 1 else round(moved * carbs[meal] / sum(carbs.values()))
            take = min(take, carbs[meal])
            spec = slots[meal]["slot_spec"]
            spec["carbs_g"] = carbs[meal] - take
            spec["calories"] = spec["calories"] - KCAL_PER_G_CARB * take
            taken += take
        spec = dinner["slot_spec"]
        spec["carbs_g"] += taken
        spec["calories"] += KCAL_PER_G_CARB * taken
        spec["constraints"] = [*spec["constraints"], f"Luteal phase: {taken} g carbohydrate moved here from the "
                               "day's other meals"]
    return out


def name_only_cooked(plan: dict[str, Any], chef: Agent, macro_targets: dict[str, Any]) -> dict[str, Any]:
    """The plan naming, wherever it offers a substitution, only recipes `chef` produces for it (from the member's
    macro targets, whose food rules and portion scale the CHEF cooks by), each slot's first alternative the recipe
    that serves it. Repeated until the CHEF cooks the plan it is handed as it cooked it the time before (a slot it
    had to cook with another dish names that dish first the next time), at most `ROUNDS` times."""
    for _ in range(ROUNDS):
        named = _naming(plan, chef({"weekly_meal_plan": plan, "macro_targets": macro_targets}, None)["recipes"])
        if named == plan:
            break
        plan = named
    return plan


def _naming(plan: dict[str, Any], recipes: list[dict[str, Any]]) -> dict[str, Any]:
    cooked = {recipe["recipe_id"] for recipe in recipes}
    serving = {(slot["day"], slot["meal"]): recipe["recipe_id"] for recipe in recipes for slot in recipe["slots"]}
    out = copy.deepcopy(plan)
    for day, slots in out["weekly_template"].items():
        for meal, slot in slots.items():
            first = serving.get((day, meal))
            slot["alternatives"] = [*([first] if first else []),
                                    *(r for r in slot["alternatives"] if r in cooked and r != first)]
    out["substitution_bank"] = {meal: [r for r in ids if r in cooked] for meal, ids in out["substitution_bank"].items()}
    solo = out["solo_week_protocol"]
    solo["recipe_ids"] = [r for r in solo["recipe_ids"] if r in cooked]
    return out


def planned_with(dietitian: Agent, chef: Agent) -> Agent:
    """The offline DIETITIAN: the packaged plan, shifted in the luteal phase, naming only what `chef` cooks."""
    def answer(inputs: dict[str, Any], constraint: str | None = None) -> dict[str, Any]:
        plan = dietitian(inputs, constraint)
        if inputs.get("cycle_phase") != "luteal":
            return name_only_cooked(plan, chef, inputs["macro_targets"])
        shares = dict.fromkeys(plan["weekly_template"], LUTEAL_CARB_SHARE)
        while True:
            try:
                return name_only_cooked(shift_carbs_to_dinner(plan, shares), chef, inputs["macro_targets"])
            except Uncookable as exc:
                if shares.get(exc.day, 0) / 2 < LUTEAL_LEAST_SHARE:
                    raise
                shares[exc.day] /= 2
    return answer
