"""The member's current plan as the food log and the expenditure offer read it: the daily targets, and what the
plan's TDEE rests on (its intake and SCIENTIST state).

One read for both: the run that reached output_ready last (`runs.current_plan`) and the `macro_targets` of the
version it shows. Nothing of it is read while the plan was stopped on medical advice (`views.targets_hidden`) or a
new run waits for medical clearance: the member then sees no targets and is offered no TDEE.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from gym.nutrition import runs
from gym.nutrition.models import NutritionRun
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.plan import RunPlan
from gym.nutrition.scientist import ScientistState, target_intake_kcal
from gym.nutrition.views import targets_hidden


@dataclass(frozen=True)
class MemberPlan:
    run: NutritionRun
    targets: dict[str, Any]  # the plan's macro_targets (004 §4.2)
    intake: IntakeData
    state: ScientistState

    def formula(self) -> tuple[float, float]:
        """(BMR, TDEE) by SCIENTIST's formula at the plan's state, whatever TDEE the plan uses now."""
        base, expenditure, _ = target_intake_kcal(self.intake, replace(self.state, tdee_kcal=None))
        return base, expenditure


async def current_plan(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> MemberPlan | None:
    run = await runs.current_plan(session, org_id, member_id)
    if run is None or targets_hidden(run, for_member=True) or await runs.clearance_required(session, org_id,
                                                                                          member_id):
        return None
    outputs = await runs.latest_outputs(session, run, ("macro_targets",), upto_version=runs.shown_version(run))
    if outputs["macro_targets"] is None:
        return None
    return MemberPlan(run, outputs["macro_targets"], IntakeData.model_validate(run.intake),
                      RunPlan.of(run).state)
