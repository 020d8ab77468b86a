"""The pipeline's side of `core.nutrition_port`: what the `nutrition__*` staff tools do, in the tool's
own transaction, with the run's job queued once that transaction commits."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import structlog
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import Conflict
from gym.nutrition import lifecycle, runs, views
from gym.nutrition.envelope import validate_payload
from gym.nutrition.models import NutritionRun
from gym.nutrition.payloads.intake import IntakeData
from pipeline import jobs

log = structlog.get_logger("pipeline.tool_port")


class PipelineNutrition:
    """`NutritionPort` over gym.nutrition.runs / lifecycle; `pending` holds the enqueues fired by commits."""

    def __init__(self, database_url: str, *, entrypoint: str = jobs.ENTRYPOINT) -> None:
        self.database_url, self.entrypoint = database_url, entrypoint
        self.pending: set[asyncio.Task[None]] = set()

    async def start_run(self, session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                        intake: dict[str, Any], *, started_by: uuid.UUID) -> dict[str, Any]:
        valid = validate_payload("intake_data", intake)
        assert isinstance(valid, IntakeData)
        run = await runs.start_run(session, org_id, member_id=member_id, intake=valid, created_by=started_by)
        self._enqueue_after_commit(session, org_id, run.id)
        return {"id": str(run.id), "state": run.state, "version": run.version}

    async def current_plan(self, session: AsyncSession, org_id: uuid.UUID,
                           member_id: uuid.UUID) -> dict[str, Any] | None:
        run = await _current(session, org_id, member_id)
        return None if run is None else await views.run_detail(session, run)

    async def submit_checkin(self, session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                             checkin: dict[str, Any], *, submitted_by: uuid.UUID) -> dict[str, Any]:
        run = await _current(session, org_id, member_id)
        if run is None:
            raise Conflict("run_not_ready", detail="the member has no nutrition plan yet")
        out = await lifecycle.submit_checkin(session, org_id, run.id, checkin, submitted_by=submitted_by)
        if out.needs_worker:
            self._enqueue_after_commit(session, org_id, run.id)
        return {"id": str(out.checkin_id), "runId": str(run.id), "version": out.version,
                "adjustment": out.adjustment}

    async def record_clearance(self, session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                               note: str, *, recorded_by: uuid.UUID) -> dict[str, Any]:
        clearance = await runs.record_clearance(session, org_id, member_id=member_id, recorded_by=recorded_by,
                                                note=note)
        return {"id": str(clearance.id), "membershipId": str(member_id)}

    async def drain(self) -> None:
        """Wait for the enqueues already fired (tests, shutdown)."""
        while self.pending:
            await asyncio.gather(*list(self.pending))

    def _enqueue_after_commit(self, session: AsyncSession, org_id: uuid.UUID, run_id: uuid.UUID) -> None:
        def fire(_session: Any) -> None:
            task = asyncio.get_running_loop().create_task(self._enqueue(org_id, run_id))
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)

        event.listen(session.sync_session, "after_commit", fire, once=True)

    async def _enqueue(self, org_id: uuid.UUID, run_id: uuid.UUID) -> None:
        try:
            await jobs.enqueue(self.database_url, org_id, run_id, entrypoint=self.entrypoint)
        except Exception:  # the run stays where it is until its next wake-up
            log.exception("pipeline.enqueue_failed", run_id=str(run_id))


async def _current(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> NutritionRun | None:
    """The member's newest run that no later run superseded."""
    found = await runs.list_runs(session, org_id, member_id=member_id)
    return next((run for run in found if run.superseded_at is None), None)
