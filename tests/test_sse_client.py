"""The SSE test client reads each frame as it arrives: a server that sends its second frame only after the
client has seen the first proves nothing is buffered to the end of the body."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.servers import ThreadedServer
from tests.sse import open_sse, parse_frames, sse


class TwoFrames:
    """ASGI app: `first`, then waits (off its loop) until the test says it saw it, then `second` and the end."""

    def __init__(self) -> None:
        self.seen_first = threading.Event()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["path"] == "/error":
            body = json.dumps({"code": "nope"}).encode()
            await send({"type": "http.response.start", "status": 409,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream")]})
        await send({"type": "http.response.body", "body": b'event: first\ndata: {"n": 1}\n\n', "more_body": True})
        released = await asyncio.to_thread(self.seen_first.wait, 30)
        body = b'event: second\r\ndata: {"released": %s}\r\n\r\n' % (b"true" if released else b"false")
        await send({"type": "http.response.body", "body": body, "more_body": False})


@pytest.fixture(scope="module")
def two_frames() -> Iterator[tuple[TwoFrames, str]]:
    app = TwoFrames()
    server = ThreadedServer(app).start()
    yield app, server.url
    server.stop()


async def test_frames_are_read_as_they_arrive(two_frames) -> None:
    app, url = two_frames
    app.seen_first.clear()
    async with httpx.AsyncClient(base_url=url, timeout=60) as client, open_sse(client, "/stream") as stream:
        assert await stream.next_frame() == ("first", {"n": 1})
        app.seen_first.set()  # a client that waited for the whole body would never get here
        result = await stream.finish()
    assert result.status == 200
    assert result.events == [("first", {"n": 1}), ("second", {"released": True})]


async def test_an_error_before_the_stream_opens_is_read_as_a_json_body(two_frames) -> None:
    _, url = two_frames
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        result = await sse(client, "/error", json_body={})
    assert (result.status, result.body, result.events) == (409, {"code": "nope"}, [])


def test_parse_frames_splits_a_whole_body_into_frames() -> None:
    raw = 'event: a\ndata: {"x": 1}\n\n: a comment\n\nevent: b\r\ndata: [1,\r\ndata: 2]\r\n\r\ndata: "tail"'
    assert parse_frames(raw) == [("a", {"x": 1}), ("b", [1, 2]), ("message", "tail")]
