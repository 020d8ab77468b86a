"""One seeded demo gym per run, and a fresh copy of it per try.

The template is a database of its own on the configured server: migrated, seeded with `seed_demo(now=...)` at
the run's instant (so every relative date in it, and the tools' own clock, agree), given Dani's finished
nutrition run, optionally indexed for search, and made unmetered (each try's cost is measured, not capped:
tries run at once would otherwise share the org's daily cap through Redis). A try is `CREATE DATABASE ...
TEMPLATE` of it (a fraction of a second; Postgres copies files), dropped after grading.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import make_url

from core import migrations
from core.database import Database
from gym.demo.seed import DANI_MEMBER_ID, reference_date, seed_demo
from gym.demo.tenancy import HARBOR
from rag.embeddings import Embedder
from rag.index import reindex_org

PREFIX = "spotter_eval_"


def database_url(server_url: str, name: str) -> str:
    """`server_url` (SQLAlchemy, asyncpg driver) pointing at database `name`."""
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


def dsn(url: str) -> str:
    """A SQLAlchemy URL as a plain libpq DSN asyncpg understands."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@dataclass(frozen=True)
class Template:
    name: str
    url: str
    instant: datetime  # the seeding instant: the demo's "now"
    facts: dict[str, Any]  # what seed_demo said it wrote, and the reference date


class GymCopies:
    """The run's template and its copies on the server `server_url` points at (CREATEDB needed)."""

    def __init__(self, server_url: str, run_id: str) -> None:
        if not re.fullmatch(r"[a-z0-9_]{1,30}", run_id):
            raise ValueError("run ids are lower-case letters, digits and underscores")
        self.server_url, self.run_id = server_url, run_id
        self.template_name = f"{PREFIX}{run_id}_template"
        self.made: set[str] = set()

    async def _admin(self, statement: str) -> None:
        conn = await asyncpg.connect(dsn(self.server_url))
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    async def build_template(self, instant: datetime, *, seed_extra: Any = None, index: Embedder | None = None,
                             ) -> Template:
        """Create, migrate and seed the template; `seed_extra(db)` adds what lives above gym/ (the nutrition
        run); with `index`, build the search index with that embedder."""
        await self._admin(f'DROP DATABASE IF EXISTS "{self.template_name}"')
        await self._admin(f'CREATE DATABASE "{self.template_name}"')
        self.made.add(self.template_name)
        url = database_url(self.server_url, self.template_name)
        await asyncio.to_thread(migrations.upgrade, url)
        db = Database(url, pool_size=2)
        try:
            facts = await seed_demo(db, now=instant)
            if seed_extra is not None:
                await seed_extra(db)
            async with db.owner() as session:
                await session.execute(text("UPDATE organizations SET ai_daily_budget_usd_micros = -1 WHERE id = :id"),
                                      {"id": HARBOR.id})
            if index is not None:
                for org_id in (HARBOR.id, *[o for o in await _other_orgs(db)]):
                    await reindex_org(db, index, org_id)
        finally:
            await db.dispose()
        facts["reference_date"] = reference_date(instant).isoformat()
        facts["dani_member_id"] = str(DANI_MEMBER_ID)
        return Template(self.template_name, url, instant, facts)

    async def copy(self, label: str) -> str:
        """A fresh copy of the template; returns its URL."""
        name = f"{PREFIX}{self.run_id}_{re.sub(r'[^a-z0-9_]', '_', label.lower())[:20]}_{uuid.uuid4().hex[:6]}"
        await self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{self.template_name}" STRATEGY WAL_LOG')
        self.made.add(name)
        return database_url(self.server_url, name)

    async def drop(self, url: str) -> None:
        name = make_url(url).database
        assert name and name.startswith(PREFIX)
        await self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.made.discard(name)

    async def drop_all(self) -> None:
        """Every database this run made, the template last."""
        for name in sorted(self.made, key=lambda n: n == self.template_name):
            await self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.made.clear()


async def _other_orgs(db: Database) -> list[uuid.UUID]:
    async with db.owner() as session:
        rows = await session.scalars(text("SELECT id FROM organizations WHERE id <> :h ORDER BY id"), {"h": HARBOR.id})
        return list(rows.all())
