"""JSON shapes of runs for HTTP and tools (camelCase keys, outputs by data type), and the members the
console's nutrition page can act for (names, each with their latest run)."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from gym.member_search import MemberHit, member_hits, search_members
from gym.nutrition import runs
from gym.nutrition.adjustment import delta
from gym.nutrition.grocery import grocery_list
from gym.nutrition.models import NutritionRun
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.plan import RunPlan, awaiting_user
from gym.nutrition.scientist import clinical_notes as scientist_notes
from gym.nutrition.units import display
from gym.training.profiles import get_units

OUTPUTS = ("macro_targets", "nutrition_strategy", "weekly_meal_plan", "recipes", "training_program")


def clinical_notes(run: NutritionRun) -> list[str]:
    """What the clinical rules changed in the member's plan, as note codes the page words
    (`console.nutrition.safety.note.*`): no deficit for a minor, a low BMI, pregnancy or breastfeeding (when a loss
    was wanted); no creatine or stimulants."""
    intake = IntakeData.model_validate(run.intake)
    return scientist_notes(intake, RunPlan.of(run).scientist)


NOTICE_KEYS = {"member": "console.nutrition.notice.medicalHold", "staff": "console.nutrition.notice.medicalHoldStaff"}


def run_summary(run: NutritionRun) -> dict[str, Any]:
    return {"runId": str(run.id), "membershipId": str(run.member_id), "state": run.state,
            "previousState": run.previous_state, "version": run.version, "readyVersion": run.ready_version,
            "current": runs.is_current(run),
            "terminatedMedical": run.terminated_medical, "lastCompletedAgent": run.last_completed_agent,
            "createdAt": run.created_at.isoformat() if run.created_at else None,
            "finishedAt": run.finished_at.isoformat() if run.finished_at else None,
            "supersededAt": run.superseded_at.isoformat() if run.superseded_at else None,
            "awaitingReferralAcknowledgement": awaiting_user(run)}


def targets_hidden(run: NutritionRun, *, for_member: bool) -> bool:
    """After a medical abort a member sees no calorie or macro numbers of the run (risky with an eating-disorder
    history); staff still see everything."""
    return for_member and run.terminated_medical


def notice(run: NutritionRun, *, for_member: bool) -> dict[str, Any] | None:
    """What happens next after a medical abort, as a locale key the console shows: the member is told to see a
    clinician and that staff record the clearance; staff are told to record it from a clinician's note."""
    if not run.terminated_medical:
        return None
    return {"code": "medical_hold", "key": NOTICE_KEYS["member" if for_member else "staff"],
            "targetsHidden": for_member}


async def run_detail(session: AsyncSession, run: NutritionRun, *, for_member: bool = False) -> dict[str, Any]:
    """The run with its plan (the outputs of its ready version while a newer one is under way or failed), medical
    context, errors, adjustments and the week's grocery list. After a medical abort the member sees no calorie or macro numbers (none of
    the plan's outputs, adjustments or body weights: risky with an eating-disorder history), only what happens
    next; staff still see everything."""
    stored = await runs.messages(session, run)
    outputs = await runs.latest_outputs(session, run, OUTPUTS, upto_version=runs.shown_version(run))
    units = await get_units(session, run.org_id, run.member_id)
    hidden = targets_hidden(run, for_member=for_member)
    shown = display(run.intake, outputs["macro_targets"], weight_unit=units.weight_unit)
    return {
        "clinicalNotes": clinical_notes(run),
        "run": run_summary(run),
        "outputs": {name: None for name in OUTPUTS} if hidden else outputs,
        "display": {"units": shown["units"]} if hidden else shown,
        "medicalContext": [m.payload for m in stored if m.data_type == "medical_context"],
        "errors": [run.error] if run.error else [],
        "adjustments": [] if hidden else [delta(m.payload) for m in stored if m.data_type == "adjustment_result"],
        "groceries": None if hidden else grocery_list(outputs["recipes"]),
        "notice": notice(run, for_member=for_member),
    }


async def member_choices(session: AsyncSession, org_id: uuid.UUID, *, query: str | None = None,
                         only: uuid.UUID | None = None, limit: int = 20) -> list[dict[str, Any]]:
    """Members by name for the console: a fuzzy name search, else members with runs (newest first) and
    then the rest by name; `only` is a member's own id (a member acts only for themself). Each carries
    their latest run and whether a new run waits for medical clearance."""
    if only is not None:
        hits = await member_hits(session, org_id, [only])
    elif query and query.strip():
        hits = await search_members(session, org_id, query, limit=limit)
    else:
        with_runs = (await session.execute(
            select(NutritionRun.member_id).where(NutritionRun.org_id == org_id)
            .group_by(NutritionRun.member_id).order_by(func.max(NutritionRun.created_at).desc()).limit(limit))).scalars()
        hits = await member_hits(session, org_id, list(with_runs))
        seen = {hit.id for hit in hits}
        hits += [hit for hit in await search_members(session, org_id, None, limit=limit) if hit.id not in seen]
        hits = hits[:limit]
    latest = await _latest_runs(session, org_id, [hit.id for hit in hits])
    out = []
    for hit in hits:
        run = latest.get(hit.id)
        blocked = bool(run and run.terminated_medical) and await runs.clearance_required(session, org_id, hit.id)
        out.append(_choice(hit, run, blocked))
    return out


def _choice(hit: MemberHit, run: NutritionRun | None, blocked: bool) -> dict[str, Any]:
    return {"membershipId": str(hit.id), "name": hit.full_name, "status": hit.status,
            "latestRunId": str(run.id) if run else None, "latestRunState": run.state if run else None,
            "clearanceRequired": blocked}


async def _latest_runs(session: AsyncSession, org_id: uuid.UUID,
                       member_ids: list[uuid.UUID]) -> dict[uuid.UUID, NutritionRun]:
    if not member_ids:
        return {}
    found = (await session.scalars(
        select(NutritionRun).where(NutritionRun.org_id == org_id, NutritionRun.member_id.in_(member_ids))
        .order_by(NutritionRun.created_at.desc(), NutritionRun.id))).all()
    latest: dict[uuid.UUID, NutritionRun] = {}
    for run in found:
        latest.setdefault(run.member_id, run)
    return latest
