"""Who the trainer is for, and their profile, unit settings and locations (one current per member)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.members import Member, get_member
from gym.training.models import MemberLocation, MemberProfile, MemberSettings
from gym.training.vocab import EXPERIENCES, SEXES

DEFAULT_UNITS = {"weight_unit": "kg", "distance_unit": "km"}
PROFILE_FIELDS = ("height_cm", "weight_kg", "birth_year", "sex", "experience")


@dataclass(frozen=True)
class Units:
    weight_unit: str = "kg"
    distance_unit: str = "km"

    def as_dict(self) -> dict:
        return {"weightUnit": self.weight_unit, "distanceUnit": self.distance_unit}


def member_not_found(member_id: object) -> GymError:
    return GymError("member_not_found", f"No member with id {member_id} in this gym.",
                    "Search for the member first and use an id from the results.", status=404)


async def require_member(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> Member:
    member = await get_member(session, org_id, member_id)
    if member is None:
        raise member_not_found(member_id)
    return member


async def member_for_user(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID) -> Member | None:
    """The caller's own member record in this org (linked through members.user_id), if any."""
    return await session.scalar(select(Member).where(Member.org_id == org_id, Member.user_id == user_id,
                                                     Member.deleted_at.is_(None)).order_by(Member.created_at).limit(1))


# --- settings ------------------------------------------------------------------------------------------------

async def get_units(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> Units:
    row = await session.scalar(select(MemberSettings).where(MemberSettings.org_id == org_id,
                                                            MemberSettings.member_id == member_id))
    return Units(row.weight_unit, row.distance_unit) if row else Units()


async def set_units(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *, weight_unit: str | None = None,
                    distance_unit: str | None = None) -> Units:
    await require_member(session, org_id, member_id)
    if weight_unit is not None and weight_unit not in ("kg", "lbs"):
        raise GymError("invalid_unit", "weightUnit must be kg or lbs", "Use kg or lbs.")
    if distance_unit is not None and distance_unit not in ("km", "mi"):
        raise GymError("invalid_unit", "distanceUnit must be km or mi", "Use km or mi.")
    row = await session.scalar(select(MemberSettings).where(MemberSettings.org_id == org_id,
                                                            MemberSettings.member_id == member_id))
    if row is None:
        row = MemberSettings(org_id=org_id, member_id=member_id, **DEFAULT_UNITS)
        session.add(row)
    if weight_unit is not None:
        row.weight_unit = weight_unit
    if distance_unit is not None:
        row.distance_unit = distance_unit
    await session.flush()
    return Units(row.weight_unit, row.distance_unit)


# --- profile -------------------------------------------------------------------------------------------------

async def get_profile(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> MemberProfile | None:
    return await session.scalar(select(MemberProfile).where(MemberProfile.org_id == org_id,
                                                            MemberProfile.member_id == member_id))


async def upsert_profile(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, **fields) -> MemberProfile:
    await require_member(session, org_id, member_id)
    unknown = set(fields) - set(PROFILE_FIELDS)
    if unknown:
        raise GymError("invalid_profile_field", f"unknown profile fields: {', '.join(sorted(unknown))}",
                       f"Profile fields are {', '.join(PROFILE_FIELDS)}.")
    if fields.get("sex") not in (None, *SEXES):
        raise GymError("invalid_profile_field", f"sex must be one of {', '.join(SEXES)}")
    if fields.get("experience") not in (None, *EXPERIENCES):
        raise GymError("invalid_profile_field", f"experience must be one of {', '.join(EXPERIENCES)}")
    row = await get_profile(session, org_id, member_id)
    if row is None:
        row = MemberProfile(org_id=org_id, member_id=member_id)
        session.add(row)
    for key, value in fields.items():
        setattr(row, key, value)
    await session.flush()
    return row


def profile_dict(row: MemberProfile | None) -> dict:
    if row is None:
        return {}
    return {"heightCm": float(row.height_cm) if row.height_cm is not None else None,
            "weightKg": float(row.weight_kg) if row.weight_kg is not None else None,
            "birthYear": row.birth_year, "sex": row.sex, "experience": row.experience}


# --- locations -----------------------------------------------------------------------------------------------

def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def list_locations(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> list[MemberLocation]:
    return list((await session.scalars(select(MemberLocation).where(
        MemberLocation.org_id == org_id, MemberLocation.member_id == member_id).order_by(
        MemberLocation.is_current.desc(), MemberLocation.name))).all())


async def current_location(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> MemberLocation | None:
    return await session.scalar(select(MemberLocation).where(
        MemberLocation.org_id == org_id, MemberLocation.member_id == member_id, MemberLocation.is_current))


async def save_location(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, name: str,
                        equipment: list[str], *, make_current: bool = False) -> MemberLocation:
    """Add a location or replace the equipment of the one with this name (case-insensitive)."""
    await require_member(session, org_id, member_id)
    clean = " ".join(name.split())
    if not clean:
        raise GymError("invalid_location", "a location needs a name")
    row = await session.scalar(select(MemberLocation).where(
        MemberLocation.org_id == org_id, MemberLocation.member_id == member_id,
        func.lower(MemberLocation.name) == clean.lower()))
    if row is None:
        row = MemberLocation(org_id=org_id, member_id=member_id, name=clean, is_current=False)
        session.add(row)
    row.equipment = sorted({" ".join(e.split()).lower() for e in equipment if e.strip()})
    await session.flush()
    if make_current:
        await set_current_location(session, org_id, member_id, location_id=row.id)
    return row


async def set_current_location(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *,
                               location_id: uuid.UUID | None = None, name: str | None = None) -> MemberLocation:
    """Make one location current (by id, or by name case-insensitively); the previous one stops being current."""
    where = [MemberLocation.org_id == org_id, MemberLocation.member_id == member_id]
    if location_id is not None:
        matches = list((await session.scalars(select(MemberLocation).where(*where,
                                                                           MemberLocation.id == location_id))).all())
    elif name and name.strip():
        matches = list((await session.scalars(select(MemberLocation).where(
            *where, func.lower(MemberLocation.name) == " ".join(name.split()).lower()))).all())
        if not matches:
            matches = list((await session.scalars(select(MemberLocation).where(
                *where, MemberLocation.name.ilike(f"%{_like_escape(' '.join(name.split()))}%")))).all())
    else:
        raise GymError("invalid_location", "give a location id or name")
    if not matches:
        raise GymError("location_not_found", f"No location {location_id or name!r} for this member.",
                       "List the member's locations and use one of their names.", status=404)
    if len(matches) > 1:
        raise GymError("location_ambiguous", f"{len(matches)} locations match {name!r}: "
                       + ", ".join(m.name for m in matches), "Use the full location name.")
    chosen = matches[0]
    await session.execute(update(MemberLocation).where(*where, MemberLocation.is_current,
                                                       MemberLocation.id != chosen.id).values(is_current=False))
    await session.flush()
    chosen.is_current = True
    await session.flush()
    return chosen


def location_dict(row: MemberLocation) -> dict:
    return {"id": str(row.id), "name": row.name, "equipment": list(row.equipment), "current": row.is_current}
