"""What a user (or staff) does to a run between steps: acknowledge a referral; record clearance.

Each returns whether the run needs a worker now (the caller enqueues its job).
"""

from __future__ import annotations

import copy
import uuid
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import Conflict
from pipeline import plan as plans
from pipeline import runs
from pipeline.models import NutritionRun
from pipeline.physician import acknowledge
from pipeline.states import State

RUN_SECONDS = 180.0


async def acknowledge_referral(session: AsyncSession, org_id: uuid.UUID, run_id: uuid.UUID, *,
                               member_scope: uuid.UUID | None = None,
                               run_seconds: float = RUN_SECONDS) -> NutritionRun:
    """The user saw the referral and wishes to continue: back to the state the run paused from."""
    run = await runs.get_run(session, org_id, run_id, member_scope=member_scope, for_update=True)
    pending = (run.plan or {}).get("physician") or {}
    if run.state != State.PAUSED_PHYSICIAN.value or not pending.get("awaiting_user"):
        raise Conflict("referral_not_pending")
    plan = copy.deepcopy(run.plan)
    plan["physician"] = None
    plan["advice"] = pending.get("answer")
    plans.new_segment(plan, now=datetime.now(UTC), run_seconds=run_seconds)
    run.plan = plan
    await runs.transition(session, run, acknowledge(State(run.previous_state)))
    return run
