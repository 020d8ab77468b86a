"""Alembic environment: async engine, URL handed over by core.migrations (or DATABASE_URL)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.ext.asyncio import create_async_engine


def _url() -> str:
    url = context.config.attributes.get("database_url")
    if not url:
        from core.settings import load_settings

        url = load_settings().database_url
    if not url:
        raise RuntimeError("no database URL: run through `spotter migrate`")
    return url


def _do_run(connection) -> None:
    context.configure(connection=connection, target_metadata=None, transaction_per_migration=True)
    with context.begin_transaction():
        context.run_migrations()


async def _run_online() -> None:
    engine = create_async_engine(_url())
    async with engine.connect() as connection:
        await connection.run_sync(_do_run)
        await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("offline migrations are not supported")
asyncio.run(_run_online())
