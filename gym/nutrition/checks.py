"""The checks between agents (004 §8 conflict detection, as NUTRITION.md makes exact).

Each check compares an agent's output with the authoritative upstream output and returns conflicts
tagged with the rank of the rule broken: 2 (SCIENTIST over NUTRITIONIST on numbers), 3 (NUTRITIONIST
over DIETITIAN: each day's calories and protein within 5 % of the daily targets, fat and carbohydrate
within 10 %, fibre at least `fiber_g_min`), 4 (DIETITIAN over CHEF: each recipe within 10 % of every slot
it serves, and each day's served fibre at least `fiber_g_min`). The foods check (NUTRITION.md) refuses a
served food that breaks the member's allergies, aversions or diet pattern (`gym.nutrition.food_rules`): it is
rank 2, the constraints being the intake's, which SCIENTIST hands on as `client_constraints`, and it names
the agent that served the food. The supplements check (NUTRITION.md, "Clinical rules in code") refuses creatine or
a stimulant that the clinical rules exclude (`gym.nutrition.clinical`) in NUTRITIONIST's strategy or COACH's
program, rank 2 too (SCIENTIST hands the exclusion on). An empty list means the output may travel on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gym.nutrition.food_rules import FoodRules, find_food, meal_refusal, refusal, served, text_refusal
from gym.nutrition.payloads.common import DAYS, Agent
from gym.nutrition.payloads.meals import Recipes, WeeklyMealPlan
from gym.nutrition.payloads.nutrition import MacroTargets, NutritionStrategy
from gym.nutrition.payloads.training import TrainingInput
from gym.nutrition.safety_floor import strings_in
from gym.nutrition.supplements import supplements_named

PROTEIN_DISTRIBUTION_TOLERANCE_G = 5
DAY_TOLERANCE = 0.05
DAY_FAT_CARBS_TOLERANCE = 0.10
RECIPE_TOLERANCE = 0.10
FOODS_RULE = 2
RULE_AGENTS: dict[int, tuple[Agent, Agent]] = {2: ("SCIENTIST", "NUTRITIONIST"), 3: ("NUTRITIONIST", "DIETITIAN"),
                                          4: ("DIETITIAN", "CHEF")}


@dataclass(frozen=True)
class Conflict:
    rule: int
    field: str
    expected: float | str | None
    actual: float | str | None
    message: str
    agent: Agent | None = None  # the overridden agent when the rule's pair does not say (the foods check)

    @property
    def authoritative(self) -> Agent:
        return RULE_AGENTS[self.rule][0]

    @property
    def overridden(self) -> Agent:
        return self.agent or RULE_AGENTS[self.rule][1]


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


def check_meal_plan(strategy: NutritionStrategy, plan: WeeklyMealPlan, *,
                    fiber_g_min: float | None = None) -> list[Conflict]:
    """DIETITIAN: each day's slot calories and protein within 5 % of the daily targets, fat and carbohydrate
    within 10 %, fibre at least `fiber_g_min`."""
    out: list[Conflict] = []
    for day in DAYS:
        slots = [s.slot_spec for s in plan.weekly_template.day(day).values()]
        for field, target, tolerance in (("calories", strategy.target_intake_kcal, DAY_TOLERANCE),
                                         ("protein_g", strategy.protein_g, DAY_TOLERANCE),
                                         ("fat_g", strategy.fat_g, DAY_FAT_CARBS_TOLERANCE),
                                         ("carbs_g", strategy.carbs_g, DAY_FAT_CARBS_TOLERANCE)):
            total = round(sum(getattr(s, field) for s in slots), 1)
            if not within(total, target, tolerance):
                out.append(Conflict(3, f"{day}.{field}", target, total,
                                    f"{day} {field} {total:g} must be within {tolerance:.0%} of {target:g}"))
        fiber = round(sum(s.fiber_g for s in slots), 1)
        if fiber_g_min is not None and fiber < fiber_g_min - 1e-9:
            out.append(Conflict(3, f"{day}.fiber_g", fiber_g_min, fiber,
                                f"{day} fiber_g {fiber:g} must be at least fiber_g_min {fiber_g_min:g}"))
    return out


def check_recipes(plan: WeeklyMealPlan, recipes: Recipes, *, fiber_g_min: float | None = None) -> list[Conflict]:
    """CHEF: ids unique, every slot served, each recipe within 10 % of each slot spec it serves, and each day's
    served fibre (a serving of every recipe serving it) at least `fiber_g_min`."""
    out: list[Conflict] = []
    fiber: dict[str, float] = dict.fromkeys(DAYS, 0.0)
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
            fiber[ref.day] += macros.fiber_g
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
        if fiber_g_min is not None and fiber[day] < fiber_g_min - 1e-9:
            out.append(Conflict(4, f"{day}.fiber_g", fiber_g_min, round(fiber[day], 1),
                                f"the recipes serving {day} give {fiber[day]:.1f} g fibre; fiber_g_min is "
                                f"{fiber_g_min:g}"))
    return out


def served_foods(output: Any) -> list[tuple[str, str, bool]]:
    """(where, what, is_one_food) for every food an agent's output serves: supplements, a slot's primary protein
    and the emergency meals (free text naming foods), recipe ingredients (one library food each) and calorie
    boosts."""
    if isinstance(output, NutritionStrategy):
        return [(f"supplement_protocol[{i}]", s.supplement, False) for i, s in enumerate(output.supplement_protocol)]
    if isinstance(output, WeeklyMealPlan):
        out = [(f"{day}.{meal}.primary_protein", slot.primary_protein, False)
               for day in DAYS for meal, slot in output.weekly_template.day(day).items()]
        return out + [(f"emergency_protocol.meals[{i}]", m, False) for i, m in enumerate(output.emergency_protocol.meals)]
    if isinstance(output, Recipes):
        return [item for r in output.recipes for item in (
            *((f"{r.recipe_id}.ingredients[{i}]", ing.item, True) for i, ing in enumerate(r.ingredients)),
            *((f"{r.recipe_id}.calorie_boost_options[{i}]", b, False) for i, b in enumerate(r.calorie_boost_options)))]
    return []


# Fields that name no food to eat: ids, slots, and the slot's constraints (the member's restrictions, said to CHEF).
NOT_FOOD_TEXT = frozenset({"recipe_id", "alternatives", "substitution_bank", "recipe_ids", "day", "meal", "constraints",
                           "current_tier", "cuisine", "cuisine_theme"})
SERVED_KEYS = frozenset({"primary_protein", "meals", "supplement", "item", "calorie_boost_options"})  # served_foods'


def texts(payload: Any, path: str = "", skip: frozenset[str] = NOT_FOOD_TEXT) -> list[tuple[str, str]]:
    """(where, text) for every string of an output (a model's JSON form), but under the keys in `skip`."""
    if isinstance(payload, str):
        return [(path, payload)]
    if isinstance(payload, dict):
        return [item for key, value in payload.items() if key not in skip
                for item in texts(value, f"{path}.{key}" if path else str(key), skip)]
    if isinstance(payload, list):
        return [item for i, value in enumerate(payload) for item in texts(value, f"{path}[{i}]", skip)]
    return []


def _recipe_conflicts(agent: Agent, recipes: Recipes, rules: FoodRules) -> list[Conflict]:
    """A recipe's text (name, steps, notes) names only its own ingredients; kosher keeps meat and milk apart."""
    out: list[Conflict] = []
    for r in recipes.recipes:
        own = {food.key for food in (find_food(i.item) for i in r.ingredients) if food}
        words = [r.recipe_name, *r.instructions, r.batch_notes, *(i.prep_notes for i in r.ingredients)]
        for text in words:
            for m in served(text):
                if not m.concept.covers & own:
                    out.append(Conflict(FOODS_RULE, f"{r.recipe_id}.text", None, m.words,
                                        f"{r.recipe_id} names '{m.words}', which is not among its ingredients: a "
                                        "recipe's text names only its own ingredients", agent=agent))
        foods = [food for food in (find_food(i.item) for i in r.ingredients) if food]
        reason = meal_refusal(foods, [*words, *r.calorie_boost_options], rules)
        if reason:
            out.append(Conflict(FOODS_RULE, f"{r.recipe_id}", None, r.recipe_name, f"{r.recipe_id}: {reason}",
                                agent=agent))
    return out


def check_foods(agent: Agent, output: Any, rules: FoodRules) -> list[Conflict]:
    """Every food `agent` serves may be served under the member's allergies, aversions and diet pattern, and every
    food its text names anywhere (a recipe's name and steps, a tactic, a note, a substitution) may be eaten too."""
    out: list[Conflict] = []
    for where, what, one_food in served_foods(output):
        reason = refusal(what, rules) if one_food else text_refusal(what, rules)
        if reason:
            out.append(Conflict(FOODS_RULE, where, None, what, f"{where} serves '{what}': {reason}", agent=agent))
    dumped = output.model_dump(mode="json") if hasattr(output, "model_dump") else output
    for where, text in texts(dumped, skip=NOT_FOOD_TEXT | SERVED_KEYS):
        reason = text_refusal(text, rules)
        if reason:
            out.append(Conflict(FOODS_RULE, where, None, text[:200], f"{where} names a food the member may not eat: {reason}", agent=agent))
    if isinstance(output, Recipes):
        out += _recipe_conflicts(agent, output, rules)
    return out


def check_supplements(agent: Agent, output: Any, excluded: Sequence[str]) -> list[Conflict]:
    """No supplement the clinical rules exclude for this member: NUTRITIONIST's protocol (an entry of caffeine counts)
    and its tactics and considerations, every string of COACH's program."""
    if not excluded:
        return []
    if isinstance(output, NutritionStrategy):
        texts = [(f"supplement_protocol[{i}]", s.supplement, True) for i, s in enumerate(output.supplement_protocol)]
        texts += [(f"hardgainer_tactics[{i}]", t, False) for i, t in enumerate(output.hardgainer_tactics)]
        texts += [(f"special_considerations[{i}]", t, False) for i, t in enumerate(output.special_considerations)]
    else:
        texts = [("training_program", text, False) for text in strings_in(output.model_dump(mode="json"))]
    out: list[Conflict] = []
    for where, text, entry in texts:
        kinds = sorted(supplements_named(text, entry=entry) & set(excluded))
        if kinds:
            out.append(Conflict(FOODS_RULE, where, None, text, f"{where} names {' and '.join(kinds)}, which this "
                                "member may not take (client_constraints.supplements_excluded: a minor, pregnancy "
                                "or breastfeeding)", agent=agent))
    return out


def check_output(agent: Agent, output: Any, inputs: dict[str, Any], *, tier: int | None = None) -> list[Conflict]:
    """Every check of `agent`'s output against its inputs (validated payloads by data type, `macro_targets`
    among them, `training_input` for COACH): the rules of its rank, the foods and the supplements checks."""
    if agent == "COACH":
        program_input: TrainingInput = inputs["training_input"]
        return check_supplements(agent, output, program_input.client_data.supplements_excluded)
    targets: MacroTargets = inputs["macro_targets"]
    if agent == "NUTRITIONIST":
        out = check_strategy(targets, output, tier=tier)
        out += check_supplements(agent, output, targets.client_constraints.supplements_excluded)
    elif agent == "DIETITIAN":
        out = check_meal_plan(inputs["nutrition_strategy"], output, fiber_g_min=targets.fiber_g_min)
    elif agent == "CHEF":
        out = check_recipes(inputs["weekly_meal_plan"], output, fiber_g_min=targets.fiber_g_min)
    else:
        return []
    return out + check_foods(agent, output, FoodRules.of(targets.client_constraints))
