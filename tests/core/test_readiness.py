"""Liveness (`/health/live`, no I/O) and readiness (`/health`, its own connections), through HTTP."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from api.app import create_app
from api.resources import open_resources
from tests.servers import ThreadedServer


@pytest.fixture
def served(app_settings) -> Iterator[ThreadedServer]:
    server = ThreadedServer(create_app(app_settings)).start()
    yield server
    server.stop()


def _on_server_loop(server: ThreadedServer, coro):
    """Run `coro` on the server's own event loop (its engine's connections belong to that loop)."""
    loop = server.server.servers[0].get_loop()
    return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout=60)


async def test_health_stays_ready_while_every_request_connection_is_busy(served) -> None:
    engine = served.server.config.app.state.resources.db.app_engine
    capacity = engine.pool.size() + engine.pool._max_overflow  # 10 + 10: what concurrent turns share

    async def hold_all() -> list:
        return [await engine.connect() for _ in range(capacity)]

    async def one_more() -> str:
        try:
            conn = await asyncio.wait_for(engine.connect(), timeout=1.0)
        except TimeoutError:
            return "exhausted"
        await conn.close()
        return "available"

    async def release(conns: list) -> None:
        for conn in conns:
            await conn.close()

    held = _on_server_loop(served, hold_all())
    try:
        assert _on_server_loop(served, one_more()) == "exhausted"  # a turn would now wait for a connection
        async with httpx.AsyncClient(base_url=served.url, timeout=30) as client:
            responses = await asyncio.gather(*(client.get("/health") for _ in range(5)))
            live = await client.get("/health/live")
    finally:
        _on_server_loop(served, release(held))
    assert [r.status_code for r in responses] == [200] * 5
    assert responses[0].json() == {"status": "ok", "postgres": "up", "redis": "up", "down": []}
    assert live.status_code == 200 and live.json() == {"status": "ok"}


async def test_liveness_does_no_io_while_readiness_reports_what_is_down(app_settings, tmp_path) -> None:
    """With Postgres and Redis unreachable, the process is alive (200) but not ready (503)."""
    dead = app_settings.model_copy(update={
        "database_url": f"postgresql+asyncpg://postgres@/spotter?host={tmp_path}/no-such-dir",
        "redis_url": f"unix://{tmp_path}/no-such.sock"})
    resources = await open_resources(dead)
    server = ThreadedServer(create_app(dead, resources=resources)).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            live = await client.get("/health/live")
            ready = await client.get("/health")
    finally:
        server.stop()
        await resources.close()
    assert live.status_code == 200 and live.json() == {"status": "ok"}
    assert ready.status_code == 503
    assert ready.json() == {"status": "degraded", "postgres": "down", "redis": "down", "down": ["postgres", "redis"]}
