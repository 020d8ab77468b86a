"""Bad input to the MCP server gets its error and loses nothing: malformed or oversized bodies, arguments of the
wrong shape, NUL characters, ids from another gym."""

from __future__ import annotations

from sqlalchemy import text

from tests.mcp.conftest import body, connect, raw_session


async def _executions(db, gym) -> int:
    async with db.owner() as session:
        return int(await session.scalar(text("SELECT count(*) FROM ai_tool_executions WHERE org_id = :o"),
                                        {"o": gym.org.id}))


async def test_malformed_oversized_and_misshapen_requests_are_refused_and_store_nothing(client, gym, db) -> None:
    headers = await raw_session(client, gym)
    malformed = await client.post(gym.mcp, headers=headers, content=b'{"jsonrpc": "2.0", "id": 2, "method": ')
    assert malformed.status_code == 400 and '"code":-32700' in malformed.text  # JSON-RPC parse error
    oversized = await client.post(gym.mcp, headers=headers, json={
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "tasks__create", "arguments": {"title": "x" * 300_000}}})
    assert oversized.status_code == 413
    misshapen = await client.post(gym.mcp, headers=headers, json={
        "jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "tasks__create", "arguments": "title"}})
    assert '"code":-32602' in misshapen.text  # invalid params, before any tool
    assert await _executions(db, gym) == 0


async def test_nul_characters_and_another_gyms_ids_are_tool_errors_that_change_nothing(server, factory, gym,
                                                                                      db) -> None:
    other = await factory.org()
    async with db.owner() as session:
        theirs = await session.scalar(text("INSERT INTO tasks (org_id, title) VALUES (:o, 'Theirs') RETURNING id::text"),
                                      {"o": other.id})
    async with connect(server.url, gym) as mcp:
        nul = await mcp.call_tool("tasks__create", {"title": "Clean\x00 the rower"})
        foreign = await mcp.call_tool("tasks__complete", {"id": theirs})
    assert nul.is_error and body(nul)["error"]["code"] == "validation_failed"
    assert foreign.is_error and body(foreign)["error"]["code"] == "task_not_found"
    async with db.owner() as session:
        status = await session.scalar(text("SELECT status FROM tasks WHERE id = :t"), {"t": theirs})
        stored = await session.scalar(text("SELECT input->>'title' FROM ai_tool_executions WHERE org_id = :o AND "
                                           "action = 'create'"), {"o": gym.org.id})
        tasks = await session.scalar(text("SELECT count(*) FROM tasks WHERE org_id = :o"), {"o": gym.org.id})
    assert status == "open" and tasks == 0 and "\x00" not in stored
