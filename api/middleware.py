"""Per-request trace id and structured request logging (ASGI middleware)."""

from __future__ import annotations

import time
import uuid

import structlog
from litestar.types import ASGIApp, Message, Receive, Scope, Send

log = structlog.get_logger("api.request")


def trace_middleware(app: ASGIApp) -> ASGIApp:
    """Give every HTTP request a trace id (scope state + `x-trace-id` header) and log its outcome."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        trace_id = uuid.uuid4().hex
        scope.setdefault("state", {})["trace_id"] = trace_id
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(trace_id=trace_id, request_id=trace_id[:12])
        started = time.perf_counter()
        status = 0

        async def send_with_trace(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"x-trace-id" for name, _ in headers):
                    headers.append((b"x-trace-id", trace_id.encode()))
                message["headers"] = headers
            await send(message)

        try:
            await app(scope, receive, send_with_trace)
        finally:
            log.info("request", method=scope.get("method"), path=scope.get("path"), status=status,
                     duration_ms=round((time.perf_counter() - started) * 1000, 1))

    return middleware
