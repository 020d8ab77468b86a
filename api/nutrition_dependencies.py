"""The services the nutrition controllers receive (Litestar dependency injection, declared on each controller):
the nutrition domain's service over the request's org-scoped session (the app's `session`, api/dependencies.py),
the run-events follower, and the health-question flow with the app's agents (built once at start-up, `api.app`)."""

from __future__ import annotations

from litestar.datastructures import State
from litestar.di import NamedDependency
from sqlalchemy.ext.asyncio import AsyncSession

from core.database import Database
from core.tenancy import OrgAccess
from gym.nutrition.events import RunEvents
from gym.nutrition.service import NutritionService
from pipeline.questions import HealthQuestions


async def provide_nutrition(session: NamedDependency[AsyncSession],
                            access: NamedDependency[OrgAccess]) -> NutritionService:
    return NutritionService(session, access.org_id)


async def provide_run_events(db: NamedDependency[Database]) -> RunEvents:
    return RunEvents(db)


async def provide_health_questions(state: State) -> HealthQuestions:
    return state.health_questions
