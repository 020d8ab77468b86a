"""The demo gym's orgs and staff logins (TOOLS.md, "The demo gym"), created idempotently.

Ids are derived from names (uuid5), so every machine that seeds the demo gets the same ids.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

DEMO_NAMESPACE = uuid.UUID("5b0e4c1e-7d1a-4f7e-9a57-0c7f6f1d2a10")


def demo_id(*parts: str) -> uuid.UUID:
    return uuid.uuid5(DEMO_NAMESPACE, "/".join(parts))


def clerk_id_for(email: str) -> str:
    return "user_" + hashlib.sha256(email.lower().encode()).hexdigest()[:24]


@dataclass(frozen=True)
class DemoOrg:
    slug: str
    name: str
    tier: str
    timezone: str
    locale: str

    @property
    def id(self) -> uuid.UUID:
        return demo_id("org", self.slug)


@dataclass(frozen=True)
class DemoLogin:
    email: str
    name: str
    org_slug: str
    role: str


HARBOR = DemoOrg("harbor-strength", "Harbor Strength", "pro", "Asia/Jerusalem", "en")
NORTHSIDE = DemoOrg("northside-barbell", "Northside Barbell", "lite", "Europe/London", "en")
DEMO_ORGS = (HARBOR, NORTHSIDE)
DEMO_LOGINS = (
    DemoLogin("owner@harbor.test", "Maya Harbor", HARBOR.slug, "owner"),
    DemoLogin("admin@harbor.test", "Avi Admin", HARBOR.slug, "admin"),
    DemoLogin("coach@harbor.test", "Noa Coach", HARBOR.slug, "coach"),
    DemoLogin("desk@harbor.test", "Eli Desk", HARBOR.slug, "front_desk"),
    DemoLogin("dani@harbor.test", "Dani Mizrahi", HARBOR.slug, "member"),
    DemoLogin("owner@northside.test", "Sam Northside", NORTHSIDE.slug, "owner"),
)


async def seeded_logins(session: AsyncSession) -> list[DemoLogin]:
    """The demo logins whose user is in the database (seeded), in DEMO_LOGINS' order."""
    found = set((await session.execute(text("SELECT clerk_id FROM users WHERE clerk_id = ANY(:ids)"),
                                       {"ids": [clerk_id_for(d.email) for d in DEMO_LOGINS]})).scalars())
    return [d for d in DEMO_LOGINS if clerk_id_for(d.email) in found]


async def seed_demo_tenancy(session: AsyncSession) -> None:
    """Upsert the demo orgs, users and memberships (owner session: runs before any org scope exists)."""
    for org in DEMO_ORGS:
        await session.execute(text("""
            INSERT INTO organizations (id, name, slug, tier, timezone, locale)
            VALUES (:id, :name, :slug, :tier, :tz, :locale)
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, tier = EXCLUDED.tier,
              timezone = EXCLUDED.timezone, locale = EXCLUDED.locale"""),
            {"id": org.id, "name": org.name, "slug": org.slug, "tier": org.tier, "tz": org.timezone,
             "locale": org.locale})
    orgs = {org.slug: org for org in DEMO_ORGS}
    for login in DEMO_LOGINS:
        user_id = demo_id("user", login.email)
        await session.execute(text("""
            INSERT INTO users (id, clerk_id, email, name) VALUES (:id, :clerk, :email, :name)
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email"""),
            {"id": user_id, "clerk": clerk_id_for(login.email), "email": login.email, "name": login.name})
        await session.execute(text("""
            INSERT INTO memberships (id, org_id, user_id, role, status)
            VALUES (:id, :org, :user, :role, 'active')
            ON CONFLICT (org_id, user_id) DO UPDATE SET role = EXCLUDED.role, status = 'active'"""),
            {"id": demo_id("membership", login.email), "org": orgs[login.org_slug].id, "user": user_id,
             "role": login.role})
