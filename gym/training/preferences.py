"""Member preferences: saved with type, guidance, structured exclusions (gym.training.constraints), hard or soft,
optional expiry or one-shot use; read active only. The same preference said twice updates the first: one row per
member, type and exclusion set (a preference without exclusions is matched by its words)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training import constraints
from gym.training.constraints import Conflict, Exclusions, exclusions_of, union
from gym.training.models import MemberPreference
from gym.training.movements import name_key
from gym.training.preference_rules import Pref, active, consumed_by_generation
from gym.training.profiles import require_member
from gym.training.vocab import PREFERENCE_TYPES


def as_pref(row: MemberPreference) -> Pref:
    return Pref(row.id, row.type, row.description, row.guidance, row.created_at, row.expires_at,
                row.delete_after_use, dict(row.exclusions or {}), bool(row.hard))


FIELDS = ("type", "description", "guidance", "expires_at", "delete_after_use", "exclusions", "hard")


@dataclass(frozen=True)
class Saved:
    """A saved preference; `previous` holds the fields it had when this save updated an existing row."""

    row: MemberPreference
    previous: dict[str, Any] | None = None


def _words(text: str) -> str:
    return " ".join(text.split()).casefold()


def _items(rules: Exclusions) -> set[tuple[str, str]]:
    return {(kind, name_key(value)) for kind, values in rules.lists().items() for value in values}


def _same(row: MemberPreference, exclusions: Exclusions, description: str, *, expires_at: datetime | None,
          delete_after_use: bool) -> bool:
    """Is `row` this preference said again? Same type (the query's), same lifetime kind (permanent, expiring or
    one-time: "never burpees" is not "no burpees today") and the same exclusion set, or one that contains the other
    (then the row keeps both); without exclusions, the same words."""
    if row.delete_after_use != delete_after_use or (row.expires_at is None) != (expires_at is None):
        return False
    theirs = exclusions_of(row.exclusions).canonical()
    if exclusions.is_empty() or theirs.is_empty():
        return exclusions.is_empty() and theirs.is_empty() and _words(row.description) == _words(description)
    mine, stored = _items(exclusions), _items(theirs)
    return mine <= stored or stored <= mine


def snapshot(row: MemberPreference) -> dict[str, Any]:
    """The fields a save may change, JSON-ready (what undoing an update puts back)."""
    return {"type": row.type, "description": row.description, "guidance": row.guidance,
            "expires_at": row.expires_at.isoformat() if row.expires_at else None,
            "delete_after_use": row.delete_after_use, "exclusions": dict(row.exclusions or {}), "hard": row.hard}


async def set_preference(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, type: str,
                         description: str, guidance: str, now: datetime, expires_at: datetime | None = None,
                         delete_after_use: bool = False, exclusions: Exclusions | dict | None = None,
                         hard: bool | None = None) -> MemberPreference:
    return (await save_preference(session, org_id, member_id, type=type, description=description, guidance=guidance,
                                  now=now, expires_at=expires_at, delete_after_use=delete_after_use,
                                  exclusions=exclusions, hard=hard)).row


async def save_preference(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, type: str,
                          description: str, guidance: str, now: datetime, expires_at: datetime | None = None,
                          delete_after_use: bool = False, exclusions: Exclusions | dict | None = None,
                          hard: bool | None = None) -> Saved:
    """Save a preference, or update the member's row of the same type and exclusion set (then `previous` says
    what it was). An injury is always hard; otherwise `hard` defaults to whether it excludes anything."""
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
    rules = (exclusions if isinstance(exclusions, Exclusions) else exclusions_of(exclusions)).canonical()
    is_hard = type == "injury" or (hard if hard is not None else not rules.is_empty())
    values = {"type": type, "description": description.strip(), "guidance": guidance.strip(),
              "expires_at": expires_at, "delete_after_use": delete_after_use, "exclusions": rules.as_dict(),
              "hard": is_hard}
    rows = (await session.scalars(select(MemberPreference).where(
        MemberPreference.org_id == org_id, MemberPreference.member_id == member_id, MemberPreference.type == type)
        .order_by(MemberPreference.created_at, MemberPreference.id).with_for_update())).all()
    first = next((r for r in rows if _same(r, rules, description, expires_at=expires_at,
                                           delete_after_use=delete_after_use)), None)
    if first is not None:
        previous = snapshot(first)
        values["exclusions"] = union(exclusions_of(first.exclusions), rules).as_dict()
        values["hard"] = is_hard or first.hard  # saying it again never weakens a rule; delete it to lift it
        for key, value in values.items():
            setattr(first, key, value)
        first.updated_at = now
        await session.flush()
        return Saved(first, previous)
    row = MemberPreference(org_id=org_id, member_id=member_id, created_at=now, **values)
    session.add(row)
    await session.flush()
    return Saved(row)


async def restore_preference(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                             preference_id: uuid.UUID, fields: dict[str, Any], *, now: datetime) -> MemberPreference:
    """Put back what an update replaced (the inverse of a `set_preference` that updated an existing row)."""
    row = await session.scalar(select(MemberPreference).where(
        MemberPreference.org_id == org_id, MemberPreference.member_id == member_id,
        MemberPreference.id == preference_id).with_for_update())
    if row is None:
        raise GymError("preference_not_found", f"No preference {preference_id} for this member.", status=404)
    for key in FIELDS:
        if key in fields:
            value = fields[key]
            if key == "expires_at" and isinstance(value, str):
                value = datetime.fromisoformat(value)
            if key == "exclusions":
                value = exclusions_of(value).canonical().as_dict()
            setattr(row, key, value)
    row.hard = row.hard or row.type == "injury"
    row.updated_at = now
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


async def enforce_preferences(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID,
                              exercises: Iterable[Any], *, at: datetime) -> list[Conflict]:
    """THE constraint check: every tool that adds or changes an exercise calls it. Raises `injury_conflict` /
    `preference_conflict` for an exercise an active injury or hard preference rules out (active at `at`: now, or
    when a scheduled workout happens); returns the soft preferences' notes."""
    return constraints.check(exercises, await active_preferences(session, org_id, member_id, at))


def pref_dict(p: Pref) -> dict:
    out: dict[str, Any] = {"id": str(p.id), "type": p.type, "description": p.description, "guidance": p.guidance,
           "expiresAt": p.expires_at.isoformat() if p.expires_at else None, "deleteAfterUse": p.delete_after_use,
           "temporary": p.temporary, "enforced": p.enforced}
    if p.exclusions:
        out["exclusions"] = dict(p.exclusions)
    return out
