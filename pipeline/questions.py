"""A user's health question to the PHYSICIAN (004 §5: callable by the user), answered as metadata of the run. The
answer is held to the question's safety floor (NUTRITION.md); a question whose floor is above `continue` pauses (or
aborts) the member's current run like any other health query (`gym.nutrition.holds`); no other question changes
the run. The call happens outside any transaction."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from core.database import Database
from core.errors import ServiceError
from core.tenancy import OrgAccess
from gym.nutrition import runs
from gym.nutrition.envelope import validate_payload
from gym.nutrition.errors import PayloadInvalid
from gym.nutrition.holds import hold_for_question, live, store_question
from gym.nutrition.lifecycle import RUN_SECONDS
from gym.nutrition.models import NutritionRun
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.medical import HealthQuery, UserContext
from gym.nutrition.plan import RunPlan
from gym.nutrition.red_flags import bmi
from gym.nutrition.safety_floor import query_floor
from gym.nutrition.service import NutritionService
from pipeline.agents import AgentCall, Agents, Answer, NoAnswer
from pipeline.floor import floored

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
        query = call.inputs["health_query"]
        floor = query_floor(query)
        async with self.db.scope(org_id=org_id, user_id=user_id) as session:
            run = await runs.get_run(session, org_id, run_id, member_scope=own)
            payload = floored(answer.payload, query, run_id=run.id, requester="USER")
            target = await _member_run(session, run) if floor.above_continue else None
            held = target is not None and await hold_for_question(
                session, target, query, payload, attempt=await runs.next_question_attempt(session, target),
                run_seconds=RUN_SECONDS)
            if not held or target is None or target.id != run.id:
                await store_question(session, run, query, payload,
                                     attempt=await runs.next_question_attempt(session, run))
        return payload

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


async def _member_run(session: AsyncSession, run: NutritionRun) -> NutritionRun | None:
    """The member's current run, locked: the run asked about while it is working, paused or the current plan;
    else the member's run that is (a question on an old plan pauses the one the member follows now)."""
    if not live(run):
        found = await runs.active_run(session, run.org_id, run.member_id) or await runs.current_plan(
            session, run.org_id, run.member_id)
        if found is None:
            return None
        run = found
    return await runs.get_run(session, run.org_id, run.id, for_update=True)


def _call(run: NutritionRun, question: str, *, asked_by: uuid.UUID) -> AgentCall:
    """The PHYSICIAN call for a user's question: the run's current weight, BMI and training weeks as context."""
    intake = IntakeData.model_validate(run.intake)
    state = RunPlan.of(run).scientist
    weight = state.current_weight_kg if state else intake.current_weight_kg
    weeks = state.weeks_on_program if state else 0
    query = HealthQuery(query_type="health_question", query=question, requesting_agent="USER",
                        user_context=UserContext(current_weight_kg=weight, bmi=round(bmi(weight, intake.height_cm), 1),
                                                 symptoms=[], menstrual_status=intake.menstrual_status,
                                                 training_weeks=weeks, supplements_current=[]))
    return AgentCall("PHYSICIAN", {"health_query": query.model_dump(mode="json")}, run_version=run.version,
                     org_id=run.org_id, user_id=asked_by)
