"""The embedded servers start, serve, stop, and restart on the same data."""

import asyncio

import asyncpg
import redis

from core.embedded import EmbeddedPostgres, EmbeddedRedis, embedded_services
from core.settings import load_settings


def _pg_roundtrip(url: str, sql: str):
    async def run():
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
        try:
            *setup, last = [part for part in sql.split(";") if part.strip()]
            for statement in setup:
                await conn.execute(statement)
            return await conn.fetch(last)
        finally:
            await conn.close()
    return asyncio.run(run())


def test_postgres_restarts_on_the_same_data(tmp_path) -> None:
    pg = EmbeddedPostgres(tmp_path)
    ext = _pg_roundtrip(pg.url(), "CREATE EXTENSION IF NOT EXISTS vector; SELECT extversion FROM pg_extension "
                                  "WHERE extname = 'vector'")
    _pg_roundtrip(pg.url(), "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')")
    pid = pg.server.get_pid()
    pg.stop()
    again = EmbeddedPostgres(tmp_path)
    try:
        assert again.server.get_pid() != pid
        assert _pg_roundtrip(again.url(), "SELECT v FROM kept")[0]["v"] == "still here"
        assert ext[0]["extversion"].startswith("0.")
    finally:
        again.stop()


def test_redis_restarts_on_the_same_data(tmp_path) -> None:
    first = EmbeddedRedis(tmp_path)
    redis.Redis(unix_socket_path=first.url.removeprefix("unix://")).set("kept", "yes")
    first.stop()
    second = EmbeddedRedis(tmp_path)
    try:
        assert redis.Redis(unix_socket_path=second.url.removeprefix("unix://")).get("kept") == b"yes"
    finally:
        second.stop()


def test_configured_urls_start_nothing(tmp_path) -> None:
    settings = load_settings(data_dir=tmp_path, database_url="postgresql://u@db.internal/spotter",
                             redis_url="redis://cache.internal:6379/0")
    with embedded_services(settings) as resolved:
        assert resolved.database_url == "postgresql+asyncpg://u@db.internal/spotter"
        assert resolved.redis_url == "redis://cache.internal:6379/0"
    assert not (tmp_path / "pg").exists()
