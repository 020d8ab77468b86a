"""Sentry for tests: the real SDK with a transport that keeps envelopes in memory instead of sending them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sentry_sdk
from sentry_sdk.transport import Transport

from agent.observability import SentrySink


class MemoryTransport(Transport):
    """Keeps envelopes in memory instead of sending them."""

    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list = []

    def capture_envelope(self, envelope) -> None:
        self.envelopes.append(envelope)

    def events(self) -> list[dict]:
        return [item.get_event() for env in self.envelopes for item in env.items if item.get_event() is not None]

    def wire(self) -> str:
        return b"".join(env.serialize() for env in self.envelopes).decode("utf-8", "replace")


@contextmanager
def sentry_sink(**options: Any) -> Iterator[tuple[SentrySink, MemoryTransport]]:
    """A SentrySink whose events land in memory; the SDK's global client is reset afterwards."""
    transport = MemoryTransport()
    sink = SentrySink("https://publickey@sentry.example.test/42", environment="test", transport=transport, **options)
    try:
        yield sink, transport
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.get_global_scope().set_client(None)
        sentry_sdk.get_isolation_scope().clear()
