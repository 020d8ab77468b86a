"""Partial re-execution, exactly the map of 004 §10: per trigger, the change point and who re-runs.

Several triggers in one check-in re-run the union of their agents, in chain order. The path through
the state machine is always the whole chain (004 §1 lists no shortcut); agents that keep their output
are passed through without being called.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gym.nutrition.states import CHAIN, DOWNSTREAM, State

NUTRITION = frozenset({"NUTRITIONIST", "DIETITIAN", "CHEF"})  # the agents that plan what the member eats


@dataclass(frozen=True)
class Rerun:
    change_point: str | None
    agents: frozenset[str]  # who re-runs; the chain decides the order


# 004 §10, row by row. `advisory` is PHYSICIAN "continue" with advice: nothing re-runs.
MAP: dict[str, Rerun] = {
    "calorie_increase": Rerun("SCIENTIST", NUTRITION),
    "calorie_decrease": Rerun("SCIENTIST", NUTRITION),
    "protein_recalculation": Rerun("SCIENTIST", NUTRITION),
    "tdee_recalculation": Rerun("SCIENTIST", NUTRITION),
    "training_stall": Rerun("SCIENTIST", frozenset({"COACH"})),
    "phase_transition": Rerun("SCIENTIST", frozenset({"COACH"})),
    "waist_hip_flag": Rerun("SCIENTIST", frozenset(DOWNSTREAM)),
    "compliance": Rerun("DIETITIAN", frozenset({"DIETITIAN", "CHEF"})),
    "tier_progression": Rerun("SCIENTIST", NUTRITION),
    "advisory": Rerun(None, frozenset()),
    "cycle_adjustment": Rerun("NUTRITIONIST", frozenset({"DIETITIAN", "CHEF"})),
}


def agents_to_rerun(triggers: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(agents re-run, agents unchanged), both in pipeline order, for the fired triggers."""
    chosen = {agent for trigger in triggers for agent in MAP[trigger].agents}
    rerun = tuple(agent for agent in DOWNSTREAM if agent in chosen)
    return rerun, tuple(agent for agent in DOWNSTREAM if agent not in chosen)


def rerun_path() -> tuple[State, ...]:
    """States a re-run walks: output_ready -> scientist -> ... -> coach -> output_ready."""
    return (State.OUTPUT_READY, *CHAIN, State.OUTPUT_READY)


def next_version(version: int, rerun: tuple[str, ...]) -> int:
    """The run's version after a check-in: +1 when any agent re-runs, unchanged for no_change."""
    return version + 1 if rerun else version
