"""Threads belong to a persona (ARCHITECTURE.md "Threads belong to a persona"): a coach who is also a member of
the gym has staff conversations and trainer sessions under one user; no staff endpoint lists, reads, posts into,
resolves or undoes a trainer session, and no trainer endpoint does so with a staff conversation. Over HTTP/SSE."""

from __future__ import annotations

import uuid

from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import Trainee, scheduled_legs
from tests.trainer.members import link_member
from tests.trainer.scripted import Trainer


async def _coach_who_trains(db, factory) -> Trainee:
    org = await factory.org()
    coach = await factory.user(org, "coach", name="Noa Coach")
    return Trainee(org, coach, await link_member(db, org.id, coach.id, "Noa Coach"))


async def _scalar(db, sql: str, **params):
    async with db.owner() as session:
        return await session.scalar(text(sql), params)


async def test_staff_endpoints_never_reach_the_coachs_trainer_session(client, db, factory, fake_model) -> None:
    t = await _coach_who_trains(db, factory)
    scheduled = await scheduled_legs(db, t)
    Trainer(fake_model, [Reply(ToolUse("calendar__delete_scheduled_workout", {"id": scheduled}, id="del1")),
                         Reply(ToolUse("coach__idle", {}, id="i1"))])
    trainer = f"/organizations/{t.org.id}/trainer"
    first = await sse(client, f"{trainer}/messages", json_body={"message": "cancel Thursday"}, headers=t.user.headers)
    assert first.one("confirmation_pending")["toolUseId"] == "del1"
    sid = first.one("done")["sessionId"]
    calls = len(fake_model.requests)

    staff = f"/organizations/{t.org.id}/agent"
    listed = await client.get(f"{staff}/conversations", headers=t.user.headers)
    assert listed.status_code == 200 and sid not in [c["id"] for c in listed.json()["items"]]
    for method, url, body in (
            ("GET", f"{staff}/conversations/{sid}", None),
            ("PATCH", f"{staff}/conversations/{sid}", {"title": "mine now"}),
            ("POST", f"{staff}/conversations/{sid}/undo/del1", None),
            ("POST", f"{staff}/conversations/{sid}/alternatives/{uuid.uuid4()}", None),
            ("DELETE", f"{staff}/conversations/{sid}", None)):
        response = await client.request(method, url, json=body, headers=t.user.headers)
        assert (response.status_code, response.json()["code"]) == (404, "conversation_not_found"), (method, url)
    for url, body in ((f"{staff}/messages", {"message": "post into it", "conversationId": sid}),
                      (f"{staff}/conversations/{sid}/confirm/del1", {"approved": True}),
                      (f"{staff}/conversations/{sid}/pick/del1", {"id": "x"})):
        refused = await sse(client, url, json_body=body, headers=t.user.headers)
        assert (refused.status, refused.body["code"]) == (404, "conversation_not_found"), url
    assert len(fake_model.requests) == calls  # no model call on the staff side
    assert await _scalar(db, "SELECT status FROM ai_tool_executions WHERE conversation_id = :c AND "
                             "tool_use_id = 'del1'", c=sid) == "pending"
    assert await _scalar(db, "SELECT count(*) FROM trainer_sessions WHERE id = :c", c=sid) == 1

    answered = await sse(client, f"{trainer}/sessions/{sid}/confirm/del1", json_body={"approved": True},
                         headers=t.user.headers)
    assert answered.status == 200 and answered.names[-1] == "done"
    assert await _scalar(db, "SELECT count(*) FROM scheduled_workouts WHERE id = :i", i=scheduled) == 0


async def test_trainer_endpoints_never_reach_the_coachs_staff_conversation(client, db, factory, fake_model) -> None:
    t = await _coach_who_trains(db, factory)
    staff = f"/organizations/{t.org.id}/agent"
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Clean the rower"}, id="toolu_mk")), Reply(Text("Ok.")))
    made = await sse(client, f"{staff}/messages", json_body={"message": "add task clean the rower"},
                     headers=t.user.headers)
    cid, task_id = made.one("conversation_started")["conversationId"], made.one("tool_completed")["output"]["id"]
    fake_model.queue(Reply(Text("Needs your OK."), ToolUse("tasks__delete", {"id": task_id}, id="toolu_del")))
    asked = await sse(client, f"{staff}/messages", json_body={"message": "delete it", "conversationId": cid},
                      headers=t.user.headers)
    assert asked.one("confirmation_pending")["toolUseId"] == "toolu_del"
    calls = len(fake_model.requests)

    trainer = f"/organizations/{t.org.id}/trainer"
    listed = await client.get(f"{trainer}/sessions", headers=t.user.headers)
    assert listed.status_code == 200 and cid not in [s["id"] for s in listed.json()["items"]]
    for method, url in (("GET", f"{trainer}/sessions/{cid}"), ("DELETE", f"{trainer}/sessions/{cid}"),
                        ("POST", f"{trainer}/sessions/{cid}/undo/toolu_mk")):
        response = await client.request(method, url, headers=t.user.headers)
        assert (response.status_code, response.json()["code"]) == (404, "session_not_found"), (method, url)
    for url, body in ((f"{trainer}/messages", {"message": "post into it", "sessionId": cid}),
                      (f"{trainer}/sessions/{cid}/confirm/toolu_del", {"approved": True})):
        refused = await sse(client, url, json_body=body, headers=t.user.headers)
        assert (refused.status, refused.body["code"]) == (404, "session_not_found"), url
    assert len(fake_model.requests) == calls
    assert await _scalar(db, "SELECT status FROM ai_tool_executions WHERE conversation_id = :c AND "
                             "tool_use_id = 'toolu_del'", c=cid) == "pending"
    assert await _scalar(db, "SELECT undone_by IS NULL FROM ai_tool_executions WHERE conversation_id = :c AND "
                             "tool_use_id = 'toolu_mk'", c=cid)

    fake_model.queue(Reply(Text("Deleted.")))
    answered = await sse(client, f"{staff}/conversations/{cid}/confirm/toolu_del", json_body={"approved": True},
                         headers=t.user.headers)
    assert answered.status == 200 and answered.one("tool_completed")["ok"] is True
    assert await _scalar(db, "SELECT deleted_at IS NOT NULL FROM tasks WHERE id = :i", i=task_id)
