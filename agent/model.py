"""The model client: a small protocol the orchestrator depends on, and its Anthropic implementation.

`stream(request)` yields `TextDelta`s as text arrives, `Billed` whenever the provider reports what the
call costs so far (the input is known from `message_start`), and finally one `ModelResponse` with the
whole assistant content (Anthropic content blocks), the stop reason and the usage by billing bucket.
A stream that ends without `message_stop` is not an answer: it raises `provider_unavailable`.

The request body is JSON we encode ourselves (`RequestEncoder`): a persona's tool definitions are the same
list on every call, so their ~80 KB of JSON are encoded once per process, where the SDK's `messages.stream`
would copy and encode the whole request on every call (a third of the server's CPU under load). The answer
is read as plain JSON events (agent/model_stream.py) rather than through the SDK's typed `MessageStream`.
The SDK still sends the request, retries it, decodes the stream and raises its own error classes.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol, cast

from agent.costs import Usage
from agent.errors import AgentError
from agent.model_stream import MessageAccumulator, plain_block, usage_from_json


@dataclass(frozen=True)
class ModelRequest:
    model: str
    system: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    messages: list[dict[str, Any]]
    max_tokens: int = 4096
    metadata: dict[str, Any] = field(default_factory=dict)
    tool_choice: dict[str, Any] | None = None  # None: the API's default ("auto")


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class Billed:
    """What the provider bills for the call so far; a call that never finishes still costs this."""

    usage: Usage


@dataclass(frozen=True)
class ModelResponse:
    content: list[dict[str, Any]]
    stop_reason: str | None
    usage: Usage
    model: str


class ModelClient(Protocol):
    name: str
    # It reads the turn's facts on the request (ModelRequest.metadata["facts"], agent/model_facts.py): the offline
    # model does. A hosted model reads the prompt, so the engine builds no facts for it, and a history spends no
    # query on them.
    reads_facts: bool

    def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | Billed | ModelResponse]: ...

    async def complete(self, request: ModelRequest) -> ModelResponse: ...


def _json_default(value: Any) -> str:
    if isinstance(value, date):  # datetimes too; what the SDK's own encoder does with them
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


# The SDK's own encoder settings: UTF-8 text as it is, no spaces, no NaN.
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_json_default).encode


class RequestEncoder:
    """A Messages API request as JSON bytes. Tool definitions are encoded once per list object and reused
    while that very list is passed again (held here, so its id cannot be reused by another list); the lists
    are built once per persona and role and never mutated. Everything else is encoded per call."""

    def __init__(self, keep: int = 64) -> None:
        self._tools: OrderedDict[int, tuple[list[dict[str, Any]], bytes]] = OrderedDict()
        self._keep = keep

    def tools(self, tools: list[dict[str, Any]]) -> bytes:
        hit = self._tools.get(id(tools))
        if hit is not None and hit[0] is tools:
            self._tools.move_to_end(id(tools))
            return hit[1]
        encoded = _dumps(tools).encode()
        self._tools[id(tools)] = (tools, encoded)
        if len(self._tools) > self._keep:
            self._tools.popitem(last=False)
        return encoded

    def body(self, request: ModelRequest, *, stream: bool) -> bytes:
        parts = [b'{"model":', _dumps(request.model).encode(), b',"max_tokens":', str(int(request.max_tokens)).encode()]
        if request.system:
            parts += [b',"system":', _dumps(request.system).encode()]
        if request.tools:
            parts += [b',"tools":', self.tools(request.tools)]
        if request.tool_choice is not None:
            parts += [b',"tool_choice":', _dumps(request.tool_choice).encode()]
        parts += [b',"messages":', _dumps(request.messages).encode()]
        if stream:
            parts.append(b',"stream":true')
        parts.append(b"}")
        return b"".join(parts)


class AnthropicModel:
    """Messages API over the official SDK (`AsyncAnthropic`): the body encoded by `RequestEncoder`, the answer
    accumulated by `MessageAccumulator`."""

    name = "anthropic"
    reads_facts = False

    def __init__(self, *, api_key: str, base_url: str | None = None, max_retries: int = 2,
                 timeout: float = 120.0) -> None:
        import anthropic  # here, not at the top: agent/errors.py says why

        self.client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, max_retries=max_retries,
                                               timeout=timeout)
        self.encoder = RequestEncoder()
        self._stream_class = anthropic.AsyncStream[object]

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | Billed | ModelResponse]:
        message = MessageAccumulator()
        events = await self.client.post("/v1/messages", cast_to=object, content=self.encoder.body(request, stream=True),
                                        stream=True, stream_cls=self._stream_class)
        async with events:
            async for raw in events:  # plain dicts; unknown event types change nothing
                event = cast(dict[str, Any], raw)
                text = message.add(event)
                if text:
                    yield TextDelta(text)
                elif event.get("type") in ("message_start", "message_delta"):
                    yield Billed(message.usage)
        if message.message is None or not message.stopped:  # closed cleanly, but short of the end
            raise AgentError("provider_unavailable", status=502, detail="model stream ended before message_stop")
        yield ModelResponse(content=message.blocks(), stop_reason=message.message.get("stop_reason"),
                            usage=message.usage, model=message.message.get("model") or request.model)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        message: Any = await self.client.post("/v1/messages", cast_to=object,
                                              content=self.encoder.body(request, stream=False))
        return ModelResponse(content=[plain_block(b) for b in message.get("content") or []],
                             stop_reason=message.get("stop_reason"), usage=usage_from_json(message.get("usage")),
                             model=message.get("model") or request.model)

    async def close(self) -> None:
        await self.client.close()


class DisabledModel:
    """Provider `anthropic` without a key: every turn answers agent_disabled."""

    name = "disabled"
    reads_facts = False

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | Billed | ModelResponse]:
        raise AgentError("agent_disabled", status=503)
        yield  # pragma: no cover  (makes this an async generator)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        raise AgentError("agent_disabled", status=503)
