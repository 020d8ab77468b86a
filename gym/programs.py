"""Programs (coaching, class, feed) and member enrollments; the gym rule error shared by training services."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint, and_, func, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import OrgRow, Timestamps
from gym.errors import GymError
from gym.repository import OrgRepository

PROGRAM_KINDS = ("coaching", "class", "feed")
ENROLLABLE_KINDS = ("coaching", "feed")


class Program(OrgRow, Timestamps, Base):
    __tablename__ = "programs"
    __mapper_args__ = {"eager_defaults": True}

    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(10))
    description: Mapped[str | None] = mapped_column(Text)
    active: Mapped[bool] = mapped_column(default=True)
    deleted_at: Mapped[datetime | None]
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


class ProgramEnrollment(OrgRow, Base):
    __tablename__ = "program_enrollments"
    __table_args__ = (
        UniqueConstraint("program_id", "member_id", name="uq_program_enrollments_program_member"),
    )
    __mapper_args__ = {"eager_defaults": True}

    program_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("programs.id", ondelete="CASCADE"))
    member_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(10), default="active")
    enrolled_at: Mapped[datetime] = mapped_column(server_default=func.now())
    ended_at: Mapped[datetime | None]


@dataclass(frozen=True)
class ProgramSummary:
    id: uuid.UUID
    name: str
    kind: str
    description: str | None
    active: bool
    member_count: int


def _check_kind(kind: str) -> None:
    if kind not in PROGRAM_KINDS:
        raise GymError("invalid_kind", f"Unknown program kind {kind!r}.",
                       f"Use one of: {', '.join(PROGRAM_KINDS)}.")


async def list_programs(session: AsyncSession, org_id: uuid.UUID, *, kind: str | None = None,
                        include_inactive: bool = False) -> list[ProgramSummary]:
    """Live programs with their number of active enrollments, by name."""
    members = (select(func.count()).select_from(ProgramEnrollment)
               .where(ProgramEnrollment.org_id == org_id, ProgramEnrollment.program_id == Program.id,
                      ProgramEnrollment.status == "active")
               .scalar_subquery())
    query = select(Program, members).where(Program.org_id == org_id, Program.deleted_at.is_(None))
    if not include_inactive:
        query = query.where(Program.active.is_(True))
    if kind:
        query = query.where(Program.kind == kind)
    rows = (await session.execute(query.order_by(Program.name))).all()
    return [ProgramSummary(p.id, p.name, p.kind, p.description, p.active, count) for p, count in rows]


async def get_program(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID) -> Program | None:
    return await REPOSITORY.get(session, org_id, program_id)


async def program_name(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID) -> str | None:
    """The program's name, deleted or not (what a confirmation card names); None when unknown here."""
    return await session.scalar(text("SELECT name FROM programs WHERE org_id = :org AND id = :id"),
                                {"org": org_id, "id": program_id})


async def search_programs(session: AsyncSession, org_id: uuid.UUID, query: str, limit: int = 10) -> list[Program]:
    """Live programs whose name resembles `query` (trigram word similarity), best first."""
    score = func.word_similarity(query.strip().lower(), func.lower(Program.name))
    rows = await session.scalars(select(Program).where(Program.org_id == org_id, Program.deleted_at.is_(None),
                                                       score >= 0.4).order_by(score.desc(), Program.name).limit(limit))
    return list(rows.all())


async def require_program(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID) -> Program:
    """The live program, or a `program_not_found` rule error (for services that reference one)."""
    program = await get_program(session, org_id, program_id)
    if program is None:
        raise GymError("program_not_found", f"No program with id {program_id} in this gym.",
                       "List the programs first and use an id from the results.")
    return program


async def create_program(session: AsyncSession, org_id: uuid.UUID, *, name: str, kind: str,
                         description: str | None = None, active: bool = True,
                         created_by: uuid.UUID | None = None) -> Program:
    _check_kind(kind)
    program = Program(id=uuid.uuid4(), org_id=org_id, name=name, kind=kind, description=description,
                      active=active, created_by=created_by)
    session.add(program)
    await session.flush()
    return program


