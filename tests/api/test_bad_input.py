"""Bad input is refused before any stream opens, with a 4xx and a stable code, never a 500 (issue 12)."""

from __future__ import annotations

import uuid

import pytest

from tests.fakes.anthropic_server import Reply, Text
from tests.sse import sse
from tests.trainer.members import link_member

NUL = "\x00"


def _nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


async def _conversations(client, gym) -> list:
    response = await client.get(f"{gym.base}/conversations", headers=gym.owner.headers)
    return response.json()["items"]


def _refused(result, status: int, code: str) -> None:
    assert result.status == status, (result.status, result.body, result.names)
    assert result.events == []
    assert result.body is not None and result.body["code"] == code
    assert result.body["traceId"] and result.body["traceId"] == result.headers["x-trace-id"]


@pytest.mark.parametrize("body", [
    {"message": f"hello{NUL}world"},
    {"message": "hello", "pageContext": {f"route{NUL}": "/members"}},
    {"message": "hello", "pageContext": {"route": f"/members{NUL}"}},
    {"message": "hello", "pageContext": {"selection": [{"ids": ["a", f"b{NUL}"]}]}},
])
async def test_nul_in_send_is_refused_before_the_stream(client, gym, clean_model, body) -> None:
    """A NUL byte anywhere in message or pageContext: 400 validation_failed, no conversation left behind."""
    result = await sse(client, f"{gym.base}/messages", json_body=body, headers=gym.owner.headers)
    _refused(result, 400, "validation_failed")
    assert clean_model.requests == []
    assert await _conversations(client, gym) == []


@pytest.mark.parametrize("edited", [
    {"title": f"x{NUL}"},
    {f"ti{NUL}tle": "x"},
    {"items": [{"notes": ["ok", f"bad{NUL}"]}]},
])
async def test_nul_in_confirm_input_is_refused(client, gym, edited) -> None:
    url = gym.resume_url("confirm", str(uuid.uuid4()), "toolu_x")
    result = await sse(client, url, json_body={"approved": True, "input": edited}, headers=gym.owner.headers)
    _refused(result, 400, "validation_failed")


async def test_nul_in_pick_id_is_refused(client, gym) -> None:
    url = gym.resume_url("pick", str(uuid.uuid4()), "toolu_x")
    result = await sse(client, url, json_body={"id": f"m{NUL}"}, headers=gym.owner.headers)
    _refused(result, 400, "validation_failed")


@pytest.mark.parametrize("raw", [b'{"message": "caf\xff"}', b'{"message": "\xc0\xaf"}', b'\xff\xfe{}'])
async def test_invalid_utf8_body_is_a_400(client, gym, clean_model, raw) -> None:
    result = await sse(client, f"{gym.base}/messages", content=raw, headers=gym.owner.headers)
    _refused(result, 400, "validation_failed")
    assert clean_model.requests == []


async def test_deeply_nested_send_body_is_a_400(client, gym, clean_model) -> None:
    raw = ('{"message": "hi", "pageContext": ' + _nested(1200) + "}").encode()
    result = await sse(client, f"{gym.base}/messages", content=raw, headers=gym.owner.headers)
    _refused(result, 400, "validation_failed")
    assert clean_model.requests == []


@pytest.mark.parametrize("depth", [33, 1000, 1200])
async def test_deeply_nested_confirm_input_is_a_400(client, gym, depth) -> None:
    raw = ('{"approved": true, "input": ' + _nested(depth) + "}").encode()
    url = gym.resume_url("confirm", str(uuid.uuid4()), "toolu_x")
    result = await sse(client, url, content=raw, headers=gym.owner.headers)
    _refused(result, 400, "validation_failed")


async def test_input_nested_32_levels_passes_validation(client, gym) -> None:
    """The depth bound sits at 32: one level less reaches the handler (here: an unknown conversation)."""
    raw = ('{"approved": true, "input": ' + _nested(32) + "}").encode()
    url = gym.resume_url("confirm", str(uuid.uuid4()), "toolu_x")
    result = await sse(client, url, content=raw, headers=gym.owner.headers)
    _refused(result, 404, "conversation_not_found")


@pytest.mark.parametrize("kind", ["confirm", "pick", "undo"])
async def test_nul_tool_use_id_is_a_404(client, gym, clean_model, kind) -> None:
    """`%00` as the toolUseId of a real conversation: 404 tool_execution_not_found, not a database error."""
    clean_model.queue(Reply(Text("Hi there.")))
    started = await sse(client, f"{gym.base}/messages", json_body={"message": "hi"}, headers=gym.owner.headers)
    conversation_id = started.one("conversation_started")["conversationId"]
    body = {"confirm": {"approved": True}, "pick": {"id": "m1"}, "undo": None}[kind]
    result = await sse(client, gym.resume_url(kind, conversation_id, "%00"), json_body=body,
                       headers=gym.owner.headers)
    _refused(result, 404, "tool_execution_not_found")


