"""The member's trainer endpoints that need no model: unit settings, logged history, goal distribution.

Every route needs an active membership whose user is linked to a member of the org; anyone else gets
403 `member_profile_required`. The member is always the caller's own: no route takes a member id.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Literal

from litestar import Controller, get, put
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency, Provide
from litestar.handlers import BaseRouteHandler
from litestar.params import JSONBody, QueryParameter
from pydantic import BaseModel, ConfigDict, model_validator
from sqlalchemy.ext.asyncio import AsyncSession

from api.dependencies import resources_of
from api.guards import require_org_member
from api.responses import BEARER, TrainerDistribution, TrainerHistory, UnitsBody, error_responses, shape
from core.errors import Forbidden
from core.tenancy import Caller, OrgAccess
from gym.training.logs import MAX_HISTORY_DAYS
from gym.training.profiles import get_units, member_for_user
from gym.training.record import distribution_view, history_view
from gym.training.trainer_workouts import switch_units


async def member_profile_required(connection: ASGIConnection, handler: BaseRouteHandler) -> None:
    """The caller's own member record in the path's org, or 403 member_profile_required."""
    if "access" not in connection.state:
        await require_org_member(connection, handler)
    access: OrgAccess = connection.state.access
    caller: Caller = connection.state.caller
    async with resources_of(connection).db.scope(org_id=access.org_id, user_id=caller.user_id) as session:
        member = await member_for_user(session, access.org_id, caller.user_id)
    if member is None:
        raise Forbidden("member_profile_required")
    connection.state.member_id = member.id


async def provide_member_id(request: ASGIConnection) -> uuid.UUID:
    return request.state.member_id


class SettingsBody(BaseModel):
    """Either unit or both; a null one stays as it is."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"anyOf": [
        {"required": [name], "properties": {name: {"type": "string"}}} for name in ("weightUnit", "distanceUnit")]})

    weightUnit: Literal["kg", "lbs"] | None = None
    distanceUnit: Literal["km", "mi"] | None = None

    @model_validator(mode="after")
    def _something(self) -> SettingsBody:
        if self.weightUnit is None and self.distanceUnit is None:
            raise ValueError("give weightUnit and/or distanceUnit")
        return self


READ_ERRORS = error_responses(400, 401, 403, 404)


class TrainerController(Controller):
    path = "/organizations/{org_id:str}/trainer"
    guards = [member_profile_required]
    dependencies = {"member_id": Provide(provide_member_id)}
    security = BEARER

    @get("/settings", responses=READ_ERRORS)
    async def settings(self, session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                       member_id: NamedDependency[uuid.UUID]) -> UnitsBody:
        return shape((await get_units(session, access.org_id, member_id)).as_dict(), UnitsBody)

    @put("/settings", responses=error_responses(400, 401, 403, 404, 413, 415))
    async def update_settings(self, data: JSONBody[SettingsBody], session: NamedDependency[AsyncSession],
                              access: NamedDependency[OrgAccess], member_id: NamedDependency[uuid.UUID]) -> UnitsBody:
        units = await switch_units(session, access.org_id, member_id, now=datetime.now(UTC),
                                   weight_unit=data.weightUnit, distance_unit=data.distanceUnit)
        return shape(units.as_dict(), UnitsBody)

    @get("/history", responses=READ_ERRORS)
    async def history(self, session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                      member_id: NamedDependency[uuid.UUID],
                      days: Annotated[int, QueryParameter(ge=1, le=MAX_HISTORY_DAYS)] = 30) -> TrainerHistory:
        return shape(await history_view(session, access.org_id, member_id, datetime.now(UTC), days), TrainerHistory)

    @get("/distribution", responses=READ_ERRORS)
    async def distribution(self, session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                           member_id: NamedDependency[uuid.UUID]) -> TrainerDistribution:
        return shape(await distribution_view(session, access.org_id, member_id, datetime.now(UTC)),
                     TrainerDistribution)
