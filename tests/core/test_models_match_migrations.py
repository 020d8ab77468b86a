"""The ORM models and the migrated schema agree: Alembic's autogenerate comparison between `Base.metadata`
(every module of every package imported, so no model is missed) and the embedded database at head finds
nothing to change. A model that names a missing column, a wrong type or nullability, or a foreign key or unique
constraint the migrations do not create (or lacks one they do) fails here, not at the first query that meets it.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Column, MetaData, String, inspect
from sqlalchemy.ext.asyncio import create_async_engine

from core.database import Base

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "gym", "rag", "tools", "agent", "pipeline", "api")

# Tables the migrations create that no model maps: each is read and written with SQL text on purpose.
# A table listed here that gains a model is compared like any other (the exclusion only covers unmapped tables).
RAW_SQL_TABLES = {
    # One upserted counter row per org, user and day (INSERT ... ON CONFLICT DO UPDATE adding to the
    # counters): an ORM object would read-modify-write and lose concurrent turns' usage.
    "ai_usage_daily",
    # The search index: pgvector columns, a generated tsvector and HNSW/GIN indexes, queried by rag/search.py
    # with hand-written ranking SQL; rows are rebuilt by the outbox worker, never loaded as objects.
    "rag_documents",
    # Filled by database triggers on the indexed tables and drained with FOR UPDATE SKIP LOCKED by the worker.
    "rag_outbox",
    # The search vocabulary: filled by a trigger on rag_documents, read by rag_term_candidates() alone.
    "rag_terms",
    # PgQueuer's own schema (migration 0009 renders the pinned release's DDL); only the library reads and
    # writes these tables, through its queries, never our models.
    "pgqueuer", "pgqueuer_log", "pgqueuer_schedules", "pgqueuer_statistics",
}


def _import_every_module() -> None:
    """Import every .py file of the packages (by path, so a directory without __init__.py counts too)."""
    for package in PACKAGES:
        base = ROOT / package
        for path in sorted(base.rglob("*.py")) if base.is_dir() else []:
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "__pycache__" in parts or parts[-1] == "__main__":
                continue
            importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))


def _include_name(name: str | None, type_: str, parent_names: dict[str, Any]) -> bool:
    """Unmapped raw-SQL tables are not even reflected (their pgvector columns have no SQLAlchemy type here)."""
    return not (type_ == "table" and name in RAW_SQL_TABLES and name not in Base.metadata.tables)


def _include_object(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    """What only the database has and the models need not say: its indexes. Tables, columns (type,
    nullability), foreign keys (with ON DELETE) and unique constraints are compared in both directions."""
    if reflected and compare_to is None and type_ == "index":
        # Indexes are the migrations' business: the ORM never creates or reads them (no create_all), and the
        # expression, partial, trigram and HNSW ones cannot be spelled in a model for autogenerate to compare.
        return False
    return True


def _differences(connection, metadata: MetaData, include_object=_include_object) -> list[Any]:
    # Server defaults are not compared: Alembic compares their rendered SQL text, which never matches between
    # a model's `func.now()` and the reflected `now()`; the models set their defaults in Python anyway.
    context = MigrationContext.configure(connection, opts={
        "compare_type": True, "compare_server_default": False,
        "include_name": _include_name, "include_object": include_object})
    return compare_metadata(context, metadata)


async def _compare(url: str, metadata: MetaData, include_object=_include_object) -> list[Any]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(_differences, metadata, include_object)
    finally:
        await engine.dispose()


@pytest.fixture(scope="module")
def metadata() -> MetaData:
    _import_every_module()
    return Base.metadata


async def test_the_models_match_the_migrated_schema(embedded_pg, metadata) -> None:
    differences = await _compare(embedded_pg.url(), metadata)
    assert differences == [], "\n".join(map(repr, differences))


async def test_every_migrated_table_is_mapped_or_listed_as_raw_sql(embedded_pg, metadata) -> None:
    """The raw-SQL exclusions are real tables of the schema, and none of them has quietly gained a model."""
    engine = create_async_engine(embedded_pg.url())
    try:
        async with engine.connect() as connection:
            tables = set(await connection.run_sync(lambda sync: inspect(sync).get_table_names()))
    finally:
        await engine.dispose()
    assert RAW_SQL_TABLES.isdisjoint(metadata.tables)
    assert tables - {"alembic_version"} == set(metadata.tables) | RAW_SQL_TABLES


async def test_the_comparison_sees_a_column_the_migrations_lack(embedded_pg, metadata) -> None:
    """The check is not vacuous: one extra model column on a real table shows up as a difference."""
    altered = MetaData(naming_convention=metadata.naming_convention)
    organizations = metadata.tables["organizations"].to_metadata(altered)
    organizations.append_column(Column("nickname", String(40)))

    def only_organizations(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
        return type_ != "table" or name == "organizations"

    differences = await _compare(embedded_pg.url(), altered, include_object=only_organizations)
    assert [(d[0], d[3].name) for d in differences] == [("add_column", "nickname")]
