"""The worker's `membership_freezes` job: on the local midnight a freeze starts or ends, the member's status is set
as their freezes say that day (gym/freezes.py `sync_status`). Queued by the freeze itself, in its transaction."""

from __future__ import annotations

from datetime import UTC, datetime

import structlog
from pgqueuer import Job

from core.database import Database
from core.tenancy import org_timezone
from gym.freezes import member_of, sync_status
from gym.periods import local_today

log = structlog.get_logger("pipeline.freeze_jobs")


class FreezeStatus:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def handle(self, job: Job) -> None:
        org_id, member_id = member_of(job.payload)
        async with self.db.scope(org_id=org_id) as session:
            tz = await org_timezone(session, org_id)
            status = await sync_status(session, org_id, member_id, local_today(tz or "UTC", datetime.now(UTC)))
        log.info("freeze.status_synced", org_id=str(org_id), member_id=str(member_id), status=status)
