"""The turn lock is a lease: a killed holder frees the conversation within one lease, a long turn keeps it."""

import asyncio
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis.asyncio as aioredis

from api.app import create_app
from tests.fakes.anthropic_server import Reply, Text
from tests.servers import ThreadedServer, free_port
from tests.sse import open_sse, read_sse, sse

LEASE = 2.0  # seconds; production uses AGENT_TURN_LOCK_LEASE_SECONDS (15 s by default). Renewal runs every
# third of it, so the lock survives an event loop stalled for over a second (a busy 2-core CI machine).
ROOT = Path(__file__).resolve().parents[2]
_SERVE = ("import sys, uvicorn\nfrom api.app import create_app\nfrom core.settings import load_settings\n"
          "uvicorn.run(create_app(load_settings()), host='127.0.0.1', port=int(sys.argv[1]), log_level='warning')\n")


@pytest.fixture(scope="module")
def leased(app_settings) -> Iterator[ThreadedServer]:
    server = ThreadedServer(create_app(app_settings.model_copy(
        update={"agent_turn_lock_lease_seconds": LEASE}))).start()
    yield server
    server.stop()


@pytest.fixture
async def redis(app_settings) -> Iterator[aioredis.Redis]:
    client = aioredis.from_url(app_settings.redis_url)
    yield client
    await client.aclose()


def _lock_key(conversation_id: str) -> str:
    return f"spotter:turn:{conversation_id}"


async def _until(predicate, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not await predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def _second_process(app_settings, fake_model, **env_extra: str) -> tuple[asyncio.subprocess.Process, str]:
    """A second API process (its own interpreter) on the same PostgreSQL, Redis and fake model, once it serves."""
    port = free_port()
    env = {**os.environ, "APP_ENV": "test", "DATABASE_URL": app_settings.database_url,
           "REDIS_URL": app_settings.redis_url, "AUTH_MODE": "dev", "DATA_DIR": str(app_settings.data_dir),
           "AGENT_MODEL_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "sk-test-fake",
           "ANTHROPIC_BASE_URL": fake_model.url, "ANTHROPIC_MAX_RETRIES": "0",
           "AGENT_TURN_LOCK_LEASE_SECONDS": str(LEASE), **env_extra}
    other = await asyncio.create_subprocess_exec(sys.executable, "-c", _SERVE, str(port), cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        async def up() -> bool:
            try:
                return (await client.get("/health")).status_code < 500
            except httpx.TransportError:
                return False

        await _until(up, "the second process to serve", seconds=120)  # a loaded 2-core machine
    return other, url


async def test_a_turn_longer_than_several_leases_keeps_the_lock(leased, gym, fake_model, redis) -> None:
    async with httpx.AsyncClient(base_url=leased.url, timeout=30) as client:
        fake_model.queue(Reply(Text("first")))
        first = await sse(client, f"{gym.base}/messages", json_body={"message": "one"}, headers=gym.owner.headers)
        conversation_id = first.one("conversation_started")["conversationId"]
        fake_model.chunk_delay = 0.35
        fake_model.queue(Reply(Text("a slow answer in forty pieces", chunks=29)))  # ~10 s, five leases
        slow = asyncio.create_task(sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                                       json_body={"message": "two", "conversationId": conversation_id}))

        async def streaming() -> bool:
            return len(fake_model.requests) == 2

        await _until(streaming, "the slow turn to reach the model")
        await asyncio.sleep(3 * LEASE)  # the time under test: three leases into the turn
        busy = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                         json_body={"message": "three", "conversationId": conversation_id})
        assert not slow.done()
        assert busy.status == 409 and busy.body["code"] == "conversation_busy"
        assert 0 < await redis.pttl(_lock_key(conversation_id)) <= LEASE * 1000
        assert (await slow).text == "a slow answer in forty pieces"
        assert await redis.exists(_lock_key(conversation_id)) == 0  # released at the end
        fake_model.chunk_delay = 0.0
        fake_model.queue(Reply(Text("free again")))
        after = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                          json_body={"message": "four", "conversationId": conversation_id})
        assert after.text == "free again"


