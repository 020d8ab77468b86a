"""CONVENTIONS.md's data-access rule 1, checked: a controller, a tool leaf, a confirmation card or a pipeline job calls
the domain function of the module that owns the model (gym/, gym/training/, gym/nutrition/, core/) and writes no
query of its own.

Read from the source (ast), a module of api/controllers/, tools/ or pipeline/ breaks the rule when it builds a
statement (it imports anything of SQLAlchemy but the `AsyncSession` type and its exceptions: `select`, `update`,
`func`, `text`, `insert` from a dialect, or `import sqlalchemy as sa`) or runs one: `execute`, `scalar`, `scalars`
or asyncpg's `fetch*` on any receiver, and `get`, `add`, `delete`, `merge`, `refresh`, `stream` on a session.
Setting a field of a row a domain function returned (the outbox's `message.status = "sent"`) is not a query here:
the caller's transaction flushes it.

What may stay is listed with why: the tools/ modules that declare a table of their own (each is the domain module of
its model, as gym/tasks.py is for tasks), and the pipeline's own machinery on no domain model. A listed exception
that no longer holds fails too, so the lists stay true.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("api/controllers", "tools", "pipeline")

TYPES_ONLY = ("sqlalchemy.ext.asyncio", "sqlalchemy.exc")  # a session's type and the errors it raises build nothing
RUNS = frozenset({"execute", "executemany", "scalar", "scalars", "fetch", "fetchrow", "fetchval",
                  "copy_records_to_table"})  # a statement run, on a session or an asyncpg connection alike
ON_A_SESSION = frozenset({"get", "get_one", "add", "add_all", "delete", "merge", "refresh", "stream",
                          "stream_scalars"})  # names other objects share (a dict's get, a model's stream)

OWNERS = {
    "tools/executions.py": "declares ToolExecution (ai_tool_executions): the engine's claim, finish, expiry and "
                           "supersede statements on its own rows, which every channel's dispatcher calls",
    "tools/audit.py": "declares AuditLog (audit_logs): the one INSERT of the audit row that rides with a tool's "
                      "outcome",
}
ALLOWED = {
    ("pipeline/jobs.py", "lock.execute"): "the worker's per-run advisory lock (`pg_advisory_lock`) on its own asyncpg "
                                          "connection, held while it drives one run: a lock of the job queue's "
                                          "machinery, on no table and no domain model",
}


def _receiver(node: ast.expr) -> str:
    """`session` for `session.execute`, `ctx.session` for `ctx.session.get`, `?` for a call's result."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_receiver(node.value)}.{node.attr}"
    return "?"


def queries(source: str) -> list[str]:
    """What in `source` builds or runs a query, as `import sqlalchemy.select` or `session.execute` (one per place)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlalchemy" \
                and node.module not in TYPES_ONLY:
            found += [f"import {node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [f"import {alias.name}" for alias in node.names if alias.name.split(".")[0] == "sqlalchemy"
                      and alias.name not in TYPES_ONLY]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = _receiver(node.func.value)
            method = node.func.attr
            if method in RUNS or (method in ON_A_SESSION and receiver.rpartition(".")[2].endswith("session")):
                found.append(f"{receiver}.{method}")
    return found


def _queries_found() -> dict[tuple[str, str], int]:
    counted: dict[tuple[str, str], int] = {}
    for package in CHECKED:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in OWNERS:
                continue
            for query in queries(path.read_text()):
                counted[(name, query)] = counted.get((name, query), 0) + 1
    return counted


def test_no_controller_tool_or_pipeline_module_writes_a_query_of_its_own() -> None:
    unjustified = sorted(f"{path}: {query}" for path, query in _queries_found() if (path, query) not in ALLOWED)
    assert not unjustified, ("call (or add) the owning domain module's function instead of querying "
                             f"(CONVENTIONS.md, data access rule 1): {unjustified}")


def test_every_listed_exception_still_holds() -> None:
    assert [key for key in ALLOWED if key not in _queries_found()] == []
    for name in OWNERS:  # an owner that no longer declares a model is no longer one
        tree = ast.parse((ROOT / name).read_text())
        assert any(isinstance(node, ast.ClassDef) and any(isinstance(stmt, ast.Assign | ast.AnnAssign) and
                   "__tablename__" in ast.unparse(stmt) for stmt in node.body) for node in tree.body), name


def test_the_check_finds_the_queries_tools_and_the_pipeline_used_to_write() -> None:
    """The shapes tools/ and the pipeline wrote before their queries moved (a leaf's gym name, a card's title,
    the outbox's claim, the payer's org, the question's count), and what is no query (a type, a dict's `get`, a
    domain function given the session)."""
    before = '''
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

async def claim(session: AsyncSession, self, conn, ctx):
    row = (await session.execute(select(MemberMessage).with_for_update(skip_locked=True))).first()
    org = await session.get(Organization, org_id)
    asked = await session.scalar(select(func.count()))
    rows = await self.session.scalars(select(NutritionRun))
    ctx.session.add(row)
    await conn.fetchrow("SELECT 1")
    return sa.update(Member)
'''
    assert sorted(queries(before)) == sorted([
        "import sqlalchemy.func", "import sqlalchemy.select", "import sqlalchemy.update",
        "import sqlalchemy.dialects.postgresql.insert", "import sqlalchemy",
        "session.execute", "session.get", "session.scalar", "self.session.scalars", "ctx.session.add",
        "conn.fetchrow"])
    after = '''
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.exc import IntegrityError
from gym.members import live_members

async def claim(session: AsyncSession, payload: dict, org_id, ctx, ids):
    claimed = await claim_due(session, org_id, now)
    found = await live_members(ctx.session, ctx.org_id, ids)
    run = await runs.get_run(session, org_id, run_id, for_update=True)
    tz = payload.get("timezone")
    async for item in self.meter.stream(payer, model, request):
        pass
    message.status = "sent"
'''
    assert queries(after) == []
