"""Print one staff turn's trace as an OTLP receiver got it: the span tree with durations and key attributes.

    .venv/bin/python -m bench.trace_tree

Starts embedded Postgres + Redis in a temporary directory, the fake Anthropic server (a scripted turn: the
model creates a task, then answers), a loopback OTLP/HTTP receiver, and the app exporting to it
(OTEL_EXPORTER_OTLP_ENDPOINT); sends one message and decodes the ExportTraceServiceRequest bodies the receiver
got. Not a benchmark: the README shows its output.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import httpx
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from api.app import create_app
from api.auth import DevKeys
from core import migrations
from core.database import Database
from core.embedded import EmbeddedPostgres, EmbeddedRedis
from core.settings import load_settings
from tests.factories import Factory
from tests.fakes.anthropic_server import FakeAnthropic, Reply, Text, ToolUse
from tests.fakes.capture_server import CaptureServer
from tests.servers import ThreadedServer
from tests.sse import sse

KEYS = ("gen_ai.operation.name", "gen_ai.request.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
        "gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_creation.input_tokens", "gen_ai.tool.name",
        "spotter.cost_usd_micros", "spotter.tool.outcome", "spotter.persona", "spotter.role", "spotter.round_trip")


def _value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [_value(v) for v in any_value.array_value.values]
    return getattr(any_value, kind) if kind else None


def print_tree(spans: list[Any]) -> None:
    children: dict[bytes, list[Any]] = {}
    for span in spans:
        children.setdefault(span.parent_span_id, []).append(span)

    def show(span: Any, depth: int) -> None:
        attrs = {a.key: _value(a.value) for a in span.attributes}
        shown = ", ".join(f"{k}={attrs[k]}" for k in KEYS if k in attrs)
        millis = (span.end_time_unix_nano - span.start_time_unix_nano) / 1e6
        print(f"{'  ' * depth}{span.name}  {millis:.1f} ms  [{shown}]")
        for child in sorted(children.get(span.span_id, []), key=lambda s: s.start_time_unix_nano):
            show(child, depth + 1)

    for root in children.get(b"", []):
        print(f"trace {root.trace_id.hex()}")
        show(root, 1)


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        pg, redis = EmbeddedPostgres(data), EmbeddedRedis(data / "redis")
        fake, receiver = FakeAnthropic().start(), CaptureServer().start()
        try:
            migrations.upgrade(pg.url())
            settings = load_settings(app_env="test", data_dir=data, database_url=pg.url(), redis_url=redis.url,
                                     auth_mode="dev", anthropic_api_key="sk-fake", anthropic_base_url=fake.url,
                                     anthropic_max_retries=0, nutrition_agents="offline",
                                     otel_exporter_otlp_endpoint=receiver.url, otel_bsp_schedule_delay=50)
            server = ThreadedServer(create_app(settings)).start()
            db = Database(pg.url())
            try:
                factory = Factory(db, DevKeys(data))
                org = await factory.org()
                owner = await factory.user(org, "owner", name="Maya Owner")
                fake.queue(Reply(Text("Adding it."), ToolUse("tasks__create", {"title": "Call the plumber"})),
                           Reply(Text("Done: the task is on your list.")))
                async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                    await sse(http, f"/organizations/{org.id}/agent/messages",
                              json_body={"message": "remind me to call the plumber tomorrow"}, headers=owner.headers)
            finally:
                server.stop()  # flushes the batch processor
                await db.dispose()
            await asyncio.sleep(0.2)
            spans = []
            for request in receiver.captured:
                message = ExportTraceServiceRequest()
                message.ParseFromString(request.raw)
                spans += [s for rs in message.resource_spans for ss in rs.scope_spans for s in ss.spans]
            print_tree(spans)
        finally:
            receiver.stop()
            fake.stop()
            redis.stop()
            pg.stop()


if __name__ == "__main__":
    asyncio.run(main())
