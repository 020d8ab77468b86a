"""Valid payloads for every edge, built from the issue's intake, so tests can break exactly one thing."""

from __future__ import annotations

from typing import Any

from gym.nutrition.payloads.common import DAYS, MEALS
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.scientist import macro_targets

SHARES = {"breakfast": 0.25, "lunch": 0.25, "snack": 0.15, "dinner": 0.25, "presleep": 0.10}

# The intake: female, 28 y, 165 cm, 56.2 kg -> 62 kg, 6,500 steps, active training, beginner, low appetite.
INTAKE: dict[str, Any] = {
    "sex": "female", "age": 28, "height_cm": 165, "current_weight_kg": 56.2, "target_weight_kg": 62,
    "training_phase": "active_training", "estimated_daily_intake_kcal": 1700, "avg_daily_steps": 6500,
    "menstrual_status": "regular", "training_experience": "beginner",
    "food_aversions": ["peanut_butter", "nut_butters"], "appetite_level": "low", "cooking_skill": "basic",
    "partner_cooks": True, "equipment_access": "commercial_gym", "gym_anxiety_level": "high",
    "medical_history": {"medications": [], "conditions": [], "injuries": []},
}


# PAR-Q+'s seven questions all answered "no" (NUTRITION.md, "Clinical rules in code")
NO_SCREENING: dict[str, bool] = {
    "heart_condition": False, "chest_pain_in_activity": False, "chest_pain_at_rest_past_month": False,
    "dizziness_or_fainting": False, "bone_or_joint_problem": False, "heart_or_blood_pressure_medication": False,
    "other_reason": False}


def intake(**changes: Any) -> IntakeData:
    return IntakeData.model_validate({**INTAKE, **changes})


def targets(**changes: Any) -> dict[str, Any]:
    return macro_targets(intake(**changes)).model_dump(mode="json")


def strategy(t: dict[str, Any] | None = None) -> dict[str, Any]:
    t = t or targets()
    return {
        "target_intake_kcal": t["target_intake_kcal"], "protein_g": t["protein_g"], "fat_g": t["fat_g"],
        "carbs_g": t["carbs_g"],
        "protein_distribution": {f"{m}_g": round(t["protein_g"] * SHARES[m], 1) for m in MEALS},
        "hardgainer_tactics": ["Liquid calories between meals"],
        "supplement_protocol": [{"supplement": "creatine monohydrate", "dose": "3 g", "timing": "any time"}],
        "hydration_target_L": t["hydration_L"], "fiber_target_g": t["fiber_g_min"] + 2,
        "special_considerations": ["Low appetite: energy-dense snacks"],
        "cycle_adjustments": {"follicular": "Standard plan", "luteal": "+100 kcal from carbohydrates"},
        "current_tier": 0,
    }


def slot(kcal: float, protein: float, carbs: float | None = None, fat: float | None = None,
         fiber: float = 7) -> dict[str, Any]:
    return {"slot_spec": {"protein_g": protein, "calories": kcal,
                          "carbs_g": round(kcal * 0.5 / 4) if carbs is None else carbs,
                          "fat_g": round(kcal * 0.25 / 9) if fat is None else fat, "fiber_g": fiber,
                          "prep_time_max_min": 20, "constraints": []},
            "alternatives": [], "primary_protein": "chicken", "cuisine_theme": None}


def meal_plan(s: dict[str, Any] | None = None) -> dict[str, Any]:
    s = s or strategy()
    day = {m: slot(round(s["target_intake_kcal"] * SHARES[m]), round(s["protein_g"] * SHARES[m], 1),
                   round(s["carbs_g"] * SHARES[m], 1), round(s["fat_g"] * SHARES[m], 1)) for m in MEALS}
    return {"weekly_template": {d: day for d in DAYS},
            "substitution_bank": {m: [f"r-{m}"] for m in MEALS},
            "emergency_protocol": {"meals": ["shake", "toast"], "calories": 1500, "protein_g": 80},
            "solo_week_protocol": {"strategy": "Batch cook on Sunday", "recipe_ids": ["r-dinner"]},
            "tracking_protocol": {"weeks_1_4": "Weigh food", "weeks_5_plus": "Hand portions"}}


def recipe(meal: str, kcal: float, protein: float) -> dict[str, Any]:
    return {"recipe_id": f"r-{meal}", "slots": [{"day": d, "meal": meal} for d in DAYS],
            "recipe_name": f"{meal.title()} bowl", "cuisine": "mediterranean", "servings": 1,
            "ingredients": [{"item": "rice", "amount_g": 100, "prep_notes": "rinsed"}],
            "macros_per_serving": {"protein_g": protein, "fat_g": 10, "carbs_g": 50, "fiber_g": 7,
                                   "calories": kcal},
            "instructions": ["Cook the rice.", "Serve."], "time": {"prep_min": 5, "cook_min": 15},
            "batch_notes": "Keeps well", "storage": {"fridge_days": 3, "freezer_friendly": True},
            "calorie_boost_options": ["olive oil drizzle"]}


def recipes(plan: dict[str, Any] | None = None) -> dict[str, Any]:
    plan = plan or meal_plan()
    monday = plan["weekly_template"]["monday"]
    return {"recipes": [recipe(m, monday[m]["slot_spec"]["calories"], monday[m]["slot_spec"]["protein_g"])
                        for m in monday]}


def program() -> dict[str, Any]:
    exercise = {"name": "Hip Thrust", "sets": 3, "reps": "10-12", "rest_sec": 90, "notes": "", "target_rpe": 7,
                "progression_rule": "Add 2.5 kg when all sets hit 12"}
    return {"program": {"phase": "foundation", "phase_week": 1, "frequency": 3, "total_weeks_remaining_in_phase": 7,
                        "sessions": [{"day": d, "focus": "full body", "warmup": ["5 min bike"],
                                      "exercises": [exercise]} for d in ("monday", "wednesday", "friday")]},
            "progression_rules": ["Double progression"], "recovery_protocol": ["7-9 h sleep"],
            "phase_transition_criteria": ["8 weeks done"], "weekly_volume_summary": {"glutes": 9}}


def medical_context(action: str = "continue", **changes: Any) -> dict[str, Any]:
    return {"response": "Evidence-based answer.", "sources": [], "mechanism_explained": "Energy availability.",
            "timeline": None, "referral_needed": action != "continue", "referral_target": None,
            "urgency": "routine", "pipeline_action": action,
            "disclaimer": "This is general information, not medical advice.", **changes}
