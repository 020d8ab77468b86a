"""/schema documents what the service answers: typed bodies, the shared error body, SSE frames, bearer auth.

A new endpoint passes when it returns a response struct (api/responses.py, `shape()` for a service's
dict), lists its error statuses with `error_responses(...)`, and its controller sets `security = BEARER`.
"""

from __future__ import annotations

import json
import re

import pytest

from api.sse import TURN_FRAME_ID
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
    `contentSchema` is that frame (its `type` the same name), and its `id`: a turn's `<turnId>:<seq>` (a turn's
    stream is replayable after it, issue 40), the run log's sequence number."""
    streaming = [(p, m, o) for p, m, o in _operations(schema)
                 if "text/event-stream" in (o["responses"].get("200", {}).get("content") or {})]
    run_events = "/organizations/{org_id}/nutrition/runs/{run_id}/events"  # the pipeline's own frames
    assert {p.rsplit("/", 2)[-2] if "{tool_use_id}" in p else p.rsplit("/", 1)[-1] for p, _, _ in streaming
            if p != run_events} == {"messages", "confirm", "pick", "stream"}
    for path, method, operation in streaming:
        content = operation["responses"]["200"]["content"]
        assert list(content) == ["text/event-stream"], f"{method} {path}"
        events = content["text/event-stream"]["schema"]["oneOf"]
        expected = (RUN_FRAME_TYPES if path == run_events
                    else TRAINER_SSE_TYPES if "/trainer/" in path else SSE_TYPES)
        assert {e["properties"]["event"]["const"] for e in events} == expected, f"{method} {path}"
        for event in events:
            assert set(event["required"]) == {"event", "data", "id"}
            pattern = event["properties"]["id"]["pattern"]
            assert pattern == (r"^[1-9][0-9]*$" if path == run_events else TURN_FRAME_ID), f"{method} {path}"
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


def _walk(node, path: str = ""):
    """Every (path, node) of a schema document."""
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{path}/{index}")


def test_every_reference_resolves(schema) -> None:
    names = set(schema["components"]["schemas"])
    refs = {node["$ref"] for _, node in _walk(schema) if isinstance(node, dict) and "$ref" in node}
    assert refs and {ref for ref in refs if ref.rsplit("/", 1)[-1] not in names} == set()


def _request_bodies(schema) -> dict[str, dict]:
    bodies = {}
    for path, method, operation in _operations(schema):
        if "requestBody" in operation:
            bodies[f"{method} {path}"] = operation["requestBody"]["content"]["application/json"]["schema"]
    return bodies


def test_request_bodies_say_which_unknown_fields_they_refuse(schema) -> None:
    """A body that forbids unknown fields says additionalProperties: false; one that ignores them documents them as
    storable JSON under names without NUL (the JSON gate refuses a NUL anywhere)."""
    forbidding = {"StartBody", "QuestionBody", "ClearanceBody", "SettingsBody", "IntakeData", "MedicalHistory",
                  "WeeklyCheckin", "TrainingLog", "LoggedExercise", "BestSet", "SubjectiveMarkers",
                  "SetBody", "AddExerciseBody", "SwapExerciseBody", "FinishBody", "UnderstoodBody", "NoteBody", "PlatesBody",
                  "FoodEntryBody", "QuickEntryBody", "WeightBody", "TdeeChoiceBody"}
    ignoring = {"SendBody", "ConfirmBody", "PickBody", "RenameBody", "TrainerSendBody"}
    components = schema["components"]["schemas"]
    for name in forbidding:
        assert components[name]["additionalProperties"] is False, name
    for name in ignoring:
        assert components[name]["additionalProperties"] == {"$ref": "#/components/schemas/StorableJson"}, name
        assert components[name]["propertyNames"] == {"pattern": "^[^\\u0000]*$"}, name
    documented = {ref.rsplit("/", 1)[-1] for body in _request_bodies(schema).values() for _, node in _walk(body)
                  if isinstance(node, dict) for ref in [node.get("$ref", "")] if ref}
    assert documented <= forbidding | ignoring, documented - forbidding - ignoring


def test_every_string_a_body_carries_refuses_nul(schema) -> None:
    """Free text carries a pattern no NUL gets past (NO_NUL, NOT_BLANK, a stricter one); enums, consts and formats
    cannot hold a NUL anyway; a free-form object's values are StorableJson."""
    components = schema["components"]["schemas"]
    names = {"StorableJson"} | {ref.rsplit("/", 1)[-1] for body in _request_bodies(schema).values()
                                for _, node in _walk(body) if isinstance(node, dict) for ref in [node.get("$ref", "")]
                                if ref}
    seen = set()
    while names - seen:  # the body components and every component they refer to
        name = (names - seen).pop()
        seen.add(name)
        names |= {node["$ref"].rsplit("/", 1)[-1] for _, node in _walk(components[name])
                  if isinstance(node, dict) and "$ref" in node}
    strings = 0
    for name in seen:
        for where, node in _walk(components[name]):
            if "/if/" in where or "/then/" in where or not isinstance(node, dict):
                continue  # a condition's schema describes a value that is already constrained elsewhere
            types = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
            if "string" in types:
                strings += 1
                assert node.keys() & {"enum", "const", "format"} or "pattern" in node and not any(
                    re.search(node["pattern"], text) for text in ("\x00", "a\x00", "a\x00b")), f"{name}{where}: {node}"
            if "object" in types and "properties" not in node:
                assert node.get("additionalProperties") == {"$ref": "#/components/schemas/StorableJson"}, where
    assert strings > 20


def test_free_form_bodies_the_pipeline_validates_are_documented_as_its_payloads(schema) -> None:
    checkin = schema["paths"]["/organizations/{org_id}/nutrition/runs/{run_id}/checkins"]["post"]["requestBody"]
    assert checkin["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/WeeklyCheckin"}
    intake = schema["components"]["schemas"]["StartBody"]["properties"]["intake"]
    assert intake["title"] == "IntakeData" and intake["additionalProperties"] is False
    assert intake["then"]["required"] == ["menstrual_status"]  # required for women, as its validator says
