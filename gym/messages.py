"""Messages to members: drafts written per member, sent through the outbox, each with a readable status.

A draft call makes one batch: one draft per recipient (a member, the at-risk members, or those booked into a
session), each written from that member's data (gym/message_texts.py). Sending queues a batch's drafts
(`queued`) and wakes the worker in the same transaction; the worker delivers them (`sent`, `failed`,
`bounced`) under the rules of gym/outbox.py. A sent message cannot be unsent. Members who opted out, or have no
address, are left out of a draft and never sent to.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text, func, select, update
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import OrgRow, Timestamps
from core.tenancy import Organization
from gym.errors import GymError
from gym.job_queue import enqueue, session_entrypoint
from gym.members import Member
from gym.message_texts import Facts, compose, facts_for, reason
from gym.outbox import DEFAULT_DAILY_LIMIT, blocked, day_end, day_start, may_send_at
from gym.periods import Tz

ENTRYPOINT = "member_messages"  # the worker's job: deliver the due messages of one org
QUEUE_INFO = "messages_queue"  # a Session.info key naming another entrypoint (a test's own, no app worker serves it)
MAX_BATCH = 60
STATUSES = ("draft", "discarded", "queued", "sent", "failed", "bounced")
PURPOSES = ("check_in", "class_cancelled", "note")


class MemberMessage(OrgRow, Timestamps, Base):
    __tablename__ = "member_messages"

    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    batch_id: Mapped[uuid.UUID]
    channel: Mapped[str] = mapped_column(String(10), default="email", server_default="email")
    purpose: Mapped[str] = mapped_column(String(20))
    reason: Mapped[dict[str, Any]] = mapped_column(JSONB, server_default="{}")
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10), default="draft", server_default="draft")
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    failure_code: Mapped[str | None] = mapped_column(String(40))
    provider_id: Mapped[str | None] = mapped_column(String(300))
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    queued_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    not_before: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    discarded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Drafted:
    batch_id: uuid.UUID
    messages: list[tuple[MemberMessage, Member]]
    skipped: list[tuple[Member, str]]  # (member, why: opted_out | no_email)


def entrypoint_of(session: AsyncSession) -> str:
    """The job queue entrypoint this session's sends wake: the deployment's `member_messages` (gym.job_queue.entrypoint_for)
    unless its Database names another."""
    return str(session.info.get(QUEUE_INFO) or session_entrypoint(session, ENTRYPOINT))


def payload_of(org_id: uuid.UUID) -> bytes:
    return json.dumps({"org_id": str(org_id)}).encode()


def org_of(payload: bytes | None) -> uuid.UUID:
    return uuid.UUID(json.loads(payload or b"{}")["org_id"])


async def draft(session: AsyncSession, org_id: uuid.UUID, recipients: list[Member], *, purpose: str,
                note: str | None, gym: str, locale: str, tz: Tz, now: datetime, created_by: uuid.UUID | None,
                about: dict[str, Any] | None = None) -> Drafted:
    """One draft per recipient who may get messages, written from their data; the rest are listed as skipped."""
    if purpose not in PURPOSES:
        raise GymError("invalid_purpose", f"purpose must be one of {', '.join(PURPOSES)}")
    if not recipients:
        raise GymError("no_recipients", "No member matches.", "Tell the user no member matched; nothing was drafted.")
    if len(recipients) > MAX_BATCH:
        raise GymError("too_many_recipients", f"{len(recipients)} members is more than one batch ({MAX_BATCH}).",
                       "Narrow the filter, or draft in smaller groups.", n=len(recipients), max=MAX_BATCH)
    facts: dict[uuid.UUID, Facts] = await facts_for(session, org_id, recipients, tz, now) \
        if purpose == "check_in" else {}
    batch_id, made, skipped = uuid.uuid4(), [], []
    for member in recipients:
        why = blocked(opted_out=member.messages_opted_out_at is not None, email=member.email)
        if why is not None:
            skipped.append((member, why))
            continue
        subject, body = compose(purpose, member, facts.get(member.id), gym=gym, locale=locale, note=note,
                                about=about or {})
        row = MemberMessage(id=uuid.uuid4(), org_id=org_id, member_id=member.id, batch_id=batch_id, purpose=purpose,
                            reason=reason(purpose, facts.get(member.id), locale, **(about or {})), subject=subject,
                            body=body, status="draft", created_by=created_by, created_at=now, updated_at=now)
        session.add(row)
        made.append((row, member))
    if not made:
        raise GymError("no_recipients", "Every member matched has opted out of messages or has no email address.",
                       "Tell the user nothing was drafted and why.")
    await session.flush()
    return Drafted(batch_id, made, skipped)


async def select_messages(session: AsyncSession, org_id: uuid.UUID, *, batch_id: uuid.UUID | None = None,
                          ids: list[uuid.UUID] | None = None, member_id: uuid.UUID | None = None,
                          lock: bool = False, limit: int = MAX_BATCH) -> list[tuple[MemberMessage, Member]]:
    """Messages by batch, by ids or by member (newest first for a member), with their members."""
    query = select(MemberMessage, Member).join(Member, Member.id == MemberMessage.member_id).where(
        MemberMessage.org_id == org_id)
    if batch_id is not None:
        query = query.where(MemberMessage.batch_id == batch_id)
    if ids:
        query = query.where(MemberMessage.id.in_(ids))
    if member_id is not None:
        query = query.where(MemberMessage.member_id == member_id)
    query = query.order_by(MemberMessage.created_at.desc() if member_id else Member.full_name).limit(limit)
    if lock:
        query = query.with_for_update(of=MemberMessage)
    return [(m, member) for m, member in (await session.execute(query)).all()]


async def _drafts(session: AsyncSession, org_id: uuid.UUID, batch_id: uuid.UUID | None,
                  ids: list[uuid.UUID] | None) -> list[tuple[MemberMessage, Member]]:
    if batch_id is None and not ids:
        raise GymError("messages_target_required", "Say which drafts: a batch id or message ids.")
    rows = await select_messages(session, org_id, batch_id=batch_id, ids=ids, lock=True)
    if not rows:
        raise GymError("messages_not_found", "No such messages in this gym.",
                       "Use the batchId or ids messages__draft returned.", status=404)
    drafts = [(m, member) for m, member in rows if m.status == "draft"]
    if not drafts:
        raise GymError("no_drafts", "Those messages were already sent or discarded.",
                       "Read their status with messages__status; a sent message cannot be unsent.")
    return drafts


async def discard(session: AsyncSession, org_id: uuid.UUID, *, batch_id: uuid.UUID | None = None,
                  ids: list[uuid.UUID] | None = None, now: datetime) -> list[tuple[MemberMessage, Member]]:
    drafts = await _drafts(session, org_id, batch_id, ids)
    for message, _ in drafts:
        message.status, message.discarded_at, message.updated_at = "discarded", now, now
    await session.flush()
    return drafts


async def sent_today(session: AsyncSession, org_id: uuid.UUID, tz: Tz, now: datetime) -> int:
    """Messages that reached the mail server (sent or bounced) since the gym's local midnight."""
    return await session.scalar(select(func.count()).where(
        MemberMessage.org_id == org_id, MemberMessage.sent_at >= day_start(now, tz))) or 0


