"""Database engines, the declarative Base, and tenancy-scoped sessions.

Two engines: the *owner* engine (migrations, seeding, maintenance) and the *app* engine, whose
connections run as the non-owner role `spotter_app`, so Postgres row-level security applies to every
query the service makes. `Database.scope(org_id=..., user_id=...)` opens a transaction with
`SET LOCAL app.org_id` / `app.user_id`; a query that forgets its org filter sees nothing. The settings
travel with the transaction's BEGIN (`TenantConnection`), so a scope costs no extra round trip for them.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import asyncpg
from pgvector.asyncpg import register_vector
from sqlalchemy import CursorResult, DateTime, MetaData, Result, event
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase

APP_ROLE = "spotter_app"

# The names Postgres gives the constraints the migrations leave unnamed, so the ORM metadata names them as
# the migrated schema does (tests/core/test_models_match_migrations.py compares the two).
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "%(table_name)s_%(column_0_N_name)s_key",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "%(table_name)s_%(column_0_N_name)s_fkey",
    "pk": "%(table_name)s_pkey",
}


def rowcount(result: Result) -> int:
    """Rows an UPDATE/DELETE/INSERT touched (`session.execute` types its result as a plain Result)."""
    return result.rowcount if isinstance(result, CursorResult) else 0


class Base(DeclarativeBase):
    """Base of every mapped table; the schema itself comes from Alembic, never create_all."""

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: DateTime(timezone=True)}  # every timestamp is timestamptz


class TenantConnection(asyncpg.Connection):
    """An asyncpg connection that sends a scope's tenancy settings in the same simple query as the scope's
    BEGIN (which SQLAlchemy sends lazily, before the scope's first statement): one round trip, not two.

    Fails closed: were the BEGIN ever sent another way, the settings would be missing and row-level
    security would show the scope nothing (never another tenant's rows: `set_config(..., true)` ends
    with its transaction, and `Database.scope` clears an unsent prelude before the connection goes back)."""

    _tenant_prelude: str | None = None

    async def execute(self, query: str, *args: object, timeout: float | None = None) -> str:  # noqa: ASYNC109
        prelude = self._tenant_prelude
        if prelude is not None and not args and query.startswith("BEGIN"):
            self._tenant_prelude = None
            query = f"{query.rstrip().rstrip(';')}; {prelude}"
        return await super().execute(query, *args, timeout=timeout)


def tenancy_sql(org_id: uuid.UUID | None, user_id: uuid.UUID | None) -> str:
    """The statement that sets the tenancy settings RLS policies read, for this transaction only. The ids
    are inlined (a simple query takes no parameters): each is re-parsed as a UUID, so only hex digits and
    dashes ever reach the SQL."""
    org = str(uuid.UUID(str(org_id))) if org_id else ""
    user = str(uuid.UUID(str(user_id))) if user_id else ""
    return f"SELECT set_config('app.org_id', '{org}', true), set_config('app.user_id', '{user}', true);"


def make_engine(url: str, *, role: str | None = None, pool_size: int = 10,
                max_overflow: int | None = None) -> AsyncEngine:
    """An asyncpg engine; with `role`, every connection starts as that role (SET ROLE at login).

    `hide_parameters`: statement parameters carry user text (messages, names, tool inputs); SQLAlchemy
    would otherwise quote them in every error message, and error messages reach logs and telemetry."""
    connect_args: dict = {"server_settings": {"application_name": "spotter"}, "connection_class": TenantConnection}
    if role:
        connect_args["server_settings"]["role"] = role
    engine = create_async_engine(url, pool_size=pool_size,
                                 max_overflow=pool_size if max_overflow is None else max_overflow,
                                 pool_pre_ping=False, hide_parameters=True, connect_args=connect_args)
    event.listen(engine.sync_engine, "connect", _on_connect)  # pgvector's binary codec (rag.vectors)
    return engine


async def _register_vector(conn) -> None:  # an asyncpg connection
    try:
        await register_vector(conn)
    except ValueError as exc:  # a database without the extension yet (before the first migration)
        if not str(exc).startswith("unknown type"):
            raise


def _on_connect(dbapi_connection, connection_record) -> None:
    dbapi_connection.run_async(_register_vector)


class Database:
    """The service's handle on Postgres: app engine (RLS-bound) plus owner engine for maintenance.

    `session_info` is what every session it opens carries in `Session.info` (SQLAlchemy's slot for
    application state): settings a unit of work needs wherever it was opened, such as the job queue a
    nutrition run's job goes to (`gym.nutrition.queue`)."""

    def __init__(self, url: str, *, pool_size: int = 10, session_info: Mapping[str, Any] | None = None) -> None:
        self.url = url
        self.app_engine = make_engine(url, role=APP_ROLE, pool_size=pool_size)
        self._owner_engine: AsyncEngine | None = None
        self.sessions = async_sessionmaker(self.app_engine, expire_on_commit=False, info=dict(session_info or {}))

    @property
    def owner_engine(self) -> AsyncEngine:
        if self._owner_engine is None:
            self._owner_engine = make_engine(self.url, pool_size=2)
        return self._owner_engine

    @asynccontextmanager
    async def scope(self, *, org_id: uuid.UUID | None = None,
                    user_id: uuid.UUID | None = None) -> AsyncIterator[AsyncSession]:
        """One transaction as the app role, with the tenancy settings RLS policies read."""
        async with self.sessions() as session, session.begin():
            raw = (await (await session.connection()).get_raw_connection()).driver_connection
            assert isinstance(raw, TenantConnection)
            raw._tenant_prelude = tenancy_sql(org_id, user_id)  # sent with the BEGIN of the first statement
            try:
                yield session
            finally:
                raw._tenant_prelude = None  # a scope that ran no statement never sent it

    @asynccontextmanager
    async def lookup(self) -> AsyncIterator[AsyncConnection]:
        """A connection as the app role outside any transaction, without tenancy settings: each statement
        commits on its own (one round trip). Only for SECURITY DEFINER functions that scope themselves
        (`app_caller`); a table read here sees nothing under row-level security."""
        async with self.app_engine.connect() as conn:
            yield await conn.execution_options(isolation_level="AUTOCOMMIT")

    @asynccontextmanager
    async def owner(self) -> AsyncIterator[AsyncSession]:
        """One transaction as the schema owner (bypasses RLS): seeding and maintenance only."""
        async with AsyncSession(self.owner_engine, expire_on_commit=False) as session, session.begin():
            yield session

    async def dispose(self) -> None:
        await self.app_engine.dispose()
        if self._owner_engine is not None:
            await self._owner_engine.dispose()
