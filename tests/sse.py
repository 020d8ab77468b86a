"""Read an SSE response frame by frame over real HTTP (httpx streaming against uvicorn)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class StreamResult:
    status: int
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    body: dict[str, Any] | None = None  # JSON error body when the stream never opened
    headers: dict[str, str] = field(default_factory=dict)

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


def parse_frames(raw: str) -> list[tuple[str, dict[str, Any]]]:
    frames = []
    for chunk in raw.replace("\r\n", "\n").split("\n\n"):
        if not chunk.strip():
            continue
        name, data = "message", []
        for line in chunk.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
        frames.append((name, json.loads("\n".join(data))))
    return frames


async def sse(client: httpx.AsyncClient, url: str, *, json_body: Any = None, headers: dict | None = None,
              content: bytes | None = None) -> StreamResult:
    kwargs: dict[str, Any] = {"headers": {**(headers or {})}}
    if content is not None:
        kwargs["content"] = content
        kwargs["headers"]["content-type"] = "application/json"
    else:
        kwargs["json"] = json_body
    async with client.stream("POST", url, **kwargs) as response:
        raw = (await response.aread()).decode()
        result = StreamResult(response.status_code, headers=dict(response.headers))
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            result.events = parse_frames(raw)
        else:
            result.body = json.loads(raw) if raw else None
        return result
