"""assignments: workouts given to members or programs on a date, one at a time or in bulk.

Bulk actions run on a filter (dates or a named range in the gym's timezone, program, member, coach,
published flag). `bulk_preview` reports the exact set with a fingerprint; `bulk_publish`/`bulk_delete`
take the same filter plus that fingerprint (or the ids) and refuse with `stale_preview` when the set
changed in between, so a confirmed bulk action touches exactly what the user saw.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.member_text import MemberName
from core.tenancy import find_org_access
from gym import assignments as service
from gym.members import member_name
from gym.periods import Tz, local_today, resolve_period
from gym.programs import get_program, member_exists
from gym.restore import publish_changes
from gym.workouts import workout_title
from tools import confirm_summaries as card
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.errors import ToolFailed, not_found
from tools.registry import OWNER_ADMIN_COACH, Audit, ToolRouter
from tools.restore import (
    BULK_RESTORE,
    BULK_UNPUBLISH,
    add_bulk_restore,
    add_bulk_unpublish,
    add_restore,
    bulk_inverse,
    restore_inverse,
)

assignments = ToolRouter("assignments")
IDS_CAP = 100
SAMPLE = 10

RangeName = Literal["today", "tomorrow", "yesterday", "this_week", "next_week", "last_week", "this_month",
                    "next_month", "last_month"]


def resolve_range(name: str, tz: Tz, now: dt.datetime) -> tuple[dt.date, dt.date]:
    """A named range → its first and last local day (inclusive) in the gym's timezone.

    Weeks run Monday to Sunday: `next_week` is the Monday-to-Sunday week after the current local week,
    `next_month` the calendar month after the current one.
    """
    today = local_today(tz, now)
    if name == "tomorrow":
        return today + dt.timedelta(days=1), today + dt.timedelta(days=1)
    if name == "next_week":
        monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
        return monday, monday + dt.timedelta(days=6)
    if name == "next_month":
        first = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
        return first, (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    period = resolve_period(name, None, None, tz, now)
    return period.first_day, period.last_day


# --- inputs --------------------------------------------------------------------------------------------

class AssignmentFilterInput(BaseModel):
    """Which assignments a bulk action hits; every given field narrows. Needs dates, a program, a member or a
    coach."""

    model_config = ConfigDict(populate_by_name=True)

    period: RangeName | None = Field(None, description="Named date range in the gym's timezone; weeks run "
                                                       "Monday-Sunday (next_week = the week after this one).")
    from_: ToolDate | None = Field(None, alias="from", description="First day (YYYY-MM-DD), instead of period.")
    to: ToolDate | None = Field(None, description="Last day, inclusive (YYYY-MM-DD), instead of period.")
    programId: uuid.UUID | None = Field(None, description="Only assignments in this program.")
    memberId: uuid.UUID | None = Field(None, description="Only this member's assignments.")
    coachUserId: uuid.UUID | None = Field(None, description="Only assignments of this coach (a staff user id).")
    published: bool | None = Field(None, description="true: only published ones; false: only drafts.")

    @model_validator(mode="after")
    def _one_kind_of_dates(self) -> AssignmentFilterInput:
        if self.period and (self.from_ or self.to):
            raise ValueError("give either period or from/to, not both")
        return self


class BulkChangeInput(AssignmentFilterInput):
    expectedFingerprint: str | None = Field(None, min_length=8, max_length=64,
                                            description="The fingerprint from assignments__bulk_preview; the "
                                                        "action is refused if the set changed since.")
    expectedIds: list[uuid.UUID] | None = Field(None, max_length=500,
                                                description="Alternatively, the ids from the preview.")


class BulkPublishInput(BulkChangeInput):
    publish: bool = Field(True, description="true publishes (members see them), false unpublishes.")


class AssignPersonalInput(BaseModel):
    workoutId: uuid.UUID = Field(description="Workout id (create it first with workouts__create if needed).")
    memberId: uuid.UUID = Field(description="Member id from read__members_search.")
    date: ToolDate = Field(description="Day of the session (YYYY-MM-DD, gym's timezone).")
    coachUserId: uuid.UUID | None = Field(None, description="The coach's user id; defaults to the caller when the "
                                                            "caller is a coach.")
    programId: uuid.UUID | None = Field(None, description="Program to file it under; defaults to the workout's.")
    published: bool = Field(False, description="true makes it visible to the member right away.")


class UpdateAssignmentInput(BaseModel):
    id: uuid.UUID = Field(description="Assignment id.")
    date: ToolDate | None = Field(None, description="New day (YYYY-MM-DD, gym's timezone).")
    workoutId: uuid.UUID | None = Field(None, description="Swap in another workout.")
    coachUserId: uuid.UUID | None = Field(None, description="New coach's user id; null removes the coach.")

    @model_validator(mode="after")
    def _changes_something(self) -> UpdateAssignmentInput:
        if not self.model_fields_set - {"id"}:
            raise ValueError("nothing to change: pass date, workoutId or coachUserId")
        for name in ("date", "workoutId"):
            if name in self.model_fields_set and getattr(self, name) is None:
                raise ValueError(f"{name} cannot be null")
        return self


class SetPublishedInput(BaseModel):
    id: uuid.UUID = Field(description="Assignment id.")
    published: bool = Field(description="true: visible to the member; false: back to draft.")


class AssignmentIdInput(BaseModel):
    id: uuid.UUID = Field(description="Assignment id.")


class MarkReadInput(BaseModel):
    assignmentId: uuid.UUID | None = Field(None, description="Mark this assignment's comments read.")
    programId: uuid.UUID | None = Field(None, description="Or mark every comment in this program read.")

    @model_validator(mode="after")
    def _exactly_one(self) -> MarkReadInput:
        if (self.assignmentId is None) == (self.programId is None):
            raise ValueError("pass exactly one of assignmentId or programId")
        return self


# --- outputs -------------------------------------------------------------------------------------------

class AssignmentOut(BaseModel):
    id: uuid.UUID
    date: dt.date
    workoutId: uuid.UUID
    workoutTitle: str | None = None
    memberId: uuid.UUID | None = None
    memberName: MemberName | None = None
    programId: uuid.UUID | None = None
    coachUserId: uuid.UUID | None = None
    published: bool
    deleted: bool | None = None


class AssignmentBrief(BaseModel):
    id: uuid.UUID
    date: dt.date
    workoutTitle: str
    memberName: MemberName | None = None
    programId: uuid.UUID | None = None
    published: bool


class BulkPreviewOut(BaseModel):
    count: int
    dateFrom: dt.date | None = None
    dateTo: dt.date | None = None
    fingerprint: str
    ids: list[uuid.UUID]
    idsComplete: bool
    publishedCount: int = Field(description="Of `count`, how many are published already.")
    draftCount: int = Field(description="Of `count`, how many are drafts: what a publish would change.")
    sample: list[AssignmentBrief]
    next: str


class BulkResultOut(BaseModel):
    count: int
    dateFrom: dt.date | None = None
    dateTo: dt.date | None = None
    ids: list[uuid.UUID]
    idsComplete: bool
    published: bool | None = None
    deleted: bool | None = None
    changedCount: int | None = Field(None, description="How many it changed (what to tell the user).")
    unchangedCount: int | None = Field(None, description="How many of `count` already were so and stayed.")
    changedIds: list[uuid.UUID] | None = None  # the rows it changed, all of them: what its Undo reverts


class MarkReadOut(BaseModel):
    id: uuid.UUID
    scope: Literal["assignment", "program"]
    markedRead: int


# --- helpers -------------------------------------------------------------------------------------------

async def _require_coach(ctx: ToolContext, user_id: uuid.UUID) -> None:
    access = await find_org_access(ctx.session, ctx.org_id, user_id)
    if access is None or not access.is_staff:
        raise ToolFailed("coach_not_found", f"No staff member with user id {user_id} in this gym.",
                         "Leave the coach out, or use a staff user id from this gym.")


async def _out(ctx: ToolContext, a: service.Assignment) -> AssignmentOut:
    title = await workout_title(ctx.session, ctx.org_id, a.workout_id)
    member = None
    if a.member_id:
        member = await member_name(ctx.session, ctx.org_id, a.member_id)
    return AssignmentOut(id=a.id, date=a.scheduled_on, workoutId=a.workout_id, workoutTitle=title,
                         memberId=a.member_id, memberName=member, programId=a.program_id,
                         coachUserId=a.coach_user_id, published=a.published,
                         deleted=True if a.deleted_at else None)


async def _filter(ctx: ToolContext, input: AssignmentFilterInput) -> service.AssignmentFilter:
    """The service filter, with the named range resolved in the gym's timezone and every id checked."""
    date_from, date_to = input.from_, input.to
    if input.period:
        date_from, date_to = resolve_range(input.period, ctx.tz, ctx.now)
    if input.programId and await get_program(ctx.session, ctx.org_id, input.programId) is None:
        raise not_found("program", input.programId)
    if input.memberId and not await member_exists(ctx.session, ctx.org_id, input.memberId):
        raise not_found("member", input.memberId)
    if input.coachUserId:
        await _require_coach(ctx, input.coachUserId)
    return service.AssignmentFilter(date_from=date_from, date_to=date_to, program_id=input.programId,
                                    member_id=input.memberId, published=input.published,
                                    coach_user_id=input.coachUserId)


