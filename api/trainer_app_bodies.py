"""Typed bodies of the member's training app (api/controllers/trainer_app.py): what `/schema` documents and what
`shape()` checks every answer against. Field names are as they go out: the app's own in camelCase, a §4.9
exercise's prescription fields in the schema's snake_case (as the trainer's workout card has them)."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from msgspec import UNSET, Struct, UnsetType
from pydantic import AwareDatetime, ConfigDict, Field

from api.bodies import NumbersBody, RealBool
from api.exercise_extras_bodies import PreviousOut
from gym.training.workout_sets import EXERCISE_ID

ExerciseId = Annotated[str, Field(pattern=EXERCISE_ID, description="An exercise of the current workout (ex_001).")]
LibraryName = Annotated[str, Field(min_length=1, max_length=120, description="A library exercise's name, as "
                                                                            "GET .../trainer/exercises lists it.")]


# --- request bodies ------------------------------------------------------------------------------------------------

class _Body(NumbersBody):
    model_config = ConfigDict(extra="forbid")


class SetBody(_Body):
    """One set as done, in the member's units; what is left out comes from the prescription."""

    exerciseId: ExerciseId
    setNumber: int | None = Field(None, ge=1, le=100, description="Which set (1 = first); default: the next one.")
    reps: int | None = Field(None, ge=1, le=1000)
    load: float | None = Field(None, ge=0, le=2000, description="Per rep, in loadUnit.")
    loadUnit: Literal["kg", "lbs"] | None = Field(None, description="The unit the member saw when entering it (a set "
                                                                    "queued offline keeps it); default: the "
                                                                    "member's weight unit now.")
    durationSec: int | None = Field(None, ge=1, le=86400, description="A hold, a round or a bout.")
    distance: float | None = Field(None, gt=0, le=2000, description="In distanceUnit.")
    distanceUnit: Literal["km", "mi"] | None = Field(None, description="Default: the member's distance unit now.")
    rpe: float | None = Field(None, ge=1, le=10, description="How hard it was (10 = nothing left).")
    performedAt: AwareDatetime | None = Field(None, description="When it was done (a set sent late keeps its time); "
                                                                "default now; at most a year ago.")
    clientSetId: uuid.UUID | None = Field(None, description="The app's own id for this set (a UUID it makes once): "
                                                            "the set sent again, under any Idempotency-Key, is "
                                                            "answered 200 with the set already logged.")
    warmup: RealBool = Field(False, description="A warm-up set: kept and shown, never counted in the exercise's log, "
                                                "volume or records.")


class AddExerciseBody(_Body):
    name: LibraryName
    position: int | None = Field(None, ge=1, le=31, description="Where it goes (1 = first); default: the end.")
    sets: int | None = Field(None, ge=1, le=20)
    reps: int | None = Field(None, ge=1, le=200)
    load: float | None = Field(None, ge=0, le=2000, description="In the member's weight unit; default: the "
                                                                "progression's suggestion.")
    holdSec: int | None = Field(None, ge=1, le=3600)
    durationMin: float | None = Field(None, gt=0, le=600)
    restSec: int | None = Field(None, ge=0, le=1800)


class SwapExerciseBody(_Body):
    name: LibraryName
    load: float | None = Field(None, ge=0, le=2000, description="In the member's weight unit.")


class FinishBody(_Body):
    discard: RealBool = Field(False, description="True: end it without counting it as done (its logged sets "
                                                 "stay).")


# --- answers -------------------------------------------------------------------------------------------------------

class UnitsOut(Struct):
    weightUnit: str
    distanceUnit: str


class RecordOut(Struct, omit_defaults=True):
    """A personal record a set earned: heaviest_load, most_reps_at_load or estimated_1rm (formula: epley)."""

    kind: str
    exercise: str
    setNumber: int
    load: float | None
    reps: int | None
    value: float
    previous: float | None
    formula: str | UnsetType = UNSET


class LoggedSetOut(Struct):
    id: str
    exerciseId: str
    setNumber: int
    reps: int | None
    load: float | None
    loadUnit: str | None
    durationSec: int | None
    distance: float | None
    distanceUnit: str | None
    rpe: float | None
    performedAt: str
    undone: bool
    records: list[RecordOut]
    warmup: bool = False


class HowOut(Struct):
    """Three short cues in the member's language: what to set up, what to do, what to avoid."""

    name: str
    setup: str
    do: str
    avoid: str


class RecoveringOut(Struct):
    muscle: str
    percent: int
    readyAt: str


class SuggestionOut(Struct):
    """The progression rule's next load and reps, and why (a code and its numbers)."""

    exercise: str
    unit: str
    suggestedLoad: float | None
    suggestedReps: list[int] | None
    why: dict[str, Any]
    last: dict[str, Any] | None


class ScreenExerciseOut(Struct, kw_only=True):
    """An exercise of the current workout as the logging screen shows it (its §4.9 fields by type)."""

    id: str
    name: str
    displayName: str
    type: Literal["reps", "hold", "duration", "intervals"]
    order: int
    muscles: list[dict[str, Any]]
    goals: list[dict[str, Any]]
    reasoning: str
    equipment: list[str]
    group: dict[str, Any] | None = None
    sets: int | UnsetType = UNSET
    reps: list[int] | UnsetType = UNSET
    load: float | None | UnsetType = UNSET
    load_unit: str | None | UnsetType = UNSET
    rest_sec: int | UnsetType = UNSET
    hold_sec: list[int] | UnsetType = UNSET
    duration_min: float | UnsetType = UNSET
    distance: float | None | UnsetType = UNSET
    distance_unit: str | None | UnsetType = UNSET
    target_pace: str | None | UnsetType = UNSET
    rounds: int | UnsetType = UNSET
    work_sec: int | UnsetType = UNSET
    recovery: list[RecoveringOut]
    suggestion: SuggestionOut | None
    conflicts: list[dict[str, Any]] | UnsetType = UNSET
    how: HowOut | None
    prescribedSets: int
    logged: list[LoggedSetOut]
    done: bool
    previous: PreviousOut | None = None
    note: str | None = None


