"""Assignments (a workout for a member or a program on a date), bulk operations, comments and read markers.

Bulk operations take an `AssignmentFilter`; `bulk_preview` lists exactly the rows it hits with a
fingerprint, and `bulk_publish`/`bulk_delete` refuse to run when the matching set is no longer the
previewed one, so a confirmed bulk action touches exactly what the user saw.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import ColumnElement, ForeignKey, Row, Text, func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base, rowcount
from core.mixins import CreatedAt, OrgRow, OrgScoped, Timestamps
from gym import workouts
from gym.errors import GymError
from gym.fingerprint import fingerprint
from gym.programs import get_program, member_exists, require_program
from gym.repository import OrgRepository
from gym.workouts import Workout

SAMPLE_SIZE = 20


class Assignment(OrgRow, Timestamps, Base):
    __tablename__ = "assignments"
    __mapper_args__ = {"eager_defaults": True}

    workout_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("workouts.id", ondelete="CASCADE"))
    member_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    program_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("programs.id", ondelete="SET NULL"))
    scheduled_on: Mapped[date]
    published: Mapped[bool] = mapped_column(default=False)
    coach_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    deleted_at: Mapped[datetime | None]


class WorkoutComment(OrgRow, CreatedAt, Base):
    __tablename__ = "workout_comments"
    __mapper_args__ = {"eager_defaults": True}

    assignment_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("assignments.id", ondelete="CASCADE"))
    author_member_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("members.id", ondelete="SET NULL"))
    author_user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    body: Mapped[str] = mapped_column(Text)


class CommentReadMarker(OrgScoped, Base):
    __tablename__ = "comment_read_markers"

    comment_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("workout_comments.id", ondelete="CASCADE"),
                                                  primary_key=True)
    coach_user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    read_at: Mapped[datetime] = mapped_column(server_default=func.now())


# --- single assignments -------------------------------------------------------------------------------

async def _live_workout(session: AsyncSession, org_id: uuid.UUID, workout_id: uuid.UUID) -> Workout:
    workout = await workouts.REPOSITORY.get(session, org_id, workout_id)
    if workout is None:
        raise GymError("workout_not_found", f"No workout with id {workout_id} in this gym.",
                       "Create the workout first, or search for it and use its id.")
    return workout


async def assign_personal(session: AsyncSession, org_id: uuid.UUID, *, workout_id: uuid.UUID,
                          member_id: uuid.UUID, scheduled_on: date, coach_user_id: uuid.UUID | None = None,
                          published: bool = False, program_id: uuid.UUID | None = None) -> Assignment:
    """A 1-on-1 assignment of a workout to a member; the program defaults to the workout's program."""
    workout = await _live_workout(session, org_id, workout_id)
    if not await member_exists(session, org_id, member_id):
        raise GymError("member_not_found", f"No member with id {member_id} in this gym.",
                       "Search for the member first and use an id from the results.")
    if program_id is not None:
        await require_program(session, org_id, program_id)
    assignment = Assignment(id=uuid.uuid4(), org_id=org_id, workout_id=workout_id, member_id=member_id,
                            program_id=program_id or workout.program_id, scheduled_on=scheduled_on,
                            published=published, coach_user_id=coach_user_id)
    session.add(assignment)
    await session.flush()
    return assignment


async def assign_to_program(session: AsyncSession, org_id: uuid.UUID, *, workout_id: uuid.UUID,
                            program_id: uuid.UUID, scheduled_on: date, published: bool = False,
                            coach_user_id: uuid.UUID | None = None) -> Assignment:
    """A workout scheduled for everyone in a (class or feed) program on a date."""
    await _live_workout(session, org_id, workout_id)
    await require_program(session, org_id, program_id)
    assignment = Assignment(id=uuid.uuid4(), org_id=org_id, workout_id=workout_id, program_id=program_id,
                            scheduled_on=scheduled_on, published=published, coach_user_id=coach_user_id)
    session.add(assignment)
    await session.flush()
    return assignment


UPDATABLE = frozenset({"scheduled_on", "coach_user_id", "workout_id", "published"})
REPOSITORY = OrgRepository(Assignment, "assignment", UPDATABLE)


async def get_assignment(session: AsyncSession, org_id: uuid.UUID, assignment_id: uuid.UUID) -> Assignment | None:
    return await REPOSITORY.get(session, org_id, assignment_id)


