"""Program templates: weeks × days of workouts, written by hand or derived from a program's history,
and applied to a program as dated workouts with program assignments.

`structure` is a list of days: `{week, day, title, freeform_text}` or `{week, day, title, sections:
[{title, scheme, rounds, notes, movements: [{name, exercise_id, prescription}]}]}`; week and day
count from 1, day 1 being the first day of each template week.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import ForeignKey, Row, String, Text, insert, select, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import CreatedAt, OrgRow
from gym.assignments import Assignment
from gym.errors import GymError
from gym.programs import require_program
from gym.workouts import (
    MovementIn,
    SectionIn,
    Workout,
    WorkoutDraft,
    WorkoutMovement,
    WorkoutSection,
    clean_prescription,
    insert_workouts,
)

MAX_WEEKS = 104
APPLICABLE_KINDS = ("class", "feed")


class ProgramTemplate(OrgRow, CreatedAt, Base):
    __tablename__ = "program_templates"
    __mapper_args__ = {"eager_defaults": True}

    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text)
    weeks: Mapped[int]
    structure: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    source: Mapped[str] = mapped_column(String(10), default="manual")
    created_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


@dataclass(frozen=True)
class AppliedWorkout:
    id: uuid.UUID
    title: str
    scheduled_on: date


@dataclass
class AppliedTemplate:
    template_id: uuid.UUID
    program_id: uuid.UUID
    start_on: date
    end_on: date
    workouts: list[AppliedWorkout]
    assignment_ids: list[uuid.UUID]
    unresolved: list[dict[str, Any]] = field(default_factory=list)


def _invalid(message: str) -> GymError:
    return GymError("invalid_template", message, "Each day needs week (1..weeks), day (1..7), a title, and "
                    "freeform_text or sections with movements.")


def _clean_section(section: dict[str, Any]) -> dict[str, Any]:
    movements = section.get("movements") or []
    if not movements:
        raise _invalid("A template section has no movements.")
    return {"title": section.get("title"), "scheme": section.get("scheme"), "rounds": section.get("rounds"),
            "notes": section.get("notes"),
            "movements": [{"name": str(m["name"]),
                           "exercise_id": str(m["exercise_id"]) if m.get("exercise_id") else None,
                           "prescription": clean_prescription(m.get("prescription") or {})} for m in movements]}


def validate_structure(weeks: int, structure: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The structure in canonical form (sorted by week, day), or an `invalid_template` rule error."""
    if not 1 <= weeks <= MAX_WEEKS:
        raise _invalid(f"A template runs 1 to {MAX_WEEKS} weeks, not {weeks}.")
    if not structure:
        raise _invalid("A template needs at least one day.")
    days = []
    for entry in structure:
        week, day, title = entry.get("week"), entry.get("day"), entry.get("title")
        if not isinstance(week, int) or not 1 <= week <= weeks or not isinstance(day, int) or not 1 <= day <= 7:
            raise _invalid(f"Day entry week={week} day={day} is outside {weeks} week(s) × 7 days.")
        if not title:
            raise _invalid(f"Week {week} day {day} has no title.")
        clean: dict[str, Any] = {"week": week, "day": day, "title": str(title)}
        if entry.get("sections"):
            clean["sections"] = [_clean_section(s) for s in entry["sections"]]
        elif entry.get("freeform_text"):
            clean["freeform_text"] = str(entry["freeform_text"])
        else:
            raise _invalid(f"Week {week} day {day} has neither freeform_text nor sections.")
        days.append(clean)
    return sorted(days, key=lambda d: (d["week"], d["day"]))


async def list_templates(session: AsyncSession, org_id: uuid.UUID, limit: int = 50) -> list[ProgramTemplate]:
    return list((await session.scalars(select(ProgramTemplate).where(ProgramTemplate.org_id == org_id)
                                       .order_by(ProgramTemplate.name).limit(limit))).all())


async def get_template(session: AsyncSession, org_id: uuid.UUID, template_id: uuid.UUID) -> ProgramTemplate | None:
    return await session.scalar(select(ProgramTemplate).where(ProgramTemplate.org_id == org_id,
                                                              ProgramTemplate.id == template_id))


async def template_into_program(session: AsyncSession, org_id: uuid.UUID, template_id: uuid.UUID,
                                program_id: uuid.UUID) -> Row[Any] | None:
    """The template's `name` and how many days it holds (`days`), with the `program` it would go into, for the card
    that asks before applying it; None when either is unknown here."""
    return (await session.execute(text(
        "SELECT t.name, jsonb_array_length(t.structure) AS days, p.name AS program "
        "FROM program_templates t JOIN programs p ON p.org_id = t.org_id AND p.id = :program "
        "WHERE t.org_id = :org AND t.id = :id"), {"org": org_id, "id": template_id, "program": program_id})).first()


async def create_template(session: AsyncSession, org_id: uuid.UUID, *, name: str, weeks: int,
                          structure: list[dict[str, Any]], description: str | None = None, source: str = "manual",
                          created_by: uuid.UUID | None = None, template_id: uuid.UUID | None = None,
                          ) -> ProgramTemplate:
    template = ProgramTemplate(id=template_id or uuid.uuid4(), org_id=org_id, name=name, description=description,
                               weeks=weeks, structure=validate_structure(weeks, structure), source=source,
                               created_by=created_by)
    session.add(template)
    await session.flush()
    return template


