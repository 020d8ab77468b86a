"""Who am I: the caller and their orgs; the caller inside one org."""

from __future__ import annotations

from litestar import Controller, get
from litestar.di import NamedDependency

from api.guards import require_caller, require_org_member
from api.resources import Resources
from core.tenancy import Caller, OrgAccess, list_memberships


class MeController(Controller):
    @get("/me", guards=[require_caller])
    async def me(self, caller: NamedDependency[Caller], resources: NamedDependency[Resources]) -> dict:
        async with resources.db.scope(user_id=caller.user_id) as session:
            memberships = await list_memberships(session, caller.user_id)
        return {"id": str(caller.user_id), "email": caller.email, "name": caller.name, "memberships": memberships}

    @get("/organizations/{org_id:str}/me", guards=[require_org_member])
    async def org_me(self, caller: NamedDependency[Caller], access: NamedDependency[OrgAccess]) -> dict:
        return {
            "org": {"id": str(access.org_id), "name": access.org_name, "tier": access.tier,
                    "timezone": access.timezone, "locale": access.locale},
            "user": {"id": str(caller.user_id), "email": caller.email, "name": caller.name},
            "role": access.role,
        }
