"""The pipeline state machine of 004 §1 as a transition table, and the chain of agents it is built on: any
move the table does not list raises.

`paused_physician -> {previous_state}` is the one transition that depends on history: it is legal only
back to the state the run paused from (`continue`, or the user's acknowledgement of a referral).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, get_args

from gym.nutrition.errors import IllegalTransition
from gym.nutrition.payloads.common import Agent


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

# The chain, written once: the agents of a run in pipeline order (004 §1; the initial run is sequential, 004
# §9). INTAKE (code) enters it, OUTPUT_READY ends it. Every other order derives from this tuple: the states a
# run walks, the driver's next state, the agents a weekly check-in may re-run, whom an agent asks for data.
ChainAgent = Literal["SCIENTIST", "NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]
AGENTS: tuple[ChainAgent, ...] = get_args(ChainAgent)

STATE_OF_AGENT: dict[Agent, State] = {agent: State(f"{agent.lower()}_processing") for agent in AGENTS}
AGENT_OF_STATE: dict[State, ChainAgent] = {STATE_OF_AGENT[agent]: agent for agent in AGENTS}
CHAIN: tuple[State, ...] = tuple(STATE_OF_AGENT.values())
# Where each step of the chain goes when its agent is done (or kept its output).
NEXT: dict[State, State] = dict(zip((S.INTAKE_PENDING, *CHAIN), (*CHAIN, S.OUTPUT_READY), strict=True))
# The model-backed agents after SCIENTIST, in order: what a run (re-)runs, and the order it re-runs them in.
DOWNSTREAM: tuple[ChainAgent, ...] = AGENTS[1:]
# Whom an agent may ask for missing data (004 §6.3): the agent before it, which re-runs once. COACH builds on
# SCIENTIST's training input, not on CHEF's recipes, and asks nobody.
UPSTREAM: dict[Agent, ChainAgent] = {agent: AGENTS[AGENTS.index(agent) - 1] for agent in ("NUTRITIONIST", "DIETITIAN", "CHEF")}
# States that may pause for the PHYSICIAN (004 §1 gives CHEF no physician edge).
PAUSABLE: frozenset[State] = frozenset(CHAIN) - {STATE_OF_AGENT["CHEF"]}


def _moves(state: State) -> frozenset[State]:
    """The moves 004 §1 ("Valid Transitions") lists from `state`."""
    moves: set[State] = set()
    if state in NEXT:
        moves.add(NEXT[state])  # along the chain
    if state is S.OUTPUT_READY:
        moves.add(CHAIN[0])  # a weekly re-run enters the chain again
    agent = AGENT_OF_STATE.get(state)
    if agent in UPSTREAM:
        moves.add(STATE_OF_AGENT[UPSTREAM[agent]])  # the upstream agent re-runs (004 §6.3)
    if state in PAUSABLE or state is S.PAUSED_PHYSICIAN:
        moves.add(S.PAUSED_PHYSICIAN)  # a physician pause; staying paused is pause_pending_referral
    if state in CHAIN or state is S.PAUSED_PHYSICIAN:
        moves.add(S.ERROR)
    return frozenset(moves)


# `paused_physician -> {previous_state}` is not in the table: `check_transition` allows it back to where it paused.
TRANSITIONS: dict[State, frozenset[State]] = {state: _moves(state) for state in State}
# A run "rests" in these: the SSE stream stops following (paused only while it awaits the user).
RESTING: frozenset[State] = frozenset({S.OUTPUT_READY, S.PAUSED_PHYSICIAN, S.ERROR})
# A member may not start a new run while one is in any of these (409 run_in_progress).
ACTIVE: frozenset[State] = frozenset(State) - {S.OUTPUT_READY, S.ERROR}


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
