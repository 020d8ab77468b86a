"""User text never reaches a log line or a Sentry event, even when a database error quotes it.

A trigger refuses the user's message with an error that quotes it (as Postgres does for bad input), so
both SQLAlchemy's `[parameters: ...]` and the driver's own message carry the marker; the turn crashes
`internal` through the real app, and the marker must appear nowhere in what left the process.
"""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from sqlalchemy import text

from agent.observability import SentrySink
from api.app import create_app
from core.logging import configure_logging, safe_traceback
from tests.fakes.sentry_transport import MemoryTransport, sentry_sink
from tests.servers import ThreadedServer
from tests.sse import sse

MARKER = "qz7-privacy-marker-41d9"


@pytest.fixture
async def refusing_messages(db) -> AsyncIterator[None]:
    """Inserting a message that carries the marker fails, and the error message quotes the row."""
    async with db.owner() as session:
        await session.execute(text(
            "CREATE FUNCTION test_refuse_marked_message() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF NEW.content::text LIKE '%{MARKER}%' THEN RAISE EXCEPTION 'refused row %', NEW.content::text; "
            "END IF; RETURN NEW; END $$"))
        await session.execute(text("CREATE TRIGGER test_refuse_marked_message BEFORE INSERT ON conversation_messages "
                                   "FOR EACH ROW EXECUTE FUNCTION test_refuse_marked_message()"))
    try:
        yield
    finally:
        async with db.owner() as session:
            await session.execute(text("DROP TRIGGER test_refuse_marked_message ON conversation_messages"))
            await session.execute(text("DROP FUNCTION test_refuse_marked_message()"))


@pytest.fixture
def logs(app_settings) -> Iterator[io.StringIO]:
    """Every structlog line and stdlib record of the app, as the service would print them."""
    stream = io.StringIO()
    configure_logging(app_settings.log_level, stream=stream)
    yield stream
    configure_logging(app_settings.log_level)


@pytest.fixture
def sentry() -> Iterator[tuple[SentrySink, MemoryTransport]]:
    with sentry_sink() as pair:
        yield pair


async def test_a_database_error_in_a_turn_logs_and_reports_no_user_text(
        app_settings, factory, refusing_messages, sentry) -> None:
    sink, transport = sentry
    app = create_app(app_settings)
    stream = io.StringIO()
    configure_logging("debug", stream=stream)  # after create_app, which configures logging for itself
    server = ThreadedServer(app).start()
    try:
        app.state.resources.agent.orchestrator.observability.sinks.append(sink)
        org = await factory.org(tier="pro")
        owner = await factory.user(org, "owner", name="Maya Owner")
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            result = await sse(client, f"/organizations/{org.id}/agent/messages",
                               json_body={"message": f"please remember {MARKER} for later"},
                               headers=owner.headers)
    finally:
        server.stop()
        configure_logging(app_settings.log_level)
    sink.close()

    assert result.status == 200 and result.names[-1] == "done"
    assert result.one("error")["code"] == "internal"
    lines = stream.getvalue()
    assert "agent.turn.crashed" in lines  # the crash was logged, with its traceback ...
    assert "sqlstate P0001" in lines and "Traceback (most recent call last)" in lines
    assert MARKER not in lines  # ... and without the message that caused it
    assert "refused row" not in lines
    events = transport.events()
    assert any(e.get("exception") for e in events)  # Sentry got the crash ...
    assert MARKER not in transport.wire()  # ... and nothing of the user's text


def test_safe_traceback_keeps_types_and_frames_and_drops_every_message_in_the_chain() -> None:
    def fail() -> None:
        try:
            raise KeyError(f"lookup {MARKER}")
        except KeyError as inner:
            raise RuntimeError(f"wrapped {MARKER}") from inner

    with pytest.raises(RuntimeError) as caught:
        fail()
    rendered = safe_traceback(caught.value)
    assert MARKER not in rendered
    assert "KeyError: [redacted]" in rendered and "RuntimeError: [redacted]" in rendered
    assert rendered.index("KeyError") < rendered.index("RuntimeError")  # causes first, as Python prints
    assert "in fail" in rendered


def test_stdlib_log_records_get_the_same_treatment() -> None:
    stream = io.StringIO()
    configure_logging("info", stream=stream)
    try:
        try:
            raise ValueError(f"bad value {MARKER}")
        except ValueError:
            logging.getLogger("sqlalchemy.pool.impl.AsyncAdaptedQueuePool").exception("Exception during reset")
    finally:
        configure_logging("info")
    assert "ValueError: [redacted]" in stream.getvalue() and MARKER not in stream.getvalue()
