"""CONVENTIONS.md's data-access rule 1, for the pipeline: a `pipeline/` module writes no query of its own. Its jobs
call the domain functions of the module that owns the model (`gym/`, `gym/training/`, `gym/nutrition/`, `core/`):
`gym.messages.claim_due`, `gym.nutrition.runs.next_question_attempt`, `core.tenancy.first_active_user`.

Read from the source (ast), a module breaks the rule when it builds a statement (it imports anything of SQLAlchemy
but the `AsyncSession` type and its exceptions: `select`, `update`, `func`, `text`, `insert` from a dialect, ...)
or runs one: `execute`, `scalar`, `scalars` or asyncpg's `fetch*` on any receiver, and `get`, `add`, `delete`,
`merge`, `refresh`, `stream` on a session. Setting a field of a row a domain function returned (the outbox's
`message.status = "sent"`) is not a query here: the caller's transaction flushes it.

What may stay is the pipeline's own machinery on no domain model, listed in `ALLOWED` with why; a listed exception
that no longer occurs fails too, so the list stays true.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = ROOT / "pipeline"

TYPES_ONLY = ("sqlalchemy.ext.asyncio", "sqlalchemy.exc")  # a session's type and the errors it raises build nothing
RUNS = frozenset({"execute", "executemany", "scalar", "scalars", "fetch", "fetchrow", "fetchval",
                  "copy_records_to_table"})  # a statement run, on a session or an asyncpg connection alike
ON_A_SESSION = frozenset({"get", "get_one", "add", "add_all", "delete", "merge", "refresh", "stream",
                          "stream_scalars"})  # names other objects share (a dict's get, a model's stream)

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


def _pipeline_queries() -> dict[tuple[str, str], int]:
    counted: dict[tuple[str, str], int] = {}
    for path in sorted(PIPELINE.rglob("*.py")):
        for query in queries(path.read_text()):
            key = (path.relative_to(ROOT).as_posix(), query)
            counted[key] = counted.get(key, 0) + 1
    return counted


def test_no_pipeline_module_queries_a_domain_model_itself() -> None:
    found = _pipeline_queries()
    unjustified = sorted(f"{path}: {query}" for path, query in found if (path, query) not in ALLOWED)
    assert not unjustified, ("a pipeline module queries the database itself; call (or add) the owning domain "
                             f"module's function instead (CONVENTIONS.md, data access rule 1): {unjustified}")


def test_every_listed_exception_still_occurs() -> None:
    found = _pipeline_queries()
    assert [key for key in ALLOWED if key not in found] == []


def test_the_check_finds_the_queries_the_pipeline_used_to_write() -> None:
    """The shapes the pipeline wrote before its queries moved (the outbox's claim, the payer's org, the question's
    count), and what is no query (a type, a dict's `get`, a domain function given the session)."""
    before = '''
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncSession

async def claim(session: AsyncSession, self, conn):
    row = (await session.execute(select(MemberMessage).with_for_update(skip_locked=True))).first()
    org = await session.get(Organization, org_id)
    asked = await session.scalar(select(func.count()))
    rows = await self.session.scalars(select(NutritionRun))
    ctx.session.add(row)
    await conn.fetchrow("SELECT 1")
'''
    assert sorted(queries(before)) == sorted([
        "import sqlalchemy.func", "import sqlalchemy.select", "import sqlalchemy.update",
        "import sqlalchemy.dialects.postgresql.insert", "import sqlalchemy",
        "session.execute", "session.get", "session.scalar", "self.session.scalars", "ctx.session.add",
        "conn.fetchrow"])
    after = '''
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.exc import IntegrityError

async def claim(session: AsyncSession, payload: dict, org_id):
    claimed = await claim_due(session, org_id, now)
    run = await runs.get_run(session, org_id, run_id, for_update=True)
    tz = payload.get("timezone")
    async for item in self.meter.stream(payer, model, request):
        pass
    message.status = "sent"
'''
    assert queries(after) == []
