"""A local HTTP capture server for PostHog: the real `posthog` client posts here over real HTTP.

Every request is recorded as it arrived (method, path, headers, raw bytes) and decoded (gzip/deflate,
then JSON when it parses). It answers 200 `{"status": 1}` to any POST, like PostHog's ingestion does.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
import zlib
from dataclasses import dataclass
from typing import Any

from tests.servers import ThreadedServer


@dataclass(frozen=True)
class Captured:
    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    text: str  # the body after content decoding
    body: Any  # parsed JSON, or None

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events of a PostHog batch (`/batch/`), or the single event of `/capture/`-style posts."""
        if isinstance(self.body, dict) and isinstance(self.body.get("batch"), list):
            return self.body["batch"]
        return [self.body] if isinstance(self.body, dict) and "event" in self.body else []


def _decode(raw: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(raw)
    if encoding == "deflate":
        return zlib.decompress(raw)
    return raw


class CaptureServer:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._captured: list[Captured] = []
        self._server: ThreadedServer | None = None

    def start(self) -> CaptureServer:
        self._server = ThreadedServer(self).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None

    @property
    def url(self) -> str:
        assert self._server is not None, "CaptureServer is not started"
        return self._server.url

    @property
    def captured(self) -> list[Captured]:
        with self._lock:
            return list(self._captured)

    @property
    def events(self) -> list[dict[str, Any]]:
        return [event for request in self.captured for event in request.events]

    def reset(self) -> None:
        with self._lock:
            self._captured.clear()

    def wait_for(self, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Events once at least `count` arrived (the client uploads from a background thread)."""
        deadline = time.monotonic() + timeout
        while len(self.events) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.events

    async def __call__(self, scope: dict[str, Any], receive, send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        raw = bytearray()
        while (chunk := await receive())["type"] == "http.request":
            raw += chunk.get("body", b"")
            if not chunk.get("more_body"):
                break
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        decoded = _decode(bytes(raw), headers.get("content-encoding", "")).decode("utf-8", "replace")
        try:
            body = json.loads(decoded) if decoded else None
        except ValueError:
            body = None
        with self._lock:
            self._captured.append(Captured(scope["method"], scope["path"], headers, bytes(raw), decoded, body))
        data = b'{"status": 1}'
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})
