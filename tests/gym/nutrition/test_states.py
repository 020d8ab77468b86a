"""The state machine is exactly 004 §1: every listed move is legal, everything else raises."""

from __future__ import annotations

import pytest

from gym.nutrition.errors import IllegalTransition
from gym.nutrition.states import (
    DOWNSTREAM,
    NEXT,
    PAUSABLE,
    TRANSITIONS,
    UPSTREAM,
    State,
    check_transition,
    is_legal,
)

S = State
# 004 §1, "Valid Transitions", line by line (paused -> {previous_state} listed once per pausable state).
LEGAL = [
    (S.INTAKE_PENDING, S.SCIENTIST_PROCESSING, None),
    (S.SCIENTIST_PROCESSING, S.NUTRITIONIST_PROCESSING, None),
    (S.SCIENTIST_PROCESSING, S.PAUSED_PHYSICIAN, None),
    (S.SCIENTIST_PROCESSING, S.ERROR, None),
    (S.NUTRITIONIST_PROCESSING, S.DIETITIAN_PROCESSING, None),
    (S.NUTRITIONIST_PROCESSING, S.PAUSED_PHYSICIAN, None),
    (S.NUTRITIONIST_PROCESSING, S.SCIENTIST_PROCESSING, None),
    (S.NUTRITIONIST_PROCESSING, S.ERROR, None),
    (S.DIETITIAN_PROCESSING, S.CHEF_PROCESSING, None),
    (S.DIETITIAN_PROCESSING, S.NUTRITIONIST_PROCESSING, None),
    (S.DIETITIAN_PROCESSING, S.PAUSED_PHYSICIAN, None),
    (S.DIETITIAN_PROCESSING, S.ERROR, None),
    (S.CHEF_PROCESSING, S.COACH_PROCESSING, None),
    (S.CHEF_PROCESSING, S.DIETITIAN_PROCESSING, None),
    (S.CHEF_PROCESSING, S.ERROR, None),
    (S.COACH_PROCESSING, S.OUTPUT_READY, None),
    (S.COACH_PROCESSING, S.PAUSED_PHYSICIAN, None),
    (S.COACH_PROCESSING, S.ERROR, None),
    (S.PAUSED_PHYSICIAN, S.SCIENTIST_PROCESSING, S.SCIENTIST_PROCESSING),
    (S.PAUSED_PHYSICIAN, S.NUTRITIONIST_PROCESSING, S.NUTRITIONIST_PROCESSING),
    (S.PAUSED_PHYSICIAN, S.DIETITIAN_PROCESSING, S.DIETITIAN_PROCESSING),
    (S.PAUSED_PHYSICIAN, S.COACH_PROCESSING, S.COACH_PROCESSING),
    (S.PAUSED_PHYSICIAN, S.PAUSED_PHYSICIAN, S.SCIENTIST_PROCESSING),
    (S.PAUSED_PHYSICIAN, S.ERROR, S.DIETITIAN_PROCESSING),
    (S.OUTPUT_READY, S.SCIENTIST_PROCESSING, None),
]


@pytest.mark.parametrize(("current", "target", "previous"), LEGAL)
def test_every_listed_transition_is_legal(current, target, previous) -> None:
    assert check_transition(current, target, previous) is target


def test_the_table_holds_nothing_the_spec_does_not_list() -> None:
    listed = {(c, t) for c, t, _ in LEGAL if c is not S.PAUSED_PHYSICIAN}
    table = {(c, t) for c, targets in TRANSITIONS.items() for t in targets if c is not S.PAUSED_PHYSICIAN}
    assert table == listed
    assert PAUSABLE == {S.SCIENTIST_PROCESSING, S.NUTRITIONIST_PROCESSING, S.DIETITIAN_PROCESSING,
                        S.COACH_PROCESSING}


ILLEGAL = [
    (S.INTAKE_PENDING, S.NUTRITIONIST_PROCESSING, None),
    (S.INTAKE_PENDING, S.OUTPUT_READY, None),
    (S.SCIENTIST_PROCESSING, S.DIETITIAN_PROCESSING, None),
    (S.SCIENTIST_PROCESSING, S.OUTPUT_READY, None),
    (S.NUTRITIONIST_PROCESSING, S.CHEF_PROCESSING, None),
    (S.DIETITIAN_PROCESSING, S.SCIENTIST_PROCESSING, None),
    (S.CHEF_PROCESSING, S.PAUSED_PHYSICIAN, None),  # CHEF has no physician edge in 004 §1
    (S.CHEF_PROCESSING, S.NUTRITIONIST_PROCESSING, None),
    (S.COACH_PROCESSING, S.CHEF_PROCESSING, None),
    (S.OUTPUT_READY, S.COACH_PROCESSING, None),
    (S.OUTPUT_READY, S.ERROR, None),
    (S.ERROR, S.SCIENTIST_PROCESSING, None),
    (S.ERROR, S.OUTPUT_READY, None),
    (S.PAUSED_PHYSICIAN, S.CHEF_PROCESSING, S.DIETITIAN_PROCESSING),  # not where it paused from
    (S.PAUSED_PHYSICIAN, S.SCIENTIST_PROCESSING, None),  # no paused-from state known
    (S.PAUSED_PHYSICIAN, S.OUTPUT_READY, S.OUTPUT_READY),  # output_ready never pauses
    (S.PAUSED_PHYSICIAN, S.INTAKE_PENDING, S.INTAKE_PENDING),
]


@pytest.mark.parametrize(("current", "target", "previous"), ILLEGAL)
def test_unlisted_moves_raise(current, target, previous) -> None:
    assert not is_legal(current, target, previous)
    with pytest.raises(IllegalTransition) as caught:
        check_transition(current, target, previous)
    assert caught.value.code == "illegal_transition"
    assert (caught.value.current, caught.value.target) == (current.value, target.value)


def test_every_pair_outside_the_table_raises() -> None:
    """Exhaustive over the 81 pairs (with no paused-from state): legal exactly when the table lists it."""
    for current in State:
        for target in State:
            expected = target in TRANSITIONS[current]
            assert is_legal(current, target) is expected, (current, target)


def test_the_chain_orders_the_walk_the_downstream_agents_and_whom_each_asks() -> None:
    """INTAKE -> SCIENTIST -> NUTRITIONIST -> DIETITIAN -> CHEF -> COACH (004 §1, §9), written once in states.AGENTS."""
    walk = [S.INTAKE_PENDING]
    while walk[-1] in NEXT:
        walk.append(NEXT[walk[-1]])
    assert walk == [S.INTAKE_PENDING, S.SCIENTIST_PROCESSING, S.NUTRITIONIST_PROCESSING, S.DIETITIAN_PROCESSING,
                    S.CHEF_PROCESSING, S.COACH_PROCESSING, S.OUTPUT_READY]
    assert DOWNSTREAM == ("NUTRITIONIST", "DIETITIAN", "CHEF", "COACH")
    assert UPSTREAM == {"NUTRITIONIST": "SCIENTIST", "DIETITIAN": "NUTRITIONIST", "CHEF": "DIETITIAN"}
