"""Member preferences: saved with type, guidance, optional expiry or one-shot use; read active only."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import delete, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.models import MemberPreference
from gym.training.preference_rules import Pref, active, consumed_by_generation
from gym.training.profiles import require_member
from gym.training.vocab import PREFERENCE_TYPES


def as_pref(row: MemberPreference) -> Pref:
    return Pref(row.id, row.type, row.description, row.guidance, row.created_at, row.expires_at,
                row.delete_after_use)


async def set_preference(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, type: str,
                         description: str, guidance: str, now: datetime, expires_at: datetime | None = None,
                         delete_after_use: bool = False) -> MemberPreference:
    await require_member(session, org_id, member_id)
    if type not in PREFERENCE_TYPES:
        raise GymError("invalid_preference", f"type must be one of {', '.join(PREFERENCE_TYPES)}")
    if not description.strip() or not guidance.strip():
        raise GymError("invalid_preference", "a preference needs a description and guidance")
    if expires_at is not None and expires_at.tzinfo is None:
        raise GymError("invalid_preference", "expires_at needs a timezone (ISO 8601 with offset)")
    if expires_at is not None and expires_at <= now:
        raise GymError("invalid_preference", "expires_at is already in the past",
                       "Omit expires_at for a permanent preference, or give a future time.")
    row = MemberPreference(org_id=org_id, member_id=member_id, type=type, description=description.strip(),
                           guidance=guidance.strip(), expires_at=expires_at, delete_after_use=delete_after_use,
                           created_at=now)
    session.add(row)
    await session.flush()
    return row


async def delete_preference(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                            preference_id: uuid.UUID) -> None:
    result = await session.execute(delete(MemberPreference).where(
        MemberPreference.org_id == org_id, MemberPreference.member_id == member_id,
        MemberPreference.id == preference_id).returning(MemberPreference.id))
    if result.first() is None:
        raise GymError("preference_not_found", f"No preference {preference_id} for this member.",
                       "Read the active preferences and use one of their ids.", status=404)


async def active_preferences(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                             now: datetime) -> list[Pref]:
    """Unexpired preferences, temporary first (the rule in preference_rules.active)."""
    rows = (await session.scalars(select(MemberPreference).where(
        MemberPreference.org_id == org_id, MemberPreference.member_id == member_id,
        or_(MemberPreference.expires_at.is_(None), MemberPreference.expires_at > now)))).all()
    return active([as_pref(r) for r in rows], now)


async def consume_after_generation(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                                   now: datetime) -> list[uuid.UUID]:
    """Delete the one-shot preferences a generated workout has used; returns their ids."""
    ids = [uuid.UUID(str(i)) for i in consumed_by_generation(
        await active_preferences(session, org_id, member_id, now), now)]
    if ids:
        await session.execute(delete(MemberPreference).where(MemberPreference.org_id == org_id,
                                                             MemberPreference.id.in_(ids)))
    return ids


def pref_dict(p: Pref) -> dict:
    return {"id": str(p.id), "type": p.type, "description": p.description, "guidance": p.guidance,
            "expiresAt": p.expires_at.isoformat() if p.expires_at else None, "deleteAfterUse": p.delete_after_use,
            "temporary": p.temporary}
