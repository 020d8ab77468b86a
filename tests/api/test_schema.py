"""/schema documents what the service answers: typed bodies, the shared error body, SSE frames, bearer auth.

A new endpoint passes when it returns a response struct (api/responses.py, `shape()` for a service's
dict), lists its error statuses with `error_responses(...)`, and its controller sets `security = BEARER`.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.trainer.members import link_member

PUBLIC = {"/health", "/health/live", "/.well-known/jwks.json"}
TRAINER_SSE_TYPES = {"session_started", "knowledge", "status", "tool_started", "tool_completed", "message",
                     "question", "confirmation_pending", "done", "error"}
SSE_TYPES = {"conversation_started", "text_delta", "tool_started", "tool_completed", "confirmation_pending",
             "disambiguation_pending", "message_done", "done", "error"}
RUN_FRAME_TYPES = {"state", "envelope", "physician", "conflict", "error", "done"}


@pytest.fixture
async def schema(client) -> dict:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    return response.json()


def _operations(schema: dict):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield path, method, operation


def _resolve(schema: dict, node: dict) -> dict:
    ref = node.get("$ref")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else node


def _is_typed(schema: dict, node: dict) -> bool:
    node = _resolve(schema, node)
    if "oneOf" in node or "anyOf" in node:
        return all(_is_typed(schema, n) for n in node.get("oneOf", node.get("anyOf")))
    return bool(node.get("properties")) and node.get("type") == "object"


def test_error_body_is_code_message_trace_id(schema) -> None:
    body = schema["components"]["schemas"]["ErrorBody"]
    assert set(body["required"]) == set(body["properties"]) == {"code", "message", "traceId"}


def test_every_operation_documents_a_typed_success_body(schema) -> None:
    for path, method, operation in _operations(schema):
        success = [r for status, r in operation["responses"].items() if status.startswith("2")]
        assert success, f"{method} {path}: no success response"
        for response in success:
            assert response.get("content"), f"{method} {path}: success has no body"
            for media_type, content in response["content"].items():
                assert _is_typed(schema, content["schema"]), f"{method} {path} {media_type}: untyped body (return a struct from api/responses.py)"


def test_every_documented_error_status_carries_the_shared_error_body(schema) -> None:
    for path, method, operation in _operations(schema):
        if path in PUBLIC:
            continue
        errors = {s: r for s, r in operation["responses"].items() if s.startswith("4")}
        assert errors, f"{method} {path}: documents no error"
        for status, response in errors.items():
            assert response["content"] == {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}, \
                f"{method} {path} {status}: document it with api.responses.error_responses()"


def test_no_litestar_default_error_shape_is_documented(schema) -> None:
    text = json.dumps(schema)
    assert '"status_code"' not in text and "Validation Exception" not in text


@pytest.mark.parametrize(("method", "path", "statuses"), [
    ("get", "/me", {"401"}),
    ("get", "/organizations/{org_id}/me", {"401", "404"}),
    ("get", "/organizations/{org_id}/agent/usage", {"401", "404"}),
    ("get", "/organizations/{org_id}/agent/conversations", {"401", "404"}),
    ("get", "/organizations/{org_id}/agent/conversations/{conversation_id}", {"401", "404"}),
    ("post", "/organizations/{org_id}/agent/messages", {"400", "401", "403", "404", "409", "413", "415", "429"}),
    ("post", "/organizations/{org_id}/agent/conversations/{conversation_id}/confirm/{tool_use_id}",
     {"400", "401", "403", "404", "409", "413", "415", "422"}),
    ("post", "/organizations/{org_id}/agent/conversations/{conversation_id}/pick/{tool_use_id}",
     {"400", "401", "403", "404", "409", "413", "415", "422"}),
    ("post", "/organizations/{org_id}/agent/conversations/{conversation_id}/undo/{tool_use_id}",
     {"401", "403", "404", "409", "422"}),
])
def test_error_statuses_are_documented_where_they_happen(schema, method, path, statuses) -> None:
    documented = set(schema["paths"][path][method]["responses"])
    assert statuses <= documented, statuses - documented
    if not path.endswith("/messages"):
        assert "429" not in documented  # only send opens a turn, so only send is rate limited


def test_streams_are_documented_as_event_streams_of_every_frame_type(schema) -> None:
    """Each event is documented as an SSE parser reads it: `event` names the frame type, `data` is JSON text whose
    `contentSchema` is that frame (its `type` the same name), `id` only on the run's replayable log."""
    streaming = [(p, m, o) for p, m, o in _operations(schema)
                 if "text/event-stream" in (o["responses"].get("200", {}).get("content") or {})]
    run_events = "/organizations/{org_id}/nutrition/runs/{run_id}/events"  # the pipeline's own frames
    assert {p.rsplit("/", 2)[-2] if "{tool_use_id}" in p else p.rsplit("/", 1)[-1] for p, _, _ in streaming
            if p != run_events} == {"messages", "confirm", "pick"}
    for path, method, operation in streaming:
        content = operation["responses"]["200"]["content"]
        assert list(content) == ["text/event-stream"], f"{method} {path}"
        events = content["text/event-stream"]["schema"]["oneOf"]
        expected = (RUN_FRAME_TYPES if path == run_events
                    else TRAINER_SSE_TYPES if "/trainer/" in path else SSE_TYPES)
        assert {e["properties"]["event"]["const"] for e in events} == expected, f"{method} {path}"
        for event in events:
            assert set(event["required"]) == ({"event", "data", "id"} if path == run_events else {"event", "data"})
            assert event["additionalProperties"] is False
            data = event["properties"]["data"]
            assert (data["type"], data["contentMediaType"]) == ("string", "application/json")
            frame = _resolve(schema, data["contentSchema"])
            assert frame["properties"]["type"]["const"] == event["properties"]["event"]["const"]
            assert "type" in frame["required"]


def test_bearer_scheme_guards_every_authenticated_operation(schema) -> None:
    assert schema["components"]["securitySchemes"]["bearer"] == {
        "type": "http", "scheme": "bearer", "bearerFormat": "JWT",
        "description": schema["components"]["securitySchemes"]["bearer"].get("description")}
    for path, method, operation in _operations(schema):
        if path in PUBLIC:
            assert not operation.get("security"), f"{method} {path}"
        else:
            assert operation.get("security") == [{"bearer": []}], f"{method} {path}"


async def test_options_allows_exactly_the_documented_methods_of_every_path(client, factory, db, schema) -> None:
    """`Allow` on OPTIONS lists the methods /schema documents for the path (plus OPTIONS), also where a path's
    handlers were registered one after another (Litestar 2 kept only the first one's)."""
    org = await factory.org()
    member = await factory.user(org, "member")
    await link_member(db, org.id, member.id)  # passes the trainer's guard too
    answered = 0
    for path, item in schema["paths"].items():
        documented = {method.upper() for method in item if method in {"get", "post", "put", "patch", "delete"}}
        url = path.replace("{org_id}", str(org.id))
        url = re.sub(r"\{[a-z_]+_id\}", "00000000-0000-4000-8000-000000000000", url.replace("{tool_use_id}", "toolu_x"))
        response = await client.options(url, headers=member.headers)
        assert response.status_code in {204, 401, 403, 404}, (path, response.status_code)
        if response.status_code == 204:
            answered += 1
            assert set(response.headers["allow"].split(", ")) == documented | {"OPTIONS"}, path
    assert answered >= 20
