"""programs: create ↺ delete, update, delete (soft), and enrolling members in coaching/feed programs."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from gym import programs as service
from tools import confirm_summaries as card
from tools.context import ToolContext
from tools.errors import not_found
from tools.registry import OWNER_ADMIN, STAFF, Audit, Inverse, ToolRouter, by_id
from tools.restore import add_restore, restore_inverse

programs = ToolRouter("programs")
Kind = Literal["coaching", "class", "feed"]
KIND_HELP = ("coaching: 1-on-1 coaching with enrolled members; class: group classes members book; "
             "feed: a daily workout feed members enroll in.")


class ProgramOut(BaseModel):
    id: uuid.UUID
    name: str
    kind: str
    active: bool
    description: str | None = None
    deleted: bool = False


def _out(program: service.Program) -> ProgramOut:
    return ProgramOut(id=program.id, name=program.name, kind=program.kind, active=program.active,
                      description=program.description, deleted=program.deleted_at is not None)


class CreateProgramInput(BaseModel):
    name: str = Field(min_length=1, max_length=200, description="Program name, e.g. 'Competition Prep'.")
    kind: Kind = Field(description=KIND_HELP)
    description: str | None = Field(None, max_length=4000)
    active: bool = Field(True, description="Inactive programs are hidden from the active list.")


@programs.agent_tool(action="create", summary="Create a training program (coaching, class or feed).",
                     input=CreateProgramInput, roles=OWNER_ADMIN, side_effects="write",
                     audit=Audit("program", "program.create"), inverse=Inverse("programs", "delete", by_id))
async def create_program(ctx: ToolContext, input: CreateProgramInput) -> ProgramOut:
    program = await service.create_program(ctx.session, ctx.org_id, name=input.name.strip(), kind=input.kind,
                                           description=input.description, active=input.active,
                                           created_by=ctx.caller.user_id)
    return _out(program)


class UpdateProgramInput(BaseModel):
    id: uuid.UUID = Field(description="Program id from read__programs_list.")
    name: str | None = Field(None, min_length=1, max_length=200)
    kind: Kind | None = Field(None, description=KIND_HELP + " A program with enrolled members cannot become class.")
    description: str | None = Field(None, max_length=4000, description="New description; null clears it.")
    active: bool | None = Field(None, description="False hides the program from the active list.")


@programs.agent_tool(action="update",
                     summary="Change a program's name, kind, description or active flag; only the fields you pass "
                             "change.",
                     input=UpdateProgramInput, roles=OWNER_ADMIN, side_effects="write",
                     audit=Audit("program", "program.update"))
async def update_program(ctx: ToolContext, input: UpdateProgramInput) -> ProgramOut:
    patch: dict[str, Any] = {field: getattr(input, field) for field in ("name", "kind", "description", "active")
             if field in input.model_fields_set and (field == "description" or getattr(input, field) is not None)}
    if isinstance(patch.get("name"), str):
        patch["name"] = patch["name"].strip()
    program = await service.update_program(ctx.session, ctx.org_id, input.id, patch)
    if program is None:
        raise not_found("program", input.id)
    return _out(program)


class ProgramIdInput(BaseModel):
    id: uuid.UUID = Field(description="Program id.")


@programs.agent_tool(action="delete",
                     summary="Delete a program (soft delete: its history stays). Needs the user's confirmation.",
                     input=ProgramIdInput, roles=OWNER_ADMIN, side_effects="write", confirm="destructive",
                     audit=Audit("program", "program.delete"), inverse=restore_inverse("programs"),
                     describe=card.delete_program)
async def delete_program(ctx: ToolContext, input: ProgramIdInput) -> ProgramOut:
    program = await service.soft_delete_program(ctx.session, ctx.org_id, input.id, ctx.now)
    if program is None:
        raise not_found("program", input.id)
    return _out(program)


class EnrollInput(BaseModel):
    programId: uuid.UUID = Field(description="A coaching or feed program (class programs fill by booking).")
    memberId: uuid.UUID = Field(description="Member id from read__members_search.")


class EnrollmentOut(BaseModel):
    id: uuid.UUID = Field(description="The enrollment id.")
    programId: uuid.UUID
    programName: str
    memberId: uuid.UUID
    status: str
    enrolledAt: datetime


@programs.agent_tool(action="enroll_member",
                     summary="Enroll a member in a coaching or feed program. Class programs refuse "
                             "(program_not_enrollable): members join those by booking classes.",
                     input=EnrollInput, roles=STAFF, side_effects="write",
                     audit=Audit("program_enrollment", "program.enroll_member"),
                     loaded=True)
async def enroll_member(ctx: ToolContext, input: EnrollInput) -> EnrollmentOut:
    enrollment = await service.enroll_member(ctx.session, ctx.org_id, input.programId, input.memberId)
    if enrollment is None:
        raise not_found("program", input.programId)
    program = await service.get_program(ctx.session, ctx.org_id, input.programId)
    return EnrollmentOut(id=enrollment.id, programId=enrollment.program_id, programName=program.name if program else "",
                         memberId=enrollment.member_id, status=enrollment.status,
                         enrolledAt=enrollment.enrolled_at.astimezone(ctx.tz))


add_restore(programs, model=service.Program, entity="program", roles=OWNER_ADMIN)
