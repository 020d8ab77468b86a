"""The structured workout of 001 §4.9, exactly: four exercise types as a discriminated union on `type`.

Pydantic gives the JSON schema the model sees and the server-side re-validation. Shares of `muscles` and
of `goals` each sum to 1 ± 0.01 (an empty list is allowed); `reps` / `hold_sec` have one entry per set;
a group's `name`, `rounds` and `rest_between_rounds_sec` sit on its first member only. Ids (`workout_N`,
`ex_NNN`) are the server's, never the model's.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from gym.training.vocab import DistanceUnit, GroupType, Muscle, WeightUnit

SHARE_TOLERANCE = 0.01
MAX_EXERCISES = 30


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MuscleShare(_Strict):
    name: Muscle
    share: float = Field(ge=0, le=1)


class GoalShare(_Strict):
    name: str = Field(min_length=1, max_length=100)
    share: float = Field(ge=0, le=1)


class Group(_Strict):
    id: str = Field(min_length=1, max_length=60, description='Group id shared by its members, e.g. "circuit-1".')
    type: GroupType
    position: int = Field(ge=1, description="Order within the group (1-indexed).")
    name: str | None = Field(None, max_length=100, description="Display name (first member only).")
    rounds: int | None = Field(None, ge=1, description="Times to repeat the group (first member only).")
    rest_between_rounds_sec: int | None = Field(None, ge=0, description="Rest after each round (first member only).")


def shares_sum_to_one(shares: list, what: str) -> list:
    """1 ± SHARE_TOLERANCE inclusive, float noise rounded away first: binary floats put 0.6 + 0.39 a hair
    outside 0.01 (|0.99 - 1| = 0.010000000000000009), and three thirds written as 0.33 are a valid split."""
    total = sum(s.share for s in shares)
    if shares and round(abs(total - 1.0), 9) > SHARE_TOLERANCE:
        raise ValueError(f"{what} shares must sum to 1.0 (got {total:.3f})")
    return shares


class _Base(_Strict):
    id: str | None = Field(None, max_length=20, description="Server-assigned (ex_NNN); leave empty.")
    name: str = Field(min_length=1, max_length=120, description=(
        "The exercise library's name of the exercise (an alias in English, Hebrew or Russian is accepted); a name "
        "the library does not know is refused with the nearest library names."))
    order: int = Field(ge=1, description="Position in the workout (1-indexed).")
    group: Group | None = None
    muscles: list[MuscleShare] = Field(max_length=16)
    goals: list[GoalShare] = Field(max_length=10)
    reasoning: str = Field(max_length=200, description="Why this exercise, in one short sentence.")
    equipment: list[str] = Field(default_factory=list, max_length=10, description=(
        "Library equipment names; the server sets what the library says the exercise uses at the current "
        "location (bodyweight exercises list none)."))

    @field_validator("muscles")
    @classmethod
    def _muscles_sum(cls, value: list[MuscleShare]) -> list[MuscleShare]:
        names = [m.name for m in value]
        if len(set(names)) != len(names):
            raise ValueError("each muscle may appear once")
        return shares_sum_to_one(value, "muscle")

    @field_validator("goals")
    @classmethod
    def _goals_sum(cls, value: list[GoalShare]) -> list[GoalShare]:
        return shares_sum_to_one(value, "goal")


def _per_set(values: list[int], sets: int, field: str) -> None:
    if len(values) != sets:
        raise ValueError(f"{field} needs one entry per set ({sets}), got {len(values)}")


class RepsExercise(_Base):
    type: Literal["reps"]
    sets: int = Field(ge=1, le=20)
    reps: list[Annotated[int, Field(ge=1, le=200)]] = Field(description="Target reps per set.")
    load: float | None = Field(None, ge=0, description="Load per rep in load_unit; null for bodyweight.")
    load_unit: WeightUnit | None = None
    rest_sec: int = Field(ge=0, le=1800)

    def log_type(self, loaded: bool | None = None) -> str:
        """001 §4.5's log type (`loaded`: whether what was done carried a load; default: the prescription)."""
        return "strength" if (self.load is not None if loaded is None else loaded) else "bodyweight"

    @property
    def own_sets(self) -> int:
        return self.sets

    def planned_seconds(self, index: int) -> int | None:
        return None

    def target(self, index: int) -> int:
        """The reps set `index` (0-based) aims at: past the last set, the last set's again."""
        return self.reps[min(index, len(self.reps) - 1)]

    @model_validator(mode="after")
    def _check(self) -> RepsExercise:
        _per_set(self.reps, self.sets, "reps")
        if self.load is not None and self.load_unit is None:
            raise ValueError("a load needs its load_unit")
        return self


