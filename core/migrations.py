"""Run Alembic programmatically (`spotter migrate`, tests) against a given database URL."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = database_url
    return config


def _run(fn, *args) -> None:
    """Alembic's async env calls asyncio.run; keep it off any loop the caller is running."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        fn(*args)
        return
    import threading

    errors: list[BaseException] = []

    def target() -> None:
        try:
            fn(*args)
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def upgrade(database_url: str, revision: str = "head") -> None:
    _run(command.upgrade, alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    _run(command.downgrade, alembic_config(database_url), revision)
