"""What people do to an org's nutrition runs, in the caller's transaction: the one service the nutrition
endpoints and the `nutrition__*` staff tools call.

It works on a session already scoped to the org (`Database.scope`, so RLS backs every filter). Whatever leaves
a run with work for the agents (a start, a check-in that fired a trigger or a red flag, an acknowledged
referral) queues the run's job in that same transaction (`gym.nutrition.queue`): the job commits with the run
or not at all. Outputs are rows and the JSON views of `gym.nutrition.views`; HTTP shapes live in api/.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import Forbidden
from core.health_data import require_health_data
from core.tenancy import OrgAccess
from gym.nutrition import lifecycle, runs, views
from gym.nutrition.intake_draft import intake_draft
from gym.nutrition.lifecycle import CheckinOutcome
from gym.nutrition.models import MedicalClearance, NutritionRun
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.queue import enqueue_run
from gym.training.profiles import require_member


class NutritionService:
    def __init__(self, session: AsyncSession, org_id: uuid.UUID) -> None:
        self.session = session
        self.org_id = org_id

    async def member_scope(self, access: OrgAccess, user_id: uuid.UUID) -> uuid.UUID | None:
        """Whose runs the caller may see: None for staff who may read health data (front desk: 403 `forbidden`,
        core/health_data.py); a member's own member id (403 `member_profile_required` without one)."""
        if access.is_staff:
            require_health_data(access.role)
            return None
        member = await runs.member_of_user(self.session, self.org_id, user_id)
        if member is None:
            raise Forbidden("member_profile_required")
        return member

    async def start_run(self, member_id: uuid.UUID, intake: IntakeData, *,
                        started_by: uuid.UUID | None) -> NutritionRun:
        """A new run in `intake_pending`, queued (409 while another is working or paused, or until clearance)."""
        run = await runs.start_run(self.session, self.org_id, member_id=member_id, intake=intake,
                                   created_by=started_by)
        await enqueue_run(self.session, self.org_id, run.id)
        return run

    async def list_runs(self, *, member_id: uuid.UUID | None = None,
                   member_scope: uuid.UUID | None = None) -> Sequence[NutritionRun]:
        return await runs.list_runs(self.session, self.org_id, member_id=member_id, member_scope=member_scope)

    async def run(self, run_id: uuid.UUID, *, member_scope: uuid.UUID | None = None) -> NutritionRun:
        """The run (404 `run_not_found` for another org's, or another member's when `member_scope` is set)."""
        return await runs.get_run(self.session, self.org_id, run_id, member_scope=member_scope)

    async def detail(self, run: NutritionRun, *, for_member: bool = False) -> dict[str, Any]:
        """The run with its outputs, medical context, errors and adjustments (`views.run_detail`; `for_member`: the
        member reads it, so a medically aborted run shows no targets)."""
        return await views.run_detail(self.session, run, for_member=for_member)

    async def current_run(self, member_id: uuid.UUID) -> NutritionRun | None:
        """The member's current plan: the run that reached output_ready last. A newer run replaces it only once it
        is ready itself; one that errors or is aborted leaves it current."""
        return await runs.current_plan(self.session, self.org_id, member_id)

    async def latest_run(self, member_id: uuid.UUID) -> NutritionRun | None:
        """The member's newest run, whatever its state."""
        found = await runs.list_runs(self.session, self.org_id, member_id=member_id)
        return found[0] if found else None

    async def medical_hold(self, member_id: uuid.UUID) -> bool:
        """True while a new run waits for medical clearance."""
        return await runs.clearance_required(self.session, self.org_id, member_id)

    async def submit_checkin(self, run_id: uuid.UUID, payload: Any, *, member_scope: uuid.UUID | None = None,
                             submitted_by: uuid.UUID | None) -> CheckinOutcome:
        """A weekly check-in and its adjustment; the run is queued when the check-in re-plans."""
        out = await lifecycle.submit_checkin(self.session, self.org_id, run_id, payload, member_scope=member_scope,
                                             submitted_by=submitted_by)
        if out.needs_worker:
            await enqueue_run(self.session, self.org_id, run_id)
        return out

    async def acknowledge_referral(self, run_id: uuid.UUID, *,
                                   member_scope: uuid.UUID | None = None) -> NutritionRun:
        """The user saw the PHYSICIAN's referral: the run resumes where it paused, queued."""
        run = await lifecycle.acknowledge_referral(self.session, self.org_id, run_id, member_scope=member_scope)
        await enqueue_run(self.session, self.org_id, run.id)
        return run

    async def record_clearance(self, member_id: uuid.UUID, note: str, *,
                               recorded_by: uuid.UUID | None) -> MedicalClearance:
        """Medical clearance: new runs are allowed again after a `terminated_medical` one."""
        return await runs.record_clearance(self.session, self.org_id, member_id=member_id, recorded_by=recorded_by,
                                           note=note)

    async def intake_draft(self, member_id: uuid.UUID) -> dict[str, Any]:
        """What a new intake form starts from: the member's own last answers or profile, never a sample (404
        `member_not_found` for a member not in this org)."""
        await require_member(self.session, self.org_id, member_id)
        return await intake_draft(self.session, self.org_id, member_id, today=datetime.now(UTC).date())

    async def member_choices(self, *, query: str | None = None,
                             only: uuid.UUID | None = None) -> list[dict[str, Any]]:
        """Members by name for the console's picker, each with their latest run (`views.member_choices`)."""
        return await views.member_choices(self.session, self.org_id, query=query, only=only)
