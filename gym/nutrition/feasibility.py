"""Whether a member's food constraints leave a day that meets their targets (NUTRITION.md, "Infeasible
constraints"): decided in code, up front, before any agent plans, so a run that cannot be planned ends at once in
`error` / `constraints_infeasible` instead of spinning to its timeout.

A day is feasible when some amounts of the library foods the member may eat (`food_rules.allowed_foods`), each at
most a day's sensible amount (`DAY_CAP_G`), give the day's calories and protein within 5 % of the targets, fat and
carbohydrate within 10 % (the checks between agents), and fibre at least `fiber_g_min` but not past what a gut
bears (`fiber_ceiling`). A linear program (HiGHS) decides it. When it is not, the constraints that conflict are
named: each allergy and the diet pattern whose removal alone makes the day feasible, else all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import highspy
import numpy as np

from gym.nutrition.food_rules import FoodRules, allowed_foods
from gym.nutrition.foods import Food

BANDS = {"kcal": 0.05, "protein_g": 0.05, "fat_g": 0.10, "carbs_g": 0.10}


def day_cap(food: Food) -> float:
    """The most of one food a day sensibly holds (grams, as the food's values are: raw, dry or cooked)."""
    tags = food.tags
    if "oil" in tags:
        return 60.0
    if tags & {"nut", "seed", "nut_butter", "sesame"} and "legume" not in tags:
        return 80.0
    if food.aisle == "supplements":
        return 80.0
    if food.state == "dry":
        return 250.0
    if tags & {"cheese"}:
        return 100.0
    return 600.0


def fiber_ceiling(minimum: float) -> float:
    """At most this much fibre a day: 25 g over the minimum, or 60 % over it for big eaters."""
    return max(minimum + 25, 1.6 * minimum)


@dataclass(frozen=True)
class Targets:
    kcal: float
    protein_g: float
    fat_g: float
    carbs_g: float
    fiber_g_min: float


@lru_cache(maxsize=512)
def day_possible(targets: Targets, rules: FoodRules) -> bool:
    foods = allowed_foods(rules)
    if not foods:
        return False
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    n = len(foods)
    h.addCols(n, np.zeros(n), np.zeros(n), np.array([day_cap(f) for f in foods]), 0, np.zeros(n, dtype=np.int32),
              np.array([], dtype=np.int32), np.array([], dtype=np.float64))
    rows = [(name, getattr(targets, name) * (1 - band), getattr(targets, name) * (1 + band))
            for name, band in BANDS.items()]
    rows.append(("fiber_g", targets.fiber_g_min, fiber_ceiling(targets.fiber_g_min)))
    for name, lo, hi in rows:
        per = np.array([getattr(f, name) / 100 for f in foods], dtype=np.float64)
        h.addRow(lo, hi, n, np.arange(n, dtype=np.int32), per)
    h.run()
    return h.getModelStatus() == highspy.HighsModelStatus.kOptimal


def conflicting(targets: Targets, rules: FoodRules) -> list[str] | None:
    """None when a day can be planned; else the constraints that conflict ("allergy:soy", "diet:vegan", ...)."""
    if day_possible(targets, rules):
        return None
    named = [f"allergy:{code}" for code in rules.allergies]
    if rules.diet_pattern != "omnivore":
        named.append(f"diet:{rules.diet_pattern}")
    if rules.aversions:
        named.append("aversions")
    decisive = [c for c in named if day_possible(targets, _without(rules, c))]
    return decisive or named


def _without(rules: FoodRules, constraint: str) -> FoodRules:
    kind, _, value = constraint.partition(":")
    if kind == "allergy":
        return FoodRules(tuple(a for a in rules.allergies if a != value), rules.aversions, rules.diet_pattern)
    if kind == "diet":
        return FoodRules(rules.allergies, rules.aversions, "omnivore")
    return FoodRules(rules.allergies, (), rules.diet_pattern)


def infeasible(targets: object) -> list[str] | None:
    """`conflicting` for SCIENTIST's `macro_targets` (the model or its dict form)."""
    def get(name: str) -> Any:
        return targets[name] if isinstance(targets, dict) else getattr(targets, name)

    day = Targets(*(float(get(name)) for name in ("target_intake_kcal", "protein_g", "fat_g", "carbs_g",
                                                  "fiber_g_min")))
    return conflicting(day, FoodRules.of(get("client_constraints")))
