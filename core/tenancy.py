"""Organizations, users and memberships: who belongs to which gym, in which role."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import BigInteger, ForeignKey, Row, String, UniqueConstraint, Uuid, bindparam, select, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import CreatedAt, OrgRow, UUIDPrimaryKey

Role = Literal["owner", "admin", "coach", "front_desk", "member"]
ROLES: tuple[Role, ...] = ("owner", "admin", "coach", "front_desk", "member")
STAFF_ROLES: frozenset[str] = frozenset({"owner", "admin", "coach", "front_desk"})
TIER_CAPS_USD_MICROS: dict[str, int] = {"lite": 1_000_000, "pro": 5_000_000, "elite": 25_000_000}


class Organization(UUIDPrimaryKey, CreatedAt, Base):
    __tablename__ = "organizations"

    name: Mapped[str] = mapped_column(String(200))
    slug: Mapped[str] = mapped_column(String(100), unique=True)
    tier: Mapped[str] = mapped_column(String(10), default="lite")
    ai_daily_budget_usd_micros: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    locale: Mapped[str] = mapped_column(String(8), default="en")
    messages_daily_limit: Mapped[int | None] = mapped_column(nullable=True)  # messages to members a day; None: default
    plates: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)  # {unit, bar, plates}; None: standard


class User(UUIDPrimaryKey, CreatedAt, Base):
    __tablename__ = "users"

    clerk_id: Mapped[str] = mapped_column(String(200), unique=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(200))


class Membership(OrgRow, CreatedAt, Base):
    __tablename__ = "memberships"
    __table_args__ = (UniqueConstraint("org_id", "user_id", name="uq_memberships_org_user"),)

    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(20))
    status: Mapped[str] = mapped_column(String(20), default="active")


@dataclass(frozen=True)
class Caller:
    """The authenticated user behind a request."""

    user_id: uuid.UUID
    clerk_id: str
    email: str
    name: str


@dataclass(frozen=True)
class OrgAccess:
    """A caller's active membership in one org, with what the agent needs to know about the org."""

    org_id: uuid.UUID
    org_name: str
    tier: str
    timezone: str
    locale: str
    budget_override_usd_micros: int | None
    role: str

    @property
    def is_staff(self) -> bool:
        return self.role in STAFF_ROLES

    @property
    def daily_cap_usd_micros(self) -> int:
        """-1 means unmetered."""
        if self.budget_override_usd_micros is not None:
            return self.budget_override_usd_micros
        return TIER_CAPS_USD_MICROS.get(self.tier, TIER_CAPS_USD_MICROS["lite"])


async def find_user_by_clerk_id(db: AsyncSession | AsyncConnection, clerk_id: str) -> Caller | None:
    caller, _ = await find_caller_in_org(db, clerk_id, None)
    return caller


async def org_name_and_locale(session: AsyncSession, org_id: uuid.UUID) -> tuple[str, str]:
    """The gym's name and its language (en when unset): what its messages to members are written in."""
    row = (await session.execute(select(Organization.name, Organization.locale).where(
        Organization.id == org_id))).one()
    return row.name, row.locale or "en"


async def find_org_access(session: AsyncSession, org_id: uuid.UUID, user_id: uuid.UUID) -> OrgAccess | None:
    """The caller's active membership in `org_id`, read from the database (never from the token)."""
    row = (await session.execute(
        select(Organization, Membership.role)
        .join(Membership, Membership.org_id == Organization.id)
        .where(Organization.id == org_id, Membership.user_id == user_id, Membership.status == "active")
    )).first()
    if row is None:
        return None
    org, role = row
    return OrgAccess(org_id=org.id, org_name=org.name, tier=org.tier, timezone=org.timezone, locale=org.locale,
                     budget_override_usd_micros=org.ai_daily_budget_usd_micros, role=role)


# One statement (migration 0015): the guards run it outside any transaction, one round trip per request.
_CALLER = text("SELECT * FROM app_caller(:clerk_id, :org_id)").bindparams(
    bindparam("clerk_id", type_=String()), bindparam("org_id", type_=Uuid()))


async def find_caller_in_org(db: AsyncSession | AsyncConnection, clerk_id: str,
                             org_id: uuid.UUID | None) -> tuple[Caller | None, OrgAccess | None]:
    """The user behind `clerk_id` and their active membership in `org_id` (None: the user alone), in one
    statement; on a connection outside a transaction (`Database.lookup`) or inside a scope."""
    row = (await db.execute(_CALLER, {"org_id": org_id, "clerk_id": clerk_id})).first()
    if row is None:
        return None, None
    caller = Caller(user_id=row.user_id, clerk_id=row.clerk_id, email=row.email, name=row.name)
    if row.org_id is None or row.role is None:
        return caller, None
    return caller, OrgAccess(org_id=row.org_id, org_name=row.org_name, tier=row.tier, timezone=row.timezone,
                             locale=row.locale, budget_override_usd_micros=row.ai_daily_budget_usd_micros,
                             role=row.role)


async def list_memberships(session: AsyncSession, user_id: uuid.UUID) -> list[dict]:
    """The user's active memberships across orgs, for GET /me."""
    rows = (await session.execute(
        select(Organization.id, Organization.name, Membership.role)
        .join(Membership, Membership.org_id == Organization.id)
        .where(Membership.user_id == user_id, Membership.status == "active")
        .order_by(Organization.name)
    )).all()
    return [{"orgId": str(org_id), "orgName": name, "role": role} for org_id, name, role in rows]


async def org_timezone(session: AsyncSession, org_id: uuid.UUID) -> str | None:
    """The org's timezone (None: no such org)."""
    return await session.scalar(select(Organization.timezone).where(Organization.id == org_id))


async def org_name_and_timezone(session: AsyncSession, org_id: uuid.UUID) -> Row[str, str]:
    """The org's `name` and `timezone` (what a message to its members is sent as, and when)."""
    return (await session.execute(select(Organization.name, Organization.timezone).where(
        Organization.id == org_id))).one()


async def get_organization(session: AsyncSession, org_id: uuid.UUID) -> Organization | None:
    """The org's row (None: no such org)."""
    return await session.get(Organization, org_id)


async def first_active_user(session: AsyncSession, org_id: uuid.UUID) -> uuid.UUID | None:
    """The user billed for the org's work nobody started: its first active owner, else its first active member."""
    members = select(Membership.user_id).where(Membership.org_id == org_id, Membership.status == "active")
    user_id = await session.scalar(members.where(Membership.role == "owner")
                                   .order_by(Membership.created_at).limit(1))
    if user_id is None:
        user_id = await session.scalar(members.order_by(Membership.created_at).limit(1))
    return user_id