async def assignment_day(session: AsyncSession, org_id: uuid.UUID, assignment_id: uuid.UUID) -> Row[Any] | None:
    """The live assignment's workout `title` and its `scheduled_on`, for the card that asks before deleting it."""
    return (await session.execute(text(
        "SELECT w.title, a.scheduled_on FROM assignments a JOIN workouts w ON w.id = a.workout_id "
        "WHERE a.org_id = :org AND a.id = :id AND a.deleted_at IS NULL"), {"org": org_id, "id": assignment_id})).first()


async def update_assignment(session: AsyncSession, org_id: uuid.UUID, assignment_id: uuid.UUID,
                            patch: Mapping[str, Any]) -> Assignment | None:
    """Patch date, coach, workout or published flag; None when missing."""
    async def rules(_: Assignment) -> None:
        if patch.get("workout_id") is not None:
            await _live_workout(session, org_id, patch["workout_id"])

    return await REPOSITORY.patch(session, org_id, assignment_id, patch, before=rules)


async def set_published(session: AsyncSession, org_id: uuid.UUID, assignment_id: uuid.UUID,
                        published: bool) -> Assignment | None:
    return await update_assignment(session, org_id, assignment_id, {"published": published})


async def soft_delete_assignment(session: AsyncSession, org_id: uuid.UUID, assignment_id: uuid.UUID,
                                 now: datetime) -> Assignment | None:
    return await REPOSITORY.soft_delete(session, org_id, assignment_id, now)


# --- bulk ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AssignmentFilter:
    """Which live assignments a bulk action hits; every set field narrows (dates inclusive)."""

    date_from: date | None = None
    date_to: date | None = None
    program_id: uuid.UUID | None = None
    member_id: uuid.UUID | None = None
    published: bool | None = None
    coach_user_id: uuid.UUID | None = None

    def clauses(self, org_id: uuid.UUID) -> list[ColumnElement[bool]]:
        if all(value is None for value in (self.date_from, self.date_to, self.program_id, self.member_id,
                                           self.coach_user_id)):
            raise GymError("filter_too_broad",
                           "A bulk action needs a date range, program, member or coach to narrow it.",
                           "Say which dates, program or member the action is for.")
        if self.date_from and self.date_to and self.date_from > self.date_to:
            raise GymError("invalid_range", "The date range ends before it starts.", "Swap the dates.")
        clauses = [Assignment.org_id == org_id, Assignment.deleted_at.is_(None)]
        for column, value in ((Assignment.program_id, self.program_id), (Assignment.member_id, self.member_id),
                              (Assignment.published, self.published),
                              (Assignment.coach_user_id, self.coach_user_id)):
            if value is not None:
                clauses.append(column == value)
        if self.date_from:
            clauses.append(Assignment.scheduled_on >= self.date_from)
        if self.date_to:
            clauses.append(Assignment.scheduled_on <= self.date_to)
        return clauses


@dataclass(frozen=True)
class AssignmentRow:
    id: uuid.UUID
    scheduled_on: date
    workout_id: uuid.UUID
    workout_title: str
    member_id: uuid.UUID | None
    member_name: str | None
    program_id: uuid.UUID | None
    published: bool
    program_name: str | None = None


@dataclass(frozen=True)
class BulkPreview:
    count: int
    ids: list[uuid.UUID]
    fingerprint: str
    sample: list[AssignmentRow]


@dataclass(frozen=True)
class BulkResult:
    count: int
    ids: list[uuid.UUID]
    changed: list[uuid.UUID] | None = None  # the rows whose state it changed (what its Undo reverts)


async def _matching_ids(session: AsyncSession, org_id: uuid.UUID, flt: AssignmentFilter, *,
                        lock: bool = False) -> list[uuid.UUID]:
    query = select(Assignment.id).where(*flt.clauses(org_id)).order_by(Assignment.scheduled_on, Assignment.id)
    if lock:
        query = query.with_for_update()
    return list((await session.scalars(query)).all())


async def _rows(session: AsyncSession, org_id: uuid.UUID, ids: list[uuid.UUID]) -> list[AssignmentRow]:
    if not ids:
        return []
    result = await session.execute(text("""
        SELECT a.id, a.scheduled_on, a.workout_id, w.title, a.member_id, m.full_name, a.program_id, a.published,
               p.name
        FROM assignments a
        JOIN workouts w ON w.id = a.workout_id AND w.org_id = a.org_id
        LEFT JOIN members m ON m.id = a.member_id AND m.org_id = a.org_id
        LEFT JOIN programs p ON p.id = a.program_id AND p.org_id = a.org_id
        WHERE a.org_id = :org AND a.id = ANY(:ids)
        ORDER BY a.scheduled_on, a.id"""), {"org": org_id, "ids": ids})
    return [AssignmentRow(*row) for row in result]


