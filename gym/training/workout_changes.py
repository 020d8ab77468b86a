"""Changes to the member's current workout during the session — swap, adjust, remove, add — as one service the
trainer's workout tools and the member's app both call, so the chat and the app change one workout.

Changes are typed where they come in: a swapped or added exercise is a §4.9 `Exercise`, an adjustment an
`ExerciseChanges` (parsed once by the tool; the fields it changes are checked by the exercise's own type when it is
applied). The service works on the row's exercises as the §4.9 models (gym.training.stored_exercises) and dumps
them once, where the row is written. Each change is validated against the §4.9 schema, then the rules in code
(gym.training.workout_check: injuries and hard preferences for what it adds or alters, equipment at the current
location, units, exercise order) before it is stored; a refusal is a typed GymError the model reads as a tool result
and the app as an HTTP error.
Exercises are named by id (`ex_003`) or order number. What was logged stays true: an exercise with logged sets is
not swapped (undo them, or add the other exercise), adjusting one re-measures its log against the new
prescription, and removing one takes its logged sets out of the record with it.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.logs import retire_log
from gym.training.models import ExerciseLog, TrainerWorkout
from gym.training.stored_exercises import dumped, exercises_of, key_of
from gym.training.trainer_workouts import issue_exercise_id
from gym.training.validation import WorkoutCheck
from gym.training.workout import MAX_EXERCISES, Exercise, Workout
from gym.training.workout_check import check_member_workout
from gym.training.workout_sets import exercise_in, live_sets, rebuild, require_current_workout

ExerciseRef = str | int
ORDER_FIELDS = frozenset({"order", "name", "group", "type"})  # changes that can break the exercise order
IMMUTABLE = frozenset({"id", "type"})
_POSITION = TypeAdapter(float)


class ExerciseChanges(BaseModel):
    """An adjustment of one exercise, as `parse` reads the tool's `changes` once: where it moves to (`order`: any
    number; the exercise sorts there and the workout is numbered 1..n again) and the other fields it changes, which
    the exercise's own §4.9 type checks when they are applied (`applied_to`) — which fields a change may hold depends
    on the exercise it names, found only under the workout's lock. Never its id or type."""

    model_config = ConfigDict(frozen=True)

    order: float | None = Field(None, allow_inf_nan=False)
    update: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def parse(cls, changes: Mapping[str, Any]) -> ExerciseChanges:
        forbidden = sorted(IMMUTABLE & set(changes))
        if forbidden:
            raise GymError("immutable_field", f"adjust_exercise cannot change {', '.join(forbidden)}.",
                           "Use workout__swap_exercise to replace the exercise with one of another type.")
        update = {k: v for k, v in changes.items() if k != "order"}
        if "order" not in changes:
            return cls(update=update)
        with schema_refusals():
            return cls(order=_POSITION.validate_python(changes["order"]), update=update)

    @property
    def may_reorder(self) -> bool:
        """Whether the change can break the exercise order (it moves, renames or regroups the exercise)."""
        return self.order is not None or bool(ORDER_FIELDS & set(self.update))

    def applied_to(self, exercise: Exercise) -> Exercise:
        """`exercise` with these fields changed, validated as its own type (a ValidationError names what it refuses:
        a field its type has not, a value out of range, a per-set list of the wrong length)."""
        return type(exercise).model_validate({**exercise.model_dump(), **self.update})


@contextmanager
def schema_refusals() -> Iterator[None]:
    """What the §4.9 schema refuses, as the typed error the model reads and the app shows."""
    try:
        yield
    except ValidationError as exc:
        raise GymError("invalid_workout", "; ".join(e["msg"] for e in exc.errors()[:5]),
                       "Fix the exercise so it matches the schema of its type.") from exc


def find_exercise(exercises: list[Exercise], ref: ExerciseRef) -> int:
    """The index of the exercise `ref` names: its id (ex_003) or its order number (3 or "3")."""
    text = str(ref).strip()
    for i, ex in enumerate(exercises):
        if ex.id == text:
            return i
    if text.isdigit():
        for i, ex in enumerate(exercises):
            if ex.order == int(text):
                return i
    raise GymError("exercise_not_found", f"No exercise {text} in the current workout.",
                   "Use an exercise id (ex_001) or order number from the current workout.", status=404)


def numbered(exercises: Iterable[Exercise]) -> list[Exercise]:
    """The exercises in this order, numbered 1..n."""
    return [ex.model_copy(update={"order": n}) for n, ex in enumerate(exercises, start=1)]


def renumbered(exercises: list[Exercise], moved: tuple[str, float] | None = None) -> list[Exercise]:
    """The exercises sorted by order (`moved`: one exercise's id and where it sorts instead) and numbered 1..n; a tie
    keeps the list's order."""
    def position(ex: Exercise) -> float:
        return moved[1] if moved is not None and ex.id == moved[0] else ex.order
    return numbered(sorted(exercises, key=position))


