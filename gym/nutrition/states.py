"""The pipeline state machine of 004 §1 as a transition table: any move it does not list raises.

`paused_physician -> {previous_state}` is the one transition that depends on history: it is legal only
back to the state the run paused from (`continue`, or the user's acknowledgement of a referral).
"""

from __future__ import annotations

from enum import StrEnum

from gym.nutrition.errors import IllegalTransition


class State(StrEnum):
    INTAKE_PENDING = "intake_pending"
    SCIENTIST_PROCESSING = "scientist_processing"
    NUTRITIONIST_PROCESSING = "nutritionist_processing"
    DIETITIAN_PROCESSING = "dietitian_processing"
    CHEF_PROCESSING = "chef_processing"
    COACH_PROCESSING = "coach_processing"
    OUTPUT_READY = "output_ready"
    PAUSED_PHYSICIAN = "paused_physician"
    ERROR = "error"


S = State
TRANSITIONS: dict[State, frozenset[State]] = {
    S.INTAKE_PENDING: frozenset({S.SCIENTIST_PROCESSING}),
    S.SCIENTIST_PROCESSING: frozenset({S.NUTRITIONIST_PROCESSING, S.PAUSED_PHYSICIAN, S.ERROR}),
    S.NUTRITIONIST_PROCESSING: frozenset({S.DIETITIAN_PROCESSING, S.PAUSED_PHYSICIAN, S.SCIENTIST_PROCESSING,
                                          S.ERROR}),
    S.DIETITIAN_PROCESSING: frozenset({S.CHEF_PROCESSING, S.NUTRITIONIST_PROCESSING, S.PAUSED_PHYSICIAN,
                                       S.ERROR}),
    S.CHEF_PROCESSING: frozenset({S.COACH_PROCESSING, S.DIETITIAN_PROCESSING, S.ERROR}),
    S.COACH_PROCESSING: frozenset({S.OUTPUT_READY, S.PAUSED_PHYSICIAN, S.ERROR}),
    # `{previous_state}` is checked in `check_transition`; the self-loop is pause_pending_referral.
    S.PAUSED_PHYSICIAN: frozenset({S.PAUSED_PHYSICIAN, S.ERROR}),
    S.OUTPUT_READY: frozenset({S.SCIENTIST_PROCESSING}),
    S.ERROR: frozenset(),
}

# States a paused run may return to: every state that can move to paused_physician.
PAUSABLE: frozenset[State] = frozenset(src for src, targets in TRANSITIONS.items()
                                       if S.PAUSED_PHYSICIAN in targets and src is not S.PAUSED_PHYSICIAN)
# A run "rests" in these: the SSE stream stops following (paused only while it awaits the user).
RESTING: frozenset[State] = frozenset({S.OUTPUT_READY, S.PAUSED_PHYSICIAN, S.ERROR})
# A member may not start a new run while one is in any of these (409 run_in_progress).
ACTIVE: frozenset[State] = frozenset(State) - {S.OUTPUT_READY, S.ERROR}

# The agent each processing state runs, in pipeline order (the initial run is sequential, 004 §9).
AGENT_OF_STATE: dict[State, str] = {
    S.SCIENTIST_PROCESSING: "SCIENTIST",
    S.NUTRITIONIST_PROCESSING: "NUTRITIONIST",
    S.DIETITIAN_PROCESSING: "DIETITIAN",
    S.CHEF_PROCESSING: "CHEF",
    S.COACH_PROCESSING: "COACH",
}
STATE_OF_AGENT: dict[str, State] = {agent: state for state, agent in AGENT_OF_STATE.items()}
CHAIN: tuple[State, ...] = tuple(AGENT_OF_STATE)


def is_legal(current: State | str, target: State | str, previous: State | str | None = None) -> bool:
    current, target = State(current), State(target)
    if current is S.PAUSED_PHYSICIAN and target is not S.PAUSED_PHYSICIAN and target is not S.ERROR:
        return previous is not None and State(previous) in PAUSABLE and target is State(previous)
    return target in TRANSITIONS[current]


def check_transition(current: State | str, target: State | str, previous: State | str | None = None) -> State:
    """The target state if `current -> target` is in 004 §1 (given the paused-from state); else raise."""
    if not is_legal(current, target, previous):
        raise IllegalTransition(str(State(current)), str(State(target)))
    return State(target)
