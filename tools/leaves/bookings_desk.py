"""bookings (the desk's writes): book a member into a class ↺ cancel the booking, join ↺ leave a waitlist, and
check a member in ↺ undo the check-in (TOOLS.md, "The front desk's work").

Thin leaves over gym.bookings and gym.check_ins, where every rule lives (capacity, double booking, frozen or
cancelled members, sessions already started); a refusal is a `GymError` the runner words for people.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field, model_validator

from core.member_text import MemberName
from gym import bookings as service
from gym import check_ins
from gym.classes import Booking
from gym.members import Member
from tools.context import ToolContext
from tools.errors import ToolFailed
from tools.registry import STAFF, Audit, Inverse, ToolRouter, by_id

bookings_desk = ToolRouter("bookings")

MEMBER_HELP = "Member id from read__members_search."
SESSION_HELP = "Session id from class_sessions__list_for_date."


class SeatOut(BaseModel):
    id: uuid.UUID | None = Field(None, description="The booking (or waitlist entry, or check-in) id.")
    memberId: uuid.UUID
    member: MemberName
    sessionId: uuid.UUID | None = None
    title: str | None = None
    date: str | None = Field(None, description="Local day, YYYY-MM-DD.")
    start: str | None = Field(None, description="Local HH:MM.")
    booked: int | None = Field(None, description="Seats taken now.")
    capacity: int | None = None


def _seat(ctx: ToolContext, member: Member, row: service.ClassSession | None, id: uuid.UUID | None,
          taken: int | None = None) -> dict:
    out: dict = {"id": id, "memberId": member.id, "member": member.full_name}
    if row is not None:
        start = row.starts_at.astimezone(ctx.tz)
        out |= {"sessionId": row.id, "title": row.title, "date": start.date().isoformat(),
                "start": start.strftime("%H:%M"), "booked": taken, "capacity": row.capacity}
    return out


class BookInput(BaseModel):
    memberId: uuid.UUID = Field(description=MEMBER_HELP)
    sessionId: uuid.UUID = Field(description=SESSION_HELP)


class BookingOut(SeatOut):
    spotsLeft: int


@bookings_desk.agent_tool(
    action="book_member",
    summary="Book a member into one class session. Refused in words when the session is full (then offer the "
            "waitlist), cancelled or already started, when the member is frozen that day or cancelled, or already "
            "booked into it or another class at that time. Undoable (cancels the booking).",
    input=BookInput, roles=STAFF, side_effects="write", audit=Audit("booking", "booking.create"),
    inverse=Inverse("bookings", "cancel_booking", by_id),
                          loaded=True)
async def book_member(ctx: ToolContext, input: BookInput) -> BookingOut:
    seat = await service.book(ctx.session, ctx.org_id, session_id=input.sessionId, member_id=input.memberId,
                              tz=ctx.tz, now=ctx.now)
    assert seat.booking is not None
    return BookingOut(**_seat(ctx, seat.member, seat.session, seat.booking.id, seat.taken),
                      spotsLeft=seat.session.capacity - seat.taken)


class _ByIdOrPair(BaseModel):
    """A booking or waitlist place by its id, or by member and session."""

    id: uuid.UUID | None = None
    memberId: uuid.UUID | None = Field(None, description=MEMBER_HELP)
    sessionId: uuid.UUID | None = Field(None, description=SESSION_HELP)

    @model_validator(mode="after")
    def _one_way(self) -> _ByIdOrPair:
        by_id = self.id is not None and self.memberId is None and self.sessionId is None
        by_pair = self.id is None and self.memberId is not None and self.sessionId is not None
        if not (by_id or by_pair):
            raise ValueError("give either id, or both memberId and sessionId")
        return self


class BookingRefInput(_ByIdOrPair):
    id: uuid.UUID | None = Field(None, description="Booking id; or give memberId and sessionId.")


class Promoted(BaseModel):
    memberId: uuid.UUID
    member: MemberName


class CancelledOut(SeatOut):
    promoted: list[Promoted] = Field(default_factory=list, description="Who the freed seat went to, from the "
                                                                       "waitlist, in order.")


async def _booking_id(ctx: ToolContext, input: BookingRefInput) -> uuid.UUID:
    if input.id is not None:
        return input.id
    assert input.memberId is not None and input.sessionId is not None
    found: Booking | None = await service.find_booking(ctx.session, ctx.org_id, input.memberId, input.sessionId)
    if found is None:
        raise ToolFailed("booking_not_found", "That member has no booking in that session.",
                         "Check the member and session ids; list the session with class_sessions__list_for_date.")
    return found.id


def _rebook(output: Mapping[str, Any]) -> dict[str, Any]:
    return {"memberId": output["memberId"], "sessionId": output["sessionId"]}


@bookings_desk.agent_tool(
    action="cancel_booking",
    summary="Cancel a member's booking of a session that has not started (by booking id, or memberId + "
            "sessionId). The freed seat goes to the first on the waitlist. Undoable (books the same seat again "
            "if it is still free).",
    input=BookingRefInput, roles=STAFF, side_effects="write", audit=Audit("booking", "booking.cancel"),
    inverse=Inverse("bookings", "book_member", _rebook))
async def cancel_booking(ctx: ToolContext, input: BookingRefInput) -> CancelledOut:
    seat = await service.cancel(ctx.session, ctx.org_id, booking_id=await _booking_id(ctx, input), tz=ctx.tz,
                                now=ctx.now)
    assert seat.booking is not None
    return CancelledOut(**_seat(ctx, seat.member, seat.session, seat.booking.id, seat.taken),
                        promoted=[Promoted(memberId=m.id, member=m.full_name) for m, _ in seat.promoted])


class JoinInput(BookInput):
    entryId: uuid.UUID | None = Field(None, description="Only when undoing a leave: the entry to put back in its "
                                                        "old place.")


class WaitlistOut(SeatOut):
    position: int | None = Field(None, description="1 = next in line.")


@bookings_desk.agent_tool(
    action="join_waitlist",
    summary="Put a member on the waitlist of a full session (only when the user agreed after a booking was "
            "refused as full). They get the first seat that frees, in the order people joined. Undoable.",
    input=JoinInput, roles=STAFF, side_effects="write", audit=Audit("waitlist_entry", "waitlist.join"),
    inverse=Inverse("bookings", "leave_waitlist", by_id))
async def join_waitlist(ctx: ToolContext, input: JoinInput) -> WaitlistOut:
    seat = await service.join_waitlist(ctx.session, ctx.org_id, session_id=input.sessionId, member_id=input.memberId,
                                       tz=ctx.tz, now=ctx.now, created_by=ctx.caller.user_id, restore=input.entryId)
    assert seat.entry is not None
    return WaitlistOut(**_seat(ctx, seat.member, seat.session, seat.entry.id, seat.taken),
                       position=await service.waitlist_position(ctx.session, ctx.org_id, seat.entry))


class LeaveInput(_ByIdOrPair):
    id: uuid.UUID | None = Field(None, description="Waitlist entry id; or give memberId and sessionId.")


def _rejoin(output: Mapping[str, Any]) -> dict[str, Any]:
    return {"memberId": output["memberId"], "sessionId": output["sessionId"], "entryId": output["id"]}


@bookings_desk.agent_tool(
    action="leave_waitlist",
    summary="Take a member off a session's waitlist (by entry id, or memberId + sessionId). Undoable (puts them "
            "back in their place).",
    input=LeaveInput, roles=STAFF, side_effects="write", audit=Audit("waitlist_entry", "waitlist.leave"),
    inverse=Inverse("bookings", "join_waitlist", _rejoin))
async def leave_waitlist(ctx: ToolContext, input: LeaveInput) -> WaitlistOut:
    entry_id = input.id
    if entry_id is None:
        assert input.memberId is not None and input.sessionId is not None
        entry = await service.find_entry(ctx.session, ctx.org_id, input.memberId, input.sessionId)
        if entry is None:
            raise ToolFailed("waitlist_entry_not_found", "That member is not on that session's waitlist.",
                             "Check the member and session ids.")
        entry_id = entry.id
    seat = await service.leave_waitlist(ctx.session, ctx.org_id, entry_id=entry_id, tz=ctx.tz, now=ctx.now)
    return WaitlistOut(**_seat(ctx, seat.member, seat.session, entry_id, seat.taken))


class CheckInInput(BaseModel):
    memberId: uuid.UUID = Field(description=MEMBER_HELP)
    sessionId: uuid.UUID | None = Field(None, description="The class they came to; without it, their booked "
                                                          "class open now is used, else a visit with no class.")


class CheckInOut(SeatOut):
    checkedInAt: str = Field(description="Local HH:MM.")
    lastVisitAt: dt.datetime | None = None
    bookingCreated: bool = Field(False, description="True when they had no booking and were given a seat.")


def _visit_out(ctx: ToolContext, visit: check_ins.Visit) -> CheckInOut:
    return CheckInOut(**_seat(ctx, visit.member, visit.session, visit.check_in.id),
                      checkedInAt=visit.check_in.checked_in_at.astimezone(ctx.tz).strftime("%H:%M"),
                      lastVisitAt=visit.member.last_visit_at, bookingCreated=visit.check_in.booking_created)


@bookings_desk.agent_tool(
    action="check_in",
    summary="Check a member in now: into the class they booked (or one with a free seat), or as a visit with no "
            "class. Marks the booking attended and moves their last visit to now. Refused for frozen or "
            "cancelled members, twice in a row, or a class not open for check-in (from an hour before it starts "
            "until it ends). Undoable.",
    input=CheckInInput, roles=STAFF, side_effects="write", audit=Audit("check_in", "check_in.create"),
    inverse=Inverse("bookings", "undo_check_in", by_id),
                          loaded=True)
async def check_in(ctx: ToolContext, input: CheckInInput) -> CheckInOut:
    visit = await check_ins.check_in(ctx.session, ctx.org_id, member_id=input.memberId, session_id=input.sessionId,
                                     tz=ctx.tz, now=ctx.now, created_by=ctx.caller.user_id)
    return _visit_out(ctx, visit)


class CheckInRef(BaseModel):
    id: uuid.UUID = Field(description="Check-in id from bookings__check_in.")


@bookings_desk.agent_tool(
    action="undo_check_in",
    summary="Undo a check-in: the booking goes back to what it was and the member's last visit to what it was "
            "before.",
    input=CheckInRef, roles=STAFF, side_effects="write", audit=Audit("check_in", "check_in.undo"))
async def undo_check_in(ctx: ToolContext, input: CheckInRef) -> CheckInOut:
    return _visit_out(ctx, await check_ins.undo_check_in(ctx.session, ctx.org_id, check_in_id=input.id, now=ctx.now))
