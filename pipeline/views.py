"""JSON shapes of runs for HTTP and tools (camelCase keys, outputs by data type), and the SSE frame."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pipeline import runs
from pipeline.models import NutritionEvent, NutritionRun

OUTPUTS = ("macro_targets", "nutrition_strategy", "weekly_meal_plan", "recipes", "training_program")


def run_summary(run: NutritionRun) -> dict[str, Any]:
    return {"runId": str(run.id), "membershipId": str(run.member_id), "state": run.state,
            "previousState": run.previous_state, "version": run.version,
            "terminatedMedical": run.terminated_medical, "lastCompletedAgent": run.last_completed_agent,
            "createdAt": run.created_at.isoformat() if run.created_at else None,
            "finishedAt": run.finished_at.isoformat() if run.finished_at else None,
            "supersededAt": run.superseded_at.isoformat() if run.superseded_at else None,
            "awaitingReferralAcknowledgement": bool(((run.plan or {}).get("physician") or {}).get("awaiting_user"))}


async def run_detail(session: AsyncSession, run: NutritionRun) -> dict[str, Any]:
    stored = await runs.messages(session, run)
    outputs = await runs.latest_outputs(session, run, OUTPUTS)
    return {
        "run": run_summary(run), "outputs": outputs,
        "medicalContext": [m.payload for m in stored if m.data_type == "medical_context"],
        "errors": [run.error] if run.error else [],
        "adjustments": [m.payload for m in stored if m.data_type == "adjustment_result"],
    }


def sse_frame(event: NutritionEvent) -> bytes:
    data = json.dumps({"type": event.kind, **event.data}, ensure_ascii=False, default=str)
    return f"id: {event.seq}\nevent: {event.kind}\ndata: {data}\n\n".encode()
