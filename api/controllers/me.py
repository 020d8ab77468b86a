"""Who am I: the caller and their orgs; the caller inside one org."""

from __future__ import annotations

from litestar import Controller, get
from litestar.di import NamedDependency

from api.guards import require_caller, require_org_member
from api.responses import BEARER, MeBody, OrgInfo, OrgMeBody, Permissions, UserInfo, error_responses, shape
from core.database import Database
from core.health_data import may_read_health_data
from core.tenancy import Caller, OrgAccess, list_memberships


class MeController(Controller):
    security = BEARER

    @get("/me", guards=[require_caller], responses=error_responses(401))
    async def me(self, caller: NamedDependency[Caller], db: NamedDependency[Database]) -> MeBody:
        async with db.scope(user_id=caller.user_id) as session:  # no org yet: the caller's own rows
            memberships = await list_memberships(session, caller.user_id)
        return shape({"id": str(caller.user_id), "email": caller.email, "name": caller.name,
                      "memberships": memberships}, MeBody)

    @get("/organizations/{org_id:str}/me", guards=[require_org_member], responses=error_responses(400, 401, 404))
    async def org_me(self, caller: NamedDependency[Caller], access: NamedDependency[OrgAccess]) -> OrgMeBody:
        return OrgMeBody(
            org=OrgInfo(id=str(access.org_id), name=access.org_name, tier=access.tier, timezone=access.timezone,
                         locale=access.locale),
            user=UserInfo(id=str(caller.user_id), email=caller.email, name=caller.name),
            role=access.role,
            permissions=Permissions(health_data=may_read_health_data(access.role, own_record=not access.is_staff)))
