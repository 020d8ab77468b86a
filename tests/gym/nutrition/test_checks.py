"""Checks between agents and the resolution protocol (004 §8 as NUTRITION.md makes exact), plus the
004 §6 retry rules: one re-run, then `error` with the fields the spec names."""

from __future__ import annotations

import json
import uuid

import pytest

from gym.nutrition.checks import check_meal_plan, check_output, check_recipes, check_strategy
from gym.nutrition.envelope import input_hash
from gym.nutrition.payloads.common import DAYS, MEALS
from gym.nutrition.payloads.meals import Recipes, WeeklyMealPlan
from gym.nutrition.payloads.nutrition import MacroTargets, NutritionStrategy
from gym.nutrition.resolution import on_conflict, on_invalid, on_timeout, on_upstream_missing
from tests.gym.nutrition import samples

RUN = uuid.uuid4()


def test_samples_pass_every_check() -> None:
    t = MacroTargets.model_validate(samples.targets())
    s = NutritionStrategy.model_validate(samples.strategy())
    plan = WeeklyMealPlan.model_validate(samples.meal_plan())
    assert check_strategy(t, s, tier=0) == []
    assert check_meal_plan(s, plan) == []
    assert check_recipes(plan, Recipes.model_validate(samples.recipes())) == []


@pytest.mark.parametrize(("change", "fields"), [
    ({"target_intake_kcal": 2380}, ["target_intake_kcal"]),  # NUTRITIONIST changing calories: rank 2
    ({"protein_g": 110}, ["protein_g"]),
    ({"carbs_g": 300, "fat_g": 64}, ["fat_g", "carbs_g"]),
    ({"fiber_target_g": 30}, ["fiber_target_g"]),  # below fiber_g_min 31
    ({"current_tier": 2}, ["current_tier"]),
    ({"protein_distribution": {"breakfast_g": 30, "lunch_g": 30, "snack_g": 15, "dinner_g": 30, "presleep_g": 2}},
     ["protein_distribution"]),  # 107 g is 6 g off 101
])
def test_nutritionist_conflicts_are_rank_2(change: dict, fields: list[str]) -> None:
    t = MacroTargets.model_validate(samples.targets())
    s = NutritionStrategy.model_validate({**samples.strategy(), **change})
    found = check_strategy(t, s, tier=0)
    assert [c.field for c in found] == fields
    assert all(c.rule == 2 and c.authoritative == "SCIENTIST" and c.overridden == "NUTRITIONIST" for c in found)


def test_protein_distribution_tolerance_is_5_g() -> None:
    t = MacroTargets.model_validate(samples.targets())  # protein 101
    ok = {"breakfast_g": 30, "lunch_g": 30, "snack_g": 15, "dinner_g": 26, "presleep_g": 5}  # 106
    s = NutritionStrategy.model_validate({**samples.strategy(), "protein_distribution": ok})
    assert check_strategy(t, s) == []


def _plan_with_monday(kcal_factor: float = 1.0, protein_factor: float = 1.0) -> WeeklyMealPlan:
    plan = samples.meal_plan()
    monday = {m: {**slot, "slot_spec": {**slot["slot_spec"], "calories": slot["slot_spec"]["calories"] * kcal_factor,
                                         "protein_g": slot["slot_spec"]["protein_g"] * protein_factor}}
              for m, slot in plan["weekly_template"]["monday"].items()}
    plan["weekly_template"] = {**plan["weekly_template"], "monday": monday}
    return WeeklyMealPlan.model_validate(plan)


@pytest.mark.parametrize(("kcal", "protein", "fields"), [
    (1.049, 1.0, []), (0.951, 1.0, []), (1.0, 1.049, []),
    (1.051, 1.0, ["monday.calories"]), (0.94, 1.0, ["monday.calories"]), (1.0, 0.94, ["monday.protein_g"]),
])
def test_dietitian_days_within_5_percent(kcal: float, protein: float, fields: list[str]) -> None:
    s = NutritionStrategy.model_validate(samples.strategy())
    found = check_meal_plan(s, _plan_with_monday(kcal, protein))
    assert [c.field for c in found] == fields
    assert all(c.rule == 3 and (c.authoritative, c.overridden) == ("NUTRITIONIST", "DIETITIAN") for c in found)


