"""The sets of the current workout's exercises: logged one at a time from the member's app, or all at once by the
trainer's `mark_exercise_complete`. One record either way: each live set is a row of `exercise_sets`, and the
exercise's one log in `exercise_logs` is rebuilt from its live sets (sets, reps each set reached against the
prescription, each set's load, the hardest RPE, seconds, distance; a warm-up set is kept but never counted), so distribution, recovery, progression,
statistics and the trainer's next turn read exactly what the app wrote.

An exercise is complete (`trainer_workouts.completed`) once it has as many live sets as it prescribes; undoing a
set takes that back, and undoing its last live set undoes the log (it counts nowhere). Loads and distances come
in the unit the member saw (a set carries it; one queued offline in kg stays kg after a switch to lbs; without
one, the member's setting) and are stored in kg / km (as Decimal, the columns' type, so a log rebuilt from a set
just written and sets read back adds up). The session's load is the one most sets used (the heavier on a tie); each
set keeps its own.

Writers of the current workout take its row lock first (`require_current_workout`), so a set is numbered, checked
against the workout's exercises and inserted while no other writer (a second client, a removal) can change them.
A set sent again is that set, not another: the same `client_set_id` (the app's own id for the set), or, without
one, no set number and the same `performed_at` and values as a live set of the exercise (two sets are never done
at the same instant). Either answers the set already logged (`Logged.new` False) and logs nothing.
"""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from gym.errors import GymError
from gym.training.logs import performed_time
from gym.training.models import ExerciseLog, ExerciseSet, TrainerWorkout
from gym.training.profiles import Units, get_units
from gym.training.stored_exercises import exercises_of, key_of, prescribed_sets
from gym.training.trainer_workouts import current_workout, mark_done
from gym.training.units import show_distance, show_load, to_kg, to_km
from gym.training.vocab import DistanceUnit, WeightUnit
from gym.training.workout import DurationExercise, Exercise, IntervalsExercise, RepsExercise

EXERCISE_ID = r"^ex_\d{3,6}$"
SetReps = Annotated[int, Field(ge=1, le=1000)]


class SetInput(BaseModel):
    """One set as the member did it, in their units; what is left out comes from the prescription."""

    model_config = ConfigDict(extra="forbid")

    exercise_id: str = Field(pattern=EXERCISE_ID, description="The exercise of the current workout (ex_001).")
    set_number: int | None = Field(None, ge=1, le=100, description="Which set (1 = first); default: the next one.")
    reps: int | None = Field(None, ge=1, le=1000)
    load: float | None = Field(None, ge=0, le=2000, description="Per rep, in load_unit.")
    load_unit: WeightUnit | None = Field(None, description="The unit the member saw; default: their setting now.")
    duration_sec: int | None = Field(None, ge=1, le=86400, description="A hold, a round or a bout, in seconds.")
    distance: float | None = Field(None, gt=0, le=2000, description="In distance_unit.")
    distance_unit: DistanceUnit | None = Field(None, description="Default: the member's setting now.")
    rpe: float | None = Field(None, ge=1, le=10, description="How hard it was (10 = nothing left).")
    performed_at: datetime | None = None
    client_set_id: uuid.UUID | None = Field(None, description="The app's own id for this set: sent again, it is "
                                                              "the same set.")
    warmup: bool = Field(False, description="A warm-up set: kept, never counted in the log, volume or records.")


class Logged(NamedTuple):
    """A set logged (or found logged: `new` False), its workout and its exercise's log."""

    row: TrainerWorkout
    item: ExerciseSet
    log: ExerciseLog
    new: bool


