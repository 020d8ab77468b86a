"""The PHYSICIAN interrupt's effect on a run (004 §5, §6.4): pure, so every outcome is a table row.

`continue` returns to the state the run paused from, the advice attached to the next agent;
`pause_pending_referral` stays in `paused_physician` until the user acknowledges; `abort` ends the run
in `error` with `physician_abort`, marks it `terminated_medical` and blocks new runs until clearance.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from gym.nutrition.payloads.common import Requester
from gym.nutrition.payloads.control import PipelineErrorPayload
from gym.nutrition.payloads.medical import MedicalContext
from gym.nutrition.states import State, check_transition


@dataclass(frozen=True)
class Outcome:
    target: State
    awaiting_user: bool = False
    terminated_medical: bool = False
    error: PipelineErrorPayload | None = None


def outcome(context: MedicalContext, *, paused_from: State, requesting_agent: Requester,
            run_id: uuid.UUID) -> Outcome:
    """Where a paused run goes once the PHYSICIAN answered (the transition is checked against 004 §1)."""
    action = context.pipeline_action
    if action == "continue":
        return Outcome(check_transition(State.PAUSED_PHYSICIAN, paused_from, paused_from))
    if action == "pause_pending_referral":
        return Outcome(check_transition(State.PAUSED_PHYSICIAN, State.PAUSED_PHYSICIAN), awaiting_user=True)
    target = check_transition(State.PAUSED_PHYSICIAN, State.ERROR)
    referral = f" See: {context.referral_target}." if context.referral_target else ""
    error = PipelineErrorPayload(
        error_type="physician_abort", failing_agent="PHYSICIAN" if requesting_agent == "USER" else requesting_agent,
        details=f"The physician advised stopping ({context.urgency}).{referral} Please seek medical care; a new "
                "plan needs medical clearance.", pipeline_run_id=run_id, recoverable=False, retry_count=0)
    return Outcome(target, terminated_medical=True, error=error)


def acknowledge(paused_from: State) -> State:
    """The user saw the referral and wishes to continue: back to the state the run paused from."""
    return check_transition(State.PAUSED_PHYSICIAN, paused_from, paused_from)