@pytest.mark.parametrize(("content_type", "raw"), [
    ("text/plain", b'{"message": "hi"}'),
    ("application/x-www-form-urlencoded", b"message=hi"),
    ("application/xml", b"<message>hi</message>"),
    ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="message"\r\n\r\nhi\r\n--x--\r\n'),
])
async def test_non_json_body_is_a_415(client, gym, clean_model, content_type, raw) -> None:
    headers = {**gym.owner.headers, "content-type": content_type}
    response = await client.post(f"{gym.base}/messages", content=raw, headers=headers)
    assert response.status_code == 415
    body = response.json()
    assert body["code"] == "unsupported_media_type" and body["message"]
    assert body["traceId"] == response.headers["x-trace-id"]
    assert clean_model.requests == []


async def test_json_with_charset_is_still_accepted(client, gym, clean_model) -> None:
    clean_model.queue(Reply(Text("Hi.")))
    headers = {**gym.owner.headers, "content-type": "application/json; charset=utf-8"}
    response = await client.post(f"{gym.base}/messages", content=b'{"message": "hi"}', headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")


async def test_wrong_method_is_a_405_with_allow_and_trace_id(client, gym) -> None:
    response = await client.put(f"{gym.base}/messages", headers=gym.owner.headers)
    assert response.status_code == 405
    assert "POST" in response.headers["allow"]
    body = response.json()
    assert body["code"] == "method_not_allowed"
    assert len(body["traceId"]) == 32 and body["traceId"] == response.headers["x-trace-id"]


async def test_unknown_route_carries_a_trace_id(client) -> None:
    response = await client.get("/nope")
    assert response.status_code == 404
    assert len(response.json()["traceId"]) == 32


@pytest.mark.parametrize("tool_use_id", ["%ff", "%c0%af", "%ed%a0%80", "a%0Ab", "%7F"])
async def test_undecodable_or_control_tool_use_id_is_a_404(client, gym, clean_model, tool_use_id) -> None:
    clean_model.queue(Reply(Text("Hi there.")))
    started = await sse(client, f"{gym.base}/messages", json_body={"message": "hi"}, headers=gym.owner.headers)
    conversation_id = started.one("conversation_started")["conversationId"]
    response = await client.post(gym.resume_url("undo", conversation_id, tool_use_id), headers=gym.owner.headers)
    assert response.status_code == 404
    assert response.json()["code"] == "tool_execution_not_found"


@pytest.mark.parametrize("org", ["%ff", "%00", "%ed%a0%80"])
async def test_undecodable_org_id_is_org_not_found(client, gym, org) -> None:
    response = await client.get(f"/organizations/{org}/agent/usage", headers=gym.owner.headers)
    assert response.status_code == 404
    assert response.json()["code"] == "org_not_found"


@pytest.mark.parametrize("body", [
    {"message": "hi", "currentWorkoutId": f"w{NUL}1"},  # was a 500: Postgres refused it halfway through the turn
    {"message": "hi", f"unknown{NUL}": 1},  # an ignored field is still JSON the body carries
    {"message": "hi", "extra": {"deep": [f"x{NUL}"]}},
])
async def test_a_nul_anywhere_in_any_json_body_is_a_400_before_the_handler(client, factory, db, clean_model,
                                                                          body) -> None:
    """The one JSON gate (api/requests.py) covers every endpoint, here the trainer's chat, as /schema says."""
    org = await factory.org()
    member = await factory.user(org, "member")
    await link_member(db, org.id, member.id)
    response = await client.post(f"/organizations/{org.id}/trainer/chat", json=body, headers=member.headers)
    assert (response.status_code, response.json()["code"]) == (400, "validation_failed")
    assert "NUL" in response.json()["detail"]  # the developer's terms apart; a person reads a sentence
    assert response.json()["message"] == "The request is not valid."
    assert clean_model.requests == []


@pytest.mark.parametrize(("locale", "sentence"), [("he", "הבקשה אינה תקינה."), ("ru", "Некорректный запрос.")])
async def test_a_refused_body_reads_as_a_sentence_in_the_callers_language(client, factory, locale, sentence) -> None:
    """People see words: the message is the locale's sentence alone; what was wrong, in pydantic's English, is
    the `detail` beside it (it was pasted into the message: 'הבקשה אינה תקינה: message String should have ...')."""
    org = await factory.org()
    owner = await factory.user(org, "owner")
    response = await client.post(f"/organizations/{org.id}/agent/messages", json={"message": ""},
                                 headers={**owner.headers, "x-locale": locale})
    body = response.json()
    assert (response.status_code, body["code"], body["message"]) == (400, "validation_failed", sentence)
    assert "message" in body["detail"]
