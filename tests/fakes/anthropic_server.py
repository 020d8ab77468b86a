"""A fake Anthropic Messages API served over real HTTP, so tests drive the real `anthropic` SDK.

`FakeAnthropic` runs a plain ASGI app under uvicorn on a free loopback port. It answers
`POST /v1/messages` with scripted turns (JSON or SSE), rejects malformed requests the way the
real API does, records every request, and accounts prompt-cache tokens deterministically:

* A block's tokens are ``ceil(len(canonical_json(block)) / 4)``, with its ``cache_control``
  removed; string content and a string system prompt count as one ``{"type": "text", ...}`` block.
* The cacheable prefix is tools, then system blocks, then every message's blocks, in order.
  Breakpoints are the blocks that carry ``cache_control`` (ttl "5m" unless it says "1h").
* The fingerprint of a prefix is a sha256 over the model and each block up to and including it
  (with its place: tool, system, or message index and role). Breakpoints write fingerprints to
  the cache, stamped with ``fake.clock()``; an entry older than its ttl is gone.
* ``cache_read_input_tokens`` is the longest prefix, ending at or before the request's last
  breakpoint, whose fingerprint is cached (the real API's look-back, without its 20-block limit).
  ``cache_creation_input_tokens`` runs from there to the last breakpoint, each segment billed to
  the ttl of the breakpoint that closes it; ``input_tokens`` is everything after the last one.
* ``output_tokens`` is ``Reply.output_tokens`` or ``ceil(len(text + canonical tool inputs) / 4)``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from tests.fakes import tool_search
from tests.fakes.anthropic_rules import PromptCache, canonical_json, count_tokens, validate_request
from tests.fakes.anthropic_script import (
    ApiError,
    DropStream,
    Held,
    RecordedRequest,
    Reply,
    Text,
    ToolUse,
    Turn,
)
from tests.fakes.tool_search import ToolSearch
from tests.servers import ThreadedServer

# Tests import the script types from here, beside the server they configure.
__all__ = ["ApiError", "DropStream", "FakeAnthropic", "Held", "PromptCache", "RecordedRequest", "Reply", "Text",
           "ToolUse", "Turn", "count_tokens"]

_NO_TURN = "FakeAnthropic had no scripted turn for this request: queue() one or set respond_with()"


def _split(text: str, pieces: int) -> list[str]:
    n = max(1, min(pieces, len(text)))
    cuts = [k * len(text) // n for k in range(n + 1)]
    return [text[a:b] for a, b in itertools.pairwise(cuts)]


async def _read_json(receive: Callable) -> Any:
    """The request body parsed as JSON, or None when it is not JSON."""
    raw = bytearray()
    while (chunk := await receive())["type"] == "http.request":
        raw += chunk.get("body", b"")
        if not chunk.get("more_body"):
            break
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


class FakeAnthropic:
    """The fake Messages API server; see the module docstring for its token accounting."""

    def __init__(self, *, keep_requests: bool = True) -> None:
        """`keep_requests=False` records nothing (bench/scripted_model.py: thousands of ~80 KB bodies kept alive
        slowed every later request by the garbage collector walking them)."""
        self._keep_requests = keep_requests
        self._lock = threading.Lock()
        self._recorded = threading.Condition(self._lock)
        self._server: ThreadedServer | None = None
        self._ids = itertools.count(1)
        self._cache = PromptCache()
        self.reset()

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> FakeAnthropic:
        if self._server is not None:
            raise RuntimeError("FakeAnthropic is already started")
        self._server = ThreadedServer(self).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None

    def __enter__(self) -> FakeAnthropic:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeAnthropic is not started; call start() or use it as a context manager")
        return self._server.url

    # -- scripting and inspection ----------------------------------------------------------------

    def queue(self, *turns: Turn) -> None:
        """Append scripted turns; each request consumes the oldest one."""
        for turn in turns:
            if not isinstance(turn, Reply | ApiError | DropStream):
                raise TypeError(f"not a scripted turn: {turn!r}")
        with self._lock:
            self._script.extend(turns)

    def respond_with(self, handler: Callable[[dict[str, Any]], Turn] | None) -> None:
        """Answer requests with `handler(request_body)` whenever the queue is empty."""
        with self._lock:
            self._handler = handler

    def reset(self) -> None:
        """Back to a freshly started fake: no script, handler, requests, cache entries or disconnects."""
        with self._lock:
            self._script: deque[Turn] = deque()
            self._handler: Callable[[dict[str, Any]], Turn] | None = None
            self._requests: list[RecordedRequest] = []
            self._disconnects = 0
            self._cache.clear()
        self.chunk_delay = 0.0
        self.emit_unknown_events = False
        # True: a scripted tool_use of a deferred tool no search loaded is refused, as the real model could
        # not make it. Off by default, so scripts may call any tool directly (as if the search blocks had
        # been elided); tests of tool search turn it on.
        self.require_tool_search = False
        self.clock: Callable[[], float] = time.monotonic

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def disconnects(self) -> int:
        with self._lock:
            return self._disconnects

    def wait_for_requests(self, count: int, timeout: float = 30.0) -> list[RecordedRequest]:
        """Block until `count` requests are recorded (a held answer has been given); raises on `timeout`.
        It blocks its thread: from async code, `await asyncio.to_thread(fake.wait_for_requests, n)`."""
        with self._recorded:
            if not self._recorded.wait_for(lambda: len(self._requests) >= count, timeout):
                raise TimeoutError(f"FakeAnthropic recorded {len(self._requests)} requests, not {count}")
            return list(self._requests)

    def wait_for_disconnects(self, count: int, timeout: float = 30.0) -> None:
        """Block until `count` clients have left a stream early; raises on `timeout`."""
        with self._recorded:
            if not self._recorded.wait_for(lambda: self._disconnects >= count, timeout):
                raise TimeoutError(f"FakeAnthropic saw {self._disconnects} disconnects, not {count}")

    # -- serving ---------------------------------------------------------------------------------

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        """The ASGI entry point: a FakeAnthropic is itself the app uvicorn serves."""
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        request_id = f"req_fake_{next(self._ids)}"
        if scope["method"] != "POST" or scope["path"] != "/v1/messages":
            wrong_path = ApiError(404, f"the fake serves POST /v1/messages only, not {scope['path']}")
            await self._send_error(send, wrong_path, request_id)
            return
        body = await _read_json(receive)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        turn, rejected = self._take_turn(body)
        if isinstance(turn, ApiError):
            self._record(RecordedRequest(body if isinstance(body, dict) else {}, headers, rejected, {}))
            await self._send_error(send, turn, request_id)
            return
        reply = turn if isinstance(turn, Reply) else Reply(*turn.blocks)
        message, sources = self._message(body, reply)
        unreachable = self._unreachable(body, message["content"])
        if unreachable is not None:
            self._record(RecordedRequest(body, headers, unreachable.message, {}))
            await self._send_error(send, unreachable, request_id)
            return
        self._record(RecordedRequest(body, headers, None, message["usage"]))
        drop_after = turn.after_events if isinstance(turn, DropStream) else None
        if body.get("stream") is True:
            events = self._events(message, sources)
            clean = isinstance(turn, DropStream) and turn.clean
            if isinstance(turn, DropStream) and turn.error is not None:
                failure = {"type": "error", "error": {"type": turn.error, "message": f"fake {turn.error}"}}
                events, drop_after, clean = [*events[:turn.after_events], ("error", failure)], None, True
            await self._send_stream(send, receive, events, request_id, drop_after, clean=clean)
        else:
            data = json.dumps(message).encode()
            await self._send_json(send, 200, data, request_id, truncate=drop_after is not None)

    def _record(self, request: RecordedRequest) -> None:
        if not self._keep_requests:
            return
        with self._recorded:
            self._requests.append(request)
            self._recorded.notify_all()

    def _take_turn(self, body: Any) -> tuple[Turn, str | None]:
        """The turn that answers `body`, and why it was refused if the fake refused it."""
        reason = validate_request(body)
        if reason is not None:
            return ApiError(400, reason), reason
        with self._lock:
            if self._script:
                return self._script.popleft(), None
            handler = self._handler
        if handler is None:
            return ApiError(500, _NO_TURN), _NO_TURN
        try:
            turn = handler(body)
        except Exception as exc:  # surfaced to the test as a 500 rather than a hung request
            reason = f"FakeAnthropic respond_with handler raised {exc!r}"
            return ApiError(500, reason), reason
        if not isinstance(turn, Reply | ApiError | DropStream):
            reason = f"FakeAnthropic respond_with handler gave {turn!r}, not a Reply, ApiError or DropStream"
            return ApiError(500, reason), reason
        return turn, None

    def _unreachable(self, body: dict[str, Any], content: list[dict[str, Any]]) -> ApiError | None:
        name = tool_search.unloaded_call(body, content) if self.require_tool_search else None
        if name is None:
            return None
        return ApiError(500, f"FakeAnthropic script calls the deferred tool {name} before any tool search loaded it")

    def _message(self, body: dict[str, Any], reply: Reply) -> tuple[dict[str, Any], list[Any]]:
        """The complete assistant message answering `body`, its input billed against the prompt cache, and the
        scripted block each content block came from (a ToolSearch renders two)."""
        pairs = [(b, rendered) for b in reply.blocks for rendered in self._render(b, body)]
        content = [rendered for _, rendered in pairs]
        generated = "".join(c["text"] if c["type"] == "text" else canonical_json(c["input"]) if "input" in c else ""
                            for c in content)
        with self._lock:
            usage = self._cache.account(body, self.clock())
        usage["output_tokens"] = (reply.output_tokens if reply.output_tokens is not None
                                  else math.ceil(len(generated) / 4))
        return {"id": f"msg_fake_{next(self._ids)}", "type": "message", "role": "assistant",
                "model": body["model"], "content": content, "stop_reason": reply.stop_reason,
                "stop_sequence": None, "usage": usage}, [b for b, _ in pairs]

    def _render(self, block: Text | ToolUse | ToolSearch, body: dict[str, Any]) -> list[dict[str, Any]]:
        if isinstance(block, Text):
            return [{"type": "text", "text": block.text}]
        if isinstance(block, ToolSearch):
            return tool_search.render(block, body, block.id or f"srvtoolu_fake_{next(self._ids)}")
        tool_id = block.id or f"toolu_fake_{next(self._ids)}"
        return [{"type": "tool_use", "id": tool_id, "name": block.name, "input": block.input}]

    def _events(self, message: dict[str, Any], blocks: list[Any]) -> list[tuple[str, dict]]:
        """The SSE events, in the real wire order, that stream `message`."""
        started = {**message, "content": [], "stop_reason": None,
                   "usage": {**message["usage"], "output_tokens": 1}}
        events: list[tuple[str, dict]] = [("message_start", {"type": "message_start", "message": started}),
                                          ("ping", {"type": "ping"})]
        for index, (block, rendered) in enumerate(zip(blocks, message["content"], strict=True)):
            if isinstance(block, Text):
                empty = {"type": "text", "text": ""}
                deltas = [{"type": "text_delta", "text": p} for p in _split(block.text, block.chunks)]
            elif rendered["type"] == "server_tool_use":
                empty = {**rendered, "input": {}}
                pieces = _split(json.dumps(rendered["input"], ensure_ascii=False), 2)
                deltas = [{"type": "input_json_delta", "partial_json": p} for p in pieces]
            elif rendered["type"] == "tool_search_tool_result":
                empty, deltas = rendered, []  # arrives whole in content_block_start, as the real API sends it
            else:
                empty = {**rendered, "input": {}}
                pieces = _split(json.dumps(block.input, ensure_ascii=False), max(2, block.chunks))
                deltas = [{"type": "input_json_delta", "partial_json": p} for p in pieces]
            events.append(("content_block_start",
                           {"type": "content_block_start", "index": index, "content_block": empty}))
            events += [("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
                       for d in deltas]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        if self.emit_unknown_events:
            unknown = {"type": "future_event_type", "detail": "an event type this SDK does not know"}
            events.insert(3, ("future_event_type", unknown))
        delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
        usage = {"output_tokens": message["usage"]["output_tokens"]}
        events.append(("message_delta", {"type": "message_delta", "delta": delta, "usage": usage}))
        events.append(("message_stop", {"type": "message_stop"}))
        return events

    async def _send_stream(self, send: Callable, receive: Callable, events: list[tuple[str, dict]],
                           request_id: str, drop_after: int | None, *, clean: bool = False) -> None:
        """Write `events` as SSE; count a disconnect if the client leaves before message_stop."""
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream; charset=utf-8"),
                                (b"cache-control", b"no-cache"), (b"request-id", request_id.encode())]})
        gone = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        watcher = asyncio.create_task(watch())
        try:
            limit = len(events) if drop_after is None else min(drop_after, len(events) - 1)
            for name, data in events[:limit]:
                if gone.is_set():
                    with self._recorded:
                        self._disconnects += 1
                        self._recorded.notify_all()
                    return
                await send({"type": "http.response.body", "body": _sse(name, data), "more_body": True})
                if self.chunk_delay:
                    await asyncio.sleep(self.chunk_delay)
            if drop_after is None or clean:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            # Returning mid-body makes uvicorn close the connection: the abrupt drop DropStream asks for.
        finally:
            watcher.cancel()

    async def _send_error(self, send: Callable, error: ApiError, request_id: str) -> None:
        message = error.message or f"fake {error.type} ({error.status})"
        payload = {"type": "error", "error": {"type": error.type, "message": message},
                   "request_id": request_id}
        retry_after = 1 if error.retry_after is None and error.status == 429 else error.retry_after
        extra = () if retry_after is None else ((b"retry-after", str(retry_after).encode()),)
        await self._send_json(send, error.status, json.dumps(payload).encode(), request_id, extra=extra)

    @staticmethod
    async def _send_json(send: Callable, status: int, data: bytes, request_id: str, *,
                         extra: tuple[tuple[bytes, bytes], ...] = (), truncate: bool = False) -> None:
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                   (b"request-id", request_id.encode()), *extra]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if truncate:  # half the promised body, then uvicorn closes the connection
            await send({"type": "http.response.body", "body": data[:len(data) // 2], "more_body": True})
            return
        await send({"type": "http.response.body", "body": data, "more_body": False})
