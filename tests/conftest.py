"""Shared test infrastructure: real embedded Postgres + Redis, the app under uvicorn, per-test tenants.

Nothing here mocks our own code; a guard makes any attempt to reach a real model host fail.
"""

from __future__ import annotations

import contextlib
import socket
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from api.app import create_app
from api.auth import DevKeys
from core import migrations
from core.database import Database
from core.embedded import EmbeddedPostgres, EmbeddedRedis
from core.settings import Settings, load_settings
from tests.factories import Factory
from tests.fakes.anthropic_server import FakeAnthropic
from tests.servers import ThreadedServer

FORBIDDEN_HOSTS = ("anthropic.com", "voyageai.com", "posthog.com", "sentry.io")


@pytest.fixture(scope="session", autouse=True)
def no_real_model_hosts() -> Iterator[None]:
    """Any DNS lookup of a real model/telemetry host fails the test that made it."""
    real = socket.getaddrinfo

    def guarded(host, *args, **kwargs):
        if isinstance(host, str) and any(host == h or host.endswith("." + h) for h in FORBIDDEN_HOSTS):
            raise RuntimeError(f"tests must not reach {host}")
        return real(host, *args, **kwargs)

    socket.getaddrinfo = guarded
    yield
    socket.getaddrinfo = real


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("spotter-data")


@pytest.fixture(scope="session")
def embedded_pg(data_dir: Path) -> Iterator[EmbeddedPostgres]:
    pg = EmbeddedPostgres(data_dir)
    migrations.upgrade(pg.url())
    yield pg
    pg.stop()


@pytest.fixture(scope="session")
def embedded_redis(data_dir: Path) -> Iterator[EmbeddedRedis]:
    redis = EmbeddedRedis(data_dir / "redis")
    yield redis
    redis.stop()


@pytest.fixture(scope="session")
def base_settings(data_dir: Path, embedded_pg: EmbeddedPostgres, embedded_redis: EmbeddedRedis) -> Settings:
    """Settings for the app under test; agent-level conftests extend them (fake model URL, ...)."""
    return load_settings(app_env="test", data_dir=data_dir, database_url=embedded_pg.url(),
                         redis_url=embedded_redis.url, auth_mode="dev", agent_model_provider="anthropic",
                         anthropic_api_key=None)


@pytest.fixture(scope="session")
def fake_model() -> Iterator[FakeAnthropic]:
    """The fake Anthropic Messages API every app under test talks to (real HTTP, real SDK)."""
    fake = FakeAnthropic().start()
    yield fake
    fake.stop()


@pytest.fixture(scope="session")
def app_settings(base_settings: Settings, fake_model: FakeAnthropic) -> Settings:
    # nutrition runs stay offline here: the shared fake model is scripted per test (tests/pipeline/test_model_agents)
    return base_settings.model_copy(update={"anthropic_api_key": "sk-test-fake", "anthropic_base_url": fake_model.url,
                                            "anthropic_max_retries": 0, "nutrition_agents": "offline"})


@pytest.fixture(scope="session")
def server(app_settings: Settings) -> Iterator[ThreadedServer]:
    srv = ThreadedServer(create_app(app_settings)).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
async def db(embedded_pg: EmbeddedPostgres) -> AsyncIterator[Database]:
    database = Database(embedded_pg.url(), pool_size=5)
    yield database
    await database.dispose()


@pytest.fixture(scope="session")
def dev_keys(data_dir: Path) -> DevKeys:
    return DevKeys(data_dir)


@pytest.fixture
def factory(db: Database, dev_keys: DevKeys) -> Factory:
    return Factory(db, dev_keys)


@pytest.fixture
async def client(server: ThreadedServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        yield http


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The suite leaves no embedded server behind: a postgres or redis-server still running from this
    session's temp dirs (the fixtures' servers, or those of a CLI run in a subprocess) fails the run, and
    is killed so it does not outlive the check either."""
    from core.embedded import leftover_servers

    factory = getattr(session.config, "_tmp_path_factory", None)
    base = getattr(factory, "_basetemp", None)  # None: no temp dir was made, so no server was started
    if base is None:
        return
    leftovers = leftover_servers(base)
    if not leftovers:
        return
    for proc in leftovers:
        with contextlib.suppress(Exception):
            proc.kill()
    names = ", ".join(f"{p.info['name']} (pid {p.pid})" for p in leftovers)
    print(f"\nembedded servers outlived the test session: {names}", file=sys.stderr)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