class Actuals(BaseModel):
    """What was done of a whole exercise (the trainer's mark_exercise_complete), in the member's units."""

    sets: int | None = Field(None, ge=1, le=100)
    reps: int | None = Field(None, ge=1, le=1000, description="The reps of every set, when they were the same.")
    reps_per_set: list[SetReps] | None = Field(None, min_length=1, max_length=100,
                                               description="The reps each set reached: [10, 8, 8, 5].")
    as_prescribed: bool = Field(False, description="True only when the member said they did exactly the "
                                                   "prescription (every set, every rep).")
    load: float | None = Field(None, ge=0, le=2000)
    duration_min: float | None = Field(None, gt=0, le=1440)
    distance: float | None = Field(None, gt=0, le=2000)
    rpe: float | None = Field(None, ge=1, le=10, description="How hard it was (10 = nothing left).")

    @property
    def given(self) -> bool:
        return self.as_prescribed or any(v is not None for k, v in self.model_dump().items() if k != "as_prescribed")


def target_reps(ex: RepsExercise, exercises: list[Exercise]) -> list[int]:
    """The reps each prescribed set aims at (past its last set, its last set again)."""
    return [ex.target(i) for i in range(prescribed_sets(ex, exercises))]


def exercise_in(row: TrainerWorkout, exercise_id: str) -> Exercise:
    ex = next((e for e in exercises_of(row) if e.id == exercise_id), None)
    if ex is None:
        raise GymError("exercise_not_found", f"No exercise {exercise_id} in the current workout.",
                       "Use an exercise of the current workout.", status=404)
    return ex


async def require_current_workout(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, *,
                                  for_update: bool = True) -> TrainerWorkout:
    """The member's current workout, its row locked for this transaction (every writer takes it first: one writer of
    a workout's sets and exercises at a time); `for_update=False` for a read."""
    row = await current_workout(session, org_id, member_id, for_update=for_update)
    if row is None:
        raise GymError("no_current_workout", "The member has no current workout.",
                       "Generate a workout first (workout__generate_workout).", status=409)
    return row


async def live_sets(session: AsyncSession, workout_id: uuid.UUID, exercise_key: str | None = None) -> list[ExerciseSet]:
    """The workout's sets that count, by exercise and set number."""
    where = [ExerciseSet.workout_id == workout_id, ExerciseSet.undone_at.is_(None)]
    if exercise_key is not None:
        where.append(ExerciseSet.exercise_key == exercise_key)
    return list((await session.scalars(select(ExerciseSet).where(*where).order_by(
        ExerciseSet.exercise_key, ExerciseSet.set_number))).all())


def _stored(value: float, places: int) -> Decimal:
    """A value as its Numeric column keeps it (rounded to `places`)."""
    return round(Decimal(repr(value)), places)


class SetValues(NamedTuple):
    """A set's stored values (`exercise_sets` columns: kg, km, seconds)."""

    reps: int | None = None
    load_kg: Decimal | None = None
    load_unit: str | None = None
    duration_sec: int | None = None
    distance_km: Decimal | None = None


def _values(ex: Exercise, number: int, entry: SetInput, units: Units) -> SetValues:
    """The set's stored values, the prescription filling what the entry leaves out. A value is read in the unit it
    came with (the entry's, else the prescription's), else the member's setting now."""
    index = number - 1
    if isinstance(ex, RepsExercise):
        load, load_unit = (entry.load, entry.load_unit) if entry.load is not None else (ex.load, ex.load_unit)
        unit = load_unit or units.weight_unit
        load_kg = None if load is None else _stored(to_kg(load, unit), 2)
        if load_kg is not None and load_kg > 1000:
            raise GymError("invalid_set", f"{load:g} {unit} is over the 1000 kg a set may carry")
        return SetValues(reps=entry.reps or ex.target(index), load_kg=load_kg,
                         load_unit=None if load is None else unit)
    distance_km = None
    if isinstance(ex, DurationExercise):
        distance, distance_unit = ((entry.distance, entry.distance_unit) if entry.distance is not None
                                   else (ex.distance, ex.distance_unit))
        shown = distance_unit or units.distance_unit
        distance_km = None if distance is None else _stored(to_km(distance, shown), 3)
        if distance_km is not None and distance_km <= 0:
            raise GymError("invalid_set", f"{distance:g} {shown} is under the 1 m a set may record",
                           "Give the distance in the member's unit, or leave it out.")
    if entry.reps is not None or entry.load is not None:
        raise GymError("invalid_set", f"{ex.name} is timed ({ex.type}): give duration_sec, not reps or load")
    return SetValues(duration_sec=entry.duration_sec or ex.planned_seconds(index), distance_km=distance_km)


