"""class_sessions' bulk actions: preview, delete and publish every session a filter hits (on the same router as
tools/leaves/class_sessions.py, registered after its tools, and with them the inverses of cancel and of the bulk
actions, in the order they always had). The actions select their ids once and act on exactly
those, refusing when the set differs from the preview; each approval card lists what the change touches.
"""

from __future__ import annotations

import uuid

from pydantic import BaseModel, Field

from gym import classes as service
from gym.fingerprint import fingerprint
from gym.programs import get_program
from gym.restore import publish_changes
from tools import confirm_summaries as card
from tools.context import ToolContext
from tools.errors import not_found
from tools.leaves.class_sessions import AUDIT, SessionBrief, _brief, _check_coach, _class_type, class_sessions
from tools.leaves.session_filters import (
    MAX_IDS,
    BulkActInput,
    BulkResult,
    SessionFilterInput,
    bulk_result,
    span,
)
from tools.registry import OWNER_ADMIN, Audit
from tools.restore import (
    BULK_RESTORE,
    BULK_UNPUBLISH,
    add_bulk_restore,
    add_bulk_unpublish,
    add_restore,
    bulk_inverse,
)


async def _filter(ctx: ToolContext, flt: SessionFilterInput) -> service.SessionFilter:
    """The service filter, after checking that every id in it belongs to this gym."""
    if flt.classTypeId is not None:
        await _class_type(ctx, flt.classTypeId, None)
    if flt.programId is not None and await get_program(ctx.session, ctx.org_id, flt.programId) is None:
        raise not_found("program", flt.programId, "Call read__programs_list and use a program id from it.")
    if flt.coachUserId is not None:
        await _check_coach(ctx, flt.coachUserId)
    first, last = span(ctx, flt)
    return service.SessionFilter(date_from=first, date_to=last, class_type_id=flt.classTypeId,
                                 program_id=flt.programId, published=flt.published, coach_user_id=flt.coachUserId)


class BulkPreview(BaseModel):
    firstDay: str
    lastDay: str
    count: int
    fingerprint: str = Field(description="Pass as expectedFingerprint to bulk_delete / bulk_publish.")
    ids: list[uuid.UUID]
    idsTruncated: bool = False
    publishedCount: int = Field(0, description="Of `count`, how many are published already.")
    draftCount: int = Field(0, description="Of `count`, how many are unpublished: what a publish would change.")
    sample: list[SessionBrief]


@class_sessions.agent_tool(
    action="bulk_preview",
    summary="Dry run for a bulk change: which non-cancelled sessions a filter (local date range or named period, "
            "class type, program, published flag, coach) hits: count, a sample, the ids and a fingerprint. Show "
            "it to the user, then call bulk_delete or bulk_publish with the same filter and expectedFingerprint.",
    input=SessionFilterInput, roles=OWNER_ADMIN)
async def bulk_preview(ctx: ToolContext, input: SessionFilterInput) -> BulkPreview:
    flt = await _filter(ctx, input)
    found = await service.preview_sessions(ctx.session, ctx.org_id, flt, ctx.tz, sample=10)
    ids = found["ids"]
    first, last = flt.date_from or flt.date_to, flt.date_to or flt.date_from  # the service required one bound
    drafts = len(await publish_changes(ctx.session, service.ClassSession, ctx.org_id, ids, live="cancelled_at"))
    return BulkPreview(firstDay=first.isoformat() if first else "", lastDay=last.isoformat() if last else "",
                       count=found["count"],
                       fingerprint=fingerprint(ids), ids=ids[:MAX_IDS], idsTruncated=len(ids) > MAX_IDS,
                       publishedCount=found["count"] - drafts, draftCount=drafts,
                       sample=[_brief(ctx, row) for row in found["sessions"]])