async def list_assignments(session: AsyncSession, org_id: uuid.UUID, flt: AssignmentFilter,
                           limit: int = 50) -> list[AssignmentRow]:
    """Assignments matching the filter with workout title and member name, by date."""
    return await _rows(session, org_id, (await _matching_ids(session, org_id, flt))[:limit])


async def rows(session: AsyncSession, org_id: uuid.UUID, ids: list[uuid.UUID]) -> list[AssignmentRow]:
    """These assignments with workout title, member and program names, by date."""
    return await _rows(session, org_id, ids)


async def bulk_preview(session: AsyncSession, org_id: uuid.UUID, flt: AssignmentFilter,
                       sample_size: int = SAMPLE_SIZE) -> BulkPreview:
    """Dry run: every id the filter hits, their fingerprint, and a labelled sample."""
    ids = await _matching_ids(session, org_id, flt)
    return BulkPreview(len(ids), ids, fingerprint(ids), await _rows(session, org_id, ids[:sample_size]))


async def _confirmed_ids(session: AsyncSession, org_id: uuid.UUID, flt: AssignmentFilter,
                         expected_ids: Collection[uuid.UUID] | None,
                         expected_fingerprint: str | None) -> list[uuid.UUID]:
    ids = await _matching_ids(session, org_id, flt, lock=True)
    stale = ((expected_ids is not None and set(ids) != set(expected_ids))
             or (expected_fingerprint is not None and fingerprint(ids) != expected_fingerprint))
    if stale:
        raise GymError("stale_preview", "The assignments matching this filter changed since the preview.",
                       "Run the preview again and confirm the new set.")
    return ids


async def bulk_publish(session: AsyncSession, org_id: uuid.UUID, flt: AssignmentFilter, *,
                       published: bool = True, expected_ids: Collection[uuid.UUID] | None = None,
                       expected_fingerprint: str | None = None) -> BulkResult:
    """Publish (or unpublish) exactly the filter's set; refuses if it differs from the expected preview."""
    ids = await _confirmed_ids(session, org_id, flt, expected_ids, expected_fingerprint)
    changed: list[uuid.UUID] = []
    if ids:
        changed = list((await session.scalars(
            update(Assignment).where(Assignment.org_id == org_id, Assignment.id.in_(ids),
                                     Assignment.published.is_not(published))
            .values(published=published, updated_at=func.now()).returning(Assignment.id)
            .execution_options(synchronize_session=False))).all())
    return BulkResult(len(ids), ids, changed)


async def bulk_delete(session: AsyncSession, org_id: uuid.UUID, flt: AssignmentFilter, now: datetime, *,
                      expected_ids: Collection[uuid.UUID] | None = None,
                      expected_fingerprint: str | None = None) -> BulkResult:
    """Soft-delete exactly the filter's set; refuses if it differs from the expected preview."""
    ids = await _confirmed_ids(session, org_id, flt, expected_ids, expected_fingerprint)
    if ids:
        await session.execute(update(Assignment).where(Assignment.org_id == org_id, Assignment.id.in_(ids))
                              .values(deleted_at=now, updated_at=func.now())
                              .execution_options(synchronize_session=False))
    return BulkResult(len(ids), ids, ids)


# --- comments -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CommentView:
    id: uuid.UUID
    assignment_id: uuid.UUID
    workout_id: uuid.UUID
    workout_title: str
    scheduled_on: date
    member_id: uuid.UUID | None
    author_member_id: uuid.UUID | None
    author_user_id: uuid.UUID | None
    author_name: str | None
    body: str
    created_at: datetime
    unread: bool | None  # None when no coach was given


