"""RAG-test fixtures: the modules here that drain the outbox get a database of their own.

The outbox is one queue for every org, and these tests drain all of it (the product's drain has no org
filter). In the session's database that meant embedding, with the local model, every row the tests before
them had left there: the demo gym alone queues ~4,500 when a seeding test ran first, ~25 s on a 2-core
machine, paid by whichever of these ran first on a worker. In a database of their own they drain their own.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from core import migrations
from core.database import Database
from core.embedded import EmbeddedPostgres


@pytest.fixture(scope="session")
def migrated_template(embedded_pg: EmbeddedPostgres) -> str:
    """A database at `alembic upgrade head` that nothing connects to: the template the modules' databases copy."""
    name = "rag_template"
    migrations.upgrade(embedded_pg.ensure_database(name))
    return name


@pytest.fixture(scope="module")
async def db(embedded_pg: EmbeddedPostgres, migrated_template: str) -> AsyncIterator[Database]:
    """This module's own database, a copy of the migrated template (overrides the session's `db`, and with it
    `factory`)."""
    name = f"rag_{uuid.uuid4().hex[:12]}"
    embedded_pg.server.psql(f'CREATE DATABASE "{name}" TEMPLATE "{migrated_template}";')
    database = Database(embedded_pg.url(name), pool_size=5)
    yield database
    await database.dispose()
