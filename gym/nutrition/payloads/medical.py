"""Any agent (or the user) -> PHYSICIAN (`health_query`, 004 §4.8) and PHYSICIAN -> requester
(`medical_context`, 004 §4.9). A response without a disclaimer fails validation (NUTRITION.md).

Extension: `medical_context.floor_reasons`, set when the answer is the safety floor's own words (the offline
PHYSICIAN's, or a model answer below the floor replaced by them; `gym.nutrition.floor_words`): the red-flag codes the
words are about, so a page says them in the reader's language. It is not part of the model's tool schema."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator
from pydantic.json_schema import SkipJsonSchema

from gym.nutrition.payloads.common import MenstrualStatus, Payload, Requester, Short, Text
from gym.nutrition.safety_floor import CODES


class UserContext(Payload):
    current_weight_kg: Annotated[float, Field(gt=0, le=350)]
    bmi: Annotated[float, Field(gt=0, le=350)]  # any the intake allows: up to 350 kg at 100 cm
    symptoms: list[Text] = Field(max_length=30)
    menstrual_status: MenstrualStatus | None
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
    floor_reasons: SkipJsonSchema[list[Short] | None] = Field(default=None, max_length=30)

    @field_validator("floor_reasons")
    @classmethod
    def _known_codes(cls, value: list[str] | None) -> list[str] | None:
        unknown = [code for code in value or [] if code not in CODES]
        if unknown:
            raise ValueError(f"unknown red-flag codes: {', '.join(unknown)}")
        return value
