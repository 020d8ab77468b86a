"""Workouts: freeform text or structured sections → movements with prescriptions (soft delete).

Structured movements name an exercise when the name resolves cleanly (gym.exercises.resolve_batch);
names that stay ambiguous or unknown are kept as written and reported back to the caller. The shapes a workout
is written from (`MovementIn`, `SectionIn`) and the whiteboard reader (`parse_workout_text`) live in
gym/workout_text.py and are re-exported here: create_workout and set_sections take them.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import ForeignKey, Row, String, Text, UniqueConstraint, delete, func, insert, select, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import OrgRow, Timestamps
from gym.errors import GymError
from gym.exercises import existing_exercise_ids, resolve_batch
from gym.programs import require_program
from gym.repository import OrgRepository
from gym.workout_text import MovementIn as MovementIn
from gym.workout_text import SectionIn as SectionIn
from gym.workout_text import parse_workout_text as parse_workout_text

PRESCRIPTION_KEYS = ("sets", "reps", "distance_m", "duration_s", "load_kg", "load_pct", "calories", "notes")
TITLE_FLOOR = 0.5  # word similarity of a title search to a workout's title


class Workout(OrgRow, Timestamps, Base):
    __tablename__ = "workouts"
    __mapper_args__ = {"eager_defaults": True}

    program_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("programs.id", ondelete="SET NULL"))
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text)
    scheduled_on: Mapped[date | None]
    format: Mapped[str] = mapped_column(String(12), default="freeform")
    freeform_text: Mapped[str | None] = mapped_column(Text)
    deleted_at: Mapped[datetime | None]
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


class WorkoutSection(OrgRow, Base):
    __tablename__ = "workout_sections"
    __table_args__ = (UniqueConstraint("workout_id", "position", name="uq_workout_sections_position"),)

    workout_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("workouts.id", ondelete="CASCADE"))
    position: Mapped[int]
    title: Mapped[str | None] = mapped_column(String(200))
    scheme: Mapped[str | None] = mapped_column(String(200))
    rounds: Mapped[int | None]
    notes: Mapped[str | None] = mapped_column(Text)


class WorkoutMovement(OrgRow, Base):
    __tablename__ = "workout_movements"
    __table_args__ = (UniqueConstraint("section_id", "position", name="uq_workout_movements_position"),)

    section_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("workout_sections.id", ondelete="CASCADE"))
    position: Mapped[int]
    exercise_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("exercises.id", ondelete="SET NULL"))
    name: Mapped[str] = mapped_column(String(200))
    prescription: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)


@dataclass
class WorkoutDraft:
    """Everything needed to insert one workout; `id` is only set by deterministic seeding."""

    title: str
    description: str | None = None
    program_id: uuid.UUID | None = None
    scheduled_on: date | None = None
    freeform_text: str | None = None
    sections: list[SectionIn] | None = None
    created_by: uuid.UUID | None = None
    id: uuid.UUID | None = None


@dataclass
class SectionDetail:
    section: WorkoutSection
    movements: list[WorkoutMovement]


@dataclass
class WorkoutDetail:
    workout: Workout
    sections: list[SectionDetail]
    unresolved: list[dict[str, Any]] = field(default_factory=list)


def clean_prescription(prescription: Mapping[str, Any]) -> dict[str, Any]:
    """Known keys with values only; unknown keys are a caller error."""
    unknown = set(prescription) - set(PRESCRIPTION_KEYS)
    if unknown:
        raise GymError("invalid_prescription", f"Unknown prescription fields: {', '.join(sorted(unknown))}.",
                       f"Use only: {', '.join(PRESCRIPTION_KEYS)}.")
    return {key: value for key, value in prescription.items() if value is not None and value != ""}


async def _resolve_movements(session: AsyncSession, org_id: uuid.UUID,
                             drafts: Sequence[WorkoutDraft]) -> tuple[dict[str, uuid.UUID], list[dict[str, Any]]]:
    """One resolve_batch call for every distinct unnamed movement; checks given exercise ids belong here."""
    movements = [m for d in drafts for s in d.sections or [] for m in s.movements]
    given = {m.exercise_id for m in movements if m.exercise_id}
    missing = given - await existing_exercise_ids(session, org_id, given)
    if missing:
        raise GymError("exercise_not_found", f"No exercise with id {sorted(missing)[0]} in this gym.",
                       "Resolve movement names with exercises__resolve_batch first.")
    names = list(dict.fromkeys(m.name for m in movements if not m.exercise_id))
    results = await resolve_batch(session, org_id, names)
    resolved = {r["name"]: r["exerciseId"] for r in results if r["status"] == "resolved"}
    return resolved, [r for r in results if r["status"] != "resolved"]


def _section_rows(org_id: uuid.UUID, workout_id: uuid.UUID, id_base: uuid.UUID, sections: Sequence[SectionIn],
                  resolved: Mapping[str, uuid.UUID], out: tuple[list[dict], list[dict]]) -> None:
    """Append a workout's section and movement rows to `out`; ids are uuid5 of `id_base` and the position."""
    section_rows, movement_rows = out
    for s_pos, section in enumerate(sections):
        section_id = uuid.uuid5(id_base, f"section/{s_pos}")
        section_rows.append({"id": section_id, "org_id": org_id, "workout_id": workout_id, "position": s_pos,
                             "title": section.title, "scheme": section.scheme, "rounds": section.rounds,
                             "notes": section.notes})
        movement_rows.extend({"id": uuid.uuid5(id_base, f"movement/{s_pos}/{m_pos}"), "org_id": org_id,
                              "section_id": section_id, "position": m_pos, "name": m.name,
                              "exercise_id": m.exercise_id or resolved.get(m.name),
                              "prescription": clean_prescription(m.prescription)}
                             for m_pos, m in enumerate(section.movements))


