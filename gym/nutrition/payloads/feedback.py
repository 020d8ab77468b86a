"""USER -> SCIENTIST (`weekly_checkin`, 004 §7.1) and SCIENTIST -> USER (`adjustment_result`, 004 §7.4).

The schema holds what every check-in must satisfy on its own; the rules that need the member's
history (waist and hips every two weeks, 004 §7.2) live in `gym.nutrition.checkin_rules`.
Extensions (NUTRITION.md): `checkin_date`, default today; `training_phase`, when the member's phase changed
(a change re-runs COACH).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from gym.nutrition.payloads.common import CyclePhase, Payload, Short, Text

Scale = Annotated[int, Field(ge=1, le=10)]
Cm = Annotated[float, Field(gt=20, le=300)]


class BestSet(Payload):
    weight_kg: Annotated[float, Field(ge=0, le=1_000)]
    reps: Annotated[int, Field(ge=0, le=200)]


class LoggedExercise(Payload):
    name: Short
    best_set: BestSet
    progressed: bool


class TrainingLog(Payload):
    sessions_completed: Annotated[int, Field(ge=0, le=21)]
    exercises: list[LoggedExercise] = Field(default_factory=list, max_length=50)


class SubjectiveMarkers(Payload):
    energy: Scale
    sleep_quality: Scale
    mood: Scale
    appetite: Scale


class WeeklyCheckin(Payload):
    model_config = ConfigDict(json_schema_extra={"allOf": [  # measured together (checkin_rules), for /schema
        {"if": {"required": [one], "properties": {one: {"type": "number"}}},
         "then": {"required": [other], "properties": {other: {"type": "number"}}}}
        for one, other in (("waist_cm", "hip_cm"), ("hip_cm", "waist_cm"))]})

    weight_kg: Annotated[float, Field(ge=25, le=350)]
    waist_cm: Cm | None = None
    hip_cm: Cm | None = None
    cycle_phase: CyclePhase | None = None
    cycle_day: Annotated[int, Field(ge=1, le=60)] | None = None
    training_log: TrainingLog | None = None
    subjective_markers: SubjectiveMarkers | None = None
    minimum_viable_days_count: Annotated[int, Field(ge=0, le=7)] | None = None
    notes: Annotated[str, Field(max_length=2_000)] | None = None
    checkin_date: Annotated[dt.date, Field(strict=False)] | None = None
    confirmed: bool | None = None  # extension (NUTRITION.md): the member confirms an implausible-looking weight
    training_phase: Literal["pre_training", "active_training"] | None = None


class NewMacros(Payload):
    protein_g: float
    fat_g: float
    carbs_g: float


class AdjustmentResult(Payload):
    triggers_fired: list[Short]
    adjustment_type: Short | None
    adjustment_amount_kcal: float | None = None
    new_target_intake_kcal: float | None = None
    new_macros: NewMacros | None = None
    agents_re_run: list[Short]
    agents_unchanged: list[Short]
    notes: list[Text]