@pytest.mark.parametrize(("field", "factor", "fields"), [
    ("fat_g", 1.09, []), ("fat_g", 1.12, ["monday.fat_g"]), ("carbs_g", 0.91, []),
    ("carbs_g", 0.88, ["monday.carbs_g"]), ("fiber_g", 0.8, ["monday.fiber_g"]),  # 28 g < fiber_g_min 31
])
def test_dietitian_fat_and_carbs_within_10_percent_and_fibre_at_least_the_minimum(
        field: str, factor: float, fields: list[str]) -> None:
    s = NutritionStrategy.model_validate(samples.strategy())
    plan = json.loads(json.dumps(samples.meal_plan()))
    plan["weekly_template"]["monday"] = {m: {**slot, "slot_spec": {**slot["slot_spec"],
                                                                  field: slot["slot_spec"][field] * factor}}
                                         for m, slot in plan["weekly_template"]["monday"].items()}
    found = check_meal_plan(s, WeeklyMealPlan.model_validate(plan), fiber_g_min=31)
    assert [c.field for c in found] == fields
    assert all(c.rule == 3 and c.overridden == "DIETITIAN" for c in found)


def test_chef_serves_each_day_at_least_fiber_g_min() -> None:
    plan = WeeklyMealPlan.model_validate(samples.meal_plan())
    recipes = samples.recipes()
    assert check_recipes(plan, Recipes.model_validate(recipes), fiber_g_min=35) == []  # 5 x 7 g
    recipes["recipes"][0]["macros_per_serving"]["fiber_g"] = 2  # breakfast serves all 7 days
    found = check_recipes(plan, Recipes.model_validate(recipes), fiber_g_min=31)
    assert [c.field for c in found] == [f"{d}.fiber_g" for d in DAYS]
    assert all(c.rule == 4 and c.overridden == "CHEF" and "30.0 g fibre" in c.message for c in found)


def test_check_output_adds_the_foods_check_from_the_members_constraints() -> None:
    t = MacroTargets.model_validate(samples.targets(food_aversions=["rice"]))
    plan = WeeklyMealPlan.model_validate(samples.meal_plan())
    found = check_output("CHEF", Recipes.model_validate(samples.recipes()), {"macro_targets": t,
                                                                               "weekly_meal_plan": plan})
    assert {c.field for c in found if ".ingredients" in c.field} == {f"r-{m}.ingredients[0]" for m in MEALS}  # every
    # recipe serves rice, and its steps name it
    assert {c.field for c in found if ".instructions" in c.field} == {f"recipes[{i}].instructions[0]" for i in range(5)}
    assert all("aversion 'rice'" in c.message and c.overridden == "CHEF" for c in found)


def test_a_foods_conflict_and_a_macro_conflict_go_into_one_rerun() -> None:
    t = MacroTargets.model_validate(samples.targets(allergies=["Shellfish"]))
    plan = WeeklyMealPlan.model_validate(samples.meal_plan())
    recipes = samples.recipes()
    recipes["recipes"][0]["ingredients"][0]["item"] = "shrimp"
    recipes["recipes"][1]["macros_per_serving"]["calories"] *= 1.2
    found = check_output("CHEF", Recipes.model_validate(recipes), {"macro_targets": t, "weekly_meal_plan": plan})
    decision = on_conflict(found, reruns_done=0, run_id=RUN)
    assert (decision.action, decision.agent) == ("rerun", "CHEF")
    assert "Rule 2: SCIENTIST's output is authoritative" in decision.constraint
    assert "allergen crustacean_shellfish" in decision.constraint and "within 10%" in decision.constraint


@pytest.mark.parametrize(("factor", "off"), [(1.0, False), (1.10, False), (0.90, False), (1.12, True), (0.88, True)])
def test_chef_recipes_within_10_percent_of_their_slots(factor: float, off: bool) -> None:
    plan = WeeklyMealPlan.model_validate(samples.meal_plan())
    recipes = samples.recipes()
    recipes["recipes"][1]["macros_per_serving"]["calories"] *= factor
    found = check_recipes(plan, Recipes.model_validate(recipes))
    assert len(found) == (7 if off else 0)  # the lunch recipe serves 7 lunches
    assert all(c.rule == 4 and c.overridden == "CHEF" and c.field.endswith("calories") for c in found)


