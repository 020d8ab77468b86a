"""Issue 40 item 4: two `spotter serve` processes and a `spotter worker` against one PostgreSQL and one Redis, behind
nginx (deploy/nginx.conf), as README "Several API processes" runs them. A turn whose connection drops on one API
process finishes there, and a reconnect through the proxy that reaches the other process replays its frames exactly
once and follows it to `done`; a stop sent to the other process stops it; a process killed mid-turn leaves no
reader hanging and no conversation locked."""

from __future__ import annotations

import asyncio
import os

import httpx
import pytest
from sqlalchemy import text

from tests.cluster import Cluster, nginx_binary
from tests.fakes.anthropic_server import Reply, Text
from tests.sse import open_sse, sse

# Three processes importing the app at once on a shared 2-core machine take minutes to serve: the module's first
# test pays for them.
pytestmark = pytest.mark.timeout(900)

ANSWER = "Forty-two members are active, seven are frozen and three left this month; here is how that came about. "

if nginx_binary() is None:
    if os.environ.get("SPOTTER_REQUIRE_NGINX"):  # .ci/run installs it: there, missing is a failure
        raise RuntimeError("nginx is required for tests/api/test_two_processes.py (apt-get install nginx-light)")
    pytest.skip("nginx is not installed (apt-get install nginx-light; .ci/run does)", allow_module_level=True)


@pytest.fixture(scope="module")
def cluster(app_settings, data_dir, fake_model):
    env = {"APP_ENV": "test", "DATABASE_URL": app_settings.database_url, "REDIS_URL": app_settings.redis_url,
           "DATA_DIR": str(data_dir), "AUTH_MODE": "dev", "AGENT_MODEL_PROVIDER": "anthropic",
           "ANTHROPIC_API_KEY": "sk-test-fake", "ANTHROPIC_BASE_URL": fake_model.url, "ANTHROPIC_MAX_RETRIES": "0",
           "NUTRITION_AGENTS": "offline", "LOG_LEVEL": "warning"}
    running = Cluster(env, api=2, worker=True).start()
    yield running
    running.stop()


@pytest.fixture
async def proxy(cluster):
    async with httpx.AsyncClient(base_url=cluster.url, timeout=60) as http:
        yield http


async def _reconnect_elsewhere(http: httpx.AsyncClient, url: str, headers: dict, avoid: str):
    """GET the turn's stream through the proxy until it is the other API process that answers; read it all."""
    for _ in range(8):
        async with open_sse(http, url, headers=headers, method="GET") as stream:
            if stream.result.headers.get("x-upstream") == avoid:
                continue  # the proxy chose the same process: leave and ask again
            return await stream.finish()
    raise AssertionError("the proxy never sent the reconnect to the other API process")


async def _answers(db, org_id) -> list:
    async with db.owner() as session:
        return list((await session.execute(text(
            "SELECT m.stop_reason, m.content->0->>'text' AS text FROM conversation_messages m JOIN conversations c "
            "ON c.id = m.conversation_id WHERE c.org_id = :o AND m.role = 'assistant' ORDER BY m.seq"),
            {"o": org_id})).all())


async def test_a_dropped_turn_finishes_and_replays_exactly_once_on_the_other_process(cluster, proxy, gym,
                                                                                    fake_model, db) -> None:
    fake_model.reset()
    fake_model.chunk_delay = 0.1
    fake_model.queue(Reply(Text(ANSWER * 2, chunks=30)))
    async with open_sse(proxy, f"{gym.base}/messages", json_body={"message": "how many members?"},
                        headers=gym.owner.headers) as stream:
        for _ in range(3):
            await stream.until("text_delta")
        first = stream.result  # the connection drops here
    ran_on = first.headers["x-upstream"]
    assert ran_on in cluster.backends and "done" not in first.names
    turn_id, last = first.ids[-1].rsplit(":", 1)

    rest = await _reconnect_elsewhere(proxy, f"{gym.base}/turns/{turn_id}/stream",
                                      {**gym.owner.headers, "last-event-id": first.ids[-1]}, avoid=ran_on)
    assert rest.headers["x-upstream"] != ran_on
    assert rest.seqs[0] == int(last) + 1 and rest.names[-1] == "done" and rest.names.count("done") == 1
    assert first.seqs + rest.seqs == list(range(1, len(first.ids) + len(rest.ids) + 1))  # none lost, none twice
    assert first.text + rest.text == ANSWER * 2 and "error" not in rest.names
    assert [(a.stop_reason, a.text) for a in await _answers(db, gym.org.id)] == [("end_turn", ANSWER * 2)]
    assert fake_model.disconnects == 0


