"""INTAKE -> SCIENTIST (`intake_data`, 004 §4.1), plus `sex` (NUTRITION.md: Mifflin-St Jeor needs it).

`menstrual_status` is required for women and optional for men (Spotter serves every member; the spec
was written for one female client). `food_aversions` may be empty for the same reason. NUTRITION.md adds
`allergies` and `diet_pattern` (default omnivore) beside it: every food an agent serves is checked against
the three (`gym.nutrition.food_rules`). Allergies and the diet pattern are stored as codes: the member's words are
mapped to them here, once (`gym.nutrition.allergy_terms`); a word that maps to nothing is refused.

"Clinical rules in code" adds `screening` (PAR-Q+'s seven questions; any "yes" pauses the run for a referral before
the plan, `gym.nutrition.safety_floor`) and the menstrual statuses `perimenopausal` and `postmenopausal`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from gym.nutrition.allergy_terms import allergy_codes, diet_code, unknown_allergens_error, unknown_diet_error
from gym.nutrition.payloads.common import Allergen, DietPattern, MenstrualStatus, Payload, Short


class MedicalHistory(Payload):
    medications: list[Short] = Field(default_factory=list, max_length=50)
    conditions: list[Short] = Field(default_factory=list, max_length=50)
    injuries: list[Short] = Field(default_factory=list, max_length=50)


class Screening(Payload):
    """PAR-Q+ (2023), the seven general health questions, as the member answered them."""

    heart_condition: bool  # a heart condition or high blood pressure, as a doctor said
    chest_pain_in_activity: bool  # chest pain at rest, in daily activities or when doing physical activity
    chest_pain_at_rest_past_month: bool  # chest pain when not doing physical activity, in the past month
    dizziness_or_fainting: bool  # lost balance from dizziness or lost consciousness in the past 12 months
    bone_or_joint_problem: bool  # a bone, joint or soft-tissue problem made worse by becoming more active
    heart_or_blood_pressure_medication: bool  # prescribed medication for a heart condition or blood pressure
    other_reason: bool  # any other reason a doctor said to be active only under medical supervision


class IntakeData(Payload):
    model_config = ConfigDict(json_schema_extra={  # the rule of `_menstrual_status_for_women`, for /schema
        "if": {"required": ["sex"], "properties": {"sex": {"const": "female"}}},
        "then": {"required": ["menstrual_status"], "properties": {"menstrual_status": {"type": "string"}}}})

    sex: Literal["female", "male"]
    age: Annotated[float, Field(ge=14, le=100)]
    height_cm: Annotated[float, Field(ge=100, le=250)]
    current_weight_kg: Annotated[float, Field(ge=25, le=350)]
    target_weight_kg: Annotated[float, Field(ge=25, le=350)]
    training_phase: Literal["pre_training", "active_training"]
    estimated_daily_intake_kcal: Annotated[float, Field(ge=0, le=15_000)]
    avg_daily_steps: Annotated[float, Field(ge=0, le=100_000)]
    menstrual_status: MenstrualStatus | None = None
    training_experience: Literal["none", "beginner", "intermediate"]
    food_aversions: list[Short] = Field(default_factory=list, max_length=100)
    allergies: list[Allergen] = Field(default_factory=list, max_length=50)
    diet_pattern: DietPattern = "omnivore"
    appetite_level: Literal["low", "normal", "high"]
    cooking_skill: Literal["basic", "intermediate", "advanced"]
    partner_cooks: bool
    equipment_access: Literal["home_minimal", "home_full", "commercial_gym", "both"]
    gym_anxiety_level: Literal["high", "moderate", "low"]
    medical_history: MedicalHistory = Field(default_factory=MedicalHistory)
    screening: Screening | None = None

    @field_validator("allergies", mode="before")
    @classmethod
    def _allergy_codes(cls, value: object) -> object:
        if not isinstance(value, list) or not all(isinstance(term, str) for term in value):
            return value  # the schema says what is wrong with it
        codes, refused = allergy_codes(value)
        if refused:
            raise unknown_allergens_error(refused)
        return list(codes)

    @field_validator("diet_pattern", mode="before")
    @classmethod
    def _diet_code(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        code = diet_code(value)
        if code is None:
            raise unknown_diet_error(value)
        return code

    @model_validator(mode="after")
    def _menstrual_status_for_women(self) -> IntakeData:
        if self.sex == "female" and self.menstrual_status is None:
            raise ValueError("menstrual_status is required when sex is female")
        return self
