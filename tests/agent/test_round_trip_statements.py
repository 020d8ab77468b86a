"""What a conversation costs the database, counted with SQLAlchemy engine events (never timed; bench/statements.py
counts the same way for `python -m bench.turn`): a count that grows fails here first. The 3-round-trip
conversation below (tool, tool, answer; a metered org) is the one bench/turn.py drives."""

from __future__ import annotations

import uuid

import redis.asyncio as aioredis
from sqlalchemy import text

from agent.composition import build_agent
from agent.resume import Answer
from agent.threads import Opening
from bench.statements import StatementCounter
from tests.factories import owner_of_new_org
from tests.fakes.anthropic_server import Reply, Text, ToolUse


async def test_a_three_round_trip_conversation_sends_few_statements(app_settings, db, factory, fake_model) -> None:
    fake_model.queue(Reply(Text("Checking."), ToolUse("tasks__list", {})), Reply(ToolUse("tasks__list", {})),
                     Reply(Text("Nothing urgent today.")))
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    caller, access = await owner_of_new_org(db, factory)
    names: list[str] = []
    try:
        with StatementCounter(db.app_engine.sync_engine) as sent:
            turn = await services.orchestrator.open_send(access=access, caller=caller, locale="en",
                                                         trace_id=uuid.uuid4().hex, opening=Opening("what is on my list?"),
                                                         thread_id=None)
            async for item in turn.events():
                names.append(item.type)
    finally:
        await services.close()
        await redis.aclose()
    assert names.count("message_done") == 3 and names[-1] == "done" and "error" not in names
    # Per round trip: the reservation's spend read (its own transaction), then one transaction with the tool
    # in a savepoint and the usage upsert carrying the assistant message, the execution rows and the tool
    # results (on the last round trip, the assistant message alone).
    # Before them, send's transaction: the budget's spend read, then the conversation with its first message.
    assert len(sent.statements) == 14, sent.statements  # 22 when each message and execution row had its own
    assert sent.like("WITH along_0 AS (INSERT INTO conversation_messages") == 4  # the first + every assistant's

    assert sum(s.count("INSERT INTO ai_tool_executions") for s in sent.statements) == 2  # one execution row each
    assert sent.like("INSERT INTO ai_usage_daily") == 0  # every upsert carried a message
    assert sent.uncacheable == []  # e.g. a multi-row VALUES: ~1.3 ms of compiling per round trip
    assert sent.begins == sent.commits == 7  # send's own, then per round trip: reservation + round trip
    async with db.owner() as session:
        rows = (await session.execute(text(
            "SELECT seq, role, content->0->>'type' AS first FROM conversation_messages m JOIN conversations c "
            "ON c.id = m.conversation_id WHERE c.org_id = :o ORDER BY seq"), {"o": access.org_id})).all()
        usage = (await session.execute(text("SELECT turns FROM ai_usage_daily WHERE org_id = :o"),
                                       {"o": access.org_id})).scalars().all()
        ran = (await session.execute(text(
            "SELECT m.seq, e.position, e.status, e.router, e.action, e.output IS NOT NULL AS has_output, "
            "e.resolved_at IS NOT NULL AS resolved FROM ai_tool_executions e "
            "JOIN conversation_messages m ON m.id = e.message_id WHERE e.org_id = :o ORDER BY m.seq"),
            {"o": access.org_id})).all()
    assert [(r.seq, r.role, r.first) for r in rows] == [
        (1, "user", "text"), (2, "assistant", "text"), (3, "user", "tool_result"), (4, "assistant", "tool_use"),
        (5, "user", "tool_result"), (6, "assistant", "text")]
    assert usage == [1]
    assert [tuple(r) for r in ran] == [(2, 0, "succeeded", "tasks", "list", True, True),
                                       (4, 0, "succeeded", "tasks", "list", True, True)]


async def _drive(stream) -> list[str]:
    return [item.type async for item in stream.events()]


