"""timers: phase lists derived from the exercise (work, rest, hold, transition); total = Σ phases."""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from gym.training.stored_exercises import exercises_of
from gym.training.timers import exercise_timer, spec_timer, workout_timers
from gym.training.vocab import ExerciseType
from tools.context import ToolContext
from tools.leaves.trainer.current import ExerciseRef, find_exercise, require_current
from tools.leaves.trainer.member import MEMBER, me
from tools.registry import ToolRouter

timers = ToolRouter("timers")


class ExerciseTimerInput(BaseModel):
    exercise_id: ExerciseRef | None = Field(None, description="An exercise of the current workout (id or order).")
    exercise_name: str | None = Field(None, max_length=120, description="Or describe one: its name…")
    exercise_type: ExerciseType | None = None
    sets: int | None = Field(None, ge=1, le=50)
    reps: int | None = Field(None, ge=1, le=500)
    rest_seconds: int | None = Field(None, ge=0, le=1800)
    work_duration_seconds: int | None = Field(None, ge=1, le=7200)

    @model_validator(mode="after")
    def _what(self) -> ExerciseTimerInput:
        if self.exercise_id is None and (self.exercise_name is None or self.exercise_type is None):
            raise ValueError("give exercise_id, or exercise_name and exercise_type")
        return self


class WorkoutTimersInput(BaseModel):
    pass


@timers.agent_tool(action="generate_exercise_timer", input=ExerciseTimerInput, roles=MEMBER,
                   summary="A timer for one exercise (from the current workout, or described by name, type, sets, "
                           "reps, rest and work duration).")
async def exercise(ctx: ToolContext, input: ExerciseTimerInput) -> dict:
    if input.exercise_id is not None:
        exercises = exercises_of(await require_current(ctx, await me(ctx)))
        return exercise_timer(exercises[find_exercise(exercises, input.exercise_id)]).as_dict()
    assert input.exercise_name is not None and input.exercise_type is not None  # the input model requires both
    return spec_timer(input.exercise_name, input.exercise_type, sets=input.sets, reps=input.reps,
                      rest_seconds=input.rest_seconds, work_duration_seconds=input.work_duration_seconds).as_dict()


@timers.agent_tool(action="generate_workout_timers", input=WorkoutTimersInput, roles=MEMBER,
                   summary="Timers for every exercise of the current workout, with transitions between them.")
async def workout(ctx: ToolContext, input: WorkoutTimersInput) -> dict:
    row = await require_current(ctx, await me(ctx))
    return workout_timers(exercises_of(row))
