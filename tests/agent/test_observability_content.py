"""Opt-in content capture (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT) keeps members' names and health out
of what leaves the process unless CAPTURE_CONTENT_HEALTH_AND_NAMES also allows them: read off the spans the local
OTLP receiver got over the wire and the LLM-analytics events the local PostHog receiver got."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from sqlalchemy import text

from agent.scrubbing import scrub_captured
from gym.training.preferences import set_preference
from rag.index import reindex_org
from tests.agent.test_tracing import traced_app
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.fakes.capture_server import CaptureServer
from tests.sse import sse
from tests.trainer.members import link_member
from tests.trainer.scripted import Trainer

NAME = "Zelda Quixote"
SECRETS = ("Zelda", "Quixote", "pregnan", "insulin", "82 kg", "torn meniscus", "беремен", "הריון")


@pytest.fixture(scope="module")
def receiver():
    server = CaptureServer().start()
    yield server
    server.stop()


async def _indexed(db, member_id, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        async with db.owner() as session:
            if await session.scalar(text("SELECT count(*) FROM rag_documents WHERE entity_id = :m"), {"m": member_id}):
                return
        await asyncio.sleep(0.2)
    raise AssertionError("the member was never indexed")


def _content_on_the_wire(receiver: CaptureServer) -> str:
    """Every content attribute of every span the receiver got."""
    values = []
    for request in receiver.captured:
        if request.path != "/v1/traces":
            continue
        message = ExportTraceServiceRequest()
        message.ParseFromString(request.raw)
        for rs in message.resource_spans:
            for ss in rs.scope_spans:
                for span in ss.spans:
                    values += [a.value.string_value for a in span.attributes if a.key.startswith("gen_ai.")
                               and a.key.endswith(("messages", "arguments", "result"))]
    return "\n".join(values)


def test_the_scrubber_takes_names_health_and_weights_out_of_free_text_and_json() -> None:
    content = [{"role": "user", "content": [{"type": "text", "text": "how is Zelda doing? she is pregnant, 82 kg"}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content":
                   '{"member": {"name": "<member_text source=\\"member_name\\">Zelda Quixote</member_text>"}, '
                   '"injuries": [{"description": "torn meniscus"}], "count": 3}'}]},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "tasks__create",
                                                  "input": {"title": "Call Quixote about insulin", "notes": "x"}}]}]
    text = str(scrub_captured(content))
    assert not [s for s in SECRETS if s.lower() in text.lower()], text
    assert "tasks__create" in text and "how is [name] doing" in text and "'count': 3" not in text
    assert "Zelda" in str(scrub_captured(content, health_and_names=True))


@pytest.mark.parametrize("allowed", [False, True])
async def test_captured_content_leaves_without_names_or_health_unless_allowed(app_settings, db, factory, fake_model,
                                                                          receiver, allowed) -> None:
    fake_model.reset()
    receiver.reset()
    posthog = CaptureServer().start()
    settings = {"otel_instrumentation_genai_capture_message_content": True,
                "capture_content_health_and_names": allowed, "app_env": "production",
                "posthog_api_key": "phc_spotter_test", "posthog_host": posthog.url, "agent_rate_limit_per_minute": 0}
    try:
        with traced_app(app_settings, receiver, **settings) as (url, memory, _):
            org = await factory.org()
            owner = await factory.user(org, "owner")
            member_id = await link_member(db, org.id, None, NAME)
            async with db.scope(org_id=org.id) as session:
                await set_preference(session, org.id, member_id, type="injury", description="torn meniscus",
                                     guidance="No deep squats.", now=datetime.now(UTC),
                                     expires_at=datetime.now(UTC) + timedelta(days=30))
            # a gym's members are indexed (here at once, not behind the shared database's outbox backlog of earlier
            # tests): ambient context names Zelda in an envelope
            await reindex_org(db, None, org.id)
            await _indexed(db, member_id)
            member_user = await factory.user(org, "member")
            await link_member(db, org.id, member_user.id, "Quixote Junior")
            fake_model.queue(Reply(ToolUse("read__member_training", {"membershipId": str(member_id)}, id="t1")),
                             Reply(Text("Zelda Quixote has a torn meniscus; she said she is pregnant and takes "
                                        "insulin, 82 kg.")))
            async with httpx.AsyncClient(base_url=url, timeout=60) as http:
                staff = await sse(http, f"/organizations/{org.id}/agent/messages", headers=owner.headers,
                                  json_body={"message": "how is Zelda Quixote? is she pregnant?"})
                Trainer(fake_model, [Reply(ToolUse("coach__idle", {}, id="i1"))])
                member = await sse(http, f"/organizations/{org.id}/trainer/messages", headers=member_user.headers,
                                   json_body={"message": "I am pregnant (беременна, בהריון) and weigh 82 kg"})
            assert staff.names[-1] == "done" and member.names[-1] == "done"
            spans = memory.get_finished_spans()
            assert spans
        events = [e for e in posthog.wait_for(3) if e["event"] == "$ai_generation"]
    finally:
        posthog.stop()
        fake_model.reset()
    wire = _content_on_the_wire(receiver)
    analytics = " ".join(str(e["properties"].get("$ai_input", "")) + str(e["properties"].get("$ai_output_choices", ""))
                         for e in events)
    assert "how is" in wire and "$ai_input" in str(events[0]["properties"])  # the content is captured (opted in)
    leaked = [s for s in SECRETS if s.lower() in (wire + analytics).lower()]
    if allowed:
        assert {"Zelda", "pregnan", "82 kg"} <= set(leaked)
    else:
        assert leaked == [], leaked