def _sections(entry: dict[str, Any]) -> list[SectionIn] | None:
    if not entry.get("sections"):
        return None
    return [SectionIn(title=s.get("title"), scheme=s.get("scheme"), rounds=s.get("rounds"), notes=s.get("notes"),
                      movements=[MovementIn(name=m["name"],
                                            exercise_id=uuid.UUID(m["exercise_id"]) if m.get("exercise_id") else None,
                                            prescription=m.get("prescription") or {}) for m in s["movements"]])
            for s in entry["sections"]]


async def apply_template(session: AsyncSession, org_id: uuid.UUID, template_id: uuid.UUID, *,
                         program_id: uuid.UUID, start_on: date, created_by: uuid.UUID | None = None,
                         coach_user_id: uuid.UUID | None = None, published: bool = False) -> AppliedTemplate | None:
    """Materialize a template into a class or feed program from `start_on`: one workout per template day
    plus its program assignment (unpublished unless asked). None when the template is missing."""
    template = await get_template(session, org_id, template_id)
    if template is None:
        return None
    program = await require_program(session, org_id, program_id)
    if program.kind not in APPLICABLE_KINDS:
        raise GymError("program_not_applicable",
                       f"{program.name} is a coaching program; templates fill class or feed programs.",
                       "Apply the template to a class or feed program, or assign workouts to members one by "
                       "one with assign_personal.")
    drafts = [WorkoutDraft(title=entry["title"], program_id=program_id, freeform_text=entry.get("freeform_text"),
                           sections=_sections(entry), created_by=created_by,
                           scheduled_on=start_on + timedelta(days=(entry["week"] - 1) * 7 + entry["day"] - 1))
              for entry in template.structure]
    ids, unresolved = await insert_workouts(session, org_id, drafts)
    assignments: list[dict[str, Any]] = [{"id": uuid.uuid4(), "org_id": org_id, "workout_id": workout_id, "program_id": program_id,
                    "scheduled_on": draft.scheduled_on, "published": published, "coach_user_id": coach_user_id}
                   for workout_id, draft in zip(ids, drafts, strict=True)]
    await session.execute(insert(Assignment), assignments)
    workouts = [AppliedWorkout(i, d.title, d.scheduled_on) for i, d in zip(ids, drafts, strict=True)
                if d.scheduled_on is not None]
    return AppliedTemplate(template.id, program_id, start_on, start_on + timedelta(days=template.weeks * 7 - 1),
                           workouts, [a["id"] for a in assignments], unresolved)


async def history_structure(session: AsyncSession, org_id: uuid.UUID, program_id: uuid.UUID, date_from: date,
                            date_to: date) -> tuple[int, list[dict[str, Any]]]:
    """Weeks and days (week 1 starting at `date_from`) of the program's live dated workouts in the range."""
    if date_to < date_from:
        raise GymError("invalid_range", "The date range ends before it starts.", "Swap the dates.")
    weeks = (date_to - date_from).days // 7 + 1
    if weeks > MAX_WEEKS:
        raise GymError("invalid_range", f"A template covers at most {MAX_WEEKS} weeks.",
                       "Pick a shorter range.")
    workouts = (await session.scalars(select(Workout).where(
        Workout.org_id == org_id, Workout.program_id == program_id, Workout.deleted_at.is_(None),
        Workout.scheduled_on >= date_from, Workout.scheduled_on <= date_to)
        .order_by(Workout.scheduled_on, Workout.created_at))).all()
    sections = (await session.scalars(select(WorkoutSection).where(
        WorkoutSection.org_id == org_id, WorkoutSection.workout_id.in_([w.id for w in workouts]))
        .order_by(WorkoutSection.position))).all() if workouts else []
    movements = (await session.scalars(select(WorkoutMovement).where(
        WorkoutMovement.org_id == org_id, WorkoutMovement.section_id.in_([s.id for s in sections]))
        .order_by(WorkoutMovement.position))).all() if sections else []
    by_section: dict[uuid.UUID, list[dict[str, Any]]] = {s.id: [] for s in sections}
    for m in movements:
        by_section[m.section_id].append({"name": m.name, "exercise_id": str(m.exercise_id) if m.exercise_id else None,
                                         "prescription": m.prescription})
    by_workout: dict[uuid.UUID, list[dict[str, Any]]] = {w.id: [] for w in workouts}
    for s in sections:
        if by_section[s.id]:
            by_workout[s.workout_id].append({"title": s.title, "scheme": s.scheme, "rounds": s.rounds,
                                             "notes": s.notes, "movements": by_section[s.id]})
    structure = []
    for w in workouts:
        offset = ((w.scheduled_on or date_from) - date_from).days
        entry: dict[str, Any] = {"week": offset // 7 + 1, "day": offset % 7 + 1, "title": w.title}
        if by_workout[w.id]:
            entry["sections"] = by_workout[w.id]
        elif w.freeform_text:
            entry["freeform_text"] = w.freeform_text
        else:
            continue
        structure.append(entry)
    return weeks, structure


async def template_from_history(session: AsyncSession, org_id: uuid.UUID, *, program_id: uuid.UUID,
                                date_from: date, date_to: date, name: str, description: str | None = None,
                                created_by: uuid.UUID | None = None,
                                template_id: uuid.UUID | None = None) -> ProgramTemplate:
    """Save the program's workouts between two dates as a reusable template (source 'history')."""
    program = await require_program(session, org_id, program_id)
    weeks, structure = await history_structure(session, org_id, program_id, date_from, date_to)
    if not structure:
        raise GymError("no_history", f"{program.name} has no workouts between {date_from} and {date_to}.",
                       "Pick a range that has workouts.")
    return await create_template(session, org_id, name=name, weeks=weeks, structure=structure,
                                 description=description, source="history", created_by=created_by,
                                 template_id=template_id)