async def _insert(session: AsyncSession, *batches: tuple[Any, list[dict]]) -> None:
    for table, rows in batches:
        if rows:
            await session.execute(insert(table), rows)


async def insert_workouts(session: AsyncSession, org_id: uuid.UUID, drafts: Sequence[WorkoutDraft],
                          ) -> tuple[list[uuid.UUID], list[dict[str, Any]]]:
    """Insert workouts with their sections and movements in three statements; returns ids and unresolved names.

    Section and movement ids derive from the workout id, so seeding with fixed workout ids is repeatable.
    """
    resolved, unresolved = await _resolve_movements(session, org_id, drafts)
    workouts: list[dict] = []
    children: tuple[list[dict], list[dict]] = ([], [])
    for draft in drafts:
        workout_id = draft.id or uuid.uuid4()
        workouts.append({"id": workout_id, "org_id": org_id, "program_id": draft.program_id, "title": draft.title,
                         "description": draft.description, "scheduled_on": draft.scheduled_on,
                         "format": "structured" if draft.sections else "freeform",
                         "freeform_text": draft.freeform_text, "created_by": draft.created_by})
        _section_rows(org_id, workout_id, workout_id, draft.sections or [], resolved, children)
    await _insert(session, (Workout.__table__, workouts), (WorkoutSection.__table__, children[0]),
                  (WorkoutMovement.__table__, children[1]))
    return [w["id"] for w in workouts], unresolved


async def create_workout(session: AsyncSession, org_id: uuid.UUID, *, title: str,
                         created_by: uuid.UUID | None = None, description: str | None = None,
                         program_id: uuid.UUID | None = None, scheduled_on: date | None = None,
                         freeform_text: str | None = None, sections: list[SectionIn] | None = None,
                         structure_from_text: bool = False) -> WorkoutDetail:
    """Create a freeform workout (text kept as written) or a structured one.

    With `structure_from_text`, the sections come from `parse_workout_text(freeform_text)`.
    """
    if program_id is not None:
        await require_program(session, org_id, program_id)
    if structure_from_text and not sections and freeform_text:
        sections = parse_workout_text(freeform_text) or None
    if not sections and not freeform_text:
        raise GymError("empty_workout", "A workout needs either text or at least one section.",
                       "Pass the workout as freeform text, or as sections with movements.")
    draft = WorkoutDraft(title=title, description=description, program_id=program_id, scheduled_on=scheduled_on,
                         freeform_text=freeform_text, sections=sections, created_by=created_by)
    (workout_id,), unresolved = await insert_workouts(session, org_id, [draft])
    detail = await get_workout(session, org_id, workout_id)
    assert detail is not None
    detail.unresolved = unresolved
    return detail


UPDATABLE = frozenset({"title", "description", "scheduled_on", "program_id", "freeform_text"})
REPOSITORY = OrgRepository(Workout, "workout", UPDATABLE, hint=" Use set_sections for the movements.")


async def _live(session: AsyncSession, org_id: uuid.UUID, workout_id: uuid.UUID) -> Workout | None:
    return await REPOSITORY.get(session, org_id, workout_id)


async def get_workout(session: AsyncSession, org_id: uuid.UUID, workout_id: uuid.UUID) -> WorkoutDetail | None:
    """The workout with its sections and movements in order; None when missing or deleted."""
    workout = await _live(session, org_id, workout_id)
    if workout is None:
        return None
    sections = list((await session.scalars(select(WorkoutSection).where(
        WorkoutSection.org_id == org_id, WorkoutSection.workout_id == workout_id)
        .order_by(WorkoutSection.position))).all())
    movements = (await session.scalars(select(WorkoutMovement).where(
        WorkoutMovement.org_id == org_id, WorkoutMovement.section_id.in_([s.id for s in sections]))
        .order_by(WorkoutMovement.position))).all() if sections else []
    by_section: dict[uuid.UUID, list[WorkoutMovement]] = {s.id: [] for s in sections}
    for movement in movements:
        by_section[movement.section_id].append(movement)
    return WorkoutDetail(workout, [SectionDetail(s, by_section[s.id]) for s in sections])


