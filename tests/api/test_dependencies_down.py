"""Dependencies failing (ARCHITECTURE.md): with Redis stopped, frozen or Postgres unreachable, send, confirm and
pick answer 503 `service_unavailable` with `Retry-After` (never 500 `internal`), `/health` names what is down, and
the service recovers by itself within 5 s of Redis' return, with no conversation left busy after a freeze.

Each test runs its own app over its own Redis (started and stopped here), so the worker's shared Redis and the
other tests' app never see the outage."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from api.app import create_app
from api.resources import open_resources
from core.embedded import EmbeddedRedis
from tests.fakes.anthropic_server import Held, Reply, Text
from tests.servers import ThreadedServer
from tests.sse import sse
from tests.trainer.members import link_member

RECOVERY_SECONDS = 5.0
LEASE_SECONDS = 30.0  # a lease longer than the freeze: a lock left to lapse would keep the conversation busy


@asynccontextmanager
async def _app(settings) -> AsyncIterator[httpx.AsyncClient]:
    resources = await open_resources(settings)
    server = ThreadedServer(create_app(settings, resources=resources)).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            yield client
    finally:  # the resources' connections belong to the server's loop: closed there, before it stops
        loop = server.server.servers[0].get_loop()
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(resources.close(), loop))
        server.stop()


@pytest.fixture
def own_redis(tmp_path: Path):
    holder = {"redis": EmbeddedRedis(tmp_path / "redis")}
    yield holder
    with_pid = holder["redis"]
    if with_pid.pid is not None:
        os.kill(with_pid.pid, signal.SIGCONT)  # a freeze that failed half-way must not leave a stopped process
    with_pid.stop()


def _unavailable(status: int, body: dict | None, headers) -> None:
    assert (status, (body or {}).get("code")) == (503, "service_unavailable"), (status, body)
    assert int(headers["retry-after"]) > 0


async def _staff(factory):
    org = await factory.org(tier="pro")
    return org, await factory.user(org, "owner", name="Maya Owner")


async def test_redis_stopped_answers_503_and_recovers_when_it_returns(app_settings, factory, db, own_redis,
                                                                      clean_model, tmp_path) -> None:
    settings = app_settings.model_copy(update={"redis_url": own_redis["redis"].url})
    org, owner = await _staff(factory)
    member = await factory.user(org, "member")
    await link_member(db, org.id, member.id)
    base = f"/organizations/{org.id}/agent"
    async with _app(settings) as client:
        clean_model.queue(Reply(Text("Hello.")))
        first = await sse(client, f"{base}/messages", json_body={"message": "hi"}, headers=owner.headers)
        cid = first.one("conversation_started")["conversationId"]

        own_redis["redis"].stop()
        for url, body, who in (
                (f"{base}/messages", {"message": "hi"}, owner),
                (f"{base}/messages", {"message": "again", "conversationId": cid}, owner),
                (f"{base}/conversations/{cid}/confirm/toolu_x", {"approved": True}, owner),
                (f"{base}/conversations/{cid}/pick/toolu_x", {"id": "a"}, owner),
                (f"/organizations/{org.id}/trainer/messages", {"message": "hi coach"}, member)):
            refused = await sse(client, url, json_body=body, headers=who.headers)
            _unavailable(refused.status, refused.body, refused.headers)
        health = await client.get("/health")
        assert health.status_code == 503 and health.json()["down"] == ["redis"]
        assert health.json()["postgres"] == "up" and health.json()["redis"] == "down"

        own_redis["redis"] = EmbeddedRedis(tmp_path / "redis")  # Redis is back, at the same address
        back = time.monotonic()
        clean_model.queue(Reply(Text("Back.")))
        while True:
            answered = await sse(client, f"{base}/messages", json_body={"message": "again", "conversationId": cid},
                                 headers=owner.headers)
            if answered.status == 200 or time.monotonic() - back > RECOVERY_SECONDS:
                break
            await asyncio.sleep(0.2)
        assert answered.status == 200 and answered.text == "Back.", answered.body
        assert (await client.get("/health")).json() == {"status": "ok", "postgres": "up", "redis": "up", "down": []}


async def test_a_frozen_redis_leaves_no_conversation_busy_once_it_thaws(app_settings, factory, own_redis,
                                                                         clean_model) -> None:
    """A turn ends while Redis is frozen (SIGSTOP, 10 s): its lock cannot be released then. Within 5 s of the thaw
    the conversation takes a new turn; before, it stayed busy until the lease lapsed (here 30 s)."""
    settings = app_settings.model_copy(update={"redis_url": own_redis["redis"].url,
                                               "agent_turn_lock_lease_seconds": LEASE_SECONDS})
    org, owner = await _staff(factory)
    base = f"/organizations/{org.id}/agent"
    async with _app(settings) as client:
        clean_model.queue(Reply(Text("Hello.")))
        cid = (await sse(client, f"{base}/messages", json_body={"message": "hi"}, headers=owner.headers)
               ).one("conversation_started")["conversationId"]
        held = Held(Reply(Text("Slow answer.")))
        clean_model.respond_with(held)
        turn = asyncio.create_task(sse(client, f"{base}/messages", headers=owner.headers,
                                       json_body={"message": "take your time", "conversationId": cid}))
        await asyncio.to_thread(held.arrived.wait, 30)
        pid = own_redis["redis"].pid
        os.kill(pid, signal.SIGSTOP)
        frozen = time.monotonic()
        try:
            held.release()
            ended = await asyncio.wait_for(turn, 30)  # the turn ends while Redis is frozen
            assert ended.status == 200 and ended.names[-1] == "done"
            assert "internal" not in [e["code"] for e in ended.of("error")]
            refused = await sse(client, f"{base}/messages", json_body={"message": "new"}, headers=owner.headers)
            _unavailable(refused.status, refused.body, refused.headers)  # a send meanwhile: 503, not 500
            await asyncio.sleep(max(0.0, 10.0 - (time.monotonic() - frozen)))
        finally:
            os.kill(pid, signal.SIGCONT)
        thawed = time.monotonic()
        clean_model.respond_with(None)
        clean_model.queue(Reply(Text("Back.")))
        while True:
            answered = await sse(client, f"{base}/messages", json_body={"message": "again", "conversationId": cid},
                                 headers=owner.headers)
            if answered.status == 200 or time.monotonic() - thawed > RECOVERY_SECONDS:
                break
            await asyncio.sleep(0.2)
        assert answered.status == 200, (answered.status, answered.body, round(time.monotonic() - thawed, 1))
        assert answered.text == "Back."


async def test_postgres_unreachable_answers_503(app_settings, factory, tmp_path) -> None:
    org, owner = await _staff(factory)
    dead = app_settings.model_copy(update={
        "database_url": f"postgresql+asyncpg://postgres@/spotter?host={tmp_path}/no-such-dir"})
    base = f"/organizations/{org.id}/agent"
    async with _app(dead) as client:
        for url, body in ((f"{base}/messages", {"message": "hi"}),
                          (f"{base}/conversations/{org.id}/confirm/toolu_x", {"approved": True})):
            refused = await sse(client, url, json_body=body, headers=owner.headers)
            _unavailable(refused.status, refused.body, refused.headers)
        listed = await client.get(f"{base}/conversations", headers=owner.headers)
        _unavailable(listed.status_code, listed.json(), listed.headers)
        health = await client.get("/health")
        assert health.status_code == 503 and health.json()["down"] == ["postgres"]
