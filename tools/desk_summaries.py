"""The confirmation cards of the desk's work, in words: a class's cancellation naming who is booked, a freeze with
its days and the bookings it covers, and a send listing every message, who gets it and why — and that a sent
message cannot be unsent. Read-only, inside the caller's org scope, like tools/confirm_summaries.py.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from core.i18n import translate
from gym.bookings import booked_members, held_sessions, when
from gym.classes import get_session
from gym.freezes import freeze_to_lift
from gym.members import member_name
from gym.message_texts import reason_words
from gym.messages import select_messages
from gym.periods import local_today
from tools.confirm_summaries import day, span
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
    row = await get_session(ctx.session, ctx.org_id, input.id)
    if row is None:
        return None
    local = row.starts_at.astimezone(ctx.tz)
    summary = _t(ctx, "cancelSession", title=row.title, day=day(ctx, local), time=local.strftime("%H:%M"))
    booked = await booked_members(ctx.session, ctx.org_id, row.id)
    if not booked:
        return Described(summary)
    return Described(f"{summary} {_t(ctx, 'cancelSessionBooked', n=len(booked))}", tuple(m.full_name for m in booked))


async def freeze(ctx: ToolContext, input: Any) -> Described | None:
    member = await member_name(ctx.session, ctx.org_id, input.memberId)
    if member is None:
        return None
    first = input.from_ or local_today(ctx.tz, ctx.now)
    last = input.to or first + timedelta(days=(input.days or 1) - 1)
    summary = _t(ctx, "freeze", member=member, span=span(ctx, first, last), days=(last - first).days + 1)
    if input.reason:
        summary = f"{summary} {_t(ctx, 'freezeReason', reason=input.reason)}"
    rows = await held_sessions(ctx.session, ctx.org_id, input.memberId, ctx.now)
    during = [r for r in rows if first <= r.starts_at.astimezone(ctx.tz).date() <= last]
    if during:
        summary = f"{summary} {_t(ctx, 'freezeBookings', n=len(during))}"
    return Described(summary, tuple(f"{r.title} {when(r, ctx.tz)}" for r in during))


async def unfreeze(ctx: ToolContext, input: Any) -> Described | None:
    member = await member_name(ctx.session, ctx.org_id, input.memberId)
    if member is None:
        return None
    row = await freeze_to_lift(ctx.session, ctx.org_id, input.memberId, local_today(ctx.tz, ctx.now))
    if row is None:
        return Described(_t(ctx, "unfreezeStatus", member=member))
    return Described(_t(ctx, "unfreeze", member=member, span=span(ctx, row.starts_on, row.ends_on)))


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