async def test_a_stop_sent_to_the_other_process_stops_the_turn(cluster, proxy, gym, fake_model, db) -> None:
    fake_model.reset()
    fake_model.chunk_delay = 0.2
    fake_model.queue(Reply(Text(ANSWER * 3, chunks=40)))
    async with open_sse(proxy, f"{gym.base}/messages", json_body={"message": "count them slowly"},
                        headers=gym.owner.headers) as stream:
        await stream.until("text_delta")
        await stream.until("text_delta")
        ran_on, turn_id = stream.result.headers["x-upstream"], stream.result.headers["x-turn-id"]
        other = next(b for b in cluster.backends if b != ran_on)
        async with httpx.AsyncClient(base_url=f"http://{other}", timeout=30) as direct:
            stopped = await direct.post(f"{gym.base}/turns/{turn_id}/stop", headers=gym.owner.headers)
        assert stopped.status_code == 200 and stopped.json()["state"] == "stopping"
        result = await stream.finish()
    assert result.names[-1] == "done" and result.names.count("done") == 1 and "error" not in result.names
    assert result.text and result.text != ANSWER * 3
    await asyncio.to_thread(fake_model.wait_for_disconnects, 1)  # its model stream was cancelled where it ran
    assert [(a.stop_reason, a.text) for a in await _answers(db, gym.org.id)] == [("interrupted", result.text)]


async def test_a_process_killed_mid_turn_leaves_no_reader_hanging_and_no_conversation_locked(cluster, proxy, gym,
                                                                                            fake_model) -> None:
    """Last in the module: it kills one of the two API processes."""
    fake_model.reset()
    fake_model.queue(Reply(Text("First answer.")))
    first = await sse(proxy, f"{gym.base}/messages", json_body={"message": "hello"}, headers=gym.owner.headers)
    conversation_id = first.one("conversation_started")["conversationId"]
    fake_model.chunk_delay = 0.3
    fake_model.queue(Reply(Text(ANSWER * 3, chunks=60)))
    async with open_sse(proxy, f"{gym.base}/messages", headers=gym.owner.headers,
                        json_body={"message": "count them", "conversationId": conversation_id}) as stream:
        await stream.until("text_delta")
        seen = stream.result
    ran_on, turn_id = seen.headers["x-upstream"], seen.headers["x-turn-id"]
    cluster.kill(ran_on)
    survivor = next(b for b in cluster.backends if b != ran_on)
    async with httpx.AsyncClient(base_url=f"http://{survivor}", timeout=60) as direct:
        rest = await asyncio.wait_for(direct.get(f"{gym.base}/turns/{turn_id}/stream", headers={
            **gym.owner.headers, "last-event-id": seen.ids[-1]}), timeout=45)
        assert rest.status_code == 200
        names = [line[7:] for line in rest.text.splitlines() if line.startswith("event: ")]
        assert names[-2:] == ["error", "done"] and '"code":"turn_interrupted"' in rest.text
        fake_model.chunk_delay = 0
        fake_model.queue(Reply(Text("Back again.")))
        again = None
        for _ in range(40):  # the dead process's lock lapses within its lease (15 s)
            again = await sse(direct, f"{gym.base}/messages", headers=gym.owner.headers,
                              json_body={"message": "still there?", "conversationId": conversation_id})
            if again.status != 409:
                break
            await asyncio.sleep(1)
    assert again is not None and again.status == 200 and again.text == "Back again." and "error" not in again.names
