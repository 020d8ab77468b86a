"""Where a PHYSICIAN answer takes a run (NUTRITION.md, PHYSICIAN; 004 §5), shared by the driver (the run's own
health queries) and a user's health question whose safety floor is above `continue`, which pauses (or aborts)
the member's current run like any other health query.

A question's answer is known before the run moves (the member reads it at once), so the run takes it as a *hold*:
at once from a state 004 §1 lets pause (`output_ready` re-enters the chain at SCIENTIST as a weekly re-run does,
with the version incremented); from `intake_pending` and `chef_processing` (no physician edge) at the run's next
pausable state; while the run's own query is with the PHYSICIAN, its answer is held to at least the question's.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from gym.nutrition import runs
from gym.nutrition.envelope import build_envelope
from gym.nutrition.models import NutritionRun
from gym.nutrition.payloads.medical import MedicalContext
from gym.nutrition.physician import outcome as physician_outcome
from gym.nutrition.plan import PendingQuery, RunPlan
from gym.nutrition.safety_floor import ACTION_RANK, URGENCY_RANK, query_floor
from gym.nutrition.states import PAUSABLE, State


def physician_frame(context: MedicalContext) -> dict[str, Any]:
    """The SSE `physician` frame of an answer."""
    return {"urgency": context.urgency, "pipelineAction": context.pipeline_action,
            "referralNeeded": context.referral_needed, "referralTarget": context.referral_target}


def graver(one: dict[str, Any], other: dict[str, Any] | None) -> dict[str, Any]:
    """The graver of two `medical_context` answers (action, then urgency); `one` when they are as grave."""
    if other is None:
        return one
    rank = lambda a: (ACTION_RANK[a["pipeline_action"]], URGENCY_RANK[a["urgency"]])  # noqa: E731
    return other if rank(other) > rank(one) else one


async def settle(session: AsyncSession, run: NutritionRun, plan: RunPlan, pending: PendingQuery,
                 answer: dict[str, Any]) -> None:
    """The paused run takes the PHYSICIAN's answer (004 §5): `continue` resumes where it paused with the advice for
    the next agent, `pause_pending_referral` waits for the user, `abort` ends it `terminated_medical`. A question's
    hold the run carries makes the answer at least as grave as the question's."""
    hold, plan.hold = plan.hold, None
    if hold is not None and hold.answer is not None and graver(answer, hold.answer) is not answer:
        pending, answer = hold, hold.answer
    context = MedicalContext.model_validate(answer)
    await runs.append_event(session, run, "physician", physician_frame(context))
    requester = pending.requesting_agent
    result = physician_outcome(context, paused_from=State(run.previous_state or State.SCIENTIST_PROCESSING),
                               requesting_agent=requester, run_id=run.id)
    plan.constraint.pop("PHYSICIAN", None)
    if result.error is not None:
        plan.physician = None
        plan.store(run)
        await runs.fail(session, run, result.error, terminated_medical=True)
        return
    if result.awaiting_user:
        plan.physician = PendingQuery(query=pending.query, requesting_agent=requester, awaiting_user=True,
                                      answer=answer)
        plan.store(run)
        await runs.transition(session, run, State.PAUSED_PHYSICIAN)
        await runs.append_event(session, run, "done", {"state": run.state})
        return
    plan.physician = None
    plan.advice = answer
    plan.store(run)
    await runs.transition(session, run, result.target)


async def apply_hold(session: AsyncSession, run: NutritionRun, plan: RunPlan) -> bool:
    """A run in a pausable processing state carrying a question's hold pauses on it now; False when it has none."""
    hold = plan.hold
    if hold is None or hold.answer is None or State(run.state) not in PAUSABLE:
        return False
    plan.hold = None
    plan.store(run)
    await runs.transition(session, run, State.PAUSED_PHYSICIAN)
    await settle(session, run, plan, hold, hold.answer)
    return True


def live(run: NutritionRun) -> bool:
    """A run a question can pause: working, paused, or the member's current plan."""
    state = State(run.state)
    return state is not State.ERROR and not (state is State.OUTPUT_READY and run.superseded_at is not None)


async def store_question(session: AsyncSession, run: NutritionRun, query: dict[str, Any], answer: dict[str, Any],
                         *, attempt: int) -> None:
    """A user's question and the PHYSICIAN's answer, as the run's envelopes (USER -> PHYSICIAN -> USER)."""
    for from_agent, to_agent, data_type, payload in (("USER", "PHYSICIAN", "health_query", query),
                                                     ("PHYSICIAN", "USER", "medical_context", answer)):
        await runs.store_envelope(session, run, build_envelope(
            run_id=run.id, from_agent=from_agent, to_agent=to_agent, data_type=data_type, payload=payload,
            run_version=run.version), attempt=attempt)


async def hold_for_question(session: AsyncSession, run: NutritionRun, query: dict[str, Any], answer: dict[str, Any],
                            *, attempt: int, run_seconds: float) -> bool:
    """A question whose floor is above `continue` pauses (or aborts) `run`, locked by the caller, with the
    PHYSICIAN's floored `answer`, stored as the run's envelopes; False when the run has ended (nothing stored)."""
    if not live(run):
        return False
    state = State(run.state)
    plan = RunPlan.of(run)
    hold = PendingQuery(query=query, requesting_agent="USER", answer=answer)
    abort = answer["pipeline_action"] == "abort"
    if state is State.OUTPUT_READY:  # 004 §1: output_ready -> scientist_processing -> paused_physician
        run.version += 1
        plan.rerun, plan.flags, plan.checkin_flags = [], None, []
        plan.new_segment(now=datetime.now(UTC), run_seconds=run_seconds)
    if plan.scientist is not None:  # what the question raised holds on every later plan of the run
        plan.learn(list(query_floor(query).codes))
    if state is State.OUTPUT_READY:
        plan.store(run)
        await runs.transition(session, run, State.SCIENTIST_PROCESSING)
        state = State.SCIENTIST_PROCESSING
    await store_question(session, run, query, answer, attempt=attempt)
    if state is State.PAUSED_PHYSICIAN:
        pending = plan.physician
        if (pending is not None and pending.awaiting_user) or abort:
            await settle(session, run, plan, hold, graver(answer, pending.answer if pending else None))
            return True
        plan.hold = hold  # the run's own query is with the PHYSICIAN: its answer is held to this one
        plan.store(run)
        return True
    if state in PAUSABLE:
        plan.hold = hold
        return await apply_hold(session, run, plan)
    if abort and state is State.CHEF_PROCESSING:  # chef_processing -> error (004 §1): in-flight work is dropped
        context = MedicalContext.model_validate(answer)
        await runs.append_event(session, run, "physician", physician_frame(context))
        result = physician_outcome(context, paused_from=state, requesting_agent="USER", run_id=run.id)
        assert result.error is not None
        plan.store(run)
        await runs.fail(session, run, result.error, terminated_medical=True)
        return True
    plan.hold = hold  # intake_pending or chef_processing: the run pauses at its next pausable state
    plan.store(run)
    return True
