"""What a confirm-gated tool is about to do, in words: one describer per tool, localized, with the gym's
names, dates and counts ("Delete the workout Murph (created 12 Oct, used in 3 assignments)").

A describer reads (never writes) inside the caller's org scope and returns the sentence shown on the
confirmation card (`confirmation_pending.summary`); None when the thing is gone (the tool will say so). The desk's
cards (a class's cancellation, freezes, sends) are in tools/catalog/desk_summaries.py.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

from babel.dates import format_date, format_interval, format_skeleton
from sqlalchemy import text

from core.i18n import translate
from gym.periods import resolve_period
from tools.context import ToolContext
from tools.leaves import assignments as assignments_leaf
from tools.leaves import class_sessions as sessions_leaf
from tools.leaves import session_filters
from tools.registry import Described

Describer = Callable[[ToolContext, Any], Awaitable["str | Described | None"]]


def _t(ctx: ToolContext, key: str, **params: object) -> str:
    return translate(f"agent.confirm.{key}", ctx.locale, **params)


def day(ctx: ToolContext, value: dt.date | dt.datetime | str | None) -> str:
    """'Nov 23, 2026' / '23 нояб. 2026 г.': the medium date of the locale (CLDR, as the console's Intl shows it),
    a moment taken in the gym's time zone."""
    if value is None:
        return ""
    if isinstance(value, str):
        value = dt.date.fromisoformat(value[:10])
    if isinstance(value, dt.datetime):
        value = value.astimezone(ctx.tz).date()
    return str(format_date(value, "medium", locale=ctx.locale))


def span(ctx: ToolContext, first: dt.date | str | None, last: dt.date | str | None) -> str:
    """'Nov 17 – 23, 2026': the locale's own interval format."""
    if first is None or last is None:
        return day(ctx, first or last)
    first, last = (dt.date.fromisoformat(str(v)[:10]) for v in (first, last))
    if first == last:
        return day(ctx, first)
    return str(format_interval(first, last, "yMMMd", locale=ctx.locale))


async def _one(ctx: ToolContext, sql: str, **params: object) -> Any:
    return (await ctx.session.execute(text(sql), {"org": ctx.org_id, **params})).first()


async def delete_task(ctx: ToolContext, input: Any) -> str | None:
    row = await _one(ctx, "SELECT title FROM tasks WHERE org_id = :org AND id = :id AND deleted_at IS NULL",
                     id=input.id)
    return _t(ctx, "deleteTask", title=row.title) if row else None


async def delete_workout(ctx: ToolContext, input: Any) -> str | None:
    row = await _one(ctx, "SELECT w.title, w.created_at, (SELECT count(*) FROM assignments a WHERE a.workout_id = w.id "
                          "AND a.deleted_at IS NULL) AS used FROM workouts w WHERE w.org_id = :org AND w.id = :id "
                          "AND w.deleted_at IS NULL", id=input.id)
    if row is None:
        return None
    return _t(ctx, "deleteWorkout", title=row.title, created=day(ctx, row.created_at), count=row.used)


async def delete_program(ctx: ToolContext, input: Any) -> str | None:
    row = await _one(ctx, "SELECT name FROM programs WHERE org_id = :org AND id = :id", id=input.id)
    return _t(ctx, "deleteProgram", name=row.name) if row else None


async def delete_assignment(ctx: ToolContext, input: Any) -> str | None:
    row = await _one(ctx, "SELECT w.title, a.scheduled_on FROM assignments a JOIN workouts w ON w.id = a.workout_id "
                          "WHERE a.org_id = :org AND a.id = :id AND a.deleted_at IS NULL", id=input.id)
    if row is None:
        return None
    return _t(ctx, "deleteAssignment", title=row.title, day=day(ctx, row.scheduled_on))


LISTED = 20  # rows an approval lists before "…and N more"


def _short_day(ctx: ToolContext, value: dt.date | str) -> str:
    """'Mon, Nov 17' / 'пн, 17 нояб.': a listed row's day."""
    return str(format_skeleton("MMMEd", dt.date.fromisoformat(str(value)[:10]), locale=ctx.locale))


def _listing(ctx: ToolContext, lead: str, unchanged_key: str, unchanged: int, labels: list[str], total: int) -> str:
    """The approval's sentence, how many stay as they are, then one line per row ('• ...') and '…and N more'."""
    lines = [lead + (" " + _t(ctx, unchanged_key, n=unchanged) if unchanged else "")]
    lines += [f"• {label}" for label in labels]
    if total > len(labels):
        lines.append(_t(ctx, "andMore", n=total - len(labels)))
    return "\n".join(lines)


async def publish_assignments(ctx: ToolContext, input: Any) -> str | None:
    """Only the rows the publish changes are counted and listed; those already so are counted apart."""
    plan = await assignments_leaf.publish_plan(ctx, input, LISTED)
    publish = getattr(input, "publish", True)
    lead = _t(ctx, "publishAssignments" if publish else "unpublishAssignments", count=plan.count,
              span=span(ctx, plan.date_from, plan.date_to))
    labels = [" · ".join(filter(None, (_short_day(ctx, r.scheduled_on), r.workout_title,
                                       r.member_name or r.program_name))) for r in plan.rows]
    return _listing(ctx, lead, "alreadyPublished" if publish else "alreadyDrafts", plan.unchanged, labels,
                    plan.count)


async def delete_assignments(ctx: ToolContext, input: Any) -> str | None:
    preview = await assignments_leaf.bulk_preview(ctx, input)
    return _t(ctx, "deleteAssignments", count=preview.count, span=span(ctx, preview.dateFrom, preview.dateTo))


async def publish_sessions(ctx: ToolContext, input: Any) -> str | None:
    rows, count, unchanged = await sessions_leaf.publish_plan(ctx, input, LISTED)
    first, last = session_filters.span(ctx, input)
    lead = _t(ctx, "publishSessions", count=count, span=span(ctx, first, last))
    labels = [" · ".join(filter(None, (f"{_short_day(ctx, r.date)} {r.start}–{r.end}", r.title, r.coach)))
              for r in rows]
    return _listing(ctx, lead, "alreadyPublished", unchanged, labels, count)


async def delete_sessions(ctx: ToolContext, input: Any) -> str | None:
    preview = await sessions_leaf.bulk_preview(ctx, input)
    return _t(ctx, "deleteSessions", count=preview.count, span=span(ctx, preview.firstDay, preview.lastDay))


async def apply_template(ctx: ToolContext, input: Any) -> str | None:
    row = await _one(ctx, "SELECT t.name, jsonb_array_length(t.structure) AS days, p.name AS program "
                          "FROM program_templates t JOIN programs p ON p.org_id = t.org_id AND p.id = :program "
                          "WHERE t.org_id = :org AND t.id = :id", id=input.templateId, program=input.programId)
    if row is None:
        return None
    key = "applyTemplatePublished" if input.published else "applyTemplate"
    return _t(ctx, key, template=row.name, count=row.days, program=row.program, day=day(ctx, input.startDate))


async def template_from_history(ctx: ToolContext, input: Any) -> str | None:
    row = await _one(ctx, "SELECT name FROM programs WHERE org_id = :org AND id = :id", id=input.programId)
    if row is None:
        return None
    period = resolve_period(input.period, input.from_, input.to, ctx.tz, ctx.now)
    return _t(ctx, "templateFromHistory", program=row.name, span=span(ctx, period.first_day, period.last_day),
              name=input.name)


DESCRIBERS: dict[str, Describer] = {
    "tasks__delete": delete_task,
    "workouts__delete": delete_workout,
    "programs__delete": delete_program,
    "class_sessions__bulk_publish": publish_sessions,
    "class_sessions__bulk_delete": delete_sessions,
    "assignments__delete": delete_assignment,
    "assignments__bulk_publish": publish_assignments,
    "assignments__bulk_delete": delete_assignments,
    "program_templates__apply": apply_template,
    "program_templates__from_history": template_from_history,
}
