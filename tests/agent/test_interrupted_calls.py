"""A model call that does not finish still costs what the provider billed, and the conversation goes on."""

import asyncio
import threading
from collections.abc import Iterator

import anyio
import httpx
import pytest
from sqlalchemy import text

from agent.costs import PriceBook, Usage
from api.app import create_app
from tests.fakes.anthropic_server import DropStream, Reply, Text
from tests.servers import ThreadedServer
from tests.sse import sse


async def _usage_row(db, org_id):
    async with db.owner() as session:
        return (await session.execute(text(
            "SELECT coalesce(sum(cost_usd_micros), 0) AS cost, "
            "coalesce(sum(turns), 0) AS turns FROM ai_usage_daily WHERE org_id = :o"), {"o": org_id})).one()


@pytest.mark.parametrize("clean", [True, False], ids=["closed-cleanly", "connection-dropped"])
async def test_stream_that_stops_before_message_stop_is_an_error_not_an_answer(client, gym, fake_model, db,
                                                                               clean) -> None:
    """A 200 stream that ends without message_stop (the body closed properly, or the connection dropped):
    provider_unavailable, the partial text kept as interrupted, what message_start billed booked."""
    fake_model.queue(DropStream(after_events=5, clean=clean,
                                blocks=(Text("partial answer that will be cut", chunks=4),)))
    result = await sse(client, f"{gym.base}/messages", json_body={"message": "hello there"},
                       headers=gym.owner.headers)
    assert result.status == 200
    assert result.names[-2:] == ["error", "done"] and "message_done" not in result.names
    assert result.one("error")["code"] == "provider_unavailable"
    assert result.text and "partial answer that will be cut".startswith(result.text)
    billed = fake_model.requests[0].usage  # what message_start reported
    done = result.one("done")["usage"]
    assert done["inputTokens"] == billed["input_tokens"]
    assert done["cacheCreationTokens"] == billed["cache_creation_input_tokens"] > 0
    assert done["costUsdMicros"] > 0

    conversation_id = result.one("conversation_started")["conversationId"]
    async with db.owner() as session:
        stored = (await session.execute(text(
            "SELECT stop_reason, content->0->>'text' AS text FROM conversation_messages "
            "WHERE conversation_id = :c AND role = 'assistant'"), {"c": conversation_id})).one()
    assert stored.stop_reason == "interrupted" and stored.text == result.text
    row = await _usage_row(db, gym.org.id)
    assert row.cost == done["costUsdMicros"] and row.turns == 1

    fake_model.queue(Reply(Text("Here is the whole answer.")))
    retry = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                      json_body={"message": "try again", "conversationId": conversation_id})
    assert retry.text == "Here is the whole answer." and fake_model.requests[-1].rejected is None
    assert retry.names[-1] == "done" and "error" not in retry.names


@pytest.fixture(scope="module")
def observed(app_settings) -> Iterator[tuple[ThreadedServer, list[tuple[str, dict]]]]:
    """The real app with a recording sink on its Observability."""
    app = create_app(app_settings)
    server = ThreadedServer(app).start()
    recorded: list[tuple[str, dict]] = []
    app.state.resources.agent.orchestrator.observability.sinks.append(lambda e, f: recorded.append((e, f)))
    yield server, recorded
    server.stop()


async def _stop(client: httpx.AsyncClient, gym, response: httpx.Response) -> None:
    """The explicit stop of the turn this response streams (issue 40: a client that leaves no longer stops it)."""
    stopped = await client.post(f"{gym.base}/turns/{response.headers['x-turn-id']}/stop", headers=gym.owner.headers)
    assert stopped.status_code == 200 and stopped.json()["state"] == "stopping"


