"""A message's words, written from that member's own data: their last visit, the classes they booked and missed,
the class they usually come to, or the class that was cancelled, in the gym's language (locales/,
`agent.outbox.*`). The staff's own note, if any, is added as they wrote it. Code writes every number and date;
nothing here is left to a model.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from babel.dates import format_date
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from core.i18n import translate
from gym.classes import Booking, ClassSession
from gym.members import Member
from gym.periods import Tz, zone

MISSED_DAYS = 30  # no-shows counted over this many days
USUAL_DAYS = 90  # the usual class: the one attended most over this many days


@dataclass(frozen=True)
class Facts:
    """What one member's message is written from."""

    last_visit: date | None
    days_since: int | None
    joined: date
    missed: int
    usual: str | None  # "CrossFit 18:30"


async def facts_for(session: AsyncSession, org_id: uuid.UUID, members: list[Member], tz: Tz,
                    now: datetime) -> dict[uuid.UUID, Facts]:
    """Each member's facts in two queries (no-shows, and the most attended class title and local time)."""
    ids = [m.id for m in members]
    local = func.timezone(zone(tz).key, ClassSession.starts_at)
    missed = dict((await session.execute(
        select(Booking.member_id, func.count()).join(ClassSession, ClassSession.id == Booking.session_id)
        .where(Booking.org_id == org_id, Booking.member_id.in_(ids), Booking.status == "no_show",
               ClassSession.starts_at >= now - timedelta(days=MISSED_DAYS), ClassSession.starts_at < now)
        .group_by(Booking.member_id))).all())
    clock = func.to_char(local, "HH24:MI")
    ranked = (await session.execute(
        select(Booking.member_id, ClassSession.title, clock, func.count().label("n"))
        .join(ClassSession, ClassSession.id == Booking.session_id)
        .where(Booking.org_id == org_id, Booking.member_id.in_(ids), Booking.status == "attended",
               ClassSession.starts_at >= now - timedelta(days=USUAL_DAYS))
        .group_by(Booking.member_id, ClassSession.title, clock)
        .order_by(Booking.member_id, func.count().desc(), ClassSession.title, clock))).all()
    usual: dict[uuid.UUID, str] = {}
    for member_id, title, at, _ in ranked:
        usual.setdefault(member_id, f"{title} {at}")
    out = {}
    for m in members:
        last = m.last_visit_at.astimezone(zone(tz)).date() if m.last_visit_at else None
        days = (now - m.last_visit_at).days if m.last_visit_at else None
        out[m.id] = Facts(last, days, m.joined_at, missed.get(m.id, 0), usual.get(m.id))
    return out


def _day(value: date, locale: str) -> str:
    return str(format_date(value, "medium", locale=locale))


def _t(key: str, locale: str, **params: Any) -> str:
    return translate(f"agent.outbox.{key}", locale, **params)


def reason(purpose: str, facts: Facts | None, locale: str, **about: Any) -> dict[str, Any]:
    """Why this member gets this message, as data (stored) — `reason_words` says it to the staff."""
    if purpose == "check_in" and facts is not None:
        return {"code": "check_in", "lastVisitOn": facts.last_visit.isoformat() if facts.last_visit else None,
                "daysSince": facts.days_since, "missed": facts.missed, "usual": facts.usual,
                "joinedOn": facts.joined.isoformat()}
    return {"code": purpose, **about}


def reason_words(data: dict[str, Any], locale: str) -> str:
    """The reason, in the staff's language ("last visit 26 days ago (Nov 2, 2026); missed 2 booked classes")."""
    code = data.get("code")
    if code == "check_in":
        parts = [_t("reason.lastVisit", locale, days=data["daysSince"],
                    day=_day(date.fromisoformat(data["lastVisitOn"]), locale))
                 if data.get("lastVisitOn") else _t("reason.neverVisited", locale,
                                                    day=_day(date.fromisoformat(data["joinedOn"]), locale))]
        if data.get("missed"):
            parts.append(_t("reason.missed", locale, n=data["missed"]))
        return "; ".join(parts)
    if code == "class_cancelled":
        return _t("reason.classCancelled", locale, title=data.get("title", ""), when=data.get("when", ""))
    return _t("reason.note", locale)


def compose(purpose: str, member: Member, facts: Facts | None, *, gym: str, locale: str, note: str | None,
            about: dict[str, Any]) -> tuple[str, str]:
    """(subject, body) in the gym's language."""
    lines = [_t("greeting", locale, name=member.first_name)]
    if purpose == "check_in" and facts is not None:
        subject = _t("subject.checkIn", locale, gym=gym)
        if facts.last_visit is not None:
            lines.append(_t("body.lastVisit", locale, gym=gym, day=_day(facts.last_visit, locale),
                            days=facts.days_since or 0))
        else:
            lines.append(_t("body.neverVisited", locale, gym=gym, day=_day(facts.joined, locale)))
        if facts.missed:
            lines.append(_t("body.missed", locale, n=facts.missed))
        lines.append(_t("body.usual", locale, cls=facts.usual) if facts.usual else _t("body.comeBack", locale))
    elif purpose == "class_cancelled":
        subject = _t("subject.classCancelled", locale, title=about.get("title", ""))
        lines.append(_t("body.classCancelled", locale, title=about.get("title", ""), when=about.get("when", "")))
        lines.append(_t("body.rebook", locale))
    else:
        subject = _t("subject.note", locale, gym=gym)
    if note:
        lines.append(note.strip())
    lines.append(_t("signOff", locale, gym=gym))
    return subject[:200], "\n\n".join(lines)
