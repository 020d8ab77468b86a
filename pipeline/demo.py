"""The demo's finished run (NUTRITION.md, Demo): Dani's intake (the issue's), driven to `output_ready` by the
offline agents so the console has a run to show; a member ready for intake is any other demo member."""

from __future__ import annotations

import uuid
from typing import Any

from core.database import Database
from gym.nutrition import runs
from gym.nutrition.payloads.intake import IntakeData
from pipeline.driver import Driver
from pipeline.offline import OfflineAgents

DANI_INTAKE: dict[str, Any] = {
    "sex": "female", "age": 28, "height_cm": 165, "current_weight_kg": 56.2, "target_weight_kg": 62,
    "training_phase": "active_training", "estimated_daily_intake_kcal": 1700, "avg_daily_steps": 6500,
    "menstrual_status": "regular", "training_experience": "beginner",
    "food_aversions": ["peanut_butter", "nut_butters"], "appetite_level": "low", "cooking_skill": "basic",
    "partner_cooks": True, "equipment_access": "commercial_gym", "gym_anxiety_level": "high",
    "medical_history": {"medications": [], "conditions": [], "injuries": []},
}


async def seed_finished_run(db: Database, org_id: uuid.UUID, member_id: uuid.UUID) -> dict[str, str]:
    """Start and finish Dani's run, unless she already has one (seeding twice adds nothing)."""
    async with db.scope(org_id=org_id) as session:
        existing = await runs.list_runs(session, org_id, member_id=member_id)
        if existing:
            return {"run_id": str(existing[0].id), "state": existing[0].state}
        run = await runs.start_run(session, org_id, member_id=member_id,
                                   intake=IntakeData.model_validate(DANI_INTAKE), created_by=None)
    state = await Driver(db, OfflineAgents()).run_until_rest(org_id, run.id)
    return {"run_id": str(run.id), "state": state}
