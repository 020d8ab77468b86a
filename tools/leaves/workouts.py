"""workouts: build and edit workouts (create ↺ delete, update, set_sections, delete).

A workout is freeform text, or sections (a scheme such as "3 rounds" or "AMRAP 12") of movements with a
prescription. Movement names are resolved to the exercise library; names that stay ambiguous or unknown
come back as `unresolved` so the model can ask the user instead of guessing.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gym import workouts as service
from gym.exercises import exercise_names
from tools import confirm_summaries as card
from tools.context import ToolContext
from tools.dates import ToolDate
from tools.errors import not_found
from tools.registry import OWNER_ADMIN_COACH, Audit, Inverse, ToolRouter, by_id
from tools.restore import add_restore, restore_inverse

workouts = ToolRouter("workouts")
TEXT_PREVIEW = 600

# Tool-facing prescription keys ↔ the service's stored keys.
PRESCRIPTION_KEYS = {"sets": "sets", "reps": "reps", "distanceM": "distance_m", "durationS": "duration_s",
                     "loadKg": "load_kg", "loadPct": "load_pct", "calories": "calories", "notes": "notes"}
STORED_KEYS = {stored: key for key, stored in PRESCRIPTION_KEYS.items()}


# --- inputs --------------------------------------------------------------------------------------------

class PrescriptionInput(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt key must not vanish silently

    sets: int | None = Field(None, ge=1, le=100)
    reps: int | None = Field(None, ge=1, le=10000)
    distanceM: float | None = Field(None, gt=0, le=100000, description="Distance in metres (1 mile = 1609).")
    durationS: int | None = Field(None, ge=1, le=86400, description="Duration in seconds.")
    loadKg: float | None = Field(None, gt=0, le=1000, description="Load in kg (convert lb: × 0.4536).")
    loadPct: float | None = Field(None, gt=0, le=200, description="Load as % of 1RM.")
    calories: int | None = Field(None, ge=1, le=10000)
    notes: str | None = Field(None, max_length=300, description="Anything else, e.g. 'Rx 43/30kg', 'unbroken'.")

    def stored(self) -> dict[str, Any]:
        return {PRESCRIPTION_KEYS[k]: v for k, v in self.model_dump(exclude_none=True).items()}


class MovementInput(BaseModel):
    name: str = Field(min_length=1, max_length=200,
                      description="The movement as the user wrote it, e.g. 'double-unders'; resolved to the "
                                  "exercise library unless exerciseId is given.")
    exerciseId: uuid.UUID | None = Field(None, description="Exercise id from read__exercises_resolve_batch or "
                                                            "from a previous result's candidates.")
    prescription: PrescriptionInput = Field(default_factory=PrescriptionInput)


class SectionInput(BaseModel):
    title: str | None = Field(None, max_length=200, description="Section title, e.g. 'Strength', 'Metcon'.")
    scheme: str | None = Field(None, max_length=200,
                               description="How it is performed, e.g. '3 rounds', 'AMRAP 12', '21-15-9 for time'.")
    rounds: int | None = Field(None, ge=1, le=100, description="Number of rounds when the scheme has them.")
    notes: str | None = Field(None, max_length=2000)
    movements: list[MovementInput] = Field(min_length=1, max_length=40)

    def to_service(self) -> service.SectionIn:
        return service.SectionIn(title=self.title, scheme=self.scheme, rounds=self.rounds, notes=self.notes,
                                 movements=[service.MovementIn(name=m.name, exercise_id=m.exerciseId,
                                                               prescription=m.prescription.stored())
                                            for m in self.movements])


Sections = list[SectionInput]


class CreateWorkoutInput(BaseModel):
    title: str = Field(min_length=1, max_length=200, description="Short workout name, e.g. 'Monday WOD', 'Murph'.")
    text: str | None = Field(None, min_length=1, max_length=10000,
                             description="The workout as freeform whiteboard text, e.g. '3 rounds — 200m run, "
                                         "30 double-unders'.")
    structureFromText: bool = Field(False, description="Parse `text` into sections and movements (resolved to "
                                                       "exercises) instead of storing it as plain text only.")
    sections: Sections | None = Field(None, max_length=20,
                                      description="Structured sections with movements (instead of text).")
    description: str | None = Field(None, max_length=4000, description="Coach notes shown with the workout.")
    date: ToolDate | None = Field(None, description="Day the workout is for (YYYY-MM-DD, gym's timezone).")
    programId: uuid.UUID | None = Field(None, description="Program id from read__programs_list.")

    @model_validator(mode="after")
    def _has_content(self) -> CreateWorkoutInput:
        if not self.text and not self.sections:
            raise ValueError("give the workout as `text` or as `sections`")
        if self.structureFromText and not self.text:
            raise ValueError("structureFromText needs `text`")
        if self.structureFromText and self.sections:
            raise ValueError("give either sections or structureFromText, not both")
        return self


class UpdateWorkoutInput(BaseModel):
    id: uuid.UUID = Field(description="Workout id.")
    title: str | None = Field(None, min_length=1, max_length=200)
    description: str | None = Field(None, max_length=4000, description="New notes; null clears them.")
    date: ToolDate | None = Field(None, description="New day (YYYY-MM-DD, gym's timezone); null unschedules it.")
    programId: uuid.UUID | None = Field(None, description="Move to this program; null detaches it from any program.")
    text: str | None = Field(None, max_length=10000,
                             description="Replace the freeform text (does not touch sections: use "
                                         "workouts__set_sections for movements).")

    @model_validator(mode="after")
    def _changes_something(self) -> UpdateWorkoutInput:
        if not self.model_fields_set - {"id"}:
            raise ValueError("nothing to change: pass at least one of title, description, date, programId, text")
        if "title" in self.model_fields_set and self.title is None:
            raise ValueError("title cannot be null")
        return self


class SetSectionsInput(BaseModel):
    id: uuid.UUID = Field(description="Workout id.")
    sections: Sections = Field(min_length=1, max_length=20,
                               description="The complete new list of sections; every existing section and "
                                           "movement is replaced.")


class WorkoutIdInput(BaseModel):
    id: uuid.UUID = Field(description="Workout id.")


# --- outputs -------------------------------------------------------------------------------------------

class MovementOut(BaseModel):
    name: str
    exerciseId: uuid.UUID | None = None
    exerciseName: str | None = None
    prescription: dict[str, Any] = Field(default_factory=dict)


class SectionOut(BaseModel):
    title: str | None = None
    scheme: str | None = None
    rounds: int | None = None
    notes: str | None = None
    movements: list[MovementOut]


class CandidateOut(BaseModel):
    exerciseId: uuid.UUID
    name: str


class UnresolvedOut(BaseModel):
    name: str
    status: Literal["ambiguous", "unknown"]
    candidates: list[CandidateOut] = Field(default_factory=list)


class WorkoutOut(BaseModel):
    id: uuid.UUID
    title: str
    format: str
    date: dt.date | None = None
    programId: uuid.UUID | None = None
    description: str | None = None
    text: str | None = None
    sections: list[SectionOut] = Field(default_factory=list)
    unresolved: list[UnresolvedOut] = Field(default_factory=list)
    next: str | None = None


class WorkoutRef(BaseModel):
    id: uuid.UUID
    title: str
    deleted: bool = True


async def _out(ctx: ToolContext, detail: service.WorkoutDetail) -> WorkoutOut:
    w = detail.workout
    names = await exercise_names(ctx.session, ctx.org_id, {m.exercise_id for s in detail.sections
                                                           for m in s.movements if m.exercise_id})
    sections = [SectionOut(title=s.section.title, scheme=s.section.scheme, rounds=s.section.rounds,
                           notes=s.section.notes,
                           movements=[MovementOut(name=m.name, exerciseId=m.exercise_id,
                                                  exerciseName=names.get(m.exercise_id) if m.exercise_id else None,
                                                  prescription={STORED_KEYS.get(k, k): v
                                                                for k, v in m.prescription.items()})
                                      for m in s.movements])
                for s in detail.sections]
    unresolved = [UnresolvedOut(name=u["name"], status=u["status"],
                                candidates=[CandidateOut(exerciseId=c["exerciseId"], name=c["name"])
                                            for c in u.get("candidates", [])])
                  for u in detail.unresolved]
    text = w.freeform_text
    if text and len(text) > TEXT_PREVIEW:
        text = text[:TEXT_PREVIEW] + "…"
    hint = None
    if unresolved:
        hint = ("Some movements are not linked to an exercise. Ask the user which exercise they meant (offer the "
                "candidates), then call workouts__set_sections with exerciseId set.")
    return WorkoutOut(id=w.id, title=w.title, format=w.format, date=w.scheduled_on, programId=w.program_id,
                      description=w.description, text=text, sections=sections, unresolved=unresolved, next=hint)


async def _detail(ctx: ToolContext, workout_id: uuid.UUID) -> service.WorkoutDetail:
    detail = await service.get_workout(ctx.session, ctx.org_id, workout_id)
    if detail is None:
        raise not_found("workout", workout_id)
    return detail


# --- tools ---------------------------------------------------------------------------------------------

@workouts.agent_tool(
    action="create",
    summary="Create a workout, either as freeform whiteboard text or as structured sections of movements with "
            "prescriptions. For text like '3 rounds — 200m run, 30 double-unders' set structureFromText to get "
            "sections with movements linked to the exercise library. The result lists each movement's "
            "exerciseId and any `unresolved` names: ask the user about those rather than guessing. Undoable.",
    input=CreateWorkoutInput, roles=OWNER_ADMIN_COACH, side_effects="write", audit=Audit("workout", "workout.create"),
    inverse=Inverse("workouts", "delete", by_id))
async def create_workout(ctx: ToolContext, input: CreateWorkoutInput) -> WorkoutOut:
    detail = await service.create_workout(
        ctx.session, ctx.org_id, title=input.title, created_by=ctx.caller.user_id, description=input.description,
        program_id=input.programId, scheduled_on=input.date, freeform_text=input.text,
        sections=[s.to_service() for s in input.sections] if input.sections else None,
        structure_from_text=input.structureFromText)
    return await _out(ctx, detail)


UPDATE_FIELDS = {"title": "title", "description": "description", "date": "scheduled_on", "programId": "program_id",
                 "text": "freeform_text"}


@workouts.agent_tool(
    action="update",
    summary="Change a workout's title, description, date, program or freeform text (only the fields you pass). "
            "To change its movements use workouts__set_sections.",
    input=UpdateWorkoutInput, roles=OWNER_ADMIN_COACH, side_effects="write", audit=Audit("workout", "workout.update"))
async def update_workout(ctx: ToolContext, input: UpdateWorkoutInput) -> WorkoutOut:
    patch = {UPDATE_FIELDS[f]: getattr(input, f) for f in input.model_fields_set if f in UPDATE_FIELDS}
    workout = await service.update_workout(ctx.session, ctx.org_id, input.id, patch)
    if workout is None:
        raise not_found("workout", input.id)
    return await _out(ctx, await _detail(ctx, input.id))


@workouts.agent_tool(
    action="set_sections",
    summary="Replace ALL sections and movements of a workout with the given list (e.g. to fix a movement, link an "
            "unresolved name to an exerciseId, or restructure it). Pass the complete new structure.",
    input=SetSectionsInput, roles=OWNER_ADMIN_COACH, side_effects="write",
    audit=Audit("workout", "workout.set_sections"))
async def set_sections(ctx: ToolContext, input: SetSectionsInput) -> WorkoutOut:
    detail = await service.set_sections(ctx.session, ctx.org_id, input.id,
                                    [s.to_service() for s in input.sections])
    if detail is None:
        raise not_found("workout", input.id)
    return await _out(ctx, detail)


@workouts.agent_tool(
    action="delete",
    summary="Delete a workout (soft delete: it disappears from programs and search). Needs the user's "
            "confirmation.",
    input=WorkoutIdInput, roles=OWNER_ADMIN_COACH, side_effects="write", confirm="destructive",
    audit=Audit("workout", "workout.delete"), inverse=restore_inverse("workouts"),
    describe=card.delete_workout)
async def delete_workout(ctx: ToolContext, input: WorkoutIdInput) -> WorkoutRef:
    workout = await service.soft_delete_workout(ctx.session, ctx.org_id, input.id, ctx.now)
    if workout is None:
        raise not_found("workout", input.id)
    return WorkoutRef(id=workout.id, title=workout.title)


add_restore(workouts, model=service.Workout, entity="workout", roles=OWNER_ADMIN_COACH)
