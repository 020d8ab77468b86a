"""DIETITIAN -> CHEF (`weekly_meal_plan`, 004 §4.4) and CHEF -> OUTPUT (`recipes`, 004 §4.5).

Extensions (NUTRITION.md): each recipe carries `recipe_id` and the slots it serves, so the orchestrator
can check its macros against each slot spec; each slot spec carries its fibre (`fiber_g`), so a day's fibre
can be checked against `fiber_g_min`.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gym.nutrition.payloads.common import Day, Grams, Kcal, Meal, Payload, Short, Text

RecipeIds = Annotated[list[Short], Field(max_length=50)]
Minutes = Annotated[int, Field(ge=0, le=24 * 60)]


class SlotSpec(Payload):
    protein_g: Grams
    calories: Kcal
    carbs_g: Grams
    fat_g: Grams
    fiber_g: Grams
    prep_time_max_min: Minutes
    constraints: list[Text] = Field(max_length=20)


class MealSlot(Payload):
    slot_spec: SlotSpec
    alternatives: RecipeIds
    primary_protein: Short
    cuisine_theme: Short | None


DayPlan = Annotated[dict[Meal, MealSlot], Field(min_length=1)]


class WeeklyTemplate(Payload):
    monday: DayPlan
    tuesday: DayPlan
    wednesday: DayPlan
    thursday: DayPlan
    friday: DayPlan
    saturday: DayPlan
    sunday: DayPlan

    def day(self, day: Day) -> dict[Meal, MealSlot]:
        return getattr(self, day)


class EmergencyProtocol(Payload):
    meals: list[Text] = Field(min_length=1, max_length=10)
    calories: Kcal
    protein_g: Grams


class SoloWeekProtocol(Payload):
    strategy: Text
    recipe_ids: RecipeIds


class TrackingProtocol(Payload):
    weeks_1_4: Text
    weeks_5_plus: Text


class WeeklyMealPlan(Payload):
    weekly_template: WeeklyTemplate
    substitution_bank: dict[Meal, RecipeIds]
    emergency_protocol: EmergencyProtocol
    solo_week_protocol: SoloWeekProtocol
    tracking_protocol: TrackingProtocol


class SlotRef(Payload):
    day: Day
    meal: Meal


class Ingredient(Payload):
    item: Short
    amount_g: Grams
    prep_notes: Text


class MacrosPerServing(Payload):
    protein_g: Grams
    fat_g: Grams
    carbs_g: Grams
    fiber_g: Grams
    calories: Kcal


class RecipeTime(Payload):
    prep_min: Minutes
    cook_min: Minutes


class Storage(Payload):
    fridge_days: Annotated[int, Field(ge=0, le=30)]
    freezer_friendly: bool


class Recipe(Payload):
    recipe_id: Short
    slots: list[SlotRef] = Field(min_length=1, max_length=35)
    recipe_name: Short
    cuisine: Short
    servings: Annotated[float, Field(gt=0, le=50)]
    ingredients: list[Ingredient] = Field(min_length=1, max_length=40)
    macros_per_serving: MacrosPerServing
    instructions: list[Text] = Field(min_length=1, max_length=40)
    time: RecipeTime
    batch_notes: Text
    storage: Storage
    calorie_boost_options: list[Text] = Field(max_length=20)


class Recipes(Payload):
    recipes: list[Recipe] = Field(min_length=1, max_length=70)
