"""CONVENTIONS.md's data-access rule 1, checked: a tool leaf or a confirmation card calls the domain function of the
module that owns the model (gym/, gym/training/, gym/nutrition/, core/) and writes no query of its own.

Read from the source: a module of tools/ may not import a statement builder from sqlalchemy (`select`, `insert`,
`update`, `delete`, `text`; from `sqlalchemy`, its dialects or as `sqlalchemy.select`) nor run anything on a
session itself (`session.execute`, `.scalar`, `.scalars`, `.get`, `.stream`, `.add`, `.delete`, ...). Types
(`AsyncSession`) and the mapped-column helpers of a module that declares a model stay allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILDERS = frozenset({"select", "insert", "update", "delete", "text"})
SESSION_CALLS = frozenset({"execute", "scalar", "scalars", "get", "stream", "stream_scalars", "add", "add_all",
                           "delete", "merge"})
SESSION_NAMES = frozenset({"session", "db", "conn", "connection"})

# The tools/ modules that own a table of their own: each is the domain module of its model, as gym/tasks.py is
# for tasks, so the queries on that model are written there and nowhere else.
OWNERS = {
    "tools/executions.py": "declares ToolExecution (ai_tool_executions): the engine's claim, finish, expiry and "
                           "supersede statements on its own rows, which every channel's dispatcher calls",
    "tools/audit.py": "declares AuditLog (audit_logs): the one INSERT of the audit row that rides with a tool's "
                      "outcome",
}


def _is_session(node: ast.expr) -> bool:
    """`session`, `db`, `conn` or anything's `.session` (`ctx.session`)."""
    return (isinstance(node, ast.Name) and node.id in SESSION_NAMES) or \
        (isinstance(node, ast.Attribute) and node.attr == "session")


def queries_in(source: str) -> list[str]:
    """Where the source builds or runs a query itself, as 'line: what'."""
    found = []
    tree = ast.parse(source)
    aliases = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
               for alias in node.names if alias.name.split(".")[0] == "sqlalchemy"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlalchemy":
            found += [f"{node.lineno}: imports {alias.name} from {node.module}" for alias in node.names
                      if alias.name in BUILDERS]
        elif isinstance(node, ast.Attribute) and node.attr in BUILDERS and isinstance(node.value, ast.Name) \
                and node.value.id in aliases:
            found.append(f"{node.lineno}: uses {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in SESSION_CALLS and _is_session(node.func.value):
            found.append(f"{node.lineno}: calls {ast.unparse(node.func)}")
    return found


def test_no_tools_module_writes_a_query_of_its_own() -> None:
    offenders = {}
    for path in sorted((ROOT / "tools").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name not in OWNERS and (found := queries_in(path.read_text())):
            offenders[name] = found
    assert not offenders, (
        "tools/ calls the owning domain module's function instead of querying (CONVENTIONS.md, data access "
        f"rule 1): {offenders}")


def test_the_owners_still_own_a_model() -> None:
    """An exception that no longer declares a model is no longer one."""
    for name in OWNERS:
        tree = ast.parse((ROOT / name).read_text())
        assert any(isinstance(node, ast.ClassDef) and any(isinstance(stmt, ast.Assign | ast.AnnAssign) and
                   "__tablename__" in ast.unparse(stmt) for stmt in node.body) for node in tree.body), name


def test_the_check_finds_each_kind_of_query() -> None:
    """The shapes the tool leaves had before their queries moved (tools/leaves/messages.py, assignments.py,
    tools/confirm_summaries.py), and the other spellings, are each found; a leaf that calls domain functions is
    not."""
    before = '''
import sqlalchemy as sa
from sqlalchemy import select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

async def _gym(ctx):
    row = (await ctx.session.execute(select(Organization.name).where(Organization.id == ctx.org_id))).one()
    title = await ctx.session.scalar(select(Workout.title))
    found = (await ctx.session.scalars(select(Member))).all()
    await session.get(Member, 1)
    ctx.session.add(Member())
    return sa.update(Member)
'''
    found = queries_in(before)
    assert [f.split(": ", 1)[1] for f in found if "imports" in f] == [
        "imports select from sqlalchemy", "imports text from sqlalchemy",
        "imports insert from sqlalchemy.dialects.postgresql"]
    assert sorted(f.split(": ", 1)[1] for f in found if "imports" not in f) == [
        "calls ctx.session.add", "calls ctx.session.execute", "calls ctx.session.scalar", "calls ctx.session.scalars",
        "calls session.get", "uses sa.update"]
    after = '''
from sqlalchemy.ext.asyncio import AsyncSession
from gym.members import live_members

async def _members(ctx, ids):
    found = await live_members(ctx.session, ctx.org_id, ids)
    return {"a": 1}.get("a"), found
'''
    assert queries_in(after) == []
