"""A user's health question to the PHYSICIAN (004 §5: callable by the user): answered as metadata of
the run, never changing its state or payloads. The call happens outside any transaction."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from sqlalchemy import func, select

from core.database import Database
from core.errors import ServiceError
from gym.nutrition import runs
from gym.nutrition.envelope import build_envelope, validate_payload
from gym.nutrition.errors import PayloadInvalid
from gym.nutrition.models import NutritionMessage
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.medical import HealthQuery, UserContext
from gym.nutrition.red_flags import bmi
from gym.nutrition.scientist import ScientistState
from pipeline.agents import AgentCall, Agents, NoAnswer

PHYSICIAN_SECONDS = 30.0


class PhysicianUnavailable(ServiceError):
    code = "physician_unavailable"
    status = 503


async def ask(db: Database, agents: Agents, org_id: uuid.UUID, run_id: uuid.UUID, question: str, *,
              member_scope: uuid.UUID | None = None, asked_by: uuid.UUID | None = None,
              limit_s: float = PHYSICIAN_SECONDS) -> dict[str, Any]:
    """The PHYSICIAN's `medical_context` for the user's question, stored with the run (a model-backed
    PHYSICIAN is billed to the asker, against the org's cap)."""
    async with db.scope(org_id=org_id) as session:
        run = await runs.get_run(session, org_id, run_id, member_scope=member_scope)
        intake = IntakeData.model_validate(run.intake)
        state = (run.plan or {}).get("scientist")
        weight = state["current_weight_kg"] if state else intake.current_weight_kg
        weeks = ScientistState(**state).weeks_on_program if state else 0
        version = run.version
    query = HealthQuery(query_type="health_question", query=question, requesting_agent="USER",
                        user_context=UserContext(current_weight_kg=weight, bmi=round(bmi(weight, intake.height_cm), 1),
                                                 symptoms=[], menstrual_status=intake.menstrual_status,
                                                 training_weeks=weeks, supplements_current=[]))
    call = AgentCall("PHYSICIAN", {"health_query": query.model_dump(mode="json")}, run_version=version,
                     org_id=org_id, user_id=asked_by)
    try:
        async with asyncio.timeout(limit_s):
            answer = await agents.answer(call)
    except TimeoutError as exc:
        raise PhysicianUnavailable(detail="the physician did not answer in time") from exc
    except NoAnswer as exc:
        raise PhysicianUnavailable(detail="the physician could not answer") from exc
    try:
        if answer.data_type != "medical_context":
            raise PayloadInvalid("medical_context", [{"loc": ("data_type",), "type": "wrong_data_type",
                                                      "msg": "expected medical_context"}])
        validate_payload("medical_context", answer.payload)
    except PayloadInvalid as exc:
        raise PhysicianUnavailable(detail="the physician's answer was not a valid medical_context") from exc
    async with db.scope(org_id=org_id) as session:
        run = await runs.get_run(session, org_id, run_id, member_scope=member_scope)
        asked = await session.scalar(select(func.count()).select_from(NutritionMessage).where(
            NutritionMessage.run_id == run.id, NutritionMessage.from_agent == "USER",
            NutritionMessage.data_type == "health_query"))
        attempt = 1_000 + (asked or 0) + 1  # user questions never collide with the run's own queries
        for from_agent, to_agent, data_type, payload in (
                ("USER", "PHYSICIAN", "health_query", call.inputs["health_query"]),
                ("PHYSICIAN", "USER", "medical_context", answer.payload)):
            await runs.store_envelope(session, run, build_envelope(
                run_id=run.id, from_agent=from_agent, to_agent=to_agent, data_type=data_type, payload=payload,
                run_version=run.version), attempt=attempt)
    return answer.payload
