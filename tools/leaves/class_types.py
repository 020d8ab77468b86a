"""class_types: the kinds of class a gym schedules (CrossFit, Open Gym, ...), per program."""

from __future__ import annotations

import uuid

from pydantic import BaseModel, Field

from gym import classes, programs
from tools.context import ToolContext
from tools.errors import not_found
from tools.registry import STAFF, ToolRouter

class_types = ToolRouter("class_types")
CAP = 100


class ListForProgramInput(BaseModel):
    programId: uuid.UUID | None = Field(None, description="Program id from read__programs_list; omit for every "
                                                          "class type of the gym.")


class ClassTypeOut(BaseModel):
    id: uuid.UUID
    name: str
    programId: uuid.UUID | None = None
    programName: str | None = None
    defaultDurationMin: int
    defaultCapacity: int
    color: str | None = None


class ClassTypeList(BaseModel):
    count: int
    classTypes: list[ClassTypeOut]


@class_types.agent_tool(action="list_for_program",
                        summary="List class types (with default length and capacity) under one program, or all of "
                                "the gym's class types. Use the id to schedule class sessions.",
                        input=ListForProgramInput, roles=STAFF)
async def list_for_program(ctx: ToolContext, input: ListForProgramInput) -> ClassTypeList:
    if input.programId and await programs.get_program(ctx.session, ctx.org_id, input.programId) is None:
        raise not_found("program", input.programId)
    rows = await classes.list_class_types(ctx.session, ctx.org_id, program_id=input.programId)
    names = {p.id: p.name for p in await programs.list_programs(ctx.session, ctx.org_id, include_inactive=True)}
    return ClassTypeList(count=len(rows), classTypes=[
        ClassTypeOut(id=t.id, name=t.name, programId=t.program_id, programName=names.get(t.program_id) if t.program_id else None,
                     defaultDurationMin=t.default_duration_min, defaultCapacity=t.default_capacity, color=t.color)
        for t in rows[:CAP]])
