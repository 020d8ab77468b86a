"""Typed bodies and SSE frames of the nutrition endpoints (NUTRITION.md), for /schema.

Payloads of spec 004 keep their snake_case field names inside `outputs`, `medicalContext` and
`adjustments` (they are the canonical names of 004 §3); the envelope of each response is camelCase.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from litestar.openapi.datastructures import ResponseSpec
from msgspec import Struct, field
from pydantic import BaseModel, ConfigDict, Field

from api.food_log_bodies import ExpenditureOut
from api.openapi import DocumentedAs
from api.sse import event_stream
from gym.nutrition.models import NutritionEvent
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.payloads.intake import IntakeData

IntakeBody = Annotated[dict[str, Any], DocumentedAs(IntakeData)]
"""A run's `intake` (`intake_data`, 004 §4.1): the pipeline validates it, 422 `validation_failed` per field."""
CheckinBody = Annotated[dict[str, Any], DocumentedAs(WeeklyCheckin)]
"""A check-in (`weekly_checkin`, 004 §7.1); the pipeline validates it, then the rules that need the run's history."""


class RunStarted(Struct, rename="camel"):
    run_id: str
    state: str
    version: int
    # what the intake's allergies, diet and aversions were understood as, in the caller's language (gym/nutrition/
    # understood.py); on a start only
    understood: dict[str, Any] | None = None


class UnderstoodBody(BaseModel):
    """An intake's food constraints as the member wrote them (the bounds of `intake_data`'s)."""

    model_config = ConfigDict(extra="forbid")

    allergies: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(default_factory=list, max_length=50)
    food_aversions: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(default_factory=list,
                                                                                     max_length=100)
    diet_pattern: str = Field("omnivore", max_length=200)


class CodeLabel(Struct):
    code: str
    label: str


class UnderstoodAllergy(Struct, rename="camel"):
    term: str
    understood: bool
    codes: list[CodeLabel]  # the allergen codes understood, named in the caller's language
    unknown_words: list[str]
    nearest: list[CodeLabel]  # when not understood: the codes nearest to it


class UnderstoodAversion(Struct):
    term: str
    recognised: bool  # false: kept, and shown as not recognised
    foods: list[dict[str, str]]  # library foods it names: {food (console.nutrition.food.<food>), label}
    families: list[str]  # names of the families it names without library foods ("Peanuts")


class Understood(Struct):
    allergies: list[UnderstoodAllergy]
    dietPattern: CodeLabel | None
    aversions: list[UnderstoodAversion]


class Vocabulary(Struct):
    allergens: list[CodeLabel]
    dietPatterns: list[CodeLabel]


class RunSummary(Struct, rename="camel"):
    run_id: str
    membership_id: str
    state: str
    previous_state: str | None
    version: int
    ready_version: int | None  # the version that last reached output_ready (its outputs are the plan)
    current: bool  # the member's current plan: ready, and no newer ready run replaced it
    terminated_medical: bool
    last_completed_agent: str | None
    created_at: str | None
    finished_at: str | None
    superseded_at: str | None
    awaiting_referral_acknowledgement: bool


class RunList(Struct, rename="camel"):
    runs: list[RunSummary]


class GroceryItem(Struct):
    food: str  # a food library key; its name is the locale key console.nutrition.food.<food>
    grams: int  # the week's total (a recipe's grams, one serving, times the slots it serves), rounded up


class GroceryAisle(Struct):
    aisle: str  # the locale key console.nutrition.aisle.<aisle>; foods the library does not know are under "other"
    items: list[GroceryItem]


class RunDetail(Struct):
    run: RunSummary
    outputs: dict[str, Any]
    display: dict[str, Any]  # body numbers in the member's units (metric as stored, or lb and in)
    medicalContext: list[dict[str, Any]]
    errors: list[dict[str, Any]]
    adjustments: list[dict[str, Any]]
    notice: dict[str, Any] | None  # after a medical abort: {code, key (a locale key), targetsHidden}
    # the week's recipe ingredients summed by aisle (gym/nutrition/grocery.py); null without recipes and, for the
    # member, after a medical abort
    groceries: list[GroceryAisle] | None
    # what the clinical rules changed in the plan (gym/nutrition/clinical.py), as note codes the page words
    clinicalNotes: list[str] = []


class CheckinWeight(Struct):
    kg: float
    source: str  # entered | trend (the member's trend weight on the check-in's date)


class CheckinAccepted(Struct, rename="camel"):
    checkin_id: str
    version: int
    adjustment: dict[str, Any]
    # additions (issue 43): the weight the check-in counted, and the member's estimated expenditure on its date with
    # whether it is offered as the plan's TDEE (the shape of GET .../nutrition/log/trend's `expenditure`)
    weight: CheckinWeight | None = None
    expenditure: ExpenditureOut | None = None


class ClearanceRecorded(Struct, rename="camel"):
    clearance_id: str
    membership_id: str


class MedicalContextBody(Struct):
    """The PHYSICIAN's `medical_context` (004 §4.9), field names as the spec writes them."""

    response: str
    sources: list[dict[str, Any]]
    mechanism_explained: str
    timeline: str | None
    referral_needed: bool
    referral_target: str | None
    urgency: str
    pipeline_action: str
    disclaimer: str
    floor_reasons: list[str] | None = None  # the safety floor's own words, about these red-flag codes


class _Frame(Struct, rename="camel", tag_field="type"):
    pass


class StateFrame(_Frame, tag="state"):
    from_: str | None = field(name="from")
    to: str
    at: str


class EnvelopeFrame(_Frame, tag="envelope"):
    message_id: str
    from_agent: str
    to_agent: str
    data_type: str
    run_version: int


class PhysicianFrame(_Frame, tag="physician"):
    urgency: str
    pipeline_action: str
    referral_needed: bool
    referral_target: str | None


class ConflictFrame(_Frame, tag="conflict"):
    rule: int
    agents: list[str]
    resolution: str


class RunErrorFrame(_Frame, tag="error"):
    error_type: str
    failing_agent: str
    details: str
    recoverable: bool
    retry_count: int


class DoneFrame(_Frame, tag="done"):
    state: str


RunFrame = StateFrame | EnvelopeFrame | PhysicianFrame | ConflictFrame | RunErrorFrame | DoneFrame


def sse_frame(event: NutritionEvent) -> bytes:
    """One stored run event as an SSE frame; its sequence number is the frame id (`Last-Event-ID`)."""
    data = json.dumps({"type": event.kind, **event.data}, ensure_ascii=False, default=str)
    return f"id: {event.seq}\nevent: {event.kind}\ndata: {data}\n\n".encode()


def run_stream_response() -> dict[int, ResponseSpec]:
    """The 200 of the run events stream: `id: <seq>` / `event: <type>` / `data: <json>` frames."""
    return event_stream(RunFrame, "Replays the run's frames after Last-Event-ID, then follows until the run rests "
                                  "(output_ready, error, or paused awaiting the user). Each frame's `id` is its "
                                  "sequence number in the run.", ids=True)
