"""Sentry hears about crashes, not refusals, with the options production uses (agent/observability.py).

With the SDK's auto-enabled integrations, Litestar's reported every refused request (a ServiceError: 404
not_found, 409, 422) as an unhandled error, and SQLAlchemy's, Redis's, httpx's and every installed AI SDK's
joined in unasked. Now a refusal reports nothing, and a crash in a plain endpoint reports once, tagged with the
trace id its 500 answer carries, without the request's or the exception's text.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
import sentry_sdk

import api.controllers.agent as agent_controller
from api.app import create_app
from tests.fakes.sentry_transport import MemoryTransport, sentry_sink
from tests.servers import ThreadedServer

MARKER = "Saar's private note 7f3c"


@pytest.fixture
def reporting(app_settings) -> Iterator[tuple[ThreadedServer, MemoryTransport]]:
    """The app with a SentrySink (production's options, an in-memory transport) among its sinks."""
    with sentry_sink() as (sink, transport):
        server = ThreadedServer(create_app(app_settings)).start()
        server.app.state.resources.agent.observability.sinks.append(sink)
        try:
            yield server, transport
        finally:
            server.stop()


def test_the_sink_runs_only_the_sdks_default_integrations() -> None:
    with sentry_sink():
        enabled = set(sentry_sdk.get_client().integrations)
    assert "logging" in enabled and "excepthook" in enabled
    assert not enabled & {"litestar", "sqlalchemy", "asyncpg", "redis", "httpx", "anthropic", "pydantic_ai",
                          "langchain"}, enabled


async def test_refusals_report_nothing_and_a_crash_reports_once_without_text(reporting, factory,
                                                                             monkeypatch) -> None:
    server, transport = reporting
    org = await factory.org()
    owner = await factory.user(org, "owner")

    async def crash(*args, **kwargs):
        raise RuntimeError(MARKER)

    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        missing = await http.get(f"/organizations/{org.id}/agent/conversations/{uuid.uuid4()}",
                                 headers=owner.headers)
        invalid = await http.post(f"/organizations/{org.id}/agent/messages", json={"message": 5},
                                  headers=owner.headers)
        foreign = await http.get(f"/organizations/{uuid.uuid4()}/agent/conversations", headers=owner.headers)
        assert (missing.status_code, invalid.status_code, foreign.status_code) == (404, 400, 404)
        sentry_sdk.flush()
        assert transport.events() == []

        monkeypatch.setattr(agent_controller, "list_conversations", crash)
        crashed = await http.get(f"/organizations/{org.id}/agent/conversations?q={MARKER}", headers=owner.headers)
    assert crashed.status_code == 500 and crashed.json()["code"] == "internal"
    sentry_sdk.flush()
    events = transport.events()
    assert len(events) == 1
    assert events[0]["exception"]["values"][-1]["type"] == "RuntimeError"
    assert events[0]["tags"] == {"agent.trace_id": crashed.json()["traceId"], "agent.code": "internal",
                                 "agent.endpoint": "GET /organizations/{org_id}/agent/conversations"}
    assert MARKER not in transport.wire() and "Saar" not in transport.wire()
