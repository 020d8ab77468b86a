"""The demo generator is deterministic and idempotent, keeps the two demo gyms apart, and holds the facts
the demo script relies on (300+ members, two Saars, Dani with a plan and payments, at-risk members, ...)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from core import migrations
from core.database import Database
from gym import member_analytics, member_profile, member_search
from gym.demo.builder import COLUMNS, TABLES
from gym.demo.seed import DANI_MEMBER_ID, SAAR_COHEN_ID, SAAR_LEVI_ID, seed_demo
from gym.demo.specs import HARBOR_MEMBERS
from gym.demo.tenancy import HARBOR, NORTHSIDE, demo_id

NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)


async def _fresh(embedded_pg, name: str) -> Database:
    url = embedded_pg.ensure_database(f"{name}_{uuid.uuid4().hex[:8]}")
    migrations.upgrade(url)
    return Database(url, pool_size=2)


async def _checksums(db: Database) -> dict[str, tuple[int, str]]:
    """Row count and an md5 over every generated column (plus last_visit_at), per table."""
    sums = {}
    async with db.owner() as session:
        for table in TABLES:
            columns = ", ".join(COLUMNS[table] + (("last_visit_at",) if table == "members" else ()))
            sums[table] = tuple((await session.execute(text(
                f"SELECT count(*), md5(coalesce(string_agg(ROW({columns})::text, '|' ORDER BY id), '')) "
                f"FROM {table}"))).one())
    return sums


@pytest.fixture(scope="module")
async def demo_dbs(embedded_pg):
    """Two fresh databases, each migrated to head and seeded with the same inputs."""
    dbs = [await _fresh(embedded_pg, name) for name in ("demo_a", "demo_b")]
    summaries = [await seed_demo(db, now=NOW) for db in dbs]
    yield dbs, summaries
    for db in dbs:
        await db.dispose()


async def _scalar(db: Database, sql: str, **params):
    async with db.owner() as session:
        return await session.scalar(text(sql), params)


async def test_two_fresh_databases_get_the_same_rows(demo_dbs) -> None:
    (a, b), (summary_a, summary_b) = demo_dbs
    sums_a = await _checksums(a)
    assert sums_a == await _checksums(b)
    assert summary_a == summary_b
    assert all(count > 0 for count, _ in sums_a.values())


async def test_seeding_again_rewrites_the_same_rows_without_duplicates(demo_dbs) -> None:
    (a, _), _ = demo_dbs
    before = await _checksums(a)
    await seed_demo(a, now=NOW)
    assert await _checksums(a) == before


async def test_harbor_has_the_members_the_demo_needs(demo_dbs) -> None:
    (db, _), _ = demo_dbs
    harbor = {"o": HARBOR.id}
    assert await _scalar(db, "SELECT count(*) FROM members WHERE org_id = :o", **harbor) == HARBOR_MEMBERS >= 300
    async with db.owner() as session:
        saars = (await session.execute(text(
            "SELECT id, full_name FROM members WHERE org_id = :o AND first_name = 'Saar'"), harbor)).all()
        dani = (await session.execute(text(
            "SELECT id, email, user_id, status FROM members WHERE org_id = :o AND full_name = 'Dani Mizrahi'"),
            harbor)).all()
    assert sorted(saars, key=lambda r: r.full_name) == [(SAAR_COHEN_ID, "Saar Cohen"), (SAAR_LEVI_ID, "Saar Levi")]
    assert dani == [(DANI_MEMBER_ID, "dani@harbor.test", demo_id("user", "dani@harbor.test"), "active")]
    paid = await _scalar(db, "SELECT count(*) FROM payments WHERE member_id = :m AND status = 'paid'",
                         m=DANI_MEMBER_ID)
    assert paid >= 12
    statuses = await _scalar(db, "SELECT count(DISTINCT status) FROM members WHERE org_id = :o", **harbor)
    assert statuses == 4


async def test_harbor_history_is_consistent(demo_dbs) -> None:
    """A year of classes and bookings; last visits agree with attendance; some members are at risk."""
    (db, _), _ = demo_dbs
    harbor = {"o": HARBOR.id}
    span = await _scalar(db, "SELECT max(starts_at) - min(starts_at) FROM class_sessions WHERE org_id = :o", **harbor)
    assert span >= timedelta(days=365)
    upcoming = await _scalar(db, "SELECT count(*) FROM class_sessions WHERE org_id = :o AND starts_at > :now",
                             now=NOW, **harbor)
    assert upcoming > 50
    mismatched = await _scalar(db, """
        SELECT count(*) FROM members m WHERE m.org_id = :o AND m.last_visit_at IS DISTINCT FROM (
          SELECT max(b.checked_in_at) FROM bookings b WHERE b.member_id = m.id AND b.status = 'attended')""",
                               **harbor)
    assert mismatched == 0
    async with db.scope(org_id=HARBOR.id) as session:
        risk = await member_analytics.at_risk_members(session, HARBOR.id, NOW)
    assert 5 <= risk["count"] <= 60
    assert SAAR_LEVI_ID in {m["id"] for m in risk["members"]}
    for sql, low in (("SELECT count(*) FROM payments WHERE org_id = :o AND status = 'failed'", 10),
                     ("SELECT count(*) FROM payments WHERE org_id = :o AND status = 'pending' AND due_on < :today", 1),
                     ("SELECT count(*) FROM form_assignments WHERE org_id = :o AND status = 'pending'", 10),
                     ("SELECT count(DISTINCT status) FROM bookings WHERE org_id = :o", 4)):
        assert await _scalar(db, sql, today=NOW.date(), **harbor) >= low, sql


async def test_a_harbor_session_sees_nothing_of_northside(demo_dbs) -> None:
    (db, _), _ = demo_dbs
    northside_saar = await _scalar(db, "SELECT id FROM members WHERE org_id = :o AND first_name = 'Saar'",
                                   o=NORTHSIDE.id)
    assert northside_saar is not None
    async with db.scope(org_id=HARBOR.id) as session:
        for table in TABLES:
            foreign = await session.scalar(text(f"SELECT count(*) FROM {table} WHERE org_id <> :o"), {"o": HARBOR.id})
            own = await session.scalar(text(f"SELECT count(*) FROM {table}"))
            assert (foreign, own > 0) == (0, True), table
        hits = await member_search.search_members(session, HARBOR.id, "Saar")
        detail = await member_profile.get_member_detail(session, HARBOR.id, northside_saar, now=NOW)
    assert {hit.id for hit in hits[:2]} == {SAAR_COHEN_ID, SAAR_LEVI_ID}
    assert northside_saar not in {hit.id for hit in hits}
    assert detail is None
    assert 35 <= await _scalar(db, "SELECT count(*) FROM members WHERE org_id = :o", o=NORTHSIDE.id) <= 45


async def test_dani_detail_through_the_services(demo_dbs) -> None:
    (db, _), _ = demo_dbs
    async with db.scope(org_id=HARBOR.id) as session:
        dani = await member_profile.get_member_detail(session, HARBOR.id, DANI_MEMBER_ID, now=NOW, tz=HARBOR.timezone)
    assert dani["plan"]["name"] == "Unlimited Monthly"
    assert dani["subscription"]["status"] == "active"
    assert dani["payments"]["state"] == "ok" and dani["payments"]["last_payment"]["status"] == "paid"
    assert dani["coach"]["name"] == "Noa Coach"
    assert dani["last_visit_at"] is not None and dani["visits"]["last_30_days"] > 0
    assert dani["pending_forms"] == 1


async def test_scale_mode_grows_members_and_schedule_together(embedded_pg, demo_dbs) -> None:
    (default_db, _), _ = demo_dbs
    db = await _fresh(embedded_pg, "demo_scale")
    try:
        summary = await seed_demo(db, members=700, now=NOW)
        harbor = {"o": HARBOR.id}
        assert summary["harbor_members"] == 700
        assert await _scalar(db, "SELECT count(*) FROM members WHERE org_id = :o", **harbor) == 700
        sessions = "SELECT count(*) FROM class_sessions WHERE org_id = :o"
        assert await _scalar(db, sessions, **harbor) == 2 * await _scalar(default_db, sessions, **harbor)
        assert await _scalar(db, "SELECT count(*) FROM members WHERE org_id = :o AND first_name = 'Saar'",
                             **harbor) == 2
    finally:
        await db.dispose()
