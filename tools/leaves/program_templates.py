"""program_templates: reusable weeks × days of workouts (list, create, apply, from_history).

`apply` materializes a template into a class or feed program as dated workouts with their program
assignments; `from_history` saves a program's workouts over a date range as a new template.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gym import program_templates as service
from gym.exercises import existing_exercise_ids
from gym.periods import resolve_period
from gym.programs import require_program
from tools import confirm_summaries as card
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.errors import ToolFailed, not_found
from tools.leaves.workouts import SectionInput
from tools.registry import OWNER_ADMIN_COACH, Audit, ToolRouter

program_templates = ToolRouter("program_templates")
OUTLINE_CAP = 30
WORKOUTS_CAP = 50

HistoryPeriod = Literal["this_week", "last_week", "this_month", "last_month", "this_quarter", "last_quarter",
                        "last_30_days", "last_90_days"]


# --- inputs --------------------------------------------------------------------------------------------

class TemplateDayInput(BaseModel):
    week: int = Field(ge=1, le=service.MAX_WEEKS, description="Template week, from 1.")
    day: int = Field(ge=1, le=7, description="Day within the week, 1..7 (day 1 = the start date's weekday).")
    title: str = Field(min_length=1, max_length=200, description="Workout title for that day.")
    text: str | None = Field(None, min_length=1, max_length=10000, description="The workout as freeform text.")
    sections: list[SectionInput] | None = Field(None, max_length=20, description="Or structured sections.")

    @model_validator(mode="after")
    def _has_content(self) -> TemplateDayInput:
        if not self.text and not self.sections:
            raise ValueError("each day needs `text` or `sections`")
        return self

    def stored(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"week": self.week, "day": self.day, "title": self.title}
        if self.sections:
            entry["sections"] = [
                {"title": s.title, "scheme": s.scheme, "rounds": s.rounds, "notes": s.notes,
                 "movements": [{"name": m.name, "exercise_id": str(m.exerciseId) if m.exerciseId else None,
                                "prescription": m.prescription.stored()} for m in s.movements]}
                for s in self.sections]
        else:
            entry["freeform_text"] = self.text
        return entry


class ListTemplatesInput(BaseModel):
    limit: int = Field(20, ge=1, le=100)


class CreateTemplateInput(BaseModel):
    name: str = Field(min_length=1, max_length=200, description="Template name, e.g. '4-week strength block'.")
    description: str | None = Field(None, max_length=4000)
    weeks: int = Field(ge=1, le=service.MAX_WEEKS, description="How many weeks the template runs.")
    days: list[TemplateDayInput] = Field(min_length=1, max_length=400,
                                         description="The training days: week, day, title and the workout.")


class ApplyTemplateInput(BaseModel):
    templateId: uuid.UUID = Field(description="Template id from program_templates__list.")
    programId: uuid.UUID = Field(description="Class or feed program to fill (from read__programs_list).")
    startDate: ToolDate = Field(description="Day that becomes week 1 day 1 (YYYY-MM-DD, gym's timezone); usually a "
                                           "Monday.")
    published: bool = Field(False, description="Publish the created assignments right away (default: drafts).")


class FromHistoryInput(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    programId: uuid.UUID = Field(description="Program whose past workouts become the template.")
    name: str = Field(min_length=1, max_length=200, description="Name for the new template.")
    description: str | None = Field(None, max_length=4000)
    period: HistoryPeriod | None = Field(None, description="Named range in the gym's timezone (weeks start Monday).")
    from_: ToolDate | None = Field(None, alias="from", description="First day (YYYY-MM-DD), instead of period.")
    to: ToolDate | None = Field(None, description="Last day, inclusive (YYYY-MM-DD), instead of period.")

    @model_validator(mode="after")
    def _one_range(self) -> FromHistoryInput:
        if self.period and (self.from_ or self.to):
            raise ValueError("give either period or from/to, not both")
        if not self.period and not (self.from_ and self.to):
            raise ValueError("give a period, or both from and to")
        return self


# --- outputs -------------------------------------------------------------------------------------------

class DayOut(BaseModel):
    week: int
    day: int
    title: str


class TemplateOut(BaseModel):
    id: uuid.UUID
    name: str
    description: str | None = None
    weeks: int
    dayCount: int
    source: str
    outline: list[DayOut] | None = None
    dateFrom: dt.date | None = None
    dateTo: dt.date | None = None


class TemplateList(BaseModel):
    count: int
    templates: list[TemplateOut]


class CreatedWorkout(BaseModel):
    id: uuid.UUID
    title: str
    date: dt.date


class AppliedOut(BaseModel):
    id: uuid.UUID = Field(description="The applied template's id.")
    templateName: str
    programId: uuid.UUID
    programName: str
    dateFrom: dt.date
    dateTo: dt.date
    workoutsCreated: int
    assignmentsCreated: int
    published: bool
    workouts: list[CreatedWorkout]
    unresolvedMovements: list[str] = Field(default_factory=list)


def _out(template: service.ProgramTemplate, *, outline: bool = False, **extra: Any) -> TemplateOut:
    days = [DayOut(week=d["week"], day=d["day"], title=d["title"]) for d in template.structure[:OUTLINE_CAP]]
    return TemplateOut(id=template.id, name=template.name, description=template.description, weeks=template.weeks,
                       dayCount=len(template.structure), source=template.source, outline=days if outline else None,
                       **extra)


# --- tools ---------------------------------------------------------------------------------------------

@program_templates.agent_tool(
    action="list", summary="List the gym's program templates (name, weeks, number of training days, source).",
    input=ListTemplatesInput, roles=OWNER_ADMIN_COACH)
async def list_templates(ctx: ToolContext, input: ListTemplatesInput) -> TemplateList:
    rows = await service.list_templates(ctx.session, ctx.org_id, limit=input.limit)
    return TemplateList(count=len(rows), templates=[_out(t) for t in rows])


@program_templates.agent_tool(
    action="create",
    summary="Create a program template by hand: a number of weeks and the training days (week, day 1-7, title, "
            "workout as text or sections). Apply it later with program_templates__apply.",
    input=CreateTemplateInput, roles=OWNER_ADMIN_COACH, side_effects="write",
    audit=Audit("program_template", "program_template.create"))
async def create_template(ctx: ToolContext, input: CreateTemplateInput) -> TemplateOut:
    structure = [day.stored() for day in input.days]
    given = {m.exerciseId for d in input.days for s in d.sections or [] for m in s.movements if m.exerciseId}
    missing = given - await existing_exercise_ids(ctx.session, ctx.org_id, given)
    if missing:
        raise ToolFailed("exercise_not_found", f"No exercise with id {sorted(missing)[0]} in this gym.",
                         "Resolve movement names with read__exercises_resolve_batch, or leave exerciseId out.")
    template = await service.create_template(ctx.session, ctx.org_id, name=input.name, weeks=input.weeks,
                                         structure=structure, description=input.description,
                                         created_by=ctx.caller.user_id)
    return _out(template, outline=True)


@program_templates.agent_tool(
    action="apply",
    summary="Apply a template to a class or feed program from a start date: creates one dated workout per "
            "template day plus its program assignment (drafts unless published). Lists what was created. Always "
            "asks the user to confirm.",
    input=ApplyTemplateInput, roles=OWNER_ADMIN_COACH, side_effects="write", confirm="always",
    audit=Audit("program_template", "program_template.apply"), describe=card.apply_template)
async def apply_template(ctx: ToolContext, input: ApplyTemplateInput) -> AppliedOut:
    template = await service.get_template(ctx.session, ctx.org_id, input.templateId)
    if template is None:
        raise not_found("template", input.templateId)
    program = await require_program(ctx.session, ctx.org_id, input.programId)
    applied = await service.apply_template(ctx.session, ctx.org_id, input.templateId, program_id=program.id,
                                       start_on=input.startDate, created_by=ctx.caller.user_id,
                                       published=input.published)
    assert applied is not None
    return AppliedOut(id=template.id, templateName=template.name, programId=program.id, programName=program.name,
                      dateFrom=applied.start_on, dateTo=applied.end_on, workoutsCreated=len(applied.workouts),
                      assignmentsCreated=len(applied.assignment_ids), published=input.published,
                      workouts=[CreatedWorkout(id=w.id, title=w.title, date=w.scheduled_on)
                                for w in applied.workouts[:WORKOUTS_CAP]],
                      unresolvedMovements=sorted({u["name"] for u in applied.unresolved}))


@program_templates.agent_tool(
    action="from_history",
    summary="Save a program's past workouts over a date range (or a named period) as a new reusable template; "
            "week 1 starts on the first day of the range. Always asks the user to confirm.",
    input=FromHistoryInput, roles=OWNER_ADMIN_COACH, side_effects="write", confirm="always",
    audit=Audit("program_template", "program_template.from_history"),
    describe=card.template_from_history)
async def from_history(ctx: ToolContext, input: FromHistoryInput) -> TemplateOut:
    period = resolve_period(input.period, input.from_, input.to, ctx.tz, ctx.now)
    template = await service.template_from_history(
        ctx.session, ctx.org_id, program_id=input.programId, date_from=period.first_day, date_to=period.last_day,
        name=input.name, description=input.description, created_by=ctx.caller.user_id)
    return _out(template, outline=True, dateFrom=period.first_day, dateTo=period.last_day)