async def _exercise_log(session: AsyncSession, row: TrainerWorkout, ex: Exercise, now: datetime) -> ExerciseLog:
    """The exercise's one log in this workout (`rebuild` brings it back if it was undone), created on its first set."""
    log = await session.scalar(select(ExerciseLog).where(
        ExerciseLog.org_id == row.org_id, ExerciseLog.workout_id == row.id, ExerciseLog.exercise_key == key_of(ex))
        .order_by(ExerciseLog.undone_at.is_not(None), ExerciseLog.created_at.desc()).limit(1))
    if log is not None:
        return log
    log = ExerciseLog(org_id=row.org_id, member_id=row.member_id, name=" ".join(ex.name.split()),
                      exercise_type=ex.log_type(), muscles=[m.model_dump(mode="json") for m in ex.muscles],
                      goals=[g.model_dump(mode="json") for g in ex.goals], equipment=list(ex.equipment),
                      performed_at=now, workout_id=row.id, exercise_key=key_of(ex), created_at=now)
    session.add(log)
    await session.flush()
    return log


def _session_load(loads: list[Decimal]) -> Decimal | None:
    """The load most sets used; the heavier one on a tie."""
    if not loads:
        return None
    counts = Counter(loads)
    return max(counts, key=lambda load: (counts[load], load))


async def rebuild(session: AsyncSession, row: TrainerWorkout, ex: Exercise, log: ExerciseLog,
                  now: datetime) -> list[ExerciseSet]:
    """The exercise's log (and whether it is complete) from its live working sets (warm-ups never count); no
    working set left undoes the log."""
    key = key_of(ex)
    sets = [s for s in await live_sets(session, row.id, key) if s.log_id == log.id and not s.warmup]
    completed = dict(row.completed or {})
    if not sets:
        log.undone_at = log.undone_at or now
        completed.pop(key, None)
        row.completed = completed
        await session.flush()
        return sets
    log.undone_at = None
    log.sets = len(sets)
    log.performed_at = max(s.performed_at for s in sets)
    rpes = [s.rpe for s in sets if s.rpe is not None]
    log.rpe = max(rpes) if rpes else None
    exercises = exercises_of(row)
    if isinstance(ex, RepsExercise):
        reps = [int(s.reps or 0) for s in sets]
        loads = [s.load_kg for s in sets]
        log.reps_per_set, log.target_reps = reps, target_reps(ex, exercises)
        log.reps = reps[0] if len(set(reps)) == 1 else None
        log.load_kg = _session_load([v for v in loads if v is not None])
        log.load_per_set_kg = loads if any(v is not None for v in loads) else None
        log.exercise_type = ex.log_type(loaded=log.load_kg is not None)
    else:
        extra = ex.rest_sec if isinstance(ex, IntervalsExercise) else 0  # a round is its work and rest
        log.duration_min = Decimal(sum(int(s.duration_sec or 0) + extra for s in sets)) / 60
        distances = [s.distance_km for s in sets if s.distance_km is not None]
        log.distance_km = sum(distances, Decimal(0)) if distances else None
    if len(sets) >= prescribed_sets(ex, exercises):
        completed[key] = str(log.id)
    else:
        completed.pop(key, None)
    row.completed = completed
    row.updated_at = now
    await session.flush()
    return sets