class ProgressOut(Struct):
    setsDone: int
    setsPlanned: int
    exercisesDone: int
    exercises: int
    volume: float
    unit: str


class WorkoutScreenOut(Struct):
    id: str
    title: str | None
    summary: str | None
    status: str
    createdAt: str
    startedAt: str | None
    exercises: list[ScreenExerciseOut]
    progress: ProgressOut


class TodayOut(Struct):
    """The current workout as a logging screen (null: none yet), and the member's units."""

    workout: WorkoutScreenOut | None
    units: UnitsOut


class ExerciseSetsOut(Struct):
    id: str
    logged: list[LoggedSetOut]
    done: bool
    prescribedSets: int


class SetLoggedOut(Struct):
    """The set (with the records it earned), its exercise's sets now, and the workout's progress now."""

    set: LoggedSetOut
    exercise: ExerciseSetsOut
    progress: ProgressOut


class FinishedOut(Struct):
    status: str
    title: str | None
    durationMin: float
    setsDone: int
    exercisesDone: int
    volume: float
    unit: str
    records: list[RecordOut]


class PhaseOut(Struct, kw_only=True, omit_defaults=True):
    """One phase as the app runs it: work, hold, rest or transition, its seconds, which exercise, set and round."""

    phase_type: Literal["work", "hold", "rest", "transition"]
    duration_sec: int
    cue: str
    detail: str
    countdown: bool
    block: int
    done: bool
    block_name: str | UnsetType = UNSET
    block_type: str | UnsetType = UNSET
    set_number: int | UnsetType = UNSET
    exercise_id: str | UnsetType = UNSET
    exercise_name: str | UnsetType = UNSET
    display_name: str | UnsetType = UNSET
    round: int | UnsetType = UNSET
    reps: int | UnsetType = UNSET
    load: float | UnsetType = UNSET
    load_unit: str | UnsetType = UNSET


class TimersOut(Struct):
    phases: list[PhaseOut]
    totalDurationSec: int


class LibraryItemOut(Struct):
    name: str
    displayName: str
    category: str
    kind: Literal["reps", "hold", "duration"]
    muscles: list[str]
    equipment: list[str] | None
    available: bool
    blockedBy: dict[str, Any] | None
    suggestedLoad: float | None
    unit: str
    how: HowOut | None
    position: int | None  # where Add puts it in today's workout (compound lifts before isolation); null: none


class LibraryOut(Struct):
    location: str | None
    items: list[LibraryItemOut]


class HistorySetOut(Struct):
    setNumber: int
    reps: int | None
    load: float | None
    durationSec: int | None
    rpe: float | None
    records: list[RecordOut]
    warmup: bool = False


class HistoryExerciseOut(Struct):
    name: str
    displayName: str
    exerciseType: str
    performedAt: str
    sets: list[HistorySetOut]
    volume: float
    unit: str
    durationMin: float | None
    distance: float | None
    distanceUnit: str | None
    records: list[RecordOut]


class HistoryWorkoutOut(Struct):
    title: str | None
    exercises: list[HistoryExerciseOut]


class DayTotalsOut(Struct):
    exercises: int
    sets: int
    volume: float
    records: int


class HistoryDayOut(Struct):
    date: str
    workouts: list[HistoryWorkoutOut]
    totals: DayTotalsOut


class HistoryDaysOut(Struct):
    days: int
    units: UnitsOut
    items: list[HistoryDayOut]


class VolumePointOut(Struct):
    weekStart: str
    volume: float
    workouts: int


class VolumeOut(Struct):
    weeks: int
    unit: str
    points: list[VolumePointOut]


class LoadPointOut(Struct):
    date: str
    performedAt: str
    topLoad: float | None
    topReps: int
    e1rm: float | None


class BestsOut(Struct):
    heaviestLoad: float | None
    heaviestAt: str | None
    e1rm: float | None
    e1rmAt: str | None


class ChoiceOut(Struct):
    name: str
    displayName: str
    sessions: int


class ExerciseProgressOut(Struct):
    exercise: str | None
    displayName: str | None
    unit: str
    formula: str
    days: int
    points: list[LoadPointOut]
    bests: BestsOut
    choices: list[ChoiceOut]


class MuscleRecoveryOut(Struct, omit_defaults=True):
    muscle: str
    percent: int
    recovering: bool
    lastTrainedAt: str | UnsetType = UNSET
    readyAt: str | UnsetType = UNSET
    hoursSince: float | UnsetType = UNSET
    hoursRemaining: float | UnsetType = UNSET


class RecoveryOut(Struct):
    """All 16 muscles with their recovery percentage."""

    muscles: list[MuscleRecoveryOut]


class ScheduledOut(Struct):
    at: str | None
    workoutType: str
    durationMinutes: int | None
    status: str
    source: Literal["trainer", "coach"]


class DoneOut(Struct):
    exercises: int
    titles: list[str]


class CalendarDayOut(Struct):
    date: str
    done: DoneOut | None
    scheduled: list[ScheduledOut]


class StreakOut(Struct):
    weeks: int
    thisWeek: int
    target: int | None


class CalendarOut(Struct):
    start: str
    end: str
    today: str
    days: list[CalendarDayOut]
    streak: StreakOut