async def workout_title(session: AsyncSession, org_id: uuid.UUID, workout_id: uuid.UUID) -> str | None:
    """The workout's title, deleted or not (an assignment still names it); None when unknown here."""
    return await session.scalar(select(Workout.title).where(Workout.org_id == org_id, Workout.id == workout_id))


async def workout_in_use(session: AsyncSession, org_id: uuid.UUID, workout_id: uuid.UUID) -> Row[Any] | None:
    """The live workout's `title`, `created_at` and how many live assignments use it (`used`), for the card that
    asks before deleting it; None when missing or deleted."""
    return (await session.execute(text(
        "SELECT w.title, w.created_at, (SELECT count(*) FROM assignments a WHERE a.workout_id = w.id "
        "AND a.deleted_at IS NULL) AS used FROM workouts w WHERE w.org_id = :org AND w.id = :id "
        "AND w.deleted_at IS NULL"), {"org": org_id, "id": workout_id})).first()


async def update_workout(session: AsyncSession, org_id: uuid.UUID, workout_id: uuid.UUID,
                         patch: Mapping[str, Any]) -> Workout | None:
    """Patch title/description/scheduled_on/program_id/freeform_text; None when missing."""
    async def rules(workout: Workout) -> None:
        if patch.get("program_id") is not None:
            await require_program(session, org_id, patch["program_id"])

    return await REPOSITORY.patch(session, org_id, workout_id, patch, before=rules)


async def set_sections(session: AsyncSession, org_id: uuid.UUID, workout_id: uuid.UUID,
                       sections: list[SectionIn]) -> WorkoutDetail | None:
    """Replace every section and movement of a workout wholesale; None when the workout is missing."""
    workout = await _live(session, org_id, workout_id)
    if workout is None:
        return None
    resolved, unresolved = await _resolve_movements(session, org_id, [WorkoutDraft(title="", sections=sections)])
    await session.execute(delete(WorkoutSection).where(WorkoutSection.org_id == org_id,
                                                       WorkoutSection.workout_id == workout_id)
                          .execution_options(synchronize_session=False))
    children: tuple[list[dict], list[dict]] = ([], [])
    # A fresh id base: the replaced rows are gone and their ids must not come back.
    _section_rows(org_id, workout_id, uuid.uuid4(), sections, resolved, children)
    await _insert(session, (WorkoutSection.__table__, children[0]), (WorkoutMovement.__table__, children[1]))
    workout.format = "structured" if sections else "freeform"
    workout.updated_at = datetime.now(UTC)
    await session.flush()
    detail = await get_workout(session, org_id, workout_id)
    assert detail is not None
    detail.unresolved = unresolved
    return detail


async def soft_delete_workout(session: AsyncSession, org_id: uuid.UUID, workout_id: uuid.UUID,
                              now: datetime) -> Workout | None:
    return await REPOSITORY.soft_delete(session, org_id, workout_id, now)


async def list_workouts(session: AsyncSession, org_id: uuid.UUID, *, program_id: uuid.UUID | None = None,
                        date_from: date | None = None, date_to: date | None = None, title: str | None = None,
                        limit: int = 50) -> list[Workout]:
    """Live workouts, newest date first; `title` ranks by trigram similarity instead."""
    query = select(Workout).where(Workout.org_id == org_id, Workout.deleted_at.is_(None))
    if program_id:
        query = query.where(Workout.program_id == program_id)
    if date_from:
        query = query.where(Workout.scheduled_on >= date_from)
    if date_to:
        query = query.where(Workout.scheduled_on <= date_to)
    if title:
        # Only the titles the trigram index offers are read, with their word similarity (migration 0014).
        offered = func.workout_title_candidates(org_id, title.lower(), TITLE_FLOOR - 0.01) \
            .table_valued("id", "similarity").render_derived()
        query = query.join(offered, offered.c.id == Workout.id).where(offered.c.similarity >= TITLE_FLOOR)
        query = query.order_by(offered.c.similarity.desc(), Workout.scheduled_on.desc().nulls_last())
    else:
        query = query.order_by(Workout.scheduled_on.desc().nulls_last(), Workout.created_at.desc())
    return list((await session.scalars(query.limit(limit))).all())


async def workouts_by_ids(session: AsyncSession, org_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> list[Workout]:
    """Live workouts in the order of `ids`; deleted or unknown ones drop out."""
    if not ids:
        return []
    found = {w.id: w for w in await session.scalars(select(Workout).where(
        Workout.org_id == org_id, Workout.deleted_at.is_(None), Workout.id.in_(ids)))}
    return [found[i] for i in ids if i in found]
