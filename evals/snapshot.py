"""The gym's state as rows, and what a try changed: every table but the agent's own bookkeeping, compared
row by row (primary key → the row as JSON) between the template and the try's copy.

Bookkeeping tables (conversations, tool executions, audit, usage, trainer sessions and events, the pipeline's
messages and events, search index, job queue) change on every turn and are graded, where at all, through
their own assertions; every other table — members, workouts, tasks, class sessions, trainer workouts,
preferences, logs, nutrition runs, check-ins, adjustments, both orgs — is compared, so a write nobody asked
for shows up wherever it lands.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import asyncpg

BOOKKEEPING = frozenset({
    "alembic_version", "ai_tool_executions", "ai_usage_daily", "audit_logs", "conversation_messages",
    "conversations", "idempotency_keys", "rag_documents", "rag_outbox", "rag_terms", "trainer_events",
    "trainer_sessions", "nutrition_events", "nutrition_messages"})
IGNORED_PREFIXES = ("pgqueuer",)
INCIDENTAL = frozenset({"updated_at"})  # columns a write touches on its own


@dataclass(frozen=True)
class Change:
    table: str
    op: str  # insert | update | delete
    before: Mapping[str, Any] | None
    after: Mapping[str, Any] | None

    @property
    def row(self) -> Mapping[str, Any]:
        """The row as it identifies itself: after an insert, else before."""
        found = self.after if self.op == "insert" else self.before
        assert found is not None
        return found

    @property
    def changed(self) -> set[str]:
        if self.before is None or self.after is None:
            return set()
        return {k for k in set(self.before) | set(self.after) if self.before.get(k) != self.after.get(k)}


@dataclass
class Snapshot:
    """Per table: primary key → md5 of the row's JSON; `rows` keeps the JSON of every row (the template's,
    so an update or delete can say what the row was)."""

    hashes: dict[str, dict[str, str]] = field(default_factory=dict)
    rows: dict[str, dict[str, str]] = field(default_factory=dict)


async def _tables(conn: asyncpg.Connection) -> dict[str, list[str]]:
    """Graded tables and their primary-key columns (a table without one is keyed by its whole row)."""
    rows = await conn.fetch("""
        SELECT c.relname AS table, coalesce(array_agg(a.attname ORDER BY a.attnum)
                 FILTER (WHERE a.attname IS NOT NULL), '{}') AS key
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
        LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
        LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey)
        WHERE c.relkind IN ('r', 'p') GROUP BY c.relname ORDER BY c.relname""")
    return {r["table"]: list(r["key"]) for r in rows
            if r["table"] not in BOOKKEEPING and not r["table"].startswith(IGNORED_PREFIXES)}


def _key_sql(key: list[str]) -> str:
    return " || '|' || ".join(f"t.{k}::text" for k in key) if key else "to_jsonb(t)::text"


async def take(dsn: str, *, keep_rows: bool) -> Snapshot:
    """Every graded row of the database at `dsn`; `keep_rows` also keeps the rows' JSON."""
    conn = await asyncpg.connect(dsn)
    snap = Snapshot()
    try:
        await conn.execute("SET TimeZone = 'UTC'")
        for table, key in (await _tables(conn)).items():
            if keep_rows:
                rows = await conn.fetch(f"SELECT {_key_sql(key)} AS k, to_jsonb(t)::text AS j FROM {table} t")
                snap.rows[table] = {r["k"]: r["j"] for r in rows}
                snap.hashes[table] = {r["k"]: hashlib.md5(r["j"].encode()).hexdigest() for r in rows}
            else:
                rows = await conn.fetch(f"SELECT {_key_sql(key)} AS k, md5(to_jsonb(t)::text) AS h FROM {table} t")
                snap.hashes[table] = {r["k"]: r["h"] for r in rows}
    finally:
        await conn.close()
    return snap


async def changes(base: Snapshot, dsn: str) -> list[Change]:
    """What the database at `dsn` changed against `base` (which kept its rows), table by table."""
    after = await take(dsn, keep_rows=False)
    found: list[Change] = []
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("SET TimeZone = 'UTC'")
        tables = await _tables(conn)
        for table, hashes in after.hashes.items():
            old = base.hashes.get(table, {})
            inserted = [k for k in hashes if k not in old]
            updated = [k for k in hashes if k in old and hashes[k] != old[k]]
            deleted = [k for k in old if k not in hashes]
            if not (inserted or updated or deleted):
                continue
            wanted = inserted + updated
            current: dict[str, str] = {}
            if wanted:
                rows = await conn.fetch(f"SELECT {_key_sql(tables[table])} AS k, to_jsonb(t)::text AS j "
                                        f"FROM {table} t WHERE {_key_sql(tables[table])} = ANY($1::text[])", wanted)
                current = {r["k"]: r["j"] for r in rows}
            before = base.rows.get(table, {})
            found += [Change(table, "insert", None, json.loads(current[k])) for k in inserted]
            found += [Change(table, "update", json.loads(before[k]), json.loads(current[k])) for k in updated]
            found += [Change(table, "delete", json.loads(before[k]), None) for k in deleted]
    finally:
        await conn.close()
    return found