async def daily_limit(session: AsyncSession, org_id: uuid.UUID) -> int:
    """The org's own daily limit, else the default."""
    own = await session.scalar(select(Organization.messages_daily_limit).where(Organization.id == org_id))
    return DEFAULT_DAILY_LIMIT if own is None else own


async def claim_due(session: AsyncSession, org_id: uuid.UUID, now: datetime) -> tuple[MemberMessage, Member] | None:
    """The org's oldest queued message due at `now`, with its member, locked for its delivery (`SKIP LOCKED`: a
    message another worker holds is passed over, so no two workers send one twice)."""
    row = (await session.execute(
        select(MemberMessage, Member).join(Member, Member.id == MemberMessage.member_id)
        .where(MemberMessage.org_id == org_id, MemberMessage.status == "queued",
               (MemberMessage.not_before.is_(None)) | (MemberMessage.not_before <= now))
        .order_by(MemberMessage.queued_at, MemberMessage.id).limit(1)
        .with_for_update(of=MemberMessage, skip_locked=True))).first()
    return (row[0], row[1]) if row else None


async def defer_due(session: AsyncSession, org_id: uuid.UUID, now: datetime, until: datetime) -> int:
    """Every queued message due at `now` waits for `until` (quiet hours or the day's limit); how many."""
    deferred = await session.execute(update(MemberMessage).where(
        MemberMessage.org_id == org_id, MemberMessage.status == "queued",
        (MemberMessage.not_before.is_(None)) | (MemberMessage.not_before <= now))
        .values(not_before=until, updated_at=now).execution_options(synchronize_session=False))
    return getattr(deferred, "rowcount", 0) or 0


async def next_due_at(session: AsyncSession, org_id: uuid.UUID) -> datetime | None:
    """The earliest a message still queued may leave (None: none waits)."""
    return await session.scalar(select(func.min(MemberMessage.not_before)).where(
        MemberMessage.org_id == org_id, MemberMessage.status == "queued"))


async def queue(session: AsyncSession, org_id: uuid.UUID, *, batch_id: uuid.UUID | None = None,
                ids: list[uuid.UUID] | None = None, tz: Tz, now: datetime) -> list[tuple[MemberMessage, Member]]:
    """Queue drafts for the worker and wake it (one job, in this transaction). A member who opted out since the
    draft fails here (`opted_out`); a message due in quiet hours or past today's limit waits (`not_before`)."""
    drafts = await _drafts(session, org_id, batch_id, ids)
    limit = await daily_limit(session, org_id)
    # today's share of the limit: sent already, and queued to leave before the day ends
    due_today = await sent_today(session, org_id, tz, now) + (await session.scalar(select(func.count()).where(
        MemberMessage.org_id == org_id, MemberMessage.status == "queued",
        (MemberMessage.not_before.is_(None)) | (MemberMessage.not_before < day_end(now, tz)))) or 0)
    for message, member in drafts:
        message.updated_at = now
        why = blocked(opted_out=member.messages_opted_out_at is not None, email=member.email)
        if why is not None:
            message.status, message.failure_code = "failed", why
            continue
        message.status, message.queued_at = "queued", now
        message.not_before = may_send_at(now, tz, sent_today=due_today, limit=limit)
        if message.not_before is None:
            due_today += 1
    await session.flush()
    await enqueue(session, entrypoint_of(session), payload_of(org_id), org_id=org_id)
    return drafts


def status_of(message: MemberMessage) -> dict[str, Any]:
    """A message's status as the tools and the card show it."""
    out: dict[str, Any] = {"status": message.status}
    if message.status == "queued" and message.not_before is not None:
        out["deferredUntil"] = message.not_before
    if message.failure_code:
        out["failure"] = message.failure_code
    if message.sent_at is not None:
        out["sentAt"] = message.sent_at
    return out
