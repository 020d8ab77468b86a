"""What a user (or staff) does to a run between steps: acknowledge a referral, submit a weekly check-in.

After either, a run in a processing state needs a worker: `gym.nutrition.service` queues its job in the same
transaction.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import Conflict
from gym.nutrition import expenditure, runs
from gym.nutrition.adjustment import delta, weekly_outcome
from gym.nutrition.body_weights import with_trend_weight
from gym.nutrition.checkin_rules import check_plausible, validate_checkin
from gym.nutrition.envelope import build_envelope, validate_payload
from gym.nutrition.models import NutritionAdjustment, NutritionCheckin, NutritionRun
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.physician import acknowledge
from gym.nutrition.plan import RunPlan
from gym.nutrition.red_flags import checkin_flags
from gym.nutrition.scientist import goal, ramps
from gym.nutrition.states import ACTIVE, CHAIN, State
from gym.nutrition.triggers import NO_LUTEAL, LoopState, Point, evaluate, weeks_between

RUN_SECONDS = 180.0


async def acknowledge_referral(session: AsyncSession, org_id: uuid.UUID, run_id: uuid.UUID, *,
                               member_scope: uuid.UUID | None = None,
                               run_seconds: float = RUN_SECONDS) -> NutritionRun:
    """The user saw the referral and wishes to continue: back to the state the run paused from."""
    run = await runs.get_run(session, org_id, run_id, member_scope=member_scope, for_update=True)
    plan = RunPlan.of(run)
    pending = plan.physician
    if run.state != State.PAUSED_PHYSICIAN.value or pending is None or not pending.awaiting_user \
            or not run.previous_state:
        raise Conflict("referral_not_pending")
    plan.physician = None
    plan.advice = pending.answer
    plan.new_segment(now=datetime.now(UTC), run_seconds=run_seconds)
    plan.store(run)
    await runs.transition(session, run, acknowledge(State(run.previous_state)))
    return run


@dataclass(frozen=True)
class CheckinOutcome:
    checkin_id: uuid.UUID
    adjustment: dict[str, Any]
    version: int
    needs_worker: bool
    replayed: bool = False  # the same check-in was stored before: its first result, nothing re-ran
    weight: dict[str, Any] | None = None  # the weight it counted and where it came from: {kg, source: entered | trend}
    expenditure: dict[str, Any] | None = None  # the member's estimated expenditure on its date, and the TDEE offer


def _same_checkin(stored: dict[str, Any], sent: WeeklyCheckin, on: date) -> bool:
    """The same check-in sent again: equal fields, the date resolved, `confirmed` aside (an acknowledgement)."""
    def canonical(payload: dict[str, Any]) -> dict[str, Any]:
        return {**{k: v for k, v in payload.items() if k != "confirmed"}, "checkin_date": on.isoformat()}
    return canonical(stored) == canonical(sent.model_dump(mode="json"))


async def _replay(session: AsyncSession, run: NutritionRun, checkin: WeeklyCheckin, on: date) -> CheckinOutcome | None:
    """NUTRITION.md: one check-in per run and date. The identical one again: its first result; another: 409."""
    found = await runs.checkin_on(session, run, on)
    if found is None:
        return None
    stored, adjustment = found
    if not _same_checkin(stored.payload, checkin, on):
        raise Conflict("checkin_exists", checkin_date=on.isoformat())
    return CheckinOutcome(stored.id, adjustment.payload if adjustment else {},
                          adjustment.to_version if adjustment else stored.run_version, needs_worker=False,
                          replayed=True)


async def submit_checkin(session: AsyncSession, org_id: uuid.UUID, run_id: uuid.UUID, payload: Any, *,
                         member_scope: uuid.UUID | None = None, submitted_by: uuid.UUID | None = None,
                         today: date | None = None, run_seconds: float = RUN_SECONDS) -> CheckinOutcome:
    """A weekly check-in (004 §7): validated, evaluated, stored with its `adjustment_result`; when a
    trigger fired (or a red flag), the run re-enters at SCIENTIST with the version incremented. Without `weight_kg`
    it counts the member's trend weight on its date (`body_weights`); the member's chosen TDEE applies
    (`expenditure`), and the answer carries the expenditure estimate and whether it is offered as the TDEE."""
    run = await runs.get_run(session, org_id, run_id, member_scope=member_scope, for_update=True)
    today = today or datetime.now(UTC).date()
    payload, weight = await with_trend_weight(session, org_id, run.member_id, payload, today)
    checkin = validate_payload("weekly_checkin", payload)
    assert isinstance(checkin, WeeklyCheckin)
    replayed = await _replay(session, run, checkin, checkin.checkin_date or today)
    if replayed is not None:
        offer = await expenditure.overview(session, org_id, run.member_id, checkin.checkin_date or today)
        return replace(replayed, weight=weight, expenditure=offer)
    if run.state != State.OUTPUT_READY.value:
        raise Conflict("run_in_progress" if State(run.state) in ACTIVE else "run_not_ready")
    if run.superseded_at is not None:
        raise Conflict("run_superseded", detail="check-ins go to the member's current plan")
    if (newer := await runs.active_run(session, org_id, run.member_id)) is not None:
        raise Conflict("run_in_progress", run_id=str(newer.id))  # one run works for a member at a time
    history = await runs.checkin_history(session, run)
    on = validate_checkin(checkin, started_on=run.started_on, today=today, history=history)
    intake = IntakeData.model_validate(run.intake)
    last = history[-1] if history else None
    last_weight_kg = last.checkin.weight_kg if last else intake.current_weight_kg
    check_plausible(checkin, on, last_weight_kg=last_weight_kg, last_on=last.on if last else run.started_on)
    point = Point(checkin, on, weeks_between(run.started_on, on))
    plan = RunPlan.of(run)
    scientist = plan.state
    resets = plan.resets
    loop = LoopState(goal=goal(intake, scientist), start_date=run.started_on,
                     start_weight_kg=intake.current_weight_kg, tdee_weight_kg=scientist.tdee_weight_kg,
                     tier=scientist.tier, ramps=ramps(intake), calorie_reset=resets.calorie,
                     stall_reset=resets.stall, protein_period=scientist.protein_period,
                     training_phase=scientist.training_phase or intake.training_phase,
                     luteal=intake.menstrual_status not in NO_LUTEAL)
    ev = evaluate(loop, history, point)
    expenditure.apply_choice(ev, scientist, await expenditure.chosen_tdee(session, org_id, run.member_id))
    flags = checkin_flags(checkin, goal=loop.goal, weekly_change_kg=ev.rate_kg_per_week, height_cm=intake.height_cm,
                          last_weight_kg=last_weight_kg)
    out = weekly_outcome(intake, scientist, ev, point, version=run.version)
    row = NutritionCheckin(id=uuid.uuid4(), org_id=org_id, run_id=run.id, member_id=run.member_id,
                           submitted_by=submitted_by, checkin_date=on, weeks_on_program=point.week,
                           run_version=run.version, payload=checkin.model_dump(mode="json"))
    session.add(row)
    await session.flush()
    number = len(history) + 1
    await runs.store_envelope(session, run, build_envelope(
        run_id=run.id, from_agent="USER", to_agent="SCIENTIST", data_type="weekly_checkin",
        payload=row.payload, run_version=run.version), attempt=number)
    result = delta(out.result)
    session.add(NutritionAdjustment(id=uuid.uuid4(), org_id=org_id, run_id=run.id, checkin_id=row.id,
                                    from_version=run.version, to_version=out.version, triggers=list(ev.triggers),
                                    payload=result))
    await runs.store_envelope(session, run, build_envelope(
        run_id=run.id, from_agent="SCIENTIST", to_agent="USER", data_type="adjustment_result",
        payload=out.result.model_dump(mode="json"), run_version=out.version), attempt=number)
    plan.scientist = out.state
    if {"calorie_increase", "calorie_decrease"} & set(ev.triggers):
        resets.calorie = number
    if "training_stall" in ev.triggers:
        resets.stall = number
    plan.resets = resets
    plan.stall = "training_stall" in ev.triggers
    plan.cycle_phase = checkin.cycle_phase if loop.luteal else None
    needs_worker = bool(out.agents_re_run or flags)
    if needs_worker:
        run.version = out.version
        plan.rerun = list(out.agents_re_run)
        plan.checkin_flags = list(flags)
        plan.new_segment(now=datetime.now(UTC), run_seconds=run_seconds)
    plan.store(run)
    if needs_worker:
        await runs.transition(session, run, CHAIN[0])  # every re-run walks the whole chain
    return CheckinOutcome(row.id, result, run.version, needs_worker, weight=weight,
                          expenditure=await expenditure.overview(session, org_id, run.member_id, on))
