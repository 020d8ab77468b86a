"""SSE framing: `event: <type>\\ndata: <json>\\n\\n` for each agent event."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from litestar.response import Stream

from agent.events import Event

SSE_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no", "connection": "keep-alive"}


def frame(event: Event) -> bytes:
    payload = {"type": event.type, **event.data}
    return f"event: {event.type}\ndata: {json.dumps(payload, ensure_ascii=False, default=str)}\n\n".encode()


def sse_response(events: AsyncIterator[Event], trace_id: str) -> Stream:
    async def body() -> AsyncIterator[bytes]:
        async for event in events:
            yield frame(event)

    return Stream(body(), media_type="text/event-stream", headers={**SSE_HEADERS, "x-trace-id": trace_id})
