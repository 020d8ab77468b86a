"""The evals' one door to the nutrition pipeline (its domain is moving from pipeline/ to gym/nutrition/: re-point
the imports here and nothing else in evals/ changes).

What the suite needs of it: Dani's finished run in the template (the demo's), a port for the `nutrition__*`
staff tools that drives a run to rest right after the tool's transaction commits (the service queues a job
for a worker; a try has no worker, and the grade must see the run where a worker would have left it), and the
SCIENTIST's targets for expected answers. The pipeline's own agents run offline here: a nutrition task grades
the copilot's use of the tools, not a second model's meal plan.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncSession

from core.database import Database
from core.errors import ServiceError
from core.nutrition_port import NutritionPort, nutrition_port, register_nutrition
from gym.demo.seed import DANI_MEMBER_ID
from gym.demo.tenancy import HARBOR
from pipeline import plan as plans
from pipeline.demo import DANI_INTAKE, seed_finished_run
from pipeline.driver import Driver
from pipeline.offline import OfflineAgents
from pipeline.payloads.intake import IntakeData
from pipeline.scientist import macro_targets
from pipeline.states import RESTING
from pipeline.tool_port import PipelineNutrition

__all__ = ["DANI_INTAKE", "DrivenNutrition", "current_targets", "installed", "seed_template"]
RESTING_STATES = sorted(s.value for s in RESTING)


async def seed_template(db: Database) -> None:
    """What the demo gym holds of the pipeline: Dani's finished run."""
    await seed_finished_run(db, HARBOR.id, DANI_MEMBER_ID)


class DrivenNutrition(PipelineNutrition):
    """The staff tools' port for tries: each try's database registers here; a run the tool left with work to do
    is driven to rest (offline agents) once the tool's transaction commits, as a worker would."""

    def __init__(self) -> None:
        super().__init__(database_url="")
        self.databases: dict[str, Database] = {}

    def attach(self, db: Database) -> None:
        self.databases[db.app_engine.url.database or ""] = db

    def detach(self, db: Database) -> None:
        self.databases.pop(db.app_engine.url.database or "", None)

    def _enqueue_after_commit(self, session: AsyncSession, org_id: uuid.UUID, run_id: uuid.UUID) -> None:
        bind = session.get_bind()
        url = bind.url if hasattr(bind, "url") else bind.engine.url
        db = self.databases.get(url.database or "")
        if db is None:
            raise ServiceError("nutrition_unavailable", status=503, detail="no eval database for this session")

        def fire(_session: Any) -> None:
            task = asyncio.get_running_loop().create_task(self._drive(db, org_id, run_id))
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)

        event.listen(session.sync_session, "after_commit", fire, once=True)

    @staticmethod
    async def _drive(db: Database, org_id: uuid.UUID, run_id: uuid.UUID) -> None:
        await Driver(db, OfflineAgents()).run_until_rest(org_id, run_id)

    async def settle(self, db: Database) -> None:
        """Wait for the runs being driven, then drive any run of this database still working (belt and braces:
        a run is graded where it rests)."""
        await self.drain()
        async with db.owner() as session:
            rows = (await session.execute(text(
                "SELECT org_id, id FROM nutrition_runs WHERE state <> ALL(:resting)"), {"resting": RESTING_STATES}))
            working = rows.all()
        for org_id, run_id in working:
            await self._drive(db, org_id, run_id)


@contextlib.contextmanager
def installed(port: NutritionPort) -> Iterator[None]:
    """`port` serves the nutrition tools while the block runs; whatever served them before does again after."""
    try:
        previous: NutritionPort | None = nutrition_port()
    except ServiceError:
        previous = None
    register_nutrition(port)
    try:
        yield
    finally:
        if previous is not None:
            register_nutrition(previous)


async def current_targets(session: AsyncSession, member: str, fields: list[str]) -> list[float]:
    """The SCIENTIST's macro targets for the member's newest plan, recomputed from its intake and state."""
    row = (await session.execute(text(
        "SELECT r.intake, r.plan FROM nutrition_runs r JOIN members m ON m.id = r.member_id "
        "WHERE r.org_id = :org AND lower(m.full_name) = lower(:name) AND r.superseded_at IS NULL "
        "ORDER BY r.created_at DESC LIMIT 1"), {"org": HARBOR.id, "name": member})).first()
    if row is None:
        raise LookupError(f"{member} has no nutrition run")
    targets = macro_targets(IntakeData.model_validate(row.intake), plans.scientist_state(row.plan or {}))
    return [float(getattr(targets, name)) for name in fields]