async def _sent_before(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, entry: SetInput,
                       live: list[ExerciseSet], values: SetValues, at: datetime) -> ExerciseSet | None:
    """The set this entry already is (module docstring), if any."""
    if entry.client_set_id is not None:
        return await session.scalar(select(ExerciseSet).where(
            ExerciseSet.org_id == org_id, ExerciseSet.member_id == member_id,
            ExerciseSet.client_set_id == entry.client_set_id))
    if entry.set_number is not None or entry.performed_at is None:
        return None
    rpe = None if entry.rpe is None else _stored(entry.rpe, 1)
    return next((s for s in live if s.performed_at == at and s.rpe == rpe
                 and all(getattr(s, k) == v for k, v in values._asdict().items())), None)


async def log_set(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, entry: SetInput, *,
                  now: datetime) -> Logged:
    """Log one set of an exercise of the member's current workout; its log is rebuilt in the same transaction."""
    row = await require_current_workout(session, org_id, member_id)
    ex = exercise_in(row, entry.exercise_id)
    units = await get_units(session, org_id, member_id)
    at = performed_time(entry.performed_at, now, what="a set")
    live = await live_sets(session, row.id, key_of(ex))
    taken = {s.set_number for s in live}
    number = entry.set_number or (max(taken, default=0) + 1)
    values = _values(ex, number, entry, units)
    known = await _sent_before(session, org_id, member_id, entry, live, values, at)
    if known is not None:
        log = await session.get(ExerciseLog, known.log_id)
        assert log is not None  # foreign key
        return Logged(row, known, log, new=False)
    if number in taken:
        raise _already_logged(number, ex)
    log = await _exercise_log(session, row, ex, now)
    item = ExerciseSet(org_id=org_id, member_id=member_id, workout_id=row.id, log_id=log.id, exercise_key=key_of(ex),
                       set_number=number, rpe=None if entry.rpe is None else _stored(entry.rpe, 1), performed_at=at,
                       created_at=now, client_set_id=entry.client_set_id, warmup=entry.warmup, **values._asdict())
    try:
        async with session.begin_nested():  # the workout's lock makes this rare; the unique index decides
            session.add(item)
            await session.flush()
    except IntegrityError:
        raise _already_logged(number, ex) from None
    await rebuild(session, row, ex, log, now)
    return Logged(row, item, log, new=True)


def _already_logged(number: int, ex: Exercise) -> GymError:
    return GymError("set_already_logged", f"Set {number} of {ex.name} is already logged.",
                    "Undo it first, or log the next set.", status=409)


async def undo_set(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, set_id: uuid.UUID, *,
                   now: datetime) -> tuple[TrainerWorkout, ExerciseSet]:
    """Undo one logged set (of any of the member's workouts): it stops counting and its exercise's log follows.
    Locks the workout before the set, in the order every writer of the workout takes them."""
    workout_id = await session.scalar(select(ExerciseSet.workout_id).where(
        ExerciseSet.org_id == org_id, ExerciseSet.member_id == member_id, ExerciseSet.id == set_id))
    if workout_id is None:
        raise GymError("set_not_found", f"No logged set {set_id} for this member.", status=404)
    row = await session.scalar(select(TrainerWorkout).where(TrainerWorkout.id == workout_id).with_for_update())
    item = await session.scalar(select(ExerciseSet).where(ExerciseSet.id == set_id).with_for_update())
    assert row is not None and item is not None  # foreign key; sets are never deleted
    if item.undone_at is not None:
        raise GymError("set_already_undone", "That set was already undone.", status=409)
    log = await session.get(ExerciseLog, item.log_id)
    assert log is not None  # foreign key
    item.undone_at = now
    await session.flush()
    target = list(log.target_reps or [1])
    ex = next((e for e in exercises_of(row) if e.id == item.exercise_key), None) or RepsExercise(
        id=item.exercise_key, type="reps", reps=target, name=log.name, sets=len(target), order=1, muscles=[],
        goals=[], reasoning="", rest_sec=0)  # an exercise removed since: its log still follows its sets
    await rebuild(session, row, ex, log, now)
    return row, item


