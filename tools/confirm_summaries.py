"""What a confirm-gated tool is about to do, in words: one describer per tool, localized, with the gym's
names, dates and counts ("Delete the workout Murph (created 12 Oct, used in 3 assignments)").

A describer reads (never writes) inside the caller's org scope and returns the sentence shown on the
confirmation card (`confirmation_pending.summary`); None when the thing is gone (the tool will say so). A tool
names its describer on its declaration (`describe=`); the ones here are the staff tools', with the words every
card uses (`day`, `span`, `listing`). The desk's cards (a class's cancellation, freezes, sends) are in
tools/desk_summaries.py; a bulk change describes itself in its leaf, with the plan it runs.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from babel.dates import format_date, format_interval, format_skeleton

from core.i18n import translate
from gym.assignments import assignment_day
from gym.periods import resolve_period
from gym.program_templates import template_into_program
from gym.programs import program_name
from gym.tasks import task_title
from gym.workouts import workout_in_use
from tools.context import ToolContext


def words(ctx: ToolContext, key: str, **params: object) -> str:
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


async def delete_task(ctx: ToolContext, input: Any) -> str | None:
    title = await task_title(ctx.session, ctx.org_id, input.id)
    return words(ctx, "deleteTask", title=title) if title is not None else None


async def delete_workout(ctx: ToolContext, input: Any) -> str | None:
    row = await workout_in_use(ctx.session, ctx.org_id, input.id)
    if row is None:
        return None
    return words(ctx, "deleteWorkout", title=row.title, created=day(ctx, row.created_at), count=row.used)


async def delete_program(ctx: ToolContext, input: Any) -> str | None:
    name = await program_name(ctx.session, ctx.org_id, input.id)
    return words(ctx, "deleteProgram", name=name) if name is not None else None


async def delete_assignment(ctx: ToolContext, input: Any) -> str | None:
    row = await assignment_day(ctx.session, ctx.org_id, input.id)
    if row is None:
        return None
    return words(ctx, "deleteAssignment", title=row.title, day=day(ctx, row.scheduled_on))


LISTED = 20  # rows an approval lists before "…and N more"


def short_day(ctx: ToolContext, value: dt.date | str) -> str:
    """'Mon, Nov 17' / 'пн, 17 нояб.': a listed row's day."""
    return str(format_skeleton("MMMEd", dt.date.fromisoformat(str(value)[:10]), locale=ctx.locale))


def listing(ctx: ToolContext, lead: str, unchanged_key: str, unchanged: int, labels: list[str], total: int) -> str:
    """The approval's sentence, how many stay as they are, then one line per row ('• ...') and '…and N more'."""
    lines = [lead + (" " + words(ctx, unchanged_key, n=unchanged) if unchanged else "")]
    lines += [f"• {label}" for label in labels]
    if total > len(labels):
        lines.append(words(ctx, "andMore", n=total - len(labels)))
    return "\n".join(lines)


async def apply_template(ctx: ToolContext, input: Any) -> str | None:
    row = await template_into_program(ctx.session, ctx.org_id, input.templateId, input.programId)
    if row is None:
        return None
    key = "applyTemplatePublished" if input.published else "applyTemplate"
    return words(ctx, key, template=row.name, count=row.days, program=row.program, day=day(ctx, input.startDate))


async def template_from_history(ctx: ToolContext, input: Any) -> str | None:
    program = await program_name(ctx.session, ctx.org_id, input.programId)
    if program is None:
        return None
    period = resolve_period(input.period, input.from_, input.to, ctx.tz, ctx.now)
    return words(ctx, "templateFromHistory", program=program, span=span(ctx, period.first_day, period.last_day),
              name=input.name)
