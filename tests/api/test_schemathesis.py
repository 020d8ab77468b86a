"""A peer's test suite: schemathesis fuzzes every documented operation of the live app (issue 12).

Bounded budget (fixed seed, a few examples per operation and mode), authenticated as an org owner, with
the org and a real conversation fixed in the path half of the time so the fuzz reaches past the guards.
It must find no 5xx, no response the schema does not document, and no stream that ends in `internal`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
import requests
import schemathesis
import schemathesis.specs.openapi.schemas  # imported eagerly: see EXAMPLES below
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.sse import SseFrame
from tests.fakes.anthropic_server import Reply, Text
from tests.sse import parse_frames, sse

# schemathesis imports parts of itself lazily; the fuzz runs in a worker thread, and CPython 3.11.7 can fail
# to compile a module there after deep recursion elsewhere in the session ("AST constructor recursion depth
# mismatch"). Importing them here, in the main thread at collection, avoids that.
EXAMPLES = 10
SEED = 20261123
CHECKS = [status_code_conformance, content_type_conformance, response_schema_conformance]


def _problems_of(case: Any, response: schemathesis.Response, headers: dict[str, str]) -> list[str]:
    label = f"{case.method} {case.formatted_path}"
    text = response.content.decode("utf-8", "replace")
    if response.status_code >= 500:
        return [f"{label}: {response.status_code} {text[:200]}"]
    if (response.headers.get("content-type") or [""])[0].startswith("text/event-stream"):
        frames = parse_frames(text)
        found = [f"{label}: frame {name} does not match its schema: {exc}"
                 for name, data in frames for exc in _frame_error(data)]
        if not frames or frames[-1][0] != "done":
            found.append(f"{label}: stream does not end with done: {[n for n, _ in frames]}")
        found += [f"{label}: stream error internal" for name, data in frames
                  if name == "error" and data.get("code") == "internal"]
        return found
    try:
        case.validate_response(response, checks=CHECKS, headers=headers)
    except (AssertionError, BaseExceptionGroup) as exc:  # schemathesis' Failure / FailureGroup
        return [f"{label}: {response.status_code} {str(exc)[:400]}"]
    return []


def _frame_error(data: dict) -> list[str]:
    try:
        msgspec.convert(data, SseFrame)  # type: ignore[arg-type]
    except msgspec.ValidationError as exc:
        return [str(exc)]
    return []


def _fuzz(base_url: str, token: str, fixed: dict[str, str]) -> tuple[int, list[str]]:
    schema = schemathesis.openapi.from_url(f"{base_url}/schema/openapi.json")
    headers = {"authorization": f"Bearer {token}"}
    problems: list[str] = []
    calls = 0
    with requests.Session() as session:
        for result in schema.get_all_operations():
            operation = result.ok()
            names = {p.name for p in operation.path_parameters}
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                for path_parameters in ({k: v for k, v in fixed.items() if k in names}, {})[:2 if names else 1]:
                    strategy = operation.as_strategy(generation_mode=mode, path_parameters=path_parameters)

                    @seed(SEED)
                    @settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.generate],
                              suppress_health_check=list(HealthCheck))
                    @given(case=strategy)
                    def run(case: Any) -> None:
                        nonlocal calls
                        calls += 1
                        response = case.call(base_url=base_url, session=session, headers=headers, timeout=30)
                        problems.extend(_problems_of(case, response, headers))

                    try:
                        run()
                    except Unsatisfiable:  # nothing negative to send (no parameters, no body)
                        continue
    return calls, problems


async def test_schemathesis_finds_no_server_error_and_no_undocumented_answer(server, client, factory,
                                                                             clean_model) -> None:
    org = await factory.org(tier="elite")
    owner = await factory.user(org, "owner", name="Fuzz Owner")
    clean_model.respond_with(lambda body: Reply(Text("Noted.")))
    started = await sse(client, f"/organizations/{org.id}/agent/messages", json_body={"message": "hi"},
                        headers=owner.headers)
    fixed = {"org_id": str(org.id), "conversation_id": started.one("conversation_started")["conversationId"],
             "tool_use_id": "toolu_missing"}

    calls, problems = await asyncio.to_thread(_fuzz, server.url, owner.token, fixed)

    assert calls >= 100
    assert problems == [], json.dumps(problems[:20], indent=1)
