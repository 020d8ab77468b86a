"""The evals' one door to the nutrition pipeline (its domain lives in gym/nutrition/, its moving parts — driver,
offline agents, demo run — in pipeline/; a move of either is an edit here and nowhere else in evals/).

What the suite needs of it: Dani's finished run in the template (the demo's), each try's database opened the
way the service opens its own (its sessions name a job queue, so the `nutrition__*` tools can queue a run's job
in their transaction), a stand-in for the worker that drives a try's runs to rest while the conversation goes
on, and the SCIENTIST's targets for expected answers. The pipeline's own agents run offline here: a nutrition
task grades the copilot's use of the tools, not a second model's meal plan.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from core.database import Database
from gym.demo.seed import DANI_MEMBER_ID
from gym.demo.tenancy import HARBOR
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.plan import RunPlan
from gym.nutrition.queue import ENTRYPOINT, queue_info
from gym.nutrition.scientist import macro_targets
from gym.nutrition.states import RESTING
from pipeline.demo import DANI_INTAKE, seed_finished_run
from pipeline.driver import Driver
from pipeline.offline import OfflineAgents

__all__ = ["DANI_INTAKE", "current_targets", "seed_template", "try_database", "worker"]
RESTING_STATES = sorted(s.value for s in RESTING)
POLL_SECONDS = 0.3


async def seed_template(db: Database) -> None:
    """What the demo gym holds of the pipeline: Dani's finished run."""
    await seed_finished_run(db, HARBOR.id, DANI_MEMBER_ID)


def try_database(url: str, *, pool_size: int = 3) -> Database:
    """A try's database as the service opens its own: the runs its sessions record are queued (no worker
    listens; `worker` below drives them)."""
    return Database(url, pool_size=pool_size, session_info=queue_info(ENTRYPOINT))


async def _working(db: Database) -> list[tuple[uuid.UUID, uuid.UUID]]:
    async with db.owner() as session:
        rows = await session.execute(text("SELECT org_id, id FROM nutrition_runs WHERE state <> ALL(:resting)"),
                                     {"resting": RESTING_STATES})
        return [(org_id, run_id) for org_id, run_id in rows.all()]


async def _drive(db: Database) -> None:
    for org_id, run_id in await _working(db):
        await Driver(db, OfflineAgents()).run_until_rest(org_id, run_id)


@contextlib.asynccontextmanager
async def worker(db: Database) -> AsyncIterator[None]:
    """While the block runs, drive every run of `db` that has work to rest (as a worker would, within a poll);
    when it ends, once more, so a run is graded where it rests."""
    async def loop() -> None:
        while True:
            await _drive(db)
            await asyncio.sleep(POLL_SECONDS)

    task = asyncio.get_running_loop().create_task(loop())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await _drive(db)


async def current_targets(session: AsyncSession, member: str, fields: list[str]) -> list[float]:
    """The SCIENTIST's macro targets for the member's newest plan, recomputed from its intake and state."""
    row = (await session.execute(text(
        "SELECT r.intake, r.plan FROM nutrition_runs r JOIN members m ON m.id = r.member_id "
        "WHERE r.org_id = :org AND lower(m.full_name) = lower(:name) AND r.superseded_at IS NULL "
        "ORDER BY r.created_at DESC LIMIT 1"), {"org": HARBOR.id, "name": member})).first()
    if row is None:
        raise LookupError(f"{member} has no nutrition run")
    targets = macro_targets(IntakeData.model_validate(row.intake), RunPlan.load(row.plan).state)
    return [float(getattr(targets, name)) for name in fields]
