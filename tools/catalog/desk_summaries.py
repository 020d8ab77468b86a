"""The confirmation cards of the desk's work, in words: a class's cancellation naming who is booked, a freeze with
its days and the bookings it covers, and a send listing every message, who gets it and why — and that a sent
message cannot be unsent. Read-only, inside the caller's org scope, like tools/catalog/confirm_summaries.py.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select

from core.i18n import translate
from gym import freezes
from gym.bookings import booked_members, when
from gym.classes import FILLED, Booking, ClassSession
from gym.members import Member
from gym.message_texts import reason_words
from gym.messages import select_messages
from gym.periods import local_today
from tools.catalog.confirm_summaries import Describer, day, span
from tools.context import ToolContext
from tools.registry import Described

PREVIEW = 140  # characters of each message shown on the card


def _t(ctx: ToolContext, key: str, **params: object) -> str:
    return translate(f"agent.confirm.{key}", ctx.locale, **params)


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= PREVIEW else flat[:PREVIEW - 1] + "…"


async def cancel_session(ctx: ToolContext, input: Any) -> Described | None:
    """"Cancel CrossFit on …", and each member booked into it by name: they are not told unless messaged."""
    row = await ctx.session.scalar(select(ClassSession).where(ClassSession.org_id == ctx.org_id,
                                                              ClassSession.id == input.id))
    if row is None:
        return None
    local = row.starts_at.astimezone(ctx.tz)
    summary = _t(ctx, "cancelSession", title=row.title, day=day(ctx, local), time=local.strftime("%H:%M"))
    booked = await booked_members(ctx.session, ctx.org_id, row.id)
    if not booked:
        return Described(summary)
    return Described(f"{summary} {_t(ctx, 'cancelSessionBooked', n=len(booked))}", tuple(m.full_name for m in booked))


async def freeze(ctx: ToolContext, input: Any) -> Described | None:
    member = await ctx.session.scalar(select(Member).where(Member.org_id == ctx.org_id, Member.id == input.memberId))
    if member is None:
        return None
    first = input.from_ or local_today(ctx.tz, ctx.now)
    last = input.to or first + timedelta(days=(input.days or 1) - 1)
    summary = _t(ctx, "freeze", member=member.full_name, span=span(ctx, first, last), days=(last - first).days + 1)
    if input.reason:
        summary = f"{summary} {_t(ctx, 'freezeReason', reason=input.reason)}"
    rows = (await ctx.session.execute(select(ClassSession).join(Booking, Booking.session_id == ClassSession.id).where(
        Booking.org_id == ctx.org_id, Booking.member_id == member.id, Booking.status.in_(FILLED),
        ClassSession.cancelled_at.is_(None), ClassSession.starts_at >= ctx.now).order_by(ClassSession.starts_at)
        .limit(40))).scalars().all()
    during = [r for r in rows if first <= r.starts_at.astimezone(ctx.tz).date() <= last]
    if during:
        summary = f"{summary} {_t(ctx, 'freezeBookings', n=len(during))}"
    return Described(summary, tuple(f"{r.title} {when(r, ctx.tz)}" for r in during))


async def unfreeze(ctx: ToolContext, input: Any) -> Described | None:
    member = await ctx.session.scalar(select(Member).where(Member.org_id == ctx.org_id, Member.id == input.memberId))
    if member is None:
        return None
    today = local_today(ctx.tz, ctx.now)
    row = await ctx.session.scalar(select(freezes.MembershipFreeze).where(
        freezes.MembershipFreeze.org_id == ctx.org_id, freezes.MembershipFreeze.member_id == member.id,
        freezes.MembershipFreeze.unfrozen_at.is_(None), freezes.MembershipFreeze.ends_on >= today)
        .order_by(freezes.MembershipFreeze.starts_on).limit(1))
    if row is None:
        return Described(_t(ctx, "unfreezeStatus", member=member.full_name))
    return Described(_t(ctx, "unfreeze", member=member.full_name, span=span(ctx, row.starts_on, row.ends_on)))


async def send_messages(ctx: ToolContext, input: Any) -> Described | None:
    """"Send 12 emails … A sent message cannot be unsent.", and each: who, why, and the start of its text."""
    rows = await select_messages(ctx.session, ctx.org_id, batch_id=input.batchId, ids=input.ids)
    drafts = [(m, member) for m, member in rows if m.status == "draft"]
    if not drafts:
        return None
    lines = []
    for message, member in drafts:
        why = reason_words(message.reason, ctx.locale)
        flag = f" — {_t(ctx, 'optedOut')}" if member.messages_opted_out_at is not None else ""
        lines.append(f"{member.full_name} ({why}){flag}: {message.subject} — {_clip(message.body)}")
    return Described(f"{_t(ctx, 'sendMessages', n=len(drafts))} {_t(ctx, 'cannotUnsend')}", tuple(lines))


DESK_DESCRIBERS: dict[str, Describer] = {
    "class_sessions__cancel": cancel_session,
    "memberships__freeze": freeze,
    "memberships__unfreeze": unfreeze,
    "messages__send": send_messages,
}
