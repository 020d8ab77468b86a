"""class_sessions: the class schedule in the gym's own timezone.

list_for_date, create ↺ cancel, update, publish ↺ unpublish, cancel; bulk preview / delete / publish on the same
router in tools/leaves/class_sessions_bulk.py.
Days and "HH:MM" times are local to the gym; outputs carry local ISO times (with offset) and UTC. The bulk
actions select their ids once and act on exactly those, refusing when the set differs from the preview.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, ValidationInfo, model_validator

from core.tenancy import find_org_access
from gym import classes as service
from gym.bookings import booked_members
from gym.errors import GymError
from gym.periods import local_instant, resolve_local_day
from tools import desk_summaries
from tools.context import ToolContext
from tools.dates import WINDOW_NOTE, check_window
from tools.errors import ToolFailed, next_step, not_found
from tools.registry import OWNER_ADMIN, STAFF, Audit, Inverse, ToolRouter, by_id
from tools.restore import (
    restore_inverse,
)

class_sessions = ToolRouter("class_sessions")

AUDIT = "class_session"


def _check_day(value: str, info: ValidationInfo) -> str:
    """The form, and the window around the gym's today (the runner's context); resolved again in the handler."""
    today = (info.context or {}).get("today") or dt.datetime.now(dt.UTC).date()
    try:
        day = resolve_local_day(value, "UTC", dt.datetime.combine(today, dt.time(12), dt.UTC))
    except GymError:
        raise ValueError("use YYYY-MM-DD, today, tomorrow or a weekday name such as 'friday'") from None
    check_window(day, today)
    return value


Day = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_check_day)]
Clock = Annotated[str, Field(pattern=r"^([01]?\d|2[0-3]):[0-5]\d$")]
DAY_HELP = ("Local day in the gym's timezone: YYYY-MM-DD, 'today', 'tomorrow' or a weekday "
            "('friday' = the next Friday, today included; 'next friday' = after today). " + WINDOW_NOTE)


def _local(ctx: ToolContext, word: str) -> dt.date:
    return resolve_local_day(word, ctx.tz, ctx.now)


def _utc(instant: dt.datetime) -> str:
    return instant.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


class SessionOut(BaseModel):
    id: uuid.UUID
    title: str
    classType: str
    classTypeId: uuid.UUID
    date: str = Field(description="Local day, YYYY-MM-DD.")
    weekday: str
    startsAt: str = Field(description="Local start with UTC offset.")
    endsAt: str
    startsAtUtc: str
    endsAtUtc: str
    capacity: int
    booked: int
    coachUserId: uuid.UUID | None = None
    coach: str | None = None
    published: bool
    cancelled: bool


def _out(ctx: ToolContext, row: service.SessionRow) -> SessionOut:
    start, end = row.starts_at.astimezone(ctx.tz), row.ends_at.astimezone(ctx.tz)
    return SessionOut(id=row.id, title=row.title, classType=row.class_type_name, classTypeId=row.class_type_id,
                      date=start.date().isoformat(), weekday=start.strftime("%A"), startsAt=start.isoformat(),
                      endsAt=end.isoformat(), startsAtUtc=_utc(row.starts_at), endsAtUtc=_utc(row.ends_at),
                      capacity=row.capacity, booked=row.booked, coachUserId=row.coach_user_id, coach=row.coach_name,
                      published=row.published, cancelled=row.cancelled_at is not None)


async def _session_out(ctx: ToolContext, session_id: uuid.UUID) -> SessionOut:
    rows = await service.session_rows(ctx.session, ctx.org_id, [session_id])
    return _out(ctx, rows[0])


async def _session(ctx: ToolContext, session_id: uuid.UUID) -> service.ClassSession:
    row = await service.get_session(ctx.session, ctx.org_id, session_id)
    if row is None:
        raise not_found("class_session", session_id,
                        "Call class_sessions__list_for_date for that day and use a session id from it.")
    return row


async def _check_coach(ctx: ToolContext, user_id: uuid.UUID) -> None:
    access = await find_org_access(ctx.session, ctx.org_id, user_id)
    if access is None or not access.is_staff:
        raise not_found("coach", user_id, "Use the user id of a staff member (coach, admin, owner) of this gym.")


async def _class_type(ctx: ToolContext, type_id: uuid.UUID | None, name: str | None) -> service.ClassType:
    """By id, or by name: case-insensitive exact match first, then a unique partial match."""
    if type_id is not None:
        found = await service.get_class_type(ctx.session, ctx.org_id, type_id)
        if found is None:
            raise not_found("class_type", type_id, "Call class_types__list_for_program to see the class types.")
        return found
    types = await service.list_class_types(ctx.session, ctx.org_id)

    def norm(text: str) -> str:
        return " ".join(text.lower().replace("-", " ").replace("_", " ").split())

    wanted = norm(name or "")
    matches = [t for t in types if norm(t.name) == wanted] or [t for t in types if wanted in norm(t.name)]
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(t.name for t in (matches or types)[:12]) or "none yet"
    if matches:
        raise ToolFailed("class_type_ambiguous", f"'{name}' matches several class types: {names}.",
                         "Ask the user which one they mean, then pass its name exactly or its classTypeId.")
    raise ToolFailed("class_type_not_found", f"No class type named '{name}' in this gym.",
                     f"The gym's class types are: {names}. Use one of them, or ask the user.")


# --- one day ---------------------------------------------------------------------------------------------

class ListForDateInput(BaseModel):
    date: Day = Field("today", description=DAY_HELP)
    includeCancelled: bool = Field(True, description="Also list cancelled sessions (flagged cancelled).")


class SessionBrief(BaseModel):
    id: uuid.UUID
    title: str
    classType: str
    date: str
    start: str = Field(description="Local HH:MM.")
    end: str
    coach: str | None = None
    booked: int
    capacity: int
    published: bool
    cancelled: bool


def _brief(ctx: ToolContext, row: service.SessionRow) -> SessionBrief:
    start, end = row.starts_at.astimezone(ctx.tz), row.ends_at.astimezone(ctx.tz)
    return SessionBrief(id=row.id, title=row.title, classType=row.class_type_name, date=start.date().isoformat(),
                        start=start.strftime("%H:%M"), end=end.strftime("%H:%M"), coach=row.coach_name,
                        booked=row.booked, capacity=row.capacity, published=row.published,
                        cancelled=row.cancelled_at is not None)


class DaySchedule(BaseModel):
    date: str
    weekday: str
    timezone: str
    count: int
    sessions: list[SessionBrief]


@class_sessions.agent_tool(
    action="list_for_date",
    summary="The class schedule of one local day in the gym's timezone (default today): each session's id, "
            "title, class type, local start/end HH:MM, coach, booked/capacity, published and cancelled flags. "
            "Use it to find a session id before updating, publishing or cancelling it.",
    input=ListForDateInput, roles=STAFF,
                           loaded=True)
async def list_for_date(ctx: ToolContext, input: ListForDateInput) -> DaySchedule:
    day = _local(ctx, input.date)
    rows = await service.list_sessions_for_date(ctx.session, ctx.org_id, day, ctx.tz,
                                                include_cancelled=input.includeCancelled)
    return DaySchedule(date=day.isoformat(), weekday=day.strftime("%A"), timezone=ctx.org.timezone,
                       count=len(rows), sessions=[_brief(ctx, r) for r in rows[:60]])


# --- one session -----------------------------------------------------------------------------------------

class CreateSessionInput(BaseModel):
    classTypeId: uuid.UUID | None = Field(None, description="Class type id; or give classType by name instead.")
    classType: str | None = Field(None, min_length=1, max_length=120,
                                  description="Class type name, matched case-insensitively (e.g. 'open gym').")
    date: Day = Field(description=DAY_HELP)
    start: Clock = Field(description="Local start time, 24h 'HH:MM' (e.g. '13:00').")
    end: Clock | None = Field(None, description="Local end time 'HH:MM' on the same day; default: the class "
                                                "type's usual length.")
    capacity: int | None = Field(None, ge=1, le=1000, description="Spots; default: the class type's capacity.")
    coachUserId: uuid.UUID | None = Field(None, description="User id of the staff member coaching it.")
    published: bool = Field(False, description="True makes it visible and bookable for members right away.")
    title: str | None = Field(None, min_length=1, max_length=200, description="Default: the class type's name.")
    allowOverlap: bool = Field(False, description="True only once the user agreed to a same-type overlap.")

    @model_validator(mode="after")
    def _one_type(self) -> CreateSessionInput:
        if (self.classTypeId is None) == (self.classType is None):
            raise ValueError("give exactly one of classTypeId or classType")
        return self


@class_sessions.agent_tool(
    action="create",
    summary="Schedule one class session on a local day at local times in the gym's timezone, e.g. 'open gym "
            "tomorrow 13:00-14:00 published'. Returns the session with local and UTC times. Undoable (the undo "
            "cancels it).",
    input=CreateSessionInput, roles=STAFF, side_effects="write", audit=Audit(AUDIT, "class_session.create"),
    inverse=Inverse("class_sessions", "cancel", by_id))
async def create(ctx: ToolContext, input: CreateSessionInput) -> SessionOut:
    class_type = await _class_type(ctx, input.classTypeId, input.classType)
    day = _local(ctx, input.date)
    starts = local_instant(day, input.start, ctx.tz)
    ends = local_instant(day, input.end, ctx.tz) if input.end else None
    if input.coachUserId is not None:
        await _check_coach(ctx, input.coachUserId)
    row = await service.create_session(ctx.session, ctx.org_id, class_type_id=class_type.id, starts_at=starts,
                                       ends_at=ends, capacity=input.capacity, coach_user_id=input.coachUserId,
                                       published=input.published, title=input.title,
                                       created_by=ctx.caller.user_id, allow_overlap=input.allowOverlap)
    assert row is not None  # the class type was found in this org above
    return await _session_out(ctx, row.id)


class UpdateSessionInput(BaseModel):
    id: uuid.UUID = Field(description="Session id from class_sessions__list_for_date or __create.")
    date: Day | None = Field(None, description="Move to this local day (keeps the times unless given). " + DAY_HELP)
    start: Clock | None = Field(None, description="New local start 'HH:MM'; without end the length is kept.")
    end: Clock | None = Field(None, description="New local end 'HH:MM'.")
    capacity: int | None = Field(None, ge=1, le=1000)
    coachUserId: uuid.UUID | None = Field(None, description="New coach's user id; null removes the coach.")
    title: str | None = Field(None, min_length=1, max_length=200)

    @model_validator(mode="after")
    def _something(self) -> UpdateSessionInput:
        if not self.model_fields_set - {"id"}:
            raise ValueError("give at least one field to change")
        return self


def _moved(ctx: ToolContext, row: service.ClassSession, input: UpdateSessionInput) -> dict[str, dt.datetime]:
    """New start/end instants from a new local day and/or local times; untouched parts keep their local clock."""
    start, end = row.starts_at.astimezone(ctx.tz), row.ends_at.astimezone(ctx.tz)
    day = _local(ctx, input.date) if input.date else start.date()
    starts = local_instant(day, input.start or start.time(), ctx.tz)
    if input.end:
        ends = local_instant(day, input.end, ctx.tz)
    elif input.start:
        ends = starts + (row.ends_at - row.starts_at)
    else:
        ends = local_instant(day + (end.date() - start.date()), end.time(), ctx.tz)
    return {"starts_at": starts, "ends_at": ends}


@class_sessions.agent_tool(
    action="update",
    summary="Change one session: move it to another local day or local times, or change capacity, coach or "
            "title. Only the fields given change.",
    input=UpdateSessionInput, roles=STAFF, side_effects="write", audit=Audit(AUDIT, "class_session.update"))
async def update(ctx: ToolContext, input: UpdateSessionInput) -> SessionOut:
    row = await _session(ctx, input.id)
    if row.cancelled_at is not None:
        raise ToolFailed("session_cancelled", "This session was cancelled and cannot be changed.",
                         "This session was cancelled; create a new session instead.")
    changes: dict[str, object] = {}
    if input.date or input.start or input.end:
        changes.update(_moved(ctx, row, input))
    if "capacity" in input.model_fields_set and input.capacity is not None:
        changes["capacity"] = input.capacity
    if "title" in input.model_fields_set and input.title is not None:
        changes["title"] = input.title
    if "coachUserId" in input.model_fields_set:
        if input.coachUserId is not None:
            await _check_coach(ctx, input.coachUserId)
        changes["coach_user_id"] = input.coachUserId
    await service.update_session(ctx.session, ctx.org_id, row.id, **changes)
    return await _session_out(ctx, row.id)


class SessionIdInput(BaseModel):
    id: uuid.UUID = Field(description="Session id from class_sessions__list_for_date or __create.")


async def _set_published(ctx: ToolContext, session_id: uuid.UUID, published: bool) -> SessionOut:
    await _session(ctx, session_id)
    await service.set_published(ctx.session, ctx.org_id, session_id, published)
    return await _session_out(ctx, session_id)


@class_sessions.agent_tool(
    action="publish", summary="Publish one session so members can see and book it. Undoable (unpublish).",
    input=SessionIdInput, roles=STAFF, side_effects="write", audit=Audit(AUDIT, "class_session.publish"),
    inverse=Inverse("class_sessions", "unpublish", by_id))
async def publish(ctx: ToolContext, input: SessionIdInput) -> SessionOut:
    return await _set_published(ctx, input.id, True)


@class_sessions.agent_tool(
    action="unpublish", summary="Hide one session from members (unpublish); existing bookings stay.",
    input=SessionIdInput, roles=STAFF, side_effects="write", audit=Audit(AUDIT, "class_session.unpublish"))
async def unpublish(ctx: ToolContext, input: SessionIdInput) -> SessionOut:
    return await _set_published(ctx, input.id, False)


class CancelledOut(SessionOut):
    bookedMembers: list[str] = Field(default_factory=list, description="Who was booked into it: they are not told "
                                                                       "unless the user has them messaged.")
    nextStep: dict | None = Field(None, description="For the card: the offer to draft them a message "
                                                    "(messages__draft with filter=session and this session id).")


@class_sessions.agent_tool(
    action="cancel",
    summary="Cancel one session (soft: it stays on record, flagged cancelled). Needs the user's confirmation. The "
            "members booked into it are listed and not told: offer to draft them a message (messages__draft, "
            "filter=session).",
    input=SessionIdInput, roles=OWNER_ADMIN, side_effects="write", confirm="destructive",
    audit=Audit(AUDIT, "class_session.cancel"), inverse=restore_inverse("class_sessions"),
    describe=desk_summaries.cancel_session,
                           loaded=True)
async def cancel(ctx: ToolContext, input: SessionIdInput) -> CancelledOut:
    await _session(ctx, input.id)
    await service.cancel_session(ctx.session, ctx.org_id, input.id, ctx.now)
    booked = [m.full_name for m in await booked_members(ctx.session, ctx.org_id, input.id)]
    out = await _session_out(ctx, input.id)
    return CancelledOut(**out.model_dump(), bookedMembers=booked,
                        nextStep=next_step("message_booked", ctx.locale) if booked else None)
