"""The trainer's `nutrition_plan` source (TRAINER.md "The loop", NUTRITION.md "Staff and trainer tools"): the
member's current nutrition plan — its daily targets and today's meals — read from the nutrition pipeline's tables.

`read_current_plan` is the one read of those tables (through gym.nutrition's service, the same read the staff's
nutrition__get_plan makes); everything else here is a pure shaping of what it returns.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from gym.nutrition.service import NutritionService

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
TARGETS = ("target_intake_kcal", "protein_g", "carbs_g", "fat_g", "fiber_g_min", "hydration_L",
           "weekly_weight_target_kg", "current_weight_kg", "target_weight_kg", "training_phase")


async def read_current_plan(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> dict[str, Any] | None:
    """The member's current plan (the run that reached output_ready last: a newer run that is under way, failed or
    was aborted does not replace it) as the member reads it, with `medicalHold` while a new run waits for medical
    clearance; None when they have none."""
    nutrition = NutritionService(session, org_id)
    run = await nutrition.current_run(member_id)
    if run is None:
        return None
    return {**await nutrition.detail(run, for_member=True), "medicalHold": await nutrition.medical_hold(member_id)}


def plan_for_trainer(detail: dict[str, Any] | None, today: date) -> dict[str, Any]:
    """Targets and today's meals (with their recipes' names) out of a run's detail."""
    if not detail:
        return {"hasPlan": False}
    run = detail.get("run") or {}
    outputs = detail.get("outputs") or {}
    targets = outputs.get("macro_targets") or {}
    out: dict[str, Any] = {"hasPlan": True, "state": run.get("state"), "version": run.get("readyVersion") or run.get("version"),
                           "targets": {k: targets[k] for k in TARGETS if k in targets} or None,
                           "medicalHold": bool(detail.get("medicalHold"))}
    recipes = {r.get("recipe_id"): r.get("recipe_name") for r in (outputs.get("recipes") or {}).get("recipes", [])}
    template = (outputs.get("weekly_meal_plan") or {}).get("weekly_template") or {}
    day = DAYS[today.weekday()]
    meals = []
    for meal, slot in (template.get(day) or {}).items():
        spec = slot.get("slot_spec") or {}
        meals.append({"meal": meal, "calories": spec.get("calories"), "proteinG": spec.get("protein_g"),
                      "carbsG": spec.get("carbs_g"), "fatG": spec.get("fat_g"),
                      "recipes": [recipes.get(r, r) for r in slot.get("alternatives") or []]})
    out["today"] = {"date": today.isoformat(), "day": day, "meals": meals} if template else None
    return out


async def nutrition_plan_source(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                                today: date) -> dict[str, Any]:
    return plan_for_trainer(await read_current_plan(session, org_id, member_id), today)