def reps_done(ex: RepsExercise, actuals: Actuals) -> tuple[list[int], bool]:
    """The reps each set reached, and whether they were assumed from the prescription. An uneven prescription is
    never assumed: the member's reps per set are asked for (`actuals_required`)."""
    prescribed = list(ex.reps)
    if actuals.reps_per_set is not None:
        return list(actuals.reps_per_set), False
    if actuals.reps is not None:
        return [actuals.reps] * (actuals.sets or len(prescribed)), False
    if actuals.as_prescribed:
        return prescribed, False
    if actuals.sets is None and len(set(prescribed)) == 1:
        return prescribed, True
    plan = "/".join(str(r) for r in prescribed)
    raise GymError("actuals_required", f"{ex.name} was prescribed as {len(prescribed)} sets of {plan} reps; "
                                       "what each set reached is not known.",
                   "Ask the member how many reps each set reached and pass actuals.reps_per_set, or "
                   "actuals.as_prescribed=true if they say they did exactly the prescription.")


def _sets_from(ex: Exercise, actuals: Actuals, exercises: list[Exercise]) -> tuple[list[SetInput], bool]:
    """The sets a whole-exercise report stands for (member's units), and whether their reps were assumed."""
    if isinstance(ex, RepsExercise):
        done, assumed = reps_done(ex, actuals)
        return [SetInput(exercise_id=key_of(ex), rpe=actuals.rpe, set_number=n, reps=r, load=actuals.load)
                for n, r in enumerate(done, 1)], assumed
    count = actuals.sets or prescribed_sets(ex, exercises)
    seconds = None if actuals.duration_min is None else max(1, round(actuals.duration_min * 60 / count))
    distance = None if actuals.distance is None else actuals.distance / count
    return [SetInput(exercise_id=key_of(ex), rpe=actuals.rpe, set_number=n, duration_sec=seconds, distance=distance)
            for n in range(1, count + 1)], False


async def complete_exercise(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, exercise_id: str,
                            actuals: Actuals, *, now: datetime) -> tuple[TrainerWorkout, ExerciseLog, bool]:
    """Mark one exercise of the current workout done: with what is given (replacing any sets the app logged), or,
    given nothing, with the sets the app logged (else the prescription when it is uniform). Returns the workout, the
    exercise's log and whether its reps were assumed from the prescription."""
    row = await require_current_workout(session, org_id, member_id)
    ex = exercise_in(row, exercise_id)
    units = await get_units(session, org_id, member_id)
    logged = await live_sets(session, row.id, key_of(ex))
    assumed = False
    if logged and not actuals.given:
        log = await session.get(ExerciseLog, logged[0].log_id)
        assert log is not None
    else:
        entries, assumed = _sets_from(ex, actuals, exercises_of(row))
        for item in logged:
            item.undone_at = now
        await session.flush()
        log = await _exercise_log(session, row, ex, now)
        for entry in entries:
            values = _values(ex, entry.set_number or 1, entry, units)
            session.add(ExerciseSet(org_id=org_id, member_id=member_id, workout_id=row.id, log_id=log.id,
                                    exercise_key=key_of(ex), set_number=entry.set_number, rpe=entry.rpe,
                                    performed_at=now, created_at=now, **values._asdict()))
        await session.flush()
        await rebuild(session, row, ex, log, now)
    mark_done(row, key_of(ex), log.id)
    await session.flush()
    return row, log, assumed


def set_dict(item: ExerciseSet, units: Units) -> dict[str, Any]:
    """A logged set as the member sees it, in their units."""
    return {"id": str(item.id), "exerciseId": item.exercise_key, "setNumber": item.set_number, "reps": item.reps,
            "load": show_load(item.load_kg, units.weight_unit),
            "loadUnit": units.weight_unit if item.load_kg is not None else None,
            "durationSec": item.duration_sec, "distance": show_distance(item.distance_km, units.distance_unit),
            "distanceUnit": units.distance_unit if item.distance_km is not None else None,
            "rpe": float(item.rpe) if item.rpe is not None else None,
            "performedAt": item.performed_at.isoformat(), "undone": item.undone_at is not None,
            "warmup": bool(item.warmup)}
