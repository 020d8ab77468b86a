"""The gym's own bar and plates (issue 43 item 3): what every member's plate calculator uses
(GET .../trainer/plates). Staff read them; the owner or an admin says what the gym has. The rules live in
gym.training.plates (checked_plates); a gym that has said nothing reads the standard kg set, `source` "standard"."""

from __future__ import annotations

from typing import Annotated, Literal

from litestar import Controller, get, put
from litestar.di import NamedDependency
from litestar.params import JSONBody
from msgspec import Struct
from pydantic import ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

from api.bodies import NumbersBody
from api.guards import staff_only
from api.responses import BEARER, error_responses, shape
from core.errors import Forbidden
from core.tenancy import OrgAccess
from gym.training.plates import (
    MAX_BAR,
    MAX_PLATE,
    MAX_PLATES,
    MIN_BAR,
    MIN_PLATE,
    PLATES_ROLES,
    gym_plates,
    set_gym_plates,
)


class PlatesBody(NumbersBody):
    """The gym's barbell and its plates, in one unit (each plate weight once; heaviest first or in any order)."""

    model_config = ConfigDict(extra="forbid")

    unit: Literal["kg", "lbs"]
    bar: float = Field(ge=MIN_BAR, le=MAX_BAR, description="The bar's own weight.")
    plates: list[Annotated[float, Field(ge=MIN_PLATE, le=MAX_PLATE)]] = Field(
        min_length=1, max_length=MAX_PLATES, description="The plate weights the gym has (a weight named twice counts once).")


class GymPlatesOut(Struct):
    unit: str
    bar: float
    plates: list[float]  # heaviest first
    source: str  # "gym": what the gym said; "standard": it said nothing yet


class GymPlatesController(Controller):
    path = "/organizations/{org_id:str}/gym/plates"
    guards = [staff_only]
    security = BEARER

    @get("/", responses=error_responses(400, 401, 403, 404))
    async def read(self, session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess]) -> GymPlatesOut:
        """The bar and plates the members' plate calculator uses."""
        return shape(await gym_plates(session, access.org_id), GymPlatesOut)

    @put("/", status_code=200, responses=error_responses(400, 401, 403, 404, 413, 415))
    async def replace(self, data: JSONBody[PlatesBody], session: NamedDependency[AsyncSession],
                      access: NamedDependency[OrgAccess]) -> GymPlatesOut:
        """Say what the gym has (owner or admin; 403 role_forbidden otherwise); weights out of bounds are 400."""
        if access.role not in PLATES_ROLES:
            raise Forbidden("role_forbidden")
        stored = await set_gym_plates(session, access.org_id, data.unit, data.bar, data.plates)
        return shape(stored, GymPlatesOut)