def _bulk_out(flt: service.AssignmentFilter, result: service.BulkResult, **flags: bool) -> BulkResultOut:
    changed = len(result.changed if result.changed is not None else result.ids)
    return BulkResultOut(count=result.count, dateFrom=flt.date_from, dateTo=flt.date_to, ids=result.ids[:IDS_CAP],
                         idsComplete=result.count <= IDS_CAP, changedCount=changed,
                         unchangedCount=result.count - changed, changedIds=result.changed, **flags)


@dataclass(frozen=True)
class PublishPlan:
    """What a bulk publish (or unpublish) of a filter would change: the rows (the first `limit`), how many, how
    many of the set already are so, and the dates. Its approval card lists these rows and counts."""

    rows: list[service.AssignmentRow]
    count: int
    unchanged: int
    date_from: dt.date | None
    date_to: dt.date | None


async def publish_plan(ctx: ToolContext, input: BulkPublishInput, limit: int) -> PublishPlan:
    flt = await _filter(ctx, input)
    ids = (await service.bulk_preview(ctx.session, ctx.org_id, flt, sample_size=0)).ids
    changing = await publish_changes(ctx.session, service.Assignment, ctx.org_id, ids, live="deleted_at",
                                     published=input.publish)
    return PublishPlan(await service.rows(ctx.session, ctx.org_id, changing[:limit]), len(changing),
                       len(ids) - len(changing), flt.date_from, flt.date_to)


