"""SCIENTIST -> COACH (`training_input`, 004 §4.6) and COACH -> OUTPUT (`training_program`, 004 §4.7)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gym.nutrition.payloads.common import CyclePhase, Day, ExcludedSupplement, Payload, Short, Text

Count = Annotated[int, Field(ge=0, le=1_000)]


class ClientData(Payload):
    training_experience: Literal["none", "beginner", "intermediate"]
    equipment_access: Literal["home_minimal", "home_full", "commercial_gym", "both"]
    gym_anxiety_level: Literal["high", "moderate", "low"]
    weeks_on_program: Count
    current_phase: Literal["pre_training", "active_training"]
    injuries: list[Short] = Field(max_length=50)
    available_days: Annotated[int, Field(ge=1, le=7)]
    menstrual_cycle_day: Annotated[int, Field(ge=1, le=60)] | None
    cycle_phase: CyclePhase | None
    # extension (NUTRITION.md, "Clinical rules in code"): supplements COACH may not recommend, checked in code
    supplements_excluded: list[ExcludedSupplement] = Field(default_factory=list, max_length=2)


class LoggedSet(Payload):
    name: Short
    weight_kg: Annotated[float, Field(ge=0, le=1_000)]
    reps: Annotated[int, Field(ge=0, le=200)]
    progressed: bool


class ProgressData(Payload):
    training_log: list[LoggedSet] = Field(max_length=50)
    stall_detected: bool
    consecutive_stall_sessions: Count
    sleep_hours_avg: Annotated[float, Field(ge=0, le=24)] | None
    step_count_avg: Annotated[float, Field(ge=0, le=100_000)]


class ScientistTriggers(Payload):
    phase_transition_due: bool
    deload_recommended: bool
    adjustment_note: Text | None


class TrainingInput(Payload):
    client_data: ClientData
    progress_data: ProgressData
    scientist_triggers: ScientistTriggers


class ProgramExercise(Payload):
    name: Short
    sets: Annotated[int, Field(ge=1, le=20)]
    reps: Short
    rest_sec: Annotated[int, Field(ge=0, le=900)]
    notes: Text
    target_rpe: Annotated[float, Field(ge=1, le=10)]
    progression_rule: Text


class Session(Payload):
    day: Day
    focus: Short
    warmup: list[Text] = Field(max_length=20)
    exercises: list[ProgramExercise] = Field(min_length=1, max_length=20)


class Program(Payload):
    phase: Short
    phase_week: Annotated[int, Field(ge=1, le=52)]
    frequency: Annotated[int, Field(ge=1, le=7)]
    total_weeks_remaining_in_phase: Annotated[int, Field(ge=0, le=52)]
    sessions: list[Session] = Field(min_length=1, max_length=7)


class TrainingProgram(Payload):
    program: Program
    progression_rules: list[Text] = Field(max_length=30)
    recovery_protocol: list[Text] = Field(max_length=30)
    phase_transition_criteria: list[Text] = Field(max_length=30)
    weekly_volume_summary: dict[Short, Annotated[int, Field(ge=0, le=100)]]
