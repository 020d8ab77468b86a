"""The canonical message envelope of 004 §2, built by the orchestrator around a validated payload.

Extension (NUTRITION.md): `run_version` (1, 2, ...) says which version of the run produced it;
`pipeline_run_id` stays a UUID. `validate_payload` is the single gate every payload passes: the
non-canonical names of 004 §3 first (naming the canonical field), then the edge schema of 004 §4.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Final, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, field_validator

from gym.nutrition.allergy_terms import refused_allergies
from gym.nutrition.clinical import check_target
from gym.nutrition.errors import PayloadInvalid, PipelineError, UnknownAllergen
from gym.nutrition.names import non_canonical_errors
from gym.nutrition.payloads import EDGES, SCHEMAS
from gym.nutrition.payloads.common import Recipient, Sender
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.units import metric_intake

SCHEMA_VERSION: Final = "1.0"


class Envelope(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    message_id: uuid.UUID
    from_agent: Sender
    to_agent: Recipient
    data_type: str
    payload: dict[str, Any]
    pipeline_run_id: uuid.UUID
    timestamp: AwareDatetime
    version: Literal["1.0"] = SCHEMA_VERSION
    run_version: Annotated[int, Field(ge=1)] = 1

    @field_validator("message_id")
    @classmethod
    def _uuid4(cls, value: uuid.UUID) -> uuid.UUID:
        if value.version != 4:
            raise ValueError("message_id must be a UUID v4")
        return value

    @field_validator("data_type")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in SCHEMAS:
            raise ValueError(f"unknown data_type {value!r}")
        return value

    def wire(self) -> dict[str, Any]:
        """The JSON form of 004 §2 (ISO 8601 UTC timestamp ending in Z)."""
        data = self.model_dump(mode="json")
        data["timestamp"] = self.timestamp.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return data


def _errors(exc: ValidationError) -> list[dict[str, Any]]:
    return [{"loc": tuple(e["loc"]), "type": e["type"], "msg": e["msg"]} for e in exc.errors()]


def validate_payload(data_type: str, payload: Any) -> BaseModel:
    """The payload as its edge's model; raises PayloadInvalid listing every problem found."""
    schema = SCHEMAS.get(data_type)
    if schema is None:
        raise PipelineError("unknown_data_type", detail=f"unknown data_type {data_type!r}")
    naming = non_canonical_errors(payload, data_type=data_type)
    if naming:
        raise PayloadInvalid(data_type, naming)
    try:
        return schema.model_validate(payload)
    except ValidationError as exc:
        raise PayloadInvalid(data_type, _errors(exc)) from exc


def validate_intake(payload: Any) -> IntakeData:
    """The member's intake (004 §4.1 with NUTRITION.md's additions, imperial values converted to the metric
    canonical names) as `IntakeData`; raises PayloadInvalid naming the fields as the member sent them, and 422
    `target_below_healthy_range` for a target weight under BMI 18.5 (`gym.nutrition.clinical`)."""
    sent_lb = isinstance(payload, dict) and "target_weight_lb" in payload
    payload, unit_errors = metric_intake(payload)
    if unit_errors:
        raise PayloadInvalid("intake_data", unit_errors)
    if refused := refused_allergies(payload):
        raise UnknownAllergen(refused)
    intake = validate_payload("intake_data", payload)
    assert isinstance(intake, IntakeData)
    check_target(intake, field="target_weight_lb" if sent_lb else "target_weight_kg")
    return intake


def check_edge(data_type: str, from_agent: str, to_agent: str) -> None:
    if (from_agent, to_agent) not in EDGES[data_type]:
        raise PipelineError("illegal_edge", status=500,
                            detail=f"{data_type} cannot travel {from_agent} -> {to_agent}")


def build_envelope(*, run_id: uuid.UUID, from_agent: str, to_agent: str, data_type: str, payload: Any,
                   run_version: int = 1, now: datetime | None = None) -> Envelope:
    """Validate `payload` for `data_type` on the edge `from_agent -> to_agent` and wrap it."""
    model = validate_payload(data_type, payload)
    check_edge(data_type, from_agent, to_agent)
    return Envelope(message_id=uuid.uuid4(), from_agent=from_agent, to_agent=to_agent, data_type=data_type,
                    payload=model.model_dump(mode="json"), pipeline_run_id=run_id,
                    timestamp=now or datetime.now(UTC), run_version=run_version)


def parse_envelope(data: Any) -> Envelope:
    """An envelope from the wire, its payload validated against its data type and edge."""
    try:
        envelope = Envelope.model_validate(data)
    except ValidationError as exc:
        raise PayloadInvalid("envelope", _errors(exc)) from exc
    validate_payload(envelope.data_type, envelope.payload)
    check_edge(envelope.data_type, envelope.from_agent, envelope.to_agent)
    return envelope


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def input_hash(value: Any) -> str:
    """sha256 of the canonical input JSON (004 §6.1: a timeout error carries it)."""
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()
