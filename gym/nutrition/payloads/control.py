"""Orchestrator messages: `pipeline_error` (004 §6) and `upstream_data_request` (004 §6.3).

Extensions: `constraints_infeasible` (NUTRITION.md: the member's food constraints leave no plan; not
recoverable, naming the constraints that conflict); `conflict_unresolved` errors (NUTRITION.md's resolution protocol) carry both agents'
reasoning; timeouts carry `timeout_duration_ms` and `input_hash` (004 §6.1 step 4).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from pydantic import Field

from gym.nutrition.payloads.common import Agent, Payload, Short, Text

ErrorType = Literal["timeout", "validation_failure", "upstream_missing", "physician_abort",
                    "conflict_unresolved", "constraints_infeasible"]


class ConflictDetail(Payload):
    rule: Annotated[int, Field(ge=1, le=5)]
    authoritative_agent: Agent
    overridden_agent: Agent
    reasoning: dict[Agent, Text]


class PipelineErrorPayload(Payload):
    error_type: ErrorType
    failing_agent: Agent
    details: Text
    pipeline_run_id: Annotated[uuid.UUID, Field(strict=False)]
    recoverable: bool
    retry_count: Annotated[int, Field(ge=0, le=10)]
    timeout_duration_ms: Annotated[int, Field(ge=0)] | None = None
    input_hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    conflict: ConflictDetail | None = None


class UpstreamDataRequest(Payload):
    missing_fields: list[Short] = Field(min_length=1, max_length=50)
    from_agent: Agent
    reason: Text
