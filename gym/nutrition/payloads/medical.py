"""Any agent (or the user) -> PHYSICIAN (`health_query`, 004 §4.8) and PHYSICIAN -> requester
(`medical_context`, 004 §4.9). A response without a disclaimer fails validation (NUTRITION.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gym.nutrition.payloads.common import Payload, Requester, Short, Text


class UserContext(Payload):
    current_weight_kg: Annotated[float, Field(gt=0, le=350)]
    bmi: Annotated[float, Field(gt=0, le=350)]  # any the intake allows: up to 350 kg at 100 cm
    symptoms: list[Text] = Field(max_length=30)
    menstrual_status: Literal["regular", "irregular", "amenorrhea"] | None
    training_weeks: Annotated[int, Field(ge=0, le=1_000)]
    supplements_current: list[Short] = Field(max_length=30)


class HealthQuery(Payload):
    query_type: Literal["health_question", "red_flag", "symptom_check"]
    query: Annotated[str, Field(min_length=1, max_length=4_000)]
    requesting_agent: Requester
    user_context: UserContext


class Source(Payload):
    author: Short
    year: Annotated[int, Field(ge=1800, le=2100)]
    publication: Short
    finding: Text


class MedicalContext(Payload):
    response: Annotated[str, Field(min_length=1, max_length=8_000)]
    sources: list[Source] = Field(max_length=20)
    mechanism_explained: Text
    timeline: Text | None
    referral_needed: bool
    referral_target: Short | None
    urgency: Literal["routine", "soon", "urgent"]
    pipeline_action: Literal["continue", "pause_pending_referral", "abort"]
    disclaimer: Annotated[str, Field(min_length=1, max_length=2_000)]
