"""The safety floor on a PHYSICIAN answer (NUTRITION.md, PHYSICIAN): a model may escalate, never go below the floor
of the query it answered; a lower answer is replaced by the floor's own (`gym.nutrition.floor_words`: the model's
text that argued for less is not kept) and logged with the reason codes only (never the member's words, nor the
model's)."""

from __future__ import annotations

import uuid
from typing import Any

import structlog

from gym.nutrition.floor_words import raise_to_floor
from gym.nutrition.safety_floor import query_floor

log = structlog.get_logger("pipeline.physician")


def floored(answer: dict[str, Any], query: dict[str, Any], *, run_id: uuid.UUID, requester: str) -> dict[str, Any]:
    """`answer` (a valid `medical_context`) at least at the floor of `query` (its `health_query`)."""
    floor = query_floor(query)
    raised, changed = raise_to_floor(answer, floor)
    if changed:
        log.warning("nutrition.physician.raised_to_floor", run_id=str(run_id), requesting_agent=requester,
                    reasons=list(floor.codes), answered_action=answer["pipeline_action"],
                    answered_urgency=answer["urgency"], floor_action=floor.action, floor_urgency=floor.urgency)
    return raised