async def test_a_follow_up_and_a_confirmation_send_few_statements(app_settings, db, factory, fake_model) -> None:
    """A follow-up's pending rows settled in one statement, its message written with the history read back in
    another. A confirmation: the conversation with its tool use, then the claim (with the stale rows' expiry),
    in one transaction; then the tool in a savepoint (the soft delete one UPDATE, its audit row riding with the
    execution's outcome), the message's executions, and the merged results written with the history read back
    (a metered org: it also reads the day's spend, as does the reservation before the model call)."""
    redis = aioredis.from_url(app_settings.redis_url, decode_responses=True)
    services = build_agent(app_settings, db, redis, titles=False, rag_worker=False)
    caller, access = await owner_of_new_org(db, factory)
    async with db.owner() as session:
        task = await session.scalar(text("INSERT INTO tasks (org_id, title) VALUES (:o, 'Fix the rower') RETURNING id"),
                                    {"o": access.org_id})
    fake_model.queue(Reply(Text("Hello.")), Reply(ToolUse("tasks__delete", {"id": str(task)}, id="toolu_del")),
                     Reply(Text("Deleted.")))
    common = {"access": access, "caller": caller, "locale": "en"}
    try:
        first = await services.orchestrator.open_send(**common, trace_id=uuid.uuid4().hex, opening=Opening("hi"),
                                                      thread_id=None)
        await _drive(first)
        conversation_id = first.turn.conversation_id
        with StatementCounter(db.app_engine.sync_engine) as follow_up:
            names = await _drive(await services.orchestrator.open_send(
                **common, trace_id=uuid.uuid4().hex, opening=Opening("delete the rower task"), thread_id=conversation_id))
        assert "confirmation_pending" in names
        with StatementCounter(db.app_engine.sync_engine) as confirm:
            names = await _drive(await services.resumer.open_confirm(
                Answer(common["access"], common["caller"], common["locale"], uuid.uuid4().hex, "confirm",
                       conversation_id, "toolu_del"), approved=True, edited_input=None))
        assert names.count("tool_completed") == 1 and names[-1] == "done" and "error" not in names
    finally:
        await services.close()
        await redis.aclose()
    assert follow_up.like("WITH expired AS (UPDATE ai_tool_executions") == 1  # expiry rides with the supersede
    assert follow_up.like("WITH along_0 AS (INSERT INTO conversation_messages") == 2  # follow-up (+history), round trip
    assert follow_up.like("SELECT conversation_messages") == 0  # the history came back with the message
    # + the conversation, two spend reads (metered org), and the confirmation card's summary in its savepoint
    assert len(follow_up.statements) == 9, follow_up.statements
    assert confirm.statements[0].startswith("SELECT conversations.id") and "LEFT OUTER JOIN ai_tool_executions" in \
        confirm.statements[0]
    assert confirm.statements[1].startswith("WITH expired AS (UPDATE ai_tool_executions")
    assert confirm.like("WITH along_0 AS (INSERT INTO conversation_messages") == 2  # results (+history), answer
    assert confirm.like("SELECT conversation_messages") == 0
    assert confirm.like("UPDATE tasks SET deleted_at") == 1 and confirm.like("SELECT tasks") == 0  # one UPDATE
    assert confirm.like("WITH along_0 AS (INSERT INTO audit_logs") == 1  # the audit row rides with the outcome
    assert len(confirm.statements) == 11, confirm.statements
    # the answer (claim, budget check, resolution), then the model call's reservation and its round trip
    assert confirm.begins == confirm.commits == 3
    assert confirm.like("SELECT ai_tool_executions") == 1  # the message's executions, read once
    async with db.owner() as session:
        deleted = await session.scalar(text("SELECT deleted_at IS NOT NULL FROM tasks WHERE id = :t"), {"t": task})
        roles = (await session.execute(text(
            "SELECT role, content->0->>'type' FROM conversation_messages WHERE conversation_id = :c ORDER BY seq"),
            {"c": conversation_id})).all()
    assert deleted
    assert [tuple(r) for r in roles] == [("user", "text"), ("assistant", "text"), ("user", "text"),
                                         ("assistant", "tool_use"), ("user", "tool_result"), ("assistant", "text")]