UPDATABLE = frozenset({"name", "description", "active", "kind"})
REPOSITORY = OrgRepository(Program, "program", UPDATABLE)


async def update_program(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID,
                         patch: Mapping[str, Any]) -> Program | None:
    """Apply `patch` (name, description, active, kind); a class program cannot keep active enrollments."""
    async def rules(program: Program) -> None:
        if "kind" in patch and patch["kind"] != program.kind:
            _check_kind(patch["kind"])
            if patch["kind"] not in ENROLLABLE_KINDS and await _active_enrollments(session, org_id, program_id):
                raise GymError("program_has_enrollments",
                               "This program has enrolled members, so it cannot become a class program.",
                               "End the enrollments first, or keep it a coaching/feed program.")

    return await REPOSITORY.patch(session, org_id, program_id, patch, before=rules)


async def soft_delete_program(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID,
                              now: datetime) -> Program | None:
    return await REPOSITORY.soft_delete(session, org_id, program_id, now)


async def _active_enrollments(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID) -> int:
    return await session.scalar(select(func.count()).select_from(ProgramEnrollment).where(
        ProgramEnrollment.org_id == org_id, ProgramEnrollment.program_id == program_id,
        ProgramEnrollment.status == "active")) or 0


async def member_exists(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> bool:
    found = await session.scalar(text(
        "SELECT 1 FROM members WHERE org_id = :org AND id = :member AND deleted_at IS NULL"),
        {"org": org_id, "member": member_id})
    return found is not None


async def enroll_member(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID,
                        member_id: uuid.UUID) -> ProgramEnrollment | None:
    """Enroll a member in a coaching or feed program (re-activating an ended enrollment).

    None when the program is missing; GymError for a class program, an unknown member, or a
    member who is already enrolled.
    """
    program = await get_program(session, org_id, program_id)
    if program is None:
        return None
    if program.kind not in ENROLLABLE_KINDS:
        raise GymError("program_not_enrollable",
                       f"{program.name} is a class program; members join it by booking classes, not by enrollment.",
                       "Enroll the member in a coaching or feed program, or book them into a class.")
    if not await member_exists(session, org_id, member_id):
        raise GymError("member_not_found", f"No member with id {member_id} in this gym.",
                       "Search for the member first and use an id from the results.")
    enrollment = await session.scalar(select(ProgramEnrollment).where(
        and_(ProgramEnrollment.org_id == org_id, ProgramEnrollment.program_id == program_id,
             ProgramEnrollment.member_id == member_id)).with_for_update())
    if enrollment is not None and enrollment.status == "active":
        raise GymError("already_enrolled", f"The member is already enrolled in {program.name}.",
                       "Nothing to do; tell the user they are already enrolled.")
    if enrollment is None:
        enrollment = ProgramEnrollment(id=uuid.uuid4(), org_id=org_id, program_id=program_id,
                                       member_id=member_id, status="active")
        session.add(enrollment)
    else:
        enrollment.status, enrollment.ended_at, enrollment.enrolled_at = "active", None, datetime.now(UTC)
    await session.flush()
    return enrollment


async def end_enrollment(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID,
                         member_id: uuid.UUID, now: datetime) -> ProgramEnrollment | None:
    """Mark an active enrollment ended; None when there is none."""
    enrollment = await session.scalar(select(ProgramEnrollment).where(
        ProgramEnrollment.org_id == org_id, ProgramEnrollment.program_id == program_id,
        ProgramEnrollment.member_id == member_id, ProgramEnrollment.status == "active"))
    if enrollment is None:
        return None
    enrollment.status, enrollment.ended_at = "ended", now
    await session.flush()
    return enrollment


async def member_program_ids(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID) -> list[uuid.UUID]:
    """Programs a member is actively enrolled in (for member profiles)."""
    rows = await session.scalars(select(ProgramEnrollment.program_id).where(
        ProgramEnrollment.org_id == org_id, ProgramEnrollment.member_id == member_id,
        ProgramEnrollment.status == "active"))
    return list(rows.all())
