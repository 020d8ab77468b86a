"""Per-test tenants: each test makes its own org and users, so tests never share rows."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import text

from api.auth import DevKeys
from core.database import Database
from core.tenancy import Caller, OrgAccess, find_caller_in_org


@dataclass(frozen=True)
class TestUser:
    id: uuid.UUID
    email: str
    clerk_id: str
    token: str
    role: str | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.token}"}


@dataclass(frozen=True)
class TestOrg:
    id: uuid.UUID
    name: str
    tier: str
    timezone: str


class Factory:
    def __init__(self, db: Database, keys: DevKeys) -> None:
        self.db = db
        self.keys = keys

    async def org(self, *, tier: str = "pro", timezone: str = "Asia/Jerusalem", budget: int | None = None,
                  name: str | None = None) -> TestOrg:
        org_id = uuid.uuid4()
        name = name or f"Test Gym {org_id.hex[:6]}"
        async with self.db.owner() as session:
            await session.execute(text(
                "INSERT INTO organizations (id, name, slug, tier, timezone, ai_daily_budget_usd_micros) "
                "VALUES (:id, :name, :slug, :tier, :tz, :budget)"),
                {"id": org_id, "name": name, "slug": f"t-{org_id.hex}", "tier": tier, "tz": timezone,
                 "budget": budget})
        return TestOrg(org_id, name, tier, timezone)

    async def user(self, org: TestOrg | None = None, role: str = "owner", *, name: str = "Test Person") -> TestUser:
        user_id = uuid.uuid4()
        email = f"{user_id.hex[:10]}@example.test"
        clerk_id = f"user_{user_id.hex}"
        async with self.db.owner() as session:
            await session.execute(text("INSERT INTO users (id, clerk_id, email, name) VALUES (:i, :c, :e, :n)"),
                                  {"i": user_id, "c": clerk_id, "e": email, "n": name})
            if org is not None:
                await session.execute(text(
                    "INSERT INTO memberships (org_id, user_id, role) VALUES (:o, :u, :r)"),
                    {"o": org.id, "u": user_id, "r": role})
        token = self.keys.sign(sub=clerk_id, email=email)
        return TestUser(user_id, email, clerk_id, token, role)

    async def join(self, user: TestUser, org: TestOrg, role: str) -> None:
        async with self.db.owner() as session:
            await session.execute(text("INSERT INTO memberships (org_id, user_id, role) VALUES (:o, :u, :r)"),
                                  {"o": org.id, "u": user.id, "r": role})


async def owner_of_new_org(db: Database, factory: Factory) -> tuple[Caller, OrgAccess]:
    """An owner in a fresh org, as the orchestrator sees them (for tests that drive it without HTTP)."""
    org = await factory.org()
    owner = await factory.user(org, "owner")
    async with db.scope(org_id=org.id) as session:
        caller, access = await find_caller_in_org(session, owner.clerk_id, org.id)
    assert caller is not None and access is not None
    return caller, access