async def _assignment(ctx: ToolContext, assignment_id: uuid.UUID) -> service.Assignment:
    found = await service.get_assignment(ctx.session, ctx.org_id, assignment_id)
    if found is None:
        raise not_found("assignment", assignment_id)
    return found


# --- single assignments --------------------------------------------------------------------------------

@assignments.agent_tool(
    action="assign_personal",
    summary="Assign a workout to one member for a date (1-on-1 / personal training). Unpublished (a draft the "
            "member cannot see) unless published is true.",
    input=AssignPersonalInput, roles=OWNER_ADMIN_COACH, side_effects="write",
    audit=Audit("assignment", "assignment.assign_personal"),
                        loaded=True)
async def assign_personal(ctx: ToolContext, input: AssignPersonalInput) -> AssignmentOut:
    coach = input.coachUserId
    if coach is None and ctx.org.role == "coach":
        coach = ctx.caller.user_id
    elif coach is not None:
        await _require_coach(ctx, coach)
    assignment = await service.assign_personal(
        ctx.session, ctx.org_id, workout_id=input.workoutId, member_id=input.memberId, scheduled_on=input.date,
        coach_user_id=coach, published=input.published, program_id=input.programId)
    return await _out(ctx, assignment)


@assignments.agent_tool(
    action="update",
    summary="Move an assignment to another date, swap its workout, or change its coach (only the fields you "
            "pass). To publish or unpublish use assignments__set_published.",
    input=UpdateAssignmentInput, roles=OWNER_ADMIN_COACH, side_effects="write",
    audit=Audit("assignment", "assignment.update"))
