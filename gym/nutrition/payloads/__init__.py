"""Payload schemas per edge (004 §4) keyed by `data_type`, and the edges each data type may travel."""

from __future__ import annotations

from pydantic import BaseModel

from gym.nutrition.payloads.control import PipelineErrorPayload, UpstreamDataRequest
from gym.nutrition.payloads.feedback import AdjustmentResult, WeeklyCheckin
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.meals import Recipes, WeeklyMealPlan
from gym.nutrition.payloads.medical import HealthQuery, MedicalContext
from gym.nutrition.payloads.nutrition import MacroTargets, NutritionStrategy
from gym.nutrition.payloads.training import TrainingInput, TrainingProgram

SCHEMAS: dict[str, type[BaseModel]] = {
    "intake_data": IntakeData,
    "macro_targets": MacroTargets,
    "nutrition_strategy": NutritionStrategy,
    "weekly_meal_plan": WeeklyMealPlan,
    "recipes": Recipes,
    "training_input": TrainingInput,
    "training_program": TrainingProgram,
    "health_query": HealthQuery,
    "medical_context": MedicalContext,
    "weekly_checkin": WeeklyCheckin,
    "adjustment_result": AdjustmentResult,
    "pipeline_error": PipelineErrorPayload,
    "upstream_data_request": UpstreamDataRequest,
}

_WORKERS = ("INTAKE", "SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH")
_AGENTS = (*_WORKERS, "PHYSICIAN")
# data_type -> the (from_agent, to_agent) pairs it may travel (004 §4, §5, §6, §7).
EDGES: dict[str, frozenset[tuple[str, str]]] = {
    "intake_data": frozenset({("INTAKE", "SCIENTIST")}),
    "macro_targets": frozenset({("SCIENTIST", "NUTRITIONIST")}),
    "nutrition_strategy": frozenset({("NUTRITIONIST", "DIETITIAN")}),
    "weekly_meal_plan": frozenset({("DIETITIAN", "CHEF")}),
    "recipes": frozenset({("CHEF", "USER")}),
    "training_input": frozenset({("SCIENTIST", "COACH")}),
    "training_program": frozenset({("COACH", "USER")}),
    "health_query": frozenset({(sender, "PHYSICIAN") for sender in (*_WORKERS, "USER")}),
    "medical_context": frozenset({("PHYSICIAN", to) for to in (*_WORKERS, "USER")}),
    "weekly_checkin": frozenset({("USER", "SCIENTIST")}),
    "adjustment_result": frozenset({("SCIENTIST", "USER")}),
    "pipeline_error": frozenset({("ORCHESTRATOR", "USER")}),
    "upstream_data_request": frozenset({(a, b) for a in _AGENTS for b in _AGENTS if a != b}),
}
# The data type each model-backed agent submits through its one `submit_<data_type>` tool.
OUTPUT_OF: dict[str, str] = {"NUTRITIONIST": "nutrition_strategy", "DIETITIAN": "weekly_meal_plan",
                             "CHEF": "recipes", "COACH": "training_program", "PHYSICIAN": "medical_context"}
DATA_TYPES: tuple[str, ...] = tuple(SCHEMAS)
