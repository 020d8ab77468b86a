"""The member's own class bookings in the member's app (issue 42 item 6): what they booked, what is coming, where
they wait. Only the caller's own member record (403 member_profile_required); the handler calls one service."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from litestar import Controller, get
from litestar.di import NamedDependency, Provide
from msgspec import Struct
from sqlalchemy.ext.asyncio import AsyncSession

from api.controllers.trainer import member_profile_required, provide_member_id
from api.responses import BEARER, error_responses, shape
from core.tenancy import OrgAccess
from gym.bookings import member_bookings


class BookedClass(Struct):
    id: uuid.UUID
    sessionId: uuid.UUID
    title: str
    date: str
    start: str
    end: str
    status: str  # booked, attended, no_show, cancelled
    sessionCancelled: bool


class WaitingPlace(Struct):
    id: uuid.UUID
    sessionId: uuid.UUID
    title: str
    date: str
    start: str
    position: int


class MyBookingsOut(Struct):
    upcoming: list[BookedClass]
    past: list[BookedClass]
    waitlist: list[WaitingPlace]


class MemberBookingsController(Controller):
    path = "/organizations/{org_id:str}/trainer/bookings"
    guards = [member_profile_required]
    dependencies = {"member_id": Provide(provide_member_id)}
    security = BEARER

    @get("/", responses=error_responses(400, 401, 403, 404))
    async def mine(self, session: NamedDependency[AsyncSession], access: NamedDependency[OrgAccess],
                   member_id: NamedDependency[uuid.UUID]) -> MyBookingsOut:
        """The caller's classes in the gym's local days and times: coming (soonest first), the latest past ones
        with whether they came, and the waitlists they are on with their place in line."""
        found = await member_bookings(session, access.org_id, member_id, ZoneInfo(access.timezone), datetime.now(UTC))
        return shape(found, MyBookingsOut)
