"""A frame a client may act on (a finished tool, a pending card) is sent only once what it reports is committed:
read from another connection while the turn is paused on that frame, the rows are there. (A console that
deleted the task a card had just reported created found no task: the frame had left inside the transaction.)"""

from __future__ import annotations

import uuid

import redis.asyncio as aioredis
from sqlalchemy import text

from agent import events
from agent.composition import build_agent
from agent.resume import Answer
from agent.round_trip import RoundTrip
from agent.threads import Opening
from tests.factories import owner_of_new_org
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tools.runner import ToolOutcome


def test_actionable_frames_wait_for_the_commit_and_keep_their_order() -> None:
    trip = RoundTrip(None)  # type: ignore[arg-type]  # frames only: no transaction
    done = ToolOutcome(ok=True, output={}, error=None, duration_ms=1)
    sent = [events.message_done("m", "tool_use"), events.tool_started("a", "tasks", "create", {}),
            events.tool_completed("a", "tasks", "create", done, inverse_available=True),
            events.tool_started("b", "tasks", "create", {}),
            events.confirmation_pending("c", "tasks", "delete", {}, "destructive")]
    now = [event.type for frame in sent for event in trip.emit(frame)]
    assert now == ["message_done", "tool_started"]
    assert [event.type for event in trip.committed()] == ["tool_completed", "tool_started",
                                                          "confirmation_pending"]
    assert trip.committed() == []


async def _count(db, sql: str, **params) -> int:
    async with db.owner() as session:
        return int(await session.scalar(text(sql), params) or 0)


async def test_a_tool_completed_or_pending_frame_reports_committed_rows(app_settings, db, factory,
                                                                      fake_model) -> None:
    fake_model.queue(Reply(Text("Adding both."), ToolUse("tasks__create", {"title": "Clean the rower"}, id="t1"),
                           ToolUse("tasks__create", {"title": "Oil the bikes"}, id="t2")),
                     Reply(ToolUse("tasks__delete", {"id": "00000000-0000-0000-0000-000000000000"}, id="del")),
                     Reply(Text("unused")))
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    caller, access = await owner_of_new_org(db, factory)
    org = access.org_id
    names: list[str] = []
    seen_at: dict[str, tuple[int, int]] = {}
    try:
        turn = await services.orchestrator.open_send(access=access, caller=caller, locale="en",
                                                     trace_id=uuid.uuid4().hex, opening=Opening("add two tasks"),
                                                     thread_id=None)
        async for event in turn.events():  # the turn is paused here while the rows are read elsewhere
            names.append(event.type)
            if event.type in ("tool_completed", "confirmation_pending"):
                seen_at[event.data["toolUseId"]] = (
                    await _count(db, "SELECT count(*) FROM tasks WHERE org_id = :o", o=org),
                    await _count(db, "SELECT count(*) FROM ai_tool_executions WHERE org_id = :o "
                                     "AND tool_use_id = :t", o=org, t=event.data["toolUseId"]))
    finally:
        await services.close()
        await redis.aclose()
    assert names == ["conversation_started", "text_delta", "message_done", "tool_started", "tool_completed",
                     "tool_started", "tool_completed", "message_done", "confirmation_pending", "done"], names
    # Each frame saw its round trip's rows: both tasks and the execution row it names; the card its pending row.
    assert seen_at == {"t1": (2, 1), "t2": (2, 1), "del": (2, 1)}


async def test_an_approved_tool_completed_frame_reports_the_committed_delete(app_settings, db, factory,
                                                                             fake_model) -> None:
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    caller, access = await owner_of_new_org(db, factory)
    org = access.org_id
    try:
        fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Clean the rower"}, id="mk")), Reply(Text("Made.")))
        turn = await services.orchestrator.open_send(access=access, caller=caller, locale="en",
                                                     trace_id=uuid.uuid4().hex, opening=Opening("add a task"),
                                                     thread_id=None)
        conversation_id = turn.turn.conversation_id
        [_ async for _ in turn.events()]
        task_id = str(await _count_id(db, org))
        fake_model.queue(Reply(ToolUse("tasks__delete", {"id": task_id}, id="del")), Reply(Text("Deleted.")))
        turn = await services.orchestrator.open_send(access=access, caller=caller, locale="en",
                                                     trace_id=uuid.uuid4().hex, opening=Opening("delete it"),
                                                     thread_id=conversation_id)
        assert "confirmation_pending" in [e.type async for e in turn.events()]
        confirm = await services.resumer.open_confirm(
            Answer(access, caller, "en", uuid.uuid4().hex, "confirm", conversation_id, "del"), approved=True,
            edited_input=None)
        seen: list[tuple[int, str]] = []
        async for event in confirm.events():
            if event.type == "tool_completed":
                assert event.data["ok"] is True, event.data
                seen.append((await _count(db, "SELECT count(*) FROM tasks WHERE org_id = :o "
                                              "AND deleted_at IS NULL", o=org),
                             str(await _status(db, org, "del"))))
    finally:
        await services.close()
        await redis.aclose()
    assert seen == [(0, "succeeded")]


async def _count_id(db, org) -> uuid.UUID:
    async with db.owner() as session:
        return (await session.scalar(text("SELECT id FROM tasks WHERE org_id = :o"), {"o": org}))


async def _status(db, org, tool_use_id: str) -> str:
    async with db.owner() as session:
        return await session.scalar(text("SELECT status FROM ai_tool_executions WHERE org_id = :o "
                                         "AND tool_use_id = :t"), {"o": org, "t": tool_use_id})