class HoldExercise(_Base):
    type: Literal["hold"]
    sets: int = Field(ge=1, le=20)
    hold_sec: list[Annotated[int, Field(ge=1, le=3600)]] = Field(description="Hold duration per set.")
    rest_sec: int = Field(ge=0, le=1800)

    def log_type(self, loaded: bool | None = None) -> str:
        return "isometric"

    @property
    def own_sets(self) -> int:
        return self.sets

    def planned_seconds(self, index: int) -> int | None:
        return self.hold_sec[min(index, len(self.hold_sec) - 1)]

    @model_validator(mode="after")
    def _check(self) -> HoldExercise:
        _per_set(self.hold_sec, self.sets, "hold_sec")
        return self


class DurationExercise(_Base):
    type: Literal["duration"]
    duration_min: float = Field(gt=0, le=600)
    distance: float | None = Field(None, gt=0)
    distance_unit: DistanceUnit | None = None
    target_pace: str | None = Field(None, max_length=30, description='e.g. "5:30/km"')

    def log_type(self, loaded: bool | None = None) -> str:
        return "cardio_distance" if self.distance is not None else "cardio_time"

    @property
    def own_sets(self) -> int:
        return 1

    def planned_seconds(self, index: int) -> int | None:
        return round(float(self.duration_min) * 60)

    @model_validator(mode="after")
    def _check(self) -> DurationExercise:
        if self.distance is not None and self.distance_unit is None:
            raise ValueError("a distance needs its distance_unit")
        return self


class IntervalsExercise(_Base):
    type: Literal["intervals"]
    rounds: int = Field(ge=1, le=100)
    work_sec: int = Field(ge=1, le=3600)
    rest_sec: int = Field(ge=0, le=3600)

    def log_type(self, loaded: bool | None = None) -> str:
        return "hiit"

    @property
    def own_sets(self) -> int:
        """A round is a set (its work and its rest)."""
        return self.rounds

    def planned_seconds(self, index: int) -> int | None:
        return self.work_sec


Exercise = Annotated[RepsExercise | HoldExercise | DurationExercise | IntervalsExercise, Field(discriminator="type")]
EXERCISE = TypeAdapter(Exercise)
EXERCISES = TypeAdapter(list[Exercise])


class Summary(_Strict):
    estimated_duration_min: float = Field(gt=0)
    primary_goals: list[str] = Field(default_factory=list)
    muscles_targeted: list[Muscle] = Field(default_factory=list)


class Workout(_Strict):
    """A generated workout: exercises in order, optional summary."""

    id: str | None = Field(None, max_length=20, description="Server-assigned (workout_N); leave empty.")
    title: str | None = Field(None, max_length=120)
    exercises: list[Exercise] = Field(min_length=1, max_length=MAX_EXERCISES)
    summary: Summary | None = None

    @model_validator(mode="after")
    def _order_and_groups(self) -> Workout:
        orders = [e.order for e in self.exercises]
        if sorted(orders) != list(range(1, len(orders) + 1)):
            raise ValueError("order must number the exercises 1..n, each once")
        check_groups(self.exercises)
        return self


def check_groups(exercises: list) -> None:
    """Members of a group share its type, have positions 1..k, and only the first carries name/rounds."""
    groups: dict[str, list] = {}
    for exercise in sorted(exercises, key=lambda e: e.order):
        if exercise.group is not None:
            groups.setdefault(exercise.group.id, []).append(exercise.group)
    for group_id, members in groups.items():
        if len({g.type for g in members}) != 1:
            raise ValueError(f"group {group_id}: every member needs the same type")
        if sorted(g.position for g in members) != list(range(1, len(members) + 1)):
            raise ValueError(f"group {group_id}: positions must be 1..{len(members)}, each once")
        for g in members:
            if g.position != 1 and (g.name is not None or g.rounds is not None
                                    or g.rest_between_rounds_sec is not None):
                raise ValueError(f"group {group_id}: name/rounds/rest_between_rounds_sec go on the first member only")
