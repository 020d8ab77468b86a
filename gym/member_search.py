"""Member search: fuzzy name / email / phone, best first, each hit with the member's current plan.

Search ranks by pg_trgm over `full_name` and `email` (GIN trigram indexes) and boosts a first-name
prefix, so "Saar" puts every Saar first and "saar coen" still finds Saar Cohen. Cyrillic queries are
transliterated ("Саар"), Hebrew ones matched on consonant skeletons ("סער" → "sr" ~ "Saar").
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, case, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.billing import current_plan_name
from gym.members import Member
from gym.transliteration import cyrillic_to_latin, has_hebrew, hebrew_skeletons


@dataclass(frozen=True)
class MemberHit:
    id: uuid.UUID
    full_name: str
    email: str | None
    phone: str | None
    status: str
    plan_name: str | None
    last_visit_at: datetime | None
    score: float


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")



async def search_members(session: AsyncSession, org_id: uuid.UUID, query: str | None, *, status: str | None = None,
                         coach_user_id: uuid.UUID | None = None, limit: int = 10) -> list[MemberHit]:
    """Members by fuzzy name/email (typos tolerated), best first; no query lists by name."""
    text = " ".join((query or "").split())
    where = [Member.org_id == org_id, Member.deleted_at.is_(None)]
    if status:
        where.append(Member.status == status)
    if coach_user_id:
        where.append(Member.coach_user_id == coach_user_id)
    email = func.coalesce(Member.email, "")
    text = cyrillic_to_latin(text) or text  # "Саар" finds "Saar"
    variants = hebrew_skeletons(text) if text and has_hebrew(text) else []
    if variants:
        score, arm = _hebrew_match(variants)
        where.append(arm)
        order = [score.desc(), Member.full_name]
    elif text:  # also Hebrew with no consonant to match ("א" alone): by its letters, as typed
        first_token = _like_escape(text.split()[0])
        contains = f"%{_like_escape(text)}%"
        score = (func.greatest(func.similarity(Member.full_name, text), func.word_similarity(text, Member.full_name),
                               0.9 * func.similarity(email, text), 0.9 * func.word_similarity(text, email))
                 + case((Member.first_name.ilike(f"{first_token}%"), 0.5), else_=0.0)
                 + case((Member.full_name.ilike(f"{_like_escape(text)}%"), 0.25), else_=0.0))
        # Each arm can use a trigram index; a first-name prefix makes "saar coen" still list Saar Levi.
        arms: list[ColumnElement[bool]] = [Member.full_name.op("%")(text), literal(text).op("<%")(Member.full_name),
                Member.full_name.ilike(contains), Member.email.ilike(contains),
                literal(text).op("<%")(Member.email)]
        if len(first_token) >= 3:
            arms.append(Member.full_name.ilike(f"{first_token}%"))
        digits = "".join(ch for ch in text if ch.isdigit())
        if len(digits) >= 4:
            arms.append(func.regexp_replace(Member.phone, r"\D", "", "g").contains(digits))
        where.append(or_(*arms))
        order = [score.desc(), Member.full_name]
    else:
        score = literal(1.0)
        order = [Member.full_name]
    rows = (await session.execute(_hit_query(score).where(*where).order_by(*order, Member.id).limit(limit))).all()
    return [_hit(r) for r in rows]


def _hebrew_match(variants: list[str]) -> tuple[Any, ColumnElement[bool]]:
    """'סער' finds 'Saar': the query's consonant skeletons (at least one) against the stored name's ('sr chn')."""
    skeleton = func.regexp_replace(func.regexp_replace(func.lower(Member.full_name), "[aeiouy]", "", "g"),
                                   r"\s+", " ", "g")
    score = func.greatest(*[func.word_similarity(v, skeleton) for v in variants],
                          *[func.similarity(skeleton, v) for v in variants])
    prefix = or_(*[skeleton.startswith(v.split()[0]) for v in variants])
    arm = or_(*[skeleton.contains(v) for v in variants], *[literal(v).op("<%")(skeleton) for v in variants], prefix)
    return score + case((prefix, 0.5), else_=0.0), arm


def _hit_query(score: Any) -> Any:
    return select(Member.id, Member.full_name, Member.email, Member.phone, Member.status,
                  current_plan_name().label("plan_name"), Member.last_visit_at, score.label("score"))


def _hit(r: Any) -> MemberHit:
    return MemberHit(r.id, r.full_name, r.email, r.phone, r.status, r.plan_name, r.last_visit_at,
                     round(float(r.score), 3))


async def member_hits(session: AsyncSession, org_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[MemberHit]:
    """Live members as search hits in the order of `ids` (ranked elsewhere, so each score is 0)."""
    if not ids:
        return []
    rows = (await session.execute(_hit_query(literal(0.0)).where(
        Member.org_id == org_id, Member.deleted_at.is_(None), Member.id.in_(ids)))).all()
    found = {r.id: _hit(r) for r in rows}
    return [found[i] for i in ids if i in found]
