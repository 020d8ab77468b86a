"""Read an SSE response frame by frame, as the frames arrive, over real HTTP (httpx streaming against uvicorn).

`sse(...)` reads a whole turn and returns a `StreamResult`; `open_sse(...)` hands the live stream to the
test, which can act between frames (`await stream.until("text_delta")`) and read the rest later.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx

Frame = tuple[str, dict[str, Any]]


@dataclass
class StreamResult:
    status: int
    events: list[Frame] = field(default_factory=list)
    body: dict[str, Any] | None = None  # JSON error body when the stream never opened
    headers: dict[str, str] = field(default_factory=dict)
    ids: list[str | None] = field(default_factory=list)  # each frame's `id:` (a turn's: `<turnId>:<seq>`)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [data for name, data in self.events if name == kind]

    def one(self, kind: str) -> dict[str, Any]:
        found = self.of(kind)
        assert len(found) == 1, f"expected one {kind}, got {len(found)}: {self.names}"
        return found[0]

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.events]

    @property
    def text(self) -> str:
        return "".join(d["delta"] for d in self.of("text_delta"))

    @property
    def seqs(self) -> list[int]:
        """The seq of each frame's `<turnId>:<seq>` id."""
        return [int(str(i).rsplit(":", 1)[1]) for i in self.ids]


class _FrameParser:
    """Turns SSE lines into (event name, JSON data) frames; a blank line ends a frame, `:` lines are comments."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.data: list[str] = []
        self.id: str | None = None
        self.flushed_id: str | None = None  # the `id:` of the frame `flush` returned last

    def feed(self, line: str) -> Frame | None:
        if line == "":
            return self.flush()
        if line.startswith("event:"):
            self.name = line[6:].strip()
        elif line.startswith("id:"):
            self.id = line[3:].strip()
        elif line.startswith("data:"):
            self.data.append(line[5:].strip())
        return None

    def flush(self) -> Frame | None:
        if self.name is None and not self.data:
            return None
        frame = (self.name or "message", json.loads("\n".join(self.data)))
        self.flushed_id = self.id
        self.name, self.data, self.id = None, [], None
        return frame


def parse_frames(raw: str) -> list[Frame]:
    """Every frame of a complete SSE body (for bodies a test already holds)."""
    parser = _FrameParser()
    frames = [f for line in raw.replace("\r\n", "\n").split("\n") if (f := parser.feed(line)) is not None]
    last = parser.flush()
    return [*frames, last] if last is not None else frames


async def frames_with_ids(client: httpx.AsyncClient, url: str,
                          headers: dict[str, str]) -> list[tuple[int, str, dict[str, Any]]]:
    """Every frame of a stream that ends by itself (a nutrition run's events), with its `id:`: (id, event, data)."""
    parser, frames = _FrameParser(), []
    async with client.stream("GET", url, headers=headers, timeout=120) as response:
        assert response.status_code == 200, await response.aread()
        async for line in response.aiter_lines():
            if (frame := parser.feed(line)) is not None:
                frames.append((int(parser.flushed_id or 0), *frame))
    if (frame := parser.flush()) is not None:
        frames.append((int(parser.flushed_id or 0), *frame))
    return frames


class SseStream:
    """An open response. For an event stream, `frames()` yields each frame as it arrives and records it in
    `result`; any other response (an error before the stream opened) is read whole into `result.body`."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.result = StreamResult(response.status_code, headers=dict(response.headers))
        self.is_event_stream = response.headers.get("content-type", "").startswith("text/event-stream")
        self._lines: AsyncIterator[str] | None = None
        self._parser = _FrameParser()
        self._ended = False

    async def _read_body(self) -> None:
        raw = (await self.response.aread()).decode()
        self.result.body = json.loads(raw) if raw else None
        self._ended = True

    async def next_frame(self) -> Frame | None:
        """The next frame off the wire, or None once the stream has ended."""
        if self._ended:
            return None
        if not self.is_event_stream:
            await self._read_body()
            return None
        if self._lines is None:
            self._lines = self.response.aiter_lines()
        async for line in self._lines:
            frame = self._parser.feed(line)
            if frame is not None:
                self.result.events.append(frame)
                self.result.ids.append(self._parser.flushed_id)
                return frame
        self._ended = True
        frame = self._parser.flush()
        if frame is not None:
            self.result.events.append(frame)
            self.result.ids.append(self._parser.flushed_id)
        return frame

    async def frames(self) -> AsyncIterator[Frame]:
        while (frame := await self.next_frame()) is not None:
            yield frame

    async def until(self, kind: str) -> dict[str, Any]:
        """Read up to and including the next `kind` frame and return its data; fails if the stream ends first."""
        async for name, data in self.frames():
            if name == kind:
                return data
        raise AssertionError(f"the stream ended without a {kind} frame: {self.result.names}")

    async def finish(self) -> StreamResult:
        """Read what is left and return everything the stream carried."""
        async for _ in self.frames():
            pass
        return self.result


def _request(json_body: Any, headers: dict | None, content: bytes | None) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"headers": {**(headers or {})}}
    if content is not None:
        kwargs["content"] = content
        kwargs["headers"]["content-type"] = "application/json"
    else:
        kwargs["json"] = json_body
    return kwargs


@asynccontextmanager
async def open_sse(client: httpx.AsyncClient, url: str, *, json_body: Any = None, headers: dict | None = None,
                   content: bytes | None = None, method: str = "POST") -> AsyncIterator[SseStream]:
    """POST `url` (or GET a turn's stream) and hand over the response while it streams; leaving the block closes
    the connection."""
    kwargs = _request(json_body, headers, content) if method == "POST" else {"headers": headers or {}}
    async with client.stream(method, url, **kwargs) as response:
        yield SseStream(response)


async def read_sse(client: httpx.AsyncClient, url: str, *, headers: dict | None = None) -> StreamResult:
    """GET a stream (a turn's, after a reconnect) and read it to its end."""
    async with open_sse(client, url, headers=headers, method="GET") as stream:
        return await stream.finish()


async def sse(client: httpx.AsyncClient, url: str, *, json_body: Any = None, headers: dict | None = None,
              content: bytes | None = None) -> StreamResult:
    """POST `url` and read the whole answer frame by frame."""
    async with open_sse(client, url, json_body=json_body, headers=headers, content=content) as stream:
        return await stream.finish()