async def update_assignment(ctx: ToolContext, input: UpdateAssignmentInput) -> AssignmentOut:
    fields = {"date": "scheduled_on", "workoutId": "workout_id", "coachUserId": "coach_user_id"}
    patch = {column: getattr(input, name) for name, column in fields.items() if name in input.model_fields_set}
    if patch.get("coach_user_id") is not None:
        await _require_coach(ctx, patch["coach_user_id"])
    assignment = await service.update_assignment(ctx.session, ctx.org_id, input.id, patch)
    if assignment is None:
        raise not_found("assignment", input.id)
    return await _out(ctx, assignment)


@assignments.agent_tool(
    action="set_published",
    summary="Publish one assignment (the member sees it) or turn it back into a draft.",
    input=SetPublishedInput, roles=OWNER_ADMIN_COACH, side_effects="write",
    audit=Audit("assignment", "assignment.set_published"))
async def set_published(ctx: ToolContext, input: SetPublishedInput) -> AssignmentOut:
    assignment = await service.set_published(ctx.session, ctx.org_id, input.id, input.published)
    if assignment is None:
        raise not_found("assignment", input.id)
    return await _out(ctx, assignment)


@assignments.agent_tool(
    action="delete",
    summary="Delete one assignment (soft delete; the workout itself stays). Needs the user's confirmation.",
    input=AssignmentIdInput, roles=OWNER_ADMIN_COACH, side_effects="write", confirm="destructive",
    audit=Audit("assignment", "assignment.delete"), inverse=restore_inverse("assignments"),
    describe=card.delete_assignment)
async def delete_assignment(ctx: ToolContext, input: AssignmentIdInput) -> AssignmentOut:
    assignment = await service.soft_delete_assignment(ctx.session, ctx.org_id, input.id, ctx.now)
    if assignment is None:
        raise not_found("assignment", input.id)
    return await _out(ctx, assignment)


@assignments.agent_tool(
    action="mark_comments_read",
    summary="Mark workout comments as read for you (the calling coach): every comment on one assignment, or "
            "every comment in one program. Returns how many were newly marked.",
    input=MarkReadInput, roles=OWNER_ADMIN_COACH, side_effects="write",
    audit=Audit("workout_comment", "workout_comment.mark_read"))
async def mark_comments_read(ctx: ToolContext, input: MarkReadInput) -> MarkReadOut:
    if input.assignmentId:
        await _assignment(ctx, input.assignmentId)
    elif input.programId and await get_program(ctx.session, ctx.org_id, input.programId) is None:
        raise not_found("program", input.programId)
    marked = await service.mark_comments_read(ctx.session, ctx.org_id, ctx.caller.user_id,
                                          assignment_id=input.assignmentId, program_id=input.programId,
                                          now=ctx.now)
    scope_id = input.assignmentId or input.programId
    assert scope_id is not None
    return MarkReadOut(id=scope_id, scope="assignment" if input.assignmentId else "program", markedRead=marked)


# --- bulk ----------------------------------------------------------------------------------------------

@assignments.agent_tool(
    action="bulk_preview",
    summary="Dry run for a bulk publish/delete: which assignments a filter hits (count, date range resolved in "
            "the gym's timezone, a sample, ids and a fingerprint). Always preview first, show the user what will "
            "change, then call assignments__bulk_publish or assignments__bulk_delete with the SAME filter and "
            "the fingerprint. E.g. 'publish next week's assignments' → period next_week.",
    input=AssignmentFilterInput, roles=OWNER_ADMIN_COACH)
