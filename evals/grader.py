"""Grade a try by the database's end state (and, where a number was asked, the answer).

In order: rows that must stay unchanged; each expected change (its rows found by `where`, their count, their new
values, no other column touched); every other change is an unexpected write; SQL checks over the final state;
the tool assertions over `ai_tool_executions` (a write that ran only after a person approved it, a
confirmation the person rejected, a pick, a tool that must not have been called); the expected answer in what
the agent said. Each failure is one line naming what failed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from evals.answers import Expected
from evals.snapshot import INCIDENTAL, Change
from evals.tasks import Expectation, Task
from evals.values import describe, matches, row_matches

_NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:[,\u202f\u00a0 ]\d{3})+|\d+)(?:[.,]\d+)?(?![\w])")


@dataclass(frozen=True)
class Execution:
    """One tool use of the try's conversations, as ai_tool_executions recorded it."""

    name: str
    status: str
    confirm: str
    kind: str


@dataclass(frozen=True)
class Evidence:
    """What the grader reads: the try's changes (names in the task already resolved), the final state, the
    tool uses, what the agent said, and the expected answer."""

    changes: Sequence[Change]
    session: AsyncSession  # owner session on the try's database, after the conversation
    params: Mapping[str, Any]
    executions: Sequence[Execution]
    agent_text: str
    expected: Expected | None


def _count_ok(count: int | str, found: int) -> bool:
    if count == "*":
        return True
    if count == "+":
        return found >= 1
    return found == count


def _expectation(e: Expectation, claimed: set[int], changes: Sequence[Change]) -> list[str]:
    where_text = e.shown or ", ".join(f"{k}={v}" for k, v in e.where.items()) or "any row"
    found = [(i, c) for i, c in enumerate(changes) if i not in claimed and c.table == e.table and c.op == e.change
             and row_matches(e.where, c.row)]
    failures = []
    if not _count_ok(e.count, len(found)):
        failures.append(f"expected {e.count} {e.change}(s) in {e.table} where {where_text}, found {len(found)}")
    allowed = set(e.set) | set(e.may_change) | INCIDENTAL
    for i, change in found:
        claimed.add(i)
        after = change.after or {}
        for column, wanted in e.set.items():
            if not matches(wanted, after.get(column)):
                failures.append(f"{e.table} {e.change} ({describe(change.row)}): {column} is "
                                f"{after.get(column)!r}, expected {wanted!r}")
        if change.op == "update":
            extra = sorted(change.changed - allowed)
            if extra:
                failures.append(f"{e.table} update ({describe(change.row)}) also changed {', '.join(extra)}")
    return failures


async def _checks(task: Task, evidence: Evidence) -> list[str]:
    failures = []
    for check in task.checks:
        try:
            async with evidence.session.begin_nested():  # a failing statement takes only its savepoint down
                value = (await evidence.session.execute(text(check.sql), dict(evidence.params))).scalar()
        except Exception as exc:  # a broken check is a broken task: say so rather than pass
            failures.append(f"check {check.about or check.sql!r} could not run: {type(exc).__name__}: "
                            f"{str(exc).splitlines()[0][:200]}")
            continue
        wanted = check.equals
        if wanted == "{answer}":
            wanted = evidence.expected.numbers[0] if evidence.expected and evidence.expected.numbers else None
        if isinstance(value, Decimal):
            value = float(value)
        if not matches(wanted, value):
            failures.append(f"check {check.about or check.sql!r}: got {value!r}, expected {wanted!r}")
    return failures


def _tools(task: Task, evidence: Evidence) -> list[str]:
    failures = []
    uses = evidence.executions
    for name in task.confirmed:
        if not any(u.name == name and u.status == "succeeded" and u.confirm != "never" for u in uses):
            asked = [u.status for u in uses if u.name == name]
            failures.append(f"{name} did not run after a person's approval"
                            + (f" (its uses ended: {', '.join(asked)})" if asked else " (never called)"))
    for name in task.called:
        if not any(u.name == name and u.status == "succeeded" for u in uses):
            failures.append(f"{name} never ran successfully")
    for name in task.rejected:
        if not any(u.name == name and u.status == "rejected_by_user" for u in uses):
            failures.append(f"{name} was never put to the person for a confirmation they rejected")
    if task.picked is True and not any(u.kind == "user_picker" and u.status == "succeeded" for u in uses):
        failures.append("the agent never asked the person to pick (read__ask_user_to_pick)")
    if task.picked is False and any(u.kind == "user_picker" for u in uses):
        failures.append("the agent asked the person to pick where the request was not ambiguous")
    for name in task.not_called:
        if any(u.name == name for u in uses):
            failures.append(f"{name} was called; the task says it must not be")
    return failures


def numbers_in(said: str) -> list[float]:
    """Every number in a text: thousands separators (comma, thin or no-break space) and decimal commas read."""
    found = []
    for raw in _NUMBER.findall(said):
        cleaned = re.sub(r"[\u202f\u00a0 ]", "", raw)
        if re.search(r",\d{3}(?!\d)", cleaned) and not re.search(r",\d{1,2}$", cleaned):
            cleaned = cleaned.replace(",", "")
        cleaned = cleaned.replace(",", ".")
        try:
            found.append(float(cleaned))
        except ValueError:
            continue
    return found


def _answer(task: Task, evidence: Evidence) -> list[str]:
    spec, expected = task.answer, evidence.expected
    if spec is None or expected is None:
        return []
    said = evidence.agent_text
    seen = numbers_in(said)
    lowered = said.lower()
    failures = []
    for number in expected.numbers:
        present = any(abs(n - number) <= max(spec.tolerance, 1e-9) for n in seen)
        if spec.absent and present:
            failures.append(f"the reply shows {number:g}, which this role must not see")
        elif not spec.absent and not present:
            failures.append(f"the reply does not give {number:g} (numbers in it: "
                            f"{', '.join(f'{n:g}' for n in seen[:12]) or 'none'})")
    for words in expected.texts:
        present = words.lower() in lowered
        if spec.absent and present:
            failures.append(f"the reply says “{words}”, which this role must not see")
        elif not spec.absent and not present:
            failures.append(f"the reply does not mention “{words}”")
    return failures


async def grade(task: Task, evidence: Evidence) -> list[str]:
    """Every way the try missed the task; empty when it passed."""
    changes = evidence.changes
    failures: list[str] = []
    for rule in task.unchanged:
        for change in changes:
            if change.table == rule.table and row_matches(rule.where, change.row):
                failures.append(f"{rule.table} ({describe(change.row)}) must stay unchanged but got a {change.op}"
                                + (f" of {', '.join(sorted(change.changed - INCIDENTAL))}" if change.changed else ""))
    claimed: set[int] = set()
    for expectation in task.expect:
        failures += _expectation(expectation, claimed, changes)
    for i, change in enumerate(changes):
        if i not in claimed:
            what = f" of {', '.join(sorted(change.changed - INCIDENTAL))}" if change.op == "update" else ""
            failures.append(f"unexpected {change.op}{what} in {change.table}: {describe(change.row)}")
    failures += await _checks(task, evidence)
    failures += _tools(task, evidence)
    failures += _answer(task, evidence)
    return failures
