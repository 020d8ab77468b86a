"""Seeding the demo gym: both orgs' members, billing, classes, bookings and forms, then the training half
(gym/demo/programs.py), the members' training records (gym/demo/training_record.py) and Dani's food log and
weights (gym/demo/food_record.py).

Everything generated is a pure function of (seed, member count, reference date): ids are uuid5
(`demo_id`) or derived from one, randomness comes from `random.Random` seeded per org, and no value
reads the clock. Re-seeding deletes the demo orgs' rows and writes them again, so running it twice
leaves the same data. Rows go in with COPY in chunks, so `members=100_000` stays fast and bounded in
memory; `last_visit_at` is then set from the attended bookings, so it always agrees with them.
"""

from __future__ import annotations

import random
import uuid
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from core.database import Database
from gym.demo.builder import TABLES, OrgBuilder, Sink
from gym.demo.food_record import seed_dani_food
from gym.demo.programs import seed_training
from gym.demo.specs import DEMO_REFERENCE_TZ, HARBOR_MEMBERS, HARBOR_SPEC, NORTHSIDE_MEMBERS, NORTHSIDE_SPEC
from gym.demo.tenancy import HARBOR, NORTHSIDE, demo_id, seed_demo_tenancy
from gym.demo.training_record import seed_trainer_records, seeding_instant

DEMO_SEED = 7
DANI_MEMBER_ID = demo_id("member", HARBOR.slug, "dani-mizrahi")
SAAR_COHEN_ID = demo_id("member", HARBOR.slug, "saar-cohen")
SAAR_LEVI_ID = demo_id("member", HARBOR.slug, "saar-levi")


def reference_date(now: datetime | date | None = None) -> date:
    """The demo's "today": the local date in Harbor's timezone of `now` (default: the current instant)."""
    if isinstance(now, datetime):
        return now.astimezone(ZoneInfo(DEMO_REFERENCE_TZ)).date()
    return now or datetime.now(UTC).astimezone(ZoneInfo(DEMO_REFERENCE_TZ)).date()



async def _clear(session: AsyncSession, org_ids: list[uuid.UUID]) -> None:
    for table in TABLES:
        await session.execute(text(f"DELETE FROM {table} WHERE org_id = ANY(:orgs)"), {"orgs": org_ids})


async def _set_last_visits(session: AsyncSession, org_ids: list[uuid.UUID]) -> None:
    await session.execute(text("""
        UPDATE members m SET last_visit_at = v.last_visit
        FROM (SELECT member_id, max(checked_in_at) AS last_visit FROM bookings
              WHERE org_id = ANY(:orgs) AND status = 'attended' GROUP BY member_id) v
        WHERE m.id = v.member_id AND m.org_id = ANY(:orgs)"""), {"orgs": org_ids})


async def seed_demo_gym(session: AsyncSession, *, members: int | None = None, seed: int = DEMO_SEED,
                        now: datetime | date | None = None) -> dict[str, Any]:
    """(Re)generate both demo orgs on an owner session; returns row counts per table and the reference date."""
    await seed_demo_tenancy(session)
    today = reference_date(now)
    harbor_count = max(members or HARBOR_MEMBERS, len(HARBOR_SPEC.specials) + 1)
    org_ids = [HARBOR.id, NORTHSIDE.id]
    await _clear(session, org_ids)
    sink = Sink(session)
    plan = ((HARBOR_SPEC, harbor_count, seed + 1), (NORTHSIDE_SPEC, NORTHSIDE_MEMBERS, seed + 2))
    built = []
    for spec, count, training_seed in plan:
        builder = OrgBuilder(spec, count, random.Random(f"{seed}/{spec.org.slug}"), today, sink)
        built.append((spec, count, training_seed, await builder.build()))
    await sink.flush()
    await _set_last_visits(session, org_ids)
    for table in TABLES:
        await session.execute(text(f"ANALYZE {table}"))
    for spec, count, training_seed, active_ids in built:
        await seed_training(session, org_id=spec.org.id, member_ids=active_ids, coach_user_ids=list(spec.coaches),
                            rng=random.Random(training_seed), today=today, scale=count)
    trainer = {spec.org.slug: await seed_trainer_records(
        session, org_id=spec.org.id, member_ids=active_ids, instant=seeding_instant(now, DEMO_REFERENCE_TZ),
        scale=count, dani_id=DANI_MEMBER_ID if spec.org is HARBOR else None) for spec, count, _, active_ids in built}
    food = await seed_dani_food(session, HARBOR.id, DANI_MEMBER_ID, today)
    return {"reference_date": today.isoformat(), "harbor_members": harbor_count, "northside_members": NORTHSIDE_MEMBERS,
            "rows": dict(sink.counts), "training": True, "trainer": trainer, "dani_food_entries": food}


async def seed_demo(db: Database, members: int | None = None, *, seed: int = DEMO_SEED,
                    now: datetime | date | None = None) -> dict[str, Any]:
    """The `spotter seed-demo` entry point: one owner transaction around `seed_demo_gym`."""
    async with db.owner() as session:
        return await seed_demo_gym(session, members=members, seed=seed, now=now)