def test_chef_must_serve_every_slot_with_unique_ids() -> None:
    plan = WeeklyMealPlan.model_validate(samples.meal_plan())
    recipes = samples.recipes()
    recipes["recipes"][0]["slots"] = recipes["recipes"][0]["slots"][:6]  # sunday breakfast unserved
    recipes["recipes"][2]["recipe_id"] = recipes["recipes"][1]["recipe_id"]
    found = [c.field for c in check_recipes(plan, Recipes.model_validate(recipes))]
    assert "sunday.breakfast" in found and "r-lunch.recipe_id" in found


def test_a_recipe_12_percent_off_reruns_chef_once_then_errors_conflict_unresolved() -> None:
    plan = WeeklyMealPlan.model_validate(samples.meal_plan())
    recipes = samples.recipes()
    recipes["recipes"][0]["macros_per_serving"]["calories"] *= 1.12
    conflicts = check_recipes(plan, Recipes.model_validate(recipes))
    first = on_conflict(conflicts, reruns_done=0, run_id=RUN)
    assert (first.action, first.agent) == ("rerun", "CHEF")
    assert "DIETITIAN's output is authoritative" in first.constraint and "within 10%" in first.constraint
    second = on_conflict(conflicts, reruns_done=1, run_id=RUN)
    assert (second.action, second.agent) == ("error", "CHEF")
    error = second.error
    assert (error.error_type, error.failing_agent, error.recoverable, error.retry_count) == (
        "conflict_unresolved", "CHEF", True, 1)
    assert error.pipeline_run_id == RUN
    assert set(error.conflict.reasoning) == {"DIETITIAN", "CHEF"}  # both agents' reasoning shown
    assert (error.conflict.rule, error.conflict.authoritative_agent) == (4, "DIETITIAN")


def test_the_highest_rank_conflict_decides() -> None:
    t = MacroTargets.model_validate(samples.targets())
    s = NutritionStrategy.model_validate({**samples.strategy(), "target_intake_kcal": 2380})
    plan = WeeklyMealPlan.model_validate(samples.meal_plan())
    recipes = samples.recipes()
    recipes["recipes"][0]["macros_per_serving"]["calories"] *= 2
    conflicts = check_recipes(plan, Recipes.model_validate(recipes)) + check_strategy(t, s)
    decision = on_conflict(conflicts, reruns_done=0, run_id=RUN)
    assert decision.agent == "NUTRITIONIST" and "Rule 2" in decision.constraint


def test_validation_failure_reruns_with_the_errors_then_errors() -> None:
    errors = [{"loc": ("daily_calories",), "msg": "'daily_calories' is not a canonical name; use "
                                                  "'target_intake_kcal'", "type": "non_canonical_name"}]
    first = on_invalid("NUTRITIONIST", errors, reruns_done=0, run_id=RUN)
    assert first.action == "rerun" and "use 'target_intake_kcal'" in first.constraint
    second = on_invalid("NUTRITIONIST", errors, reruns_done=1, run_id=RUN)
    assert second.action == "error" and second.error.error_type == "validation_failure"
    assert second.error.failing_agent == "NUTRITIONIST" and second.error.retry_count == 1


def test_timeout_retries_identically_then_errors_with_duration_and_input_hash() -> None:
    agent_input = {"nutrition_strategy": samples.strategy()}
    first = on_timeout("DIETITIAN", agent_input, retries_done=0, timeout_ms=30_000, run_id=RUN)
    assert first.action == "rerun" and first.constraint is None
    second = on_timeout("DIETITIAN", agent_input, retries_done=1, timeout_ms=30_000, run_id=RUN)
    e = second.error
    assert (e.error_type, e.failing_agent, e.timeout_duration_ms, e.pipeline_run_id, e.retry_count) == (
        "timeout", "DIETITIAN", 30_000, RUN, 1)
    assert e.input_hash == input_hash(agent_input)


def test_upstream_missing_reruns_the_upstream_agent_once() -> None:
    first = on_upstream_missing("DIETITIAN", "NUTRITIONIST", ["protein_distribution"], reruns_done=0, run_id=RUN)
    assert (first.action, first.agent) == ("rerun", "NUTRITIONIST") and "protein_distribution" in first.constraint
    second = on_upstream_missing("DIETITIAN", "NUTRITIONIST", ["protein_distribution"], reruns_done=1, run_id=RUN)
    assert second.error.error_type == "upstream_missing" and second.error.failing_agent == "NUTRITIONIST"
