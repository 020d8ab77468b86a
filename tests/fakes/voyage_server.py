"""A fake Voyage AI embeddings API on a free 127.0.0.1 port, so tests drive the real `voyageai` SDK over HTTP.

It speaks `POST /v1/embeddings` as the SDK sends it (JSON body with `input`, `model`, `input_type`,
`output_dimension`, `encoding_format: "base64"`; `Authorization: Bearer ...`) and answers
`{"object": "list", "data": [{"object": "embedding", "embedding": ..., "index": i}], "model", "usage"}`,
with errors as `{"detail": "..."}` like the real API. Vectors are deterministic per (model, text, dims)
and deliberately *not* unit length (the real API's are), so a client's normalisation is observable.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import random
import struct
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

from tests.servers import ThreadedServer

EMBEDDINGS_PATH = "/v1/embeddings"
DEFAULT_DIMS = 1024
MAX_INPUTS = 1000


@dataclass(frozen=True)
class VoyageRequest:
    """One request the fake received, and the status it answered."""

    texts: list[str]
    input_type: str | None
    model: str | None
    output_dimension: int | None
    encoding_format: str | None
    authorization: str | None
    status: int


def fake_vector(text: str, *, model: str, dims: int = DEFAULT_DIMS) -> list[float]:
    """The vector the fake returns for `text`: seeded by (model, text), float32-exact, norm about 2*sqrt(dims)."""
    seed = int.from_bytes(hashlib.blake2b(f"{model}\0{text}".encode(), digest_size=8).digest(), "little")
    rng = random.Random(seed)
    values = [rng.gauss(0.0, 2.0) for _ in range(dims)]
    return list(struct.unpack(f"<{dims}f", struct.pack(f"<{dims}f", *values)))


class _Reject(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class FakeVoyage:
    """The fake: an ASGI app served by a ThreadedServer. Use as a context manager, or start()/stop().

    `url` is the base URL to hand the SDK (it appends `/embeddings`); `requests` lists what arrived;
    `fail_next(429)` makes the next request(s) fail; `hold()` keeps every answer back until `release()`
    (a provider slower than any timeout, with no clock in the test), and `answered` counts answers sent.
    """

    def __init__(self) -> None:
        self._held: threading.Event | None = None
        self.answered = 0
        self._lock = threading.Lock()
        self._requests: list[VoyageRequest] = []
        self._failures: deque[int] = deque()
        self._server: ThreadedServer | None = None

    # ---- control ----
    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeVoyage is not started")
        return f"{self._server.url}/v1"

    @property
    def requests(self) -> list[VoyageRequest]:
        with self._lock:
            return list(self._requests)

    def fail_next(self, status: int, times: int = 1) -> None:
        """Answer the next `times` embeddings requests with `status` and a Voyage-style error body."""
        with self._lock:
            self._failures.extend([status] * times)

    def hold(self) -> None:
        """Keep answers back until `release()` (at most a minute, so a forgotten hold cannot hang a run)."""
        self._held = threading.Event()

    def release(self) -> None:
        if self._held is not None:
            self._held.set()

    def start(self) -> FakeVoyage:
        self._server = ThreadedServer(self).start()
        return self

    def stop(self) -> None:
        """Stop serving; a held answer is released and waited for."""
        self.release()
        if self._server is not None:
            self._server.stop()

    def __enter__(self) -> FakeVoyage:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # ---- ASGI ----
    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (message := await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if scope["method"] != "POST" or scope["path"] != EMBEDDINGS_PATH:
            await _send_json(send, 404, {"detail": "Not Found"})
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        status, payload, request = self._answer(body, headers.get("authorization"))
        with self._lock:
            self._requests.append(request)
        held = self._held
        if held is not None:
            await asyncio.to_thread(held.wait, 60)
        extra = [(b"retry-after", b"1")] if status == 429 else []
        await _send_json(send, status, payload, extra)
        with self._lock:
            self.answered += 1

    def _answer(self, body: bytes, authorization: str | None) -> tuple[int, dict[str, Any], VoyageRequest]:
        try:
            params = json.loads(body)
            if not isinstance(params, dict):
                raise ValueError("body must be a JSON object")
        except ValueError:
            params = {}
        raw_input = params.get("input")
        texts = [raw_input] if isinstance(raw_input, str) else raw_input
        dims = params.get("output_dimension") or DEFAULT_DIMS

        def record(status: int) -> VoyageRequest:
            return VoyageRequest(
                texts=list(texts) if isinstance(texts, list) else [],
                input_type=params.get("input_type"),
                model=params.get("model"),
                output_dimension=params.get("output_dimension"),
                encoding_format=params.get("encoding_format"),
                authorization=authorization,
                status=status,
            )

        try:
            if not authorization or not authorization.startswith("Bearer ") or authorization == "Bearer ":
                raise _Reject(401, "Provided API key is invalid.")
            with self._lock:
                failure = self._failures.popleft() if self._failures else None
            if failure is not None:
                raise _Reject(failure, f"Fake failure with status {failure}.")
            if not params:
                raise _Reject(400, "Request body must be a JSON object.")
            if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
                raise _Reject(400, "`input` must be a non-empty string or list of strings.")
            if len(texts) > MAX_INPUTS:
                raise _Reject(400, f"`input` may hold at most {MAX_INPUTS} texts.")
            if not isinstance(params.get("model"), str):
                raise _Reject(400, "`model` is required.")
            if params.get("input_type") not in (None, "query", "document"):
                raise _Reject(400, "`input_type` must be null, 'query' or 'document'.")
            if params.get("output_dtype") not in (None, "float"):
                raise _Reject(400, "This fake only serves float embeddings.")
            if not isinstance(dims, int) or dims <= 0:
                raise _Reject(400, "`output_dimension` must be a positive integer.")
        except _Reject as reject:
            return reject.status, {"detail": reject.detail}, record(reject.status)

        model = params["model"]
        base64_format = params.get("encoding_format") == "base64"
        data = []
        for index, text in enumerate(texts):
            vector = fake_vector(text, model=model, dims=dims)
            embedding: Any = (
                base64.b64encode(struct.pack(f"<{dims}f", *vector)).decode() if base64_format else vector
            )
            data.append({"object": "embedding", "embedding": embedding, "index": index})
        tokens = sum(len(text.split()) + 1 for text in texts)
        payload = {"object": "list", "data": data, "model": model, "usage": {"total_tokens": tokens}}
        return 200, payload, record(200)


async def _send_json(
    send: Any, status: int, payload: dict[str, Any], extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + (extra or [])})
    await send({"type": "http.response.body", "body": body})
