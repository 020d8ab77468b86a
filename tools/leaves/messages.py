"""messages: draft ↺ discard messages to members, send them through the outbox (always confirmed; a sent
message cannot be unsent), and read each one's status (TOOLS.md, "The front desk's work").

Drafts are written per member by code from that member's data (gym/message_texts.py); the model picks who and
why, and may add the staff's own note. Thin leaves over gym.messages.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from core.member_text import MemberName, MemberWritten
from core.tenancy import org_name_and_locale
from gym import messages as service
from gym.bookings import booked_members, locked_session, when
from gym.errors import GymError
from gym.member_analytics import at_risk_members
from gym.members import Member, live_members
from gym.message_texts import reason_words
from tools import desk_summaries
from tools.context import ToolContext
from tools.registry import STAFF, Audit, Inverse, ToolRouter

messages = ToolRouter("messages")
DEFAULT_PURPOSE = {"at_risk": "check_in", "session": "class_cancelled", None: "note"}


class DraftInput(BaseModel):
    memberIds: list[uuid.UUID] | None = Field(None, min_length=1, max_length=service.MAX_BATCH,
                                              description="Members by id (read__members_search); or give filter.")
    filter: Literal["at_risk", "session"] | None = Field(
        None, description="at_risk: every at-risk member (no visit for 21+ days, as analytics__at_risk_members); "
                          "session: everyone booked into sessionId (e.g. a cancelled class).")
    sessionId: uuid.UUID | None = Field(None, description="With filter=session.")
    purpose: Literal["check_in", "class_cancelled", "note"] | None = Field(
        None, description="check_in: we miss you, from their last visit and missed classes (default for at_risk); "
                          "class_cancelled: their class is cancelled (default for session); note: only the note.")
    note: str | None = Field(None, max_length=1000, description="The staff's own words to add, as they said them.")

    @model_validator(mode="after")
    def _recipients(self) -> DraftInput:
        if (self.memberIds is None) == (self.filter is None):
            raise ValueError("give exactly one of memberIds or filter")
        if (self.filter == "session") != (self.sessionId is not None):
            raise ValueError("sessionId goes with filter=session, and only with it")
        if (self.purpose or DEFAULT_PURPOSE[self.filter]) == "note" and not (self.note or "").strip():
            raise ValueError("a note-only message needs the note")
        return self


class DraftOut(BaseModel):
    id: uuid.UUID
    memberId: uuid.UUID
    member: MemberName
    reason: str = Field(description="Why this member, in the user's language.")
    subject: Annotated[str, MemberWritten("message_draft")]  # drafted from the member's data: their name
    text: Annotated[str, MemberWritten("message_draft")]


class Skipped(BaseModel):
    memberId: uuid.UUID
    member: MemberName
    why: Literal["opted_out", "no_email"]


class DraftBatch(BaseModel):
    id: uuid.UUID = Field(description="The batch id: pass it as batchId to messages__send or messages__discard.")
    count: int
    drafts: list[DraftOut]
    skipped: list[Skipped] = Field(default_factory=list)
    notDrafted: int = Field(0, description="Matching members beyond one batch, not drafted.")


async def _members(ctx: ToolContext, ids: list[uuid.UUID]) -> list[Member]:
    found = await live_members(ctx.session, ctx.org_id, ids)
    if len(found) != len(set(ids)):
        raise GymError("member_not_found", "Some of those members are not in this gym.",
                               "Search for the members first and use ids from the results.", status=404)
    return sorted(found, key=lambda m: m.full_name)


@messages.agent_tool(
    action="draft",
    summary="Draft messages to members: to members by id, to every at-risk member (filter=at_risk), or to everyone "
            "booked into a session (filter=session, e.g. after cancelling it). Each text is written from that "
            "member's own data in the gym's language; add the staff's note if they gave one. Members who opted out "
            "or have no email are skipped. Nothing is sent: show the drafts, then messages__send with the batch id. "
            "Undoable (discards the drafts).",
    input=DraftInput, roles=STAFF, side_effects="write", audit=Audit("message_batch", "messages.draft"),
    inverse=Inverse("messages", "discard", lambda out: {"batchId": out["id"]}))
async def draft(ctx: ToolContext, input: DraftInput) -> DraftBatch:
    gym, locale = await org_name_and_locale(ctx.session, ctx.org_id)
    about: dict = {}
    more = 0
    if input.filter == "at_risk":
        found = await at_risk_members(ctx.session, ctx.org_id, ctx.now, limit=service.MAX_BATCH)
        more = max(0, found["count"] - service.MAX_BATCH)
        recipients = await _members(ctx, [r["id"] for r in found["members"]])
    elif input.filter == "session":
        assert input.sessionId is not None
        row = await locked_session(ctx.session, ctx.org_id, input.sessionId)
        about = {"title": row.title, "when": when(row, ctx.tz), "sessionId": str(row.id)}
        recipients = await booked_members(ctx.session, ctx.org_id, row.id)
    else:
        recipients = await _members(ctx, input.memberIds or [])
    made = await service.draft(ctx.session, ctx.org_id, recipients, purpose=input.purpose or DEFAULT_PURPOSE[input.filter],
                               note=input.note, gym=gym, locale=locale, tz=ctx.tz, now=ctx.now,
                               created_by=ctx.caller.user_id, about=about)
    return DraftBatch(id=made.batch_id, count=len(made.messages), notDrafted=more, drafts=[
        DraftOut(id=m.id, memberId=member.id, member=member.full_name, reason=reason_words(m.reason, ctx.locale),
                 subject=m.subject, text=m.body) for m, member in made.messages],
        skipped=[Skipped(memberId=member.id, member=member.full_name, why=why)
                 for member, why in made.skipped])


class BatchInput(BaseModel):
    batchId: uuid.UUID | None = Field(None, description="The id messages__draft returned.")
    ids: list[uuid.UUID] | None = Field(None, min_length=1, max_length=service.MAX_BATCH,
                                        description="Or single message ids from the drafts.")

    @model_validator(mode="after")
    def _one(self) -> BatchInput:
        if (self.batchId is None) == (self.ids is None):
            raise ValueError("give exactly one of batchId or ids")
        return self


class MessageStatus(BaseModel):
    id: uuid.UUID
    memberId: uuid.UUID
    member: MemberName
    status: str = Field(description="draft, discarded, queued, sent, failed or bounced.")
    deferredUntil: dt.datetime | None = Field(None, description="Queued but held (quiet hours 21:00-08:00 or the "
                                                                "daily limit) until then.")
    failure: str | None = Field(None, description="Why it failed: opted_out, no_email, smtp_error...")
    sentAt: dt.datetime | None = None


class Statuses(BaseModel):
    id: uuid.UUID | None = None
    count: int
    messages: list[MessageStatus]


def _statuses(batch_id: uuid.UUID | None, rows: list) -> Statuses:
    return Statuses(id=batch_id, count=len(rows), messages=[
        MessageStatus(id=m.id, memberId=member.id, member=member.full_name, **service.status_of(m))
        for m, member in rows])


@messages.agent_tool(
    action="discard",
    summary="Discard drafts (by batchId or ids); sent messages are not touched.",
    input=BatchInput, roles=STAFF, side_effects="write", audit=Audit("message_batch", "messages.discard"))
async def discard(ctx: ToolContext, input: BatchInput) -> Statuses:
    rows = await service.discard(ctx.session, ctx.org_id, batch_id=input.batchId, ids=input.ids, now=ctx.now)
    return _statuses(input.batchId, rows)


@messages.agent_tool(
    action="send",
    summary="Send drafts (by batchId or ids) by email through the outbox. Always asks the user first, and the card "
            "says a sent message cannot be unsent. Opted-out members are never sent to; in quiet hours (21:00-08:00 "
            "in the gym's timezone) or past the gym's daily limit a message waits and goes later.",
    input=BatchInput, roles=STAFF, side_effects="write", confirm="always",
    audit=Audit("message_batch", "messages.send"), describe=desk_summaries.send_messages)
async def send(ctx: ToolContext, input: BatchInput) -> Statuses:
    rows = await service.queue(ctx.session, ctx.org_id, batch_id=input.batchId, ids=input.ids, tz=ctx.tz,
                               now=ctx.now)
    return _statuses(input.batchId, rows)


class StatusInput(BaseModel):
    batchId: uuid.UUID | None = Field(None, description="A batch from messages__draft.")
    ids: list[uuid.UUID] | None = Field(None, min_length=1, max_length=service.MAX_BATCH)
    memberId: uuid.UUID | None = Field(None, description="A member's latest messages.")

    @model_validator(mode="after")
    def _one(self) -> StatusInput:
        if sum(v is not None for v in (self.batchId, self.ids, self.memberId)) != 1:
            raise ValueError("give exactly one of batchId, ids or memberId")
        return self


@messages.agent_tool(
    action="status",
    summary="Each message's status now: draft, discarded, queued (and until when it waits), sent, failed (why) or "
            "bounced; by batchId, ids, or a member's latest.",
    input=StatusInput, roles=STAFF)
async def status(ctx: ToolContext, input: StatusInput) -> Statuses:
    rows = await service.select_messages(ctx.session, ctx.org_id, batch_id=input.batchId, ids=input.ids,
                                         member_id=input.memberId, limit=service.MAX_BATCH)
    return _statuses(input.batchId, rows)
