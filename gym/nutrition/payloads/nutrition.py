"""SCIENTIST -> NUTRITIONIST (`macro_targets`, 004 §4.2) and NUTRITIONIST -> DIETITIAN
(`nutrition_strategy`, 004 §4.3)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gym.nutrition.payloads.common import (
    Allergen,
    DietPattern,
    ExcludedSupplement,
    Grams,
    Kcal,
    Payload,
    Short,
    Text,
)


class ClientConstraints(Payload):
    """Extension (NUTRITION.md): `allergies` (allergen codes) and `diet_pattern` travel with the aversions, so
    every agent (and every check) sees the member's food constraints; `supplements_excluded` are the supplements the
    clinical rules forbid (`gym.nutrition.clinical`), checked in code on NUTRITIONIST's output."""

    food_aversions: list[Short] = Field(max_length=100)
    allergies: list[Allergen] = Field(default_factory=list, max_length=50)
    diet_pattern: DietPattern = "omnivore"
    appetite_level: Literal["low", "normal", "high"]
    cooking_skill: Literal["basic", "intermediate", "advanced"]
    partner_cooks: bool
    supplements_excluded: list[ExcludedSupplement] = Field(default_factory=list, max_length=2)


class MacroTargets(Payload):
    bmr_kcal: Kcal
    tdee_kcal: Kcal
    target_intake_kcal: Kcal
    protein_g: Grams
    protein_g_per_kg: Annotated[float, Field(ge=0, le=5)]
    fat_g: Grams
    fat_percent: Annotated[float, Field(ge=0, le=100)]
    carbs_g: Grams
    fiber_g_min: Grams
    hydration_L: Annotated[float, Field(ge=0, le=20)]
    current_weight_kg: Annotated[float, Field(gt=0, le=350)]
    target_weight_kg: Annotated[float, Field(gt=0, le=350)]
    weekly_weight_target_kg: Annotated[float, Field(ge=-2, le=2)]
    training_phase: Literal["pre_training", "active_training"]
    weeks_on_program: Annotated[int, Field(ge=0, le=1_000)]
    adaptation_period_complete: bool
    client_constraints: ClientConstraints


class ProteinDistribution(Payload):
    breakfast_g: Grams
    lunch_g: Grams
    snack_g: Grams
    dinner_g: Grams
    presleep_g: Grams

    def total(self) -> float:
        return self.breakfast_g + self.lunch_g + self.snack_g + self.dinner_g + self.presleep_g


class Supplement(Payload):
    supplement: Short
    dose: Short
    timing: Short


class CycleAdjustments(Payload):
    follicular: Text
    luteal: Text


class NutritionStrategy(Payload):
    target_intake_kcal: Kcal
    protein_g: Grams
    fat_g: Grams
    carbs_g: Grams
    protein_distribution: ProteinDistribution
    hardgainer_tactics: list[Text] = Field(max_length=30)
    supplement_protocol: list[Supplement] = Field(max_length=20)
    hydration_target_L: Annotated[float, Field(ge=0, le=20)]
    fiber_target_g: Grams
    special_considerations: list[Text] = Field(max_length=30)
    cycle_adjustments: CycleAdjustments
    current_tier: Literal[0, 1, 2]


