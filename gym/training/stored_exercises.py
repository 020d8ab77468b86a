"""A workout row's exercises (`trainer_workouts.exercises`, JSONB) as the §4.9 models: parsed once where a row is
read, dumped once where it is written. The stored JSON keeps its shape: every field of the exercise's type, `id`
among them (`ex_NNN`), as `model_dump(mode="json")` wrote it when the workout was made."""

from __future__ import annotations

from typing import Any

from gym.training.models import TrainerWorkout
from gym.training.timers import INTERLEAVED
from gym.training.workout import EXERCISES, Exercise


def exercises_of(row: TrainerWorkout) -> list[Exercise]:
    return EXERCISES.validate_python(row.exercises or [])


def dumped(exercises: list[Exercise]) -> list[dict[str, Any]]:
    return EXERCISES.dump_python(exercises, mode="json")


def key_of(exercise: Exercise) -> str:
    """A stored exercise's id (`ex_NNN`; the server gives every stored exercise one)."""
    assert exercise.id is not None, "a stored exercise has its id"
    return exercise.id


def prescribed_sets(exercise: Exercise, exercises: list[Exercise]) -> int:
    """How many sets (rounds, bouts) the exercise prescribes; a member of a superset or circuit does one each round
    of its group (gym.training.timers)."""
    group = exercise.group
    if group is not None and group.type in INTERLEAVED:
        first = next((e.group for e in exercises
                      if e.group is not None and e.group.id == group.id and e.group.position == 1), None)
        if first is not None and first.rounds:
            return max(exercise.own_sets, first.rounds)
    return exercise.own_sets
