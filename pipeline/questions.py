"""A user's health question to the PHYSICIAN (004 §5: callable by the user): answered as metadata of
the run, never changing its state or payloads. The call happens outside any transaction."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from sqlalchemy import func, select

from core.database import Database
from core.errors import ServiceError
from core.tenancy import OrgAccess
from gym.nutrition import runs
from gym.nutrition.envelope import build_envelope, validate_payload
from gym.nutrition.errors import PayloadInvalid
from gym.nutrition.models import NutritionMessage, NutritionRun
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.medical import HealthQuery, UserContext
from gym.nutrition.red_flags import bmi
from gym.nutrition.scientist import ScientistState
from gym.nutrition.service import NutritionService
from pipeline.agents import AgentCall, Agents, Answer, NoAnswer

PHYSICIAN_SECONDS = 30.0


class PhysicianUnavailable(ServiceError):
    code = "physician_unavailable"
    status = 503


class HealthQuestions:
    """Asks the PHYSICIAN the users' health questions about their runs, with the service's agents (the same
    selection rule as the runs' worker: model-backed with a key, offline otherwise)."""

    def __init__(self, db: Database, agents: Agents, *, limit_s: float = PHYSICIAN_SECONDS) -> None:
        self.db = db
        self.agents = agents
        self.limit_s = limit_s

    async def ask(self, access: OrgAccess, user_id: uuid.UUID, run_id: uuid.UUID, question: str) -> dict[str, Any]:
        """The PHYSICIAN's `medical_context` for the question, stored with the run (a model-backed PHYSICIAN is
        billed to the asker, against the org's cap). Who may ask is who may see the run (front desk: 403)."""
        org_id = access.org_id
        async with self.db.scope(org_id=org_id, user_id=user_id) as session:
            nutrition = NutritionService(session, org_id)
            own = await nutrition.member_scope(access, user_id)
            run = await nutrition.run(run_id, member_scope=own)
            call = _call(run, question, asked_by=user_id)
        answer = await self._answer(call)
        async with self.db.scope(org_id=org_id, user_id=user_id) as session:
            run = await runs.get_run(session, org_id, run_id, member_scope=own)
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

    async def _answer(self, call: AgentCall) -> Answer:
        """The PHYSICIAN's valid `medical_context`, asked outside any transaction; 503 when there is none."""
        try:
            async with asyncio.timeout(self.limit_s):
                answer = await self.agents.answer(call)
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
        return answer


def _call(run: NutritionRun, question: str, *, asked_by: uuid.UUID) -> AgentCall:
    """The PHYSICIAN call for a user's question: the run's current weight, BMI and training weeks as context."""
    intake = IntakeData.model_validate(run.intake)
    state = (run.plan or {}).get("scientist")
    weight = state["current_weight_kg"] if state else intake.current_weight_kg
    weeks = ScientistState(**state).weeks_on_program if state else 0
    query = HealthQuery(query_type="health_question", query=question, requesting_agent="USER",
                        user_context=UserContext(current_weight_kg=weight, bmi=round(bmi(weight, intake.height_cm), 1),
                                                 symptoms=[], menstrual_status=intake.menstrual_status,
                                                 training_weeks=weeks, supplements_current=[]))
    return AgentCall("PHYSICIAN", {"health_query": query.model_dump(mode="json")}, run_version=run.version,
                     org_id=run.org_id, user_id=asked_by)