async def publish_plan(ctx: ToolContext, input: SessionFilterInput, limit: int) -> tuple[list[SessionBrief], int, int]:
    """What bulk_publish would change: the sessions not yet published (the first `limit`), how many, and how many
    of the filter's set already are; its approval card lists and counts these."""
    ids = await service.select_session_ids(ctx.session, ctx.org_id, await _filter(ctx, input), ctx.tz)
    changing = await publish_changes(ctx.session, service.ClassSession, ctx.org_id, ids, live="cancelled_at")
    rows = await service.session_rows(ctx.session, ctx.org_id, changing[:limit])
    return [_brief(ctx, row) for row in rows], len(changing), len(ids) - len(changing)


async def _publish_words(ctx: ToolContext, input: BulkActInput) -> str:
    rows, count, unchanged = await publish_plan(ctx, input, card.LISTED)
    first, last = span(ctx, input)
    lead = card.words(ctx, "publishSessions", count=count, span=card.span(ctx, first, last))
    labels = [" · ".join(filter(None, (f"{card.short_day(ctx, r.date)} {r.start}–{r.end}", r.title, r.coach)))
              for r in rows]
    return card.listing(ctx, lead, "alreadyPublished", unchanged, labels, count)


async def _delete_words(ctx: ToolContext, input: BulkActInput) -> str:
    preview = await bulk_preview(ctx, input)
    return card.words(ctx, "deleteSessions", count=preview.count,
                      span=card.span(ctx, preview.firstDay, preview.lastDay))


async def _target(ctx: ToolContext, input: BulkActInput) -> list[uuid.UUID]:
    """The filter's ids, selected once and locked until the change commits; refused when they differ from
    what the preview showed."""
    return await service.confirmed_session_ids(ctx.session, ctx.org_id, await _filter(ctx, input), ctx.tz,
                                               expected_ids=input.expectedIds,
                                               expected_fingerprint=input.expectedFingerprint)


@class_sessions.agent_tool(
    action="bulk_delete",
    summary="Cancel (soft delete) every session the filter hits: exactly the set class_sessions__bulk_preview "
            "showed (pass its expectedFingerprint; a changed set is refused). Needs the user's confirmation.",
    input=BulkActInput, roles=OWNER_ADMIN, side_effects="write", confirm="destructive",
    audit=Audit(AUDIT, "class_session.bulk_delete"), inverse=bulk_inverse("class_sessions", BULK_RESTORE),
    describe=_delete_words)
async def bulk_delete(ctx: ToolContext, input: BulkActInput) -> BulkResult:
    ids = await _target(ctx, input)
    touched = await service.bulk_delete(ctx.session, ctx.org_id, now=ctx.now, ids=ids)
    return bulk_result("cancelled", touched, touched)


@class_sessions.agent_tool(
    action="bulk_publish",
    summary="Publish every session the filter hits: exactly the set class_sessions__bulk_preview showed (pass "
            "its expectedFingerprint; a changed set is refused). Always needs the user's confirmation.",
    input=BulkActInput, roles=OWNER_ADMIN, side_effects="write", confirm="always",
    audit=Audit(AUDIT, "class_session.bulk_publish"), inverse=bulk_inverse("class_sessions", BULK_UNPUBLISH),
    describe=_publish_words)
async def bulk_publish(ctx: ToolContext, input: BulkActInput) -> BulkResult:
    ids = await _target(ctx, input)
    changed = await publish_changes(ctx.session, service.ClassSession, ctx.org_id, ids, live="cancelled_at")
    touched = await service.bulk_publish(ctx.session, ctx.org_id, ids=ids, published=True)
    return bulk_result("published", touched, changed)


add_restore(class_sessions, model=service.ClassSession, entity="class_session", roles=OWNER_ADMIN, column="cancelled_at")
add_bulk_restore(class_sessions, model=service.ClassSession, entity="class_session", roles=OWNER_ADMIN,
                 column="cancelled_at")
add_bulk_unpublish(class_sessions, model=service.ClassSession, entity="class_session", roles=OWNER_ADMIN)