COMMENTS_SQL = """
SELECT c.id, c.assignment_id, a.workout_id, w.title AS workout_title, a.scheduled_on, a.member_id,
       c.author_member_id, c.author_user_id, COALESCE(m.full_name, u.name) AS author_name, c.body, c.created_at,
       CASE WHEN CAST(:coach AS uuid) IS NULL THEN NULL
            ELSE c.author_user_id IS DISTINCT FROM CAST(:coach AS uuid) AND NOT EXISTS (
              SELECT 1 FROM comment_read_markers r WHERE r.comment_id = c.id AND r.coach_user_id = CAST(:coach AS uuid))
       END AS unread
FROM workout_comments c
JOIN assignments a ON a.id = c.assignment_id AND a.org_id = c.org_id AND a.deleted_at IS NULL
JOIN workouts w ON w.id = a.workout_id AND w.org_id = c.org_id
LEFT JOIN members m ON m.id = c.author_member_id AND m.org_id = c.org_id
LEFT JOIN users u ON u.id = c.author_user_id
WHERE c.org_id = :org AND {where}
"""


async def comments_in_program(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID, *,
                              coach_user_id: uuid.UUID | None = None, unread_only: bool = False,
                              since: datetime | None = None, limit: int = 50) -> list[CommentView] | None:
    """Recent comments on the program's assignments, newest first; None when the program is missing.

    `unread_only` (needs `coach_user_id`) keeps comments that coach has not read and did not write.
    """
    if await get_program(session, org_id, program_id) is None:
        return None
    if unread_only and coach_user_id is None:
        raise GymError("coach_required", "Unread comments are per coach.", "Pass the coach's user id.")
    where = "a.program_id = :program AND (CAST(:since AS timestamptz) IS NULL OR c.created_at >= :since)"
    sql = COMMENTS_SQL.format(where=where)
    if unread_only:
        sql = f"SELECT * FROM ({sql}) AS t WHERE t.unread"
    result = await session.execute(text(sql + " ORDER BY created_at DESC, id LIMIT :limit"),
                                   {"org": org_id, "program": program_id, "coach": coach_user_id,
                                    "since": since, "limit": limit})
    return [CommentView(**row._mapping) for row in result]


async def comment_thread(session: AsyncSession, org_id: uuid.UUID, assignment_id: uuid.UUID, *,
                         coach_user_id: uuid.UUID | None = None) -> list[CommentView] | None:
    """Every comment on one assignment, oldest first; None when the assignment is missing."""
    if await get_assignment(session, org_id, assignment_id) is None:
        return None
    result = await session.execute(
        text(COMMENTS_SQL.format(where="c.assignment_id = :assignment") + " ORDER BY c.created_at, c.id"),
        {"org": org_id, "assignment": assignment_id, "coach": coach_user_id})
    return [CommentView(**row._mapping) for row in result]


async def add_comment(session: AsyncSession, org_id: uuid.UUID, assignment_id: uuid.UUID, *, body: str,
                      author_member_id: uuid.UUID | None = None,
                      author_user_id: uuid.UUID | None = None) -> WorkoutComment | None:
    if await get_assignment(session, org_id, assignment_id) is None:
        return None
    comment = WorkoutComment(id=uuid.uuid4(), org_id=org_id, assignment_id=assignment_id, body=body,
                             author_member_id=author_member_id, author_user_id=author_user_id)
    session.add(comment)
    await session.flush()
    return comment


async def mark_comments_read(session: AsyncSession, org_id: uuid.UUID, coach_user_id: uuid.UUID, *,
                             assignment_id: uuid.UUID | None = None, program_id: uuid.UUID | None = None,
                             now: datetime | None = None) -> int:
    """Mark every comment on one assignment, or in one program, read for this coach; returns how many
    were newly marked."""
    if (assignment_id is None) == (program_id is None):
        raise GymError("invalid_scope", "Mark comments read for one assignment or one program.",
                       "Pass exactly one of assignmentId or programId.")
    scope = "a.id = :scope" if assignment_id else "a.program_id = :scope"
    result = await session.execute(text(f"""
        INSERT INTO comment_read_markers (org_id, comment_id, coach_user_id, read_at)
        SELECT c.org_id, c.id, CAST(:coach AS uuid), CAST(:now AS timestamptz)
        FROM workout_comments c JOIN assignments a ON a.id = c.assignment_id AND a.org_id = c.org_id
        WHERE c.org_id = :org AND a.deleted_at IS NULL AND {scope}
        ON CONFLICT (comment_id, coach_user_id) DO NOTHING"""),
        {"org": org_id, "coach": coach_user_id, "scope": assignment_id or program_id, "now": now or datetime.now(UTC)})
    return rowcount(result)