async def bulk_preview(ctx: ToolContext, input: AssignmentFilterInput) -> BulkPreviewOut:
    flt = await _filter(ctx, input)
    preview = await service.bulk_preview(ctx.session, ctx.org_id, flt, sample_size=SAMPLE)
    sample = [AssignmentBrief(id=r.id, date=r.scheduled_on, workoutTitle=r.workout_title, memberName=r.member_name,
                              programId=r.program_id, published=r.published) for r in preview.sample]
    drafts = len(await publish_changes(ctx.session, service.Assignment, ctx.org_id, preview.ids, live="deleted_at"))
    next_step = ("Nothing matches; tell the user and adjust the filter." if not preview.count else
                 "Call the bulk action with this same filter and expectedFingerprint. A publish changes only the "
                 "drafts: tell the user draftCount, and that publishedCount already are published.")
    return BulkPreviewOut(count=preview.count, dateFrom=flt.date_from, dateTo=flt.date_to,
                          fingerprint=preview.fingerprint, ids=preview.ids[:IDS_CAP],
                          idsComplete=preview.count <= IDS_CAP, publishedCount=preview.count - drafts,
                          draftCount=drafts, sample=sample, next=next_step)


async def _publish_words(ctx: ToolContext, input: BulkPublishInput) -> str:
    """Only the rows the publish changes are counted and listed; those already so are counted apart."""
    plan = await publish_plan(ctx, input, card.LISTED)
    publish = getattr(input, "publish", True)
    lead = card.words(ctx, "publishAssignments" if publish else "unpublishAssignments", count=plan.count,
                      span=card.span(ctx, plan.date_from, plan.date_to))
    labels = [" · ".join(filter(None, (card.short_day(ctx, r.scheduled_on), r.workout_title,
                                       r.member_name or r.program_name))) for r in plan.rows]
    return card.listing(ctx, lead, "alreadyPublished" if publish else "alreadyDrafts", plan.unchanged, labels,
                        plan.count)


async def _delete_words(ctx: ToolContext, input: BulkChangeInput) -> str:
    preview = await bulk_preview(ctx, input)
    return card.words(ctx, "deleteAssignments", count=preview.count,
                      span=card.span(ctx, preview.dateFrom, preview.dateTo))


@assignments.agent_tool(
    action="bulk_publish",
    summary="Publish (or with publish=false unpublish) every assignment a filter hits. Preview first with "
            "assignments__bulk_preview and pass the same filter plus its fingerprint; refused with stale_preview "
            "if the set changed. Always asks the user to confirm.",
    input=BulkPublishInput, roles=OWNER_ADMIN_COACH, side_effects="write", confirm="always",
    audit=Audit("assignment", "assignment.bulk_publish"), inverse=bulk_inverse("assignments", BULK_UNPUBLISH),
    describe=_publish_words)
async def bulk_publish(ctx: ToolContext, input: BulkPublishInput) -> BulkResultOut:
    flt = await _filter(ctx, input)
    result = await service.bulk_publish(ctx.session, ctx.org_id, flt, published=input.publish,
                                    expected_ids=input.expectedIds,
                                    expected_fingerprint=input.expectedFingerprint)
    return _bulk_out(flt, result, published=input.publish)


@assignments.agent_tool(
    action="bulk_delete",
    summary="Delete (soft) every assignment a filter hits. Preview first with assignments__bulk_preview and pass "
            "the same filter plus its fingerprint; refused with stale_preview if the set changed. Needs the "
            "user's confirmation.",
    input=BulkChangeInput, roles=OWNER_ADMIN_COACH, side_effects="write", confirm="destructive",
    audit=Audit("assignment", "assignment.bulk_delete"), inverse=bulk_inverse("assignments", BULK_RESTORE),
    describe=_delete_words)
async def bulk_delete(ctx: ToolContext, input: BulkChangeInput) -> BulkResultOut:
    flt = await _filter(ctx, input)
    result = await service.bulk_delete(ctx.session, ctx.org_id, flt, ctx.now, expected_ids=input.expectedIds,
                                   expected_fingerprint=input.expectedFingerprint)
    return _bulk_out(flt, result, deleted=True)


add_restore(assignments, model=service.Assignment, entity="assignment", roles=OWNER_ADMIN_COACH)
add_bulk_restore(assignments, model=service.Assignment, entity="assignment", roles=OWNER_ADMIN_COACH)
add_bulk_unpublish(assignments, model=service.Assignment, entity="assignment", roles=OWNER_ADMIN_COACH)