async def test_a_turn_stopped_mid_stream_pays_for_the_input_and_is_aborted(observed, gym, fake_model, db) -> None:
    """Stop during the model stream: the call's billed input is booked and agent.turn.failed says aborted."""
    server, recorded = observed
    fake_model.chunk_delay = 0.15
    fake_model.queue(Reply(Text("a long answer " * 10, chunks=30)))
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client, client.stream(
            "POST", f"{gym.base}/messages", json={"message": "long one"}, headers=gym.owner.headers) as response:
        async for chunk in response.aiter_text():
            if "text_delta" in chunk:
                break
        await _stop(client, gym, response)
    ended = []
    for _ in range(100):  # the turn is cancelled where it runs, then finalized
        ended = [f for e, f in recorded if e.startswith("agent.turn.") and e != "agent.turn.started"
                 and f.get("org_id") == str(gym.org.id)]
        if ended and fake_model.disconnects:
            break
        await asyncio.sleep(0.1)
    assert fake_model.disconnects == 1
    failed = [f for e, f in recorded if e == "agent.turn.failed" and f.get("org_id") == str(gym.org.id)]
    assert len(ended) == 1 and len(failed) == 1 and failed[0]["errorCode"] == "aborted"

    billed = fake_model.requests[0].usage
    input_only = Usage(input_tokens=billed["input_tokens"], cache_read_tokens=billed["cache_read_input_tokens"],
                       cache_write_5m_tokens=billed["cache_creation"]["ephemeral_5m_input_tokens"],
                       cache_write_1h_tokens=billed["cache_creation"]["ephemeral_1h_input_tokens"])
    input_cost = PriceBook().cost_usd_micros(observed_model(), input_only)
    row = await _usage_row(db, gym.org.id)
    assert row.cost >= input_cost > 0 and row.turns == 1
    assert failed[0]["costUsdMicros"] == row.cost and failed[0]["modelCalls"] == 1


async def test_a_turn_stopped_after_the_text_before_the_commit_keeps_the_text(observed, gym, fake_model, db,
                                                                            monkeypatch) -> None:
    """Stop after the last text delta while the round trip's transaction is still open: the assistant row keeps
    what streamed, marked interrupted, as it does for a stop mid-stream, and the conversation goes on."""
    server, recorded = observed
    meter = server.app.state.resources.agent.orchestrator.meter
    write, holding = meter.write, threading.Event()

    async def held_write(turn, session, **kwargs) -> None:  # the round trip's last statement before its commit
        if turn.access.org_id == gym.org.id and not holding.is_set():
            holding.set()
            await anyio.sleep(30)  # the stop cancels this
        await write(turn, session, **kwargs)

    monkeypatch.setattr(meter, "write", held_write)
    fake_model.queue(Reply(Text("Three classes today.", chunks=3)))
    seen = ""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client, client.stream(
            "POST", f"{gym.base}/messages", json={"message": "what's on today?"}, headers=gym.owner.headers) as response:
        async for chunk in response.aiter_text():
            seen += chunk
            if seen.count("event: text_delta") == 3:
                break
        assert await asyncio.to_thread(holding.wait, 10)
        assert "message_done" not in seen and "event: done" not in seen
        await _stop(client, gym, response)
    failed: list[dict] = []
    for _ in range(100):  # the turn is cancelled where it runs, then finalized
        failed = [f for e, f in recorded if e == "agent.turn.failed" and f.get("org_id") == str(gym.org.id)]
        if failed:
            break
        await asyncio.sleep(0.1)
    assert [f["errorCode"] for f in failed] == ["aborted"]

    async with db.owner() as session:
        stored = (await session.execute(text(
            "SELECT m.conversation_id, m.stop_reason, m.content->0->>'text' AS text FROM conversation_messages m "
            "JOIN conversations c ON c.id = m.conversation_id WHERE c.org_id = :o AND m.role = 'assistant'"),
            {"o": gym.org.id})).all()
    assert [(row.stop_reason, row.text) for row in stored] == [("interrupted", "Three classes today.")]

    monkeypatch.undo()
    fake_model.queue(Reply(Text("Still three.")))
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        again = await sse(client, f"{gym.base}/messages", headers=gym.owner.headers,
                          json_body={"message": "and now?", "conversationId": str(stored[0].conversation_id)})
    assert again.text == "Still three." and again.names[-1] == "done" and "error" not in again.names


def observed_model() -> str:
    from core.settings import Settings

    return Settings().agent_model
