"""The members the nutrition console can act for, by name (the console's member picker).

Staff search their org's members by name (no query: members with runs first, then the rest by name);
a member gets only themself. Each comes with their latest run and whether a new run needs medical
clearance first (NUTRITION.md: 409 `medical_clearance_required` after a `terminated_medical` run).
"""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.di import NamedDependency
from litestar.params import QueryParameter
from msgspec import Struct

from api.guards import require_org_member
from api.resources import Resources
from api.responses import BEARER, error_responses, shape
from core.errors import Forbidden
from core.health_data import require_health_data
from core.tenancy import Caller, OrgAccess
from gym.nutrition import runs, views

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


class NutritionMembersController(Controller):
    path = "/organizations/{org_id:str}/nutrition/members"
    guards = [require_org_member]
    security = BEARER

    @get("/", responses=error_responses(400, 401, 403, 404))
    async def list_members(self, access: NamedDependency[OrgAccess], caller: NamedDependency[Caller],
                           resources: NamedDependency[Resources],
                           q: Annotated[str | None, QueryParameter(pattern=r"^[^\x00]*$")] = None) -> MemberChoices:
        query = (q or "").strip()[:MAX_QUERY] or None
        if access.is_staff:
            require_health_data(access.role)
        async with resources.db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
            own = None if access.is_staff else await runs.member_of_user(session, access.org_id, caller.user_id)
            if not access.is_staff and own is None:
                raise Forbidden("member_profile_required")
            found = await views.member_choices(session, access.org_id, query=query, only=own)
        return shape({"members": found}, MemberChoices)
