"""RLS on every training table: no org set → nothing; another org → nothing; writes for another org refused."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError

TABLE_ROWS = {
    "member_profiles": ("height_cm", "170"),
    "member_settings": ("weight_unit", "'lbs'"),
    "member_locations": ("name", "'Home'"),
    "category_goals": ("name, weight", "'Strength', 1"),
    "muscle_goals": ("muscle, weight", "'Chest', 1"),
    "member_preferences": ("type, description, guidance", "'injury', 'knee', 'no jumps'"),
    "workout_plans": ("name, start_date, end_date", "'5K', current_date, current_date + 28"),
    "trainer_workouts": ("workout_key", "'workout_1'"),
    "exercise_logs": ("name, exercise_type, performed_at", "'Squat', 'strength', now()"),
    "scheduled_workouts": ("scheduled_at, workout_type", "now() + interval '1 day', 'Legs'"),
    "milestone_goals": ("name, goal_type", "'Run a 5K', 'distance'"),
}


async def _member(db, org_id: uuid.UUID) -> uuid.UUID:
    member_id = uuid.uuid4()
    async with db.owner() as session:
        await session.execute(text("INSERT INTO members (id, org_id, first_name, full_name) VALUES (:i, :o, 'A', 'A')"),
                              {"i": member_id, "o": org_id})
    return member_id


async def _insert(session, table: str, org_id, member_id) -> None:
    columns, values = TABLE_ROWS[table]
    await session.execute(text(f"INSERT INTO {table} (org_id, member_id, {columns}) VALUES (:o, :m, {values})"),
                          {"o": org_id, "m": member_id})


@pytest.mark.parametrize("table", sorted(TABLE_ROWS))
async def test_rows_are_visible_only_inside_their_org(db, factory, table: str) -> None:
    org_a, org_b = await factory.org(), await factory.org()
    member = await _member(db, org_a.id)
    async with db.scope(org_id=org_a.id) as session:
        await _insert(session, table, org_a.id, member)
    async with db.scope() as session:
        assert await session.scalar(text(f"SELECT count(*) FROM {table} WHERE member_id = :m"), {"m": member}) == 0
    async with db.scope(org_id=org_b.id) as session:
        assert await session.scalar(text(f"SELECT count(*) FROM {table} WHERE member_id = :m"), {"m": member}) == 0
    async with db.scope(org_id=org_a.id) as session:
        assert await session.scalar(text(f"SELECT count(*) FROM {table} WHERE member_id = :m"), {"m": member}) == 1
    with pytest.raises(DBAPIError, match="row-level security"):
        async with db.scope(org_id=org_b.id) as session:
            await _insert(session, table, org_a.id, member)


async def test_every_training_table_forces_rls(db) -> None:
    async with db.owner() as session:
        rows = (await session.execute(text(
            "SELECT relname FROM pg_class WHERE relname = ANY(:t) AND relrowsecurity AND relforcerowsecurity"),
            {"t": list(TABLE_ROWS)})).scalars().all()
    assert sorted(rows) == sorted(TABLE_ROWS)


async def test_the_database_allows_one_current_location_per_member(db, factory) -> None:
    org = await factory.org()
    member = await _member(db, org.id)
    async with db.scope(org_id=org.id) as session:
        await session.execute(text("INSERT INTO member_locations (org_id, member_id, name, is_current) "
                                   "VALUES (:o, :m, 'Home', true), (:o, :m, 'Gym', false)"), {"o": org.id, "m": member})
    with pytest.raises(IntegrityError, match="uq_member_locations_current"):
        async with db.scope(org_id=org.id) as session:
            await session.execute(text("UPDATE member_locations SET is_current = true WHERE name = 'Gym' "
                                       "AND member_id = :m"), {"m": member})


@pytest.mark.parametrize(("table", "columns", "values", "constraint"), [
    ("exercise_logs", "name, exercise_type, performed_at, rpe", "'Squat', 'strength', now(), 11", "rpe"),
    ("exercise_logs", "name, exercise_type, performed_at", "'Squat', 'powerlifting', now()", "exercise_type"),
    ("muscle_goals", "muscle, weight", "'Lats', 0.5", "muscle"),
    ("member_settings", "weight_unit", "'st'", "weight_unit"),
    ("member_preferences", "type, description, guidance", "'mood', 'x', 'y'", "type"),
    ("milestone_goals", "name, goal_type", "'x', 'speed'", "goal_type"),
])
async def test_check_constraints(db, factory, table, columns, values, constraint) -> None:
    org = await factory.org()
    member = await _member(db, org.id)
    with pytest.raises(IntegrityError, match=constraint):
        async with db.scope(org_id=org.id) as session:
            await session.execute(text(f"INSERT INTO {table} (org_id, member_id, {columns}) VALUES (:o, :m, {values})"),
                                  {"o": org.id, "m": member})