async def test_a_killed_process_frees_its_conversation_within_one_lease(leased, gym, fake_model, redis,
                                                                        app_settings) -> None:
    """kill -9 a second server process in the middle of a turn; this one can use the conversation a lease later."""
    async with httpx.AsyncClient(base_url=leased.url, timeout=30) as client:
        fake_model.queue(Reply(Text("first")))
        first = await sse(client, f"{gym.base}/messages", json_body={"message": "one"}, headers=gym.owner.headers)
    conversation_id = first.one("conversation_started")["conversationId"]

    other, url = await _second_process(app_settings, fake_model)
    try:
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            fake_model.chunk_delay = 0.2
            fake_model.queue(Reply(Text("this turn dies with its process", chunks=30)))
            turn = asyncio.create_task(sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                                           json_body={"message": "two", "conversationId": conversation_id}))

            async def streaming() -> bool:
                return len(fake_model.requests) == 2

            await _until(streaming, "the doomed turn to reach the model")
            other.send_signal(signal.SIGKILL)
            await other.wait()
            with pytest.raises(httpx.HTTPError):
                await turn
        left = await redis.pttl(_lock_key(conversation_id))
        assert 0 < left <= LEASE * 1000  # before leases this was the fixed 600 s TTL
        fake_model.chunk_delay = 0.0
        async with httpx.AsyncClient(base_url=leased.url, timeout=30) as client:
            busy = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                             json_body={"message": "three", "conversationId": conversation_id})
            assert busy.status == 409

            async def freed() -> bool:
                return await redis.exists(_lock_key(conversation_id)) == 0

            await _until(freed, "the dead holder's lease to lapse", seconds=5 * LEASE)
            fake_model.queue(Reply(Text("free again")))
            after = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                              json_body={"message": "four", "conversationId": conversation_id})
            assert after.text == "free again"
    finally:
        if other.returncode is None:
            other.kill()
            await other.wait()


async def test_a_process_told_to_stop_lets_a_running_turn_end_first(leased, gym, fake_model, redis,
                                                                     app_settings) -> None:
    """A deploy's SIGTERM mid-turn (its client gone): the process lets the turn end within its shutdown grace before
    it exits, so the turn's stream, read on this process, holds the whole answer and no turn_interrupted."""
    other, url = await _second_process(app_settings, fake_model, AGENT_SHUTDOWN_GRACE_SECONDS="60")
    try:
        fake_model.chunk_delay = 0.2
        fake_model.queue(Reply(Text("this turn outlives its process's stop", chunks=20)))  # ~4 s
        async with httpx.AsyncClient(base_url=url, timeout=30) as client:
            async with open_sse(client, f"{gym.base}/messages", json_body={"message": "one"},
                                headers=gym.owner.headers) as stream:
                await stream.until("text_delta")
                seen = stream.result  # and the client leaves
        other.send_signal(signal.SIGTERM)
        # uvicorn shuts down gracefully, then re-raises the signal it caught
        assert await asyncio.wait_for(other.wait(), timeout=60) in (0, -signal.SIGTERM)
        turn_id = seen.headers["x-turn-id"]
        async with httpx.AsyncClient(base_url=leased.url, timeout=30) as client:
            rest = await read_sse(client, f"{gym.base}/turns/{turn_id}/stream",
                                  headers={**gym.owner.headers, "last-event-id": seen.ids[-1]})
        assert seen.text + rest.text == "this turn outlives its process's stop"
        assert rest.names[-1] == "done" and "error" not in rest.names
        conversation_id = seen.one("conversation_started")["conversationId"]
        assert await redis.exists(_lock_key(conversation_id)) == 0  # released, not left to lapse
    finally:
        fake_model.chunk_delay = 0.0
        if other.returncode is None:
            other.kill()
            await other.wait()
