"""The members the nutrition console can act for, by name (the console's member picker).

Staff search their org's members by name (no query: members with runs first, then the rest by name);
a member gets only themself. Each comes with their latest run and whether a new run needs medical
clearance first (NUTRITION.md: 409 `medical_clearance_required` after a `terminated_medical` run).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from litestar import Controller, get
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, QueryParameter
from msgspec import Struct

from api.guards import require_org_member
from api.nutrition_dependencies import provide_nutrition
from api.responses import BEARER, error_responses, shape
from core.tenancy import Caller, OrgAccess
from gym.nutrition.service import NutritionService
from gym.training.profiles import member_not_found

MAX_QUERY = 100


class MemberChoice(Struct, rename="camel"):
    membership_id: str
    name: str
    status: str
    latest_run_id: str | None
    latest_run_state: str | None
    clearance_required: bool


class MemberChoices(Struct, rename="camel"):
    members: list[MemberChoice]


class IntakeDraft(Struct):
    """What a new run's intake form starts from (the member's last answers, else their training profile, else
    nothing; never a sample): a partial `intake_data`, metric, and the member's units to show it in."""

    intake: dict[str, Any]
    source: str | None  # "last_run" | "profile" | None
    sourceDate: str | None
    units: dict[str, str]  # {weightUnit: kg|lbs, distanceUnit: km|mi}


class NutritionMembersController(Controller):
    path = "/organizations/{org_id:str}/nutrition/members"
    guards = [require_org_member]
    security = BEARER
    dependencies = {"nutrition": Provide(provide_nutrition)}

    @get("/", responses=error_responses(400, 401, 403, 404))
    async def list_members(self, access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                           nutrition: NamedDependency[NutritionService],
                           q: Annotated[str | None, QueryParameter(pattern=r"^[^\x00]*$")] = None) -> MemberChoices:
        own = await nutrition.member_scope(access, caller.user_id)  # front desk: 403 forbidden
        found = await nutrition.member_choices(query=(q or "").strip()[:MAX_QUERY] or None, only=own)
        return shape({"members": found}, MemberChoices)

    @get("/{member_id:uuid}/intake-draft", responses=error_responses(400, 401, 403, 404))
    async def intake_draft(self, member_id: FromPath[uuid.UUID], access: NamedDependency[OrgAccess],
                           caller: NamedDependency[Caller], nutrition: NamedDependency[NutritionService]) -> IntakeDraft:
        own = await nutrition.member_scope(access, caller.user_id)  # front desk: 403 forbidden
        if own is not None and own != member_id:  # a member reads only their own (another's: as if absent)
            raise member_not_found(member_id)
        return shape(await nutrition.intake_draft(member_id), IntakeDraft)