async def save_changed(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, row: TrainerWorkout,
                       exercises: list[Exercise], *, now: datetime, touched: Collection[str],
                       check_order: bool = True) -> WorkoutCheck:
    """Check the changed exercises and store them; nothing is stored when a rule refuses them. The exercises a
    change touched take the library's name and equipment (gym.training.workout_check)."""
    with schema_refusals():
        candidate = Workout.model_validate({"id": row.workout_key, "title": row.title, "exercises": exercises,
                                            "summary": row.summary})
    result = await check_member_workout(session, org_id, member_id, candidate, now, touched=touched,
                                        check_order=check_order)
    row.exercises = dumped(candidate.exercises)
    row.updated_at = now
    await session.flush()
    return result


async def _exercise_log(session: AsyncSession, row: TrainerWorkout, exercise_id: str) -> ExerciseLog | None:
    """The live log the app or the trainer built for this exercise of the workout, if any."""
    return await session.scalar(select(ExerciseLog).where(
        ExerciseLog.org_id == row.org_id, ExerciseLog.workout_id == row.id, ExerciseLog.exercise_key == exercise_id,
        ExerciseLog.undone_at.is_(None)).limit(1))


async def swap_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, ref: ExerciseRef,
                        new_exercise: Exercise, *, now: datetime) -> tuple[TrainerWorkout, WorkoutCheck, Exercise]:
    """Replace one exercise; the new one takes its id and order. Returns the workout, the check, the old one."""
    row = await require_current_workout(session, org_id, member_id)
    exercises = exercises_of(row)
    i = find_exercise(exercises, ref)
    old = exercises[i]
    if await live_sets(session, row.id, key_of(old)):
        raise GymError("exercise_has_sets", f"{old.name} already has logged sets.",
                       "Undo its sets first, or add the other exercise instead.", status=409)
    exercises[i] = new_exercise.model_copy(update={"id": old.id, "order": old.order})
    result = await save_changed(session, org_id, member_id, row, exercises, now=now, touched={key_of(old)})
    return row, result, old


async def adjust_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, ref: ExerciseRef,
                          changes: ExerciseChanges, *, now: datetime) -> tuple[TrainerWorkout, WorkoutCheck, str]:
    """Change fields of one exercise (never its id or type). Returns the workout, the check, the exercise's id."""
    row = await require_current_workout(session, org_id, member_id)
    exercises = exercises_of(row)
    i = find_exercise(exercises, ref)
    target = key_of(exercises[i])
    with schema_refusals():
        exercises[i] = changes.applied_to(exercises[i])
    if changes.order is not None:
        exercises = renumbered(exercises, moved=(target, changes.order))
    result = await save_changed(session, org_id, member_id, row, exercises, now=now, touched={target},
                                check_order=changes.may_reorder)
    log = await _exercise_log(session, row, target)
    if log is not None:
        await rebuild(session, row, exercise_in(row, target), log, now)
    return row, result, target


async def remove_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, ref: ExerciseRef, *,
                          now: datetime) -> tuple[TrainerWorkout, WorkoutCheck, Exercise]:
    """Remove one exercise (a workout keeps at least one); its logged sets leave the record with it."""
    row = await require_current_workout(session, org_id, member_id)
    exercises = exercises_of(row)
    i = find_exercise(exercises, ref)
    if len(exercises) == 1:
        raise GymError("last_exercise", "A workout needs at least one exercise.", "Generate a new workout instead.")
    gone = exercises.pop(i)
    result = await save_changed(session, org_id, member_id, row, renumbered(exercises), now=now, touched=(),
                                check_order=False)
    log = await _exercise_log(session, row, key_of(gone))
    if log is not None:
        await retire_log(session, log, now)
    return row, result, gone


async def add_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, exercise: Exercise,
                       position: int | None, *, now: datetime) -> tuple[TrainerWorkout, WorkoutCheck, str]:
    """Add one exercise at a position (default: the end), checked like a new workout's. Returns its new id."""
    row = await require_current_workout(session, org_id, member_id)
    exercises = sorted(exercises_of(row), key=lambda e: e.order)
    if len(exercises) >= MAX_EXERCISES:
        raise GymError("invalid_workout", f"A workout holds at most {MAX_EXERCISES} exercises.",
                       "Remove one first.")
    position = position or len(exercises) + 1
    if position > len(exercises) + 1:
        raise GymError("invalid_position", f"The workout has {len(exercises)} exercises; position must be "
                                           f"1..{len(exercises) + 1}.", "Leave position out to add it at the end.")
    new_id = issue_exercise_id(row)
    exercises.insert(position - 1, exercise.model_copy(update={"id": new_id}))
    result = await save_changed(session, org_id, member_id, row, numbered(exercises), now=now, touched={new_id})
    return row, result, new_id
