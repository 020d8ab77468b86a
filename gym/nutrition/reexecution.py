"""Partial re-execution, exactly the map of 004 §10: per trigger, the change point and who re-runs.

Several triggers in one check-in re-run the union of their agents. The path through the state
machine is always the whole chain (004 §1 lists no shortcut); agents that keep their output are
passed through without being called.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gym.nutrition.states import CHAIN, State

DOWNSTREAM: tuple[str, ...] = ("NUTRITIONIST", "DIETITIAN", "CHEF", "COACH")
NUTRITION_CHAIN = ("NUTRITIONIST", "DIETITIAN", "CHEF")


@dataclass(frozen=True)
class Rerun:
    change_point: str | None
    agents: tuple[str, ...]


# 004 §10, row by row. `advisory` is PHYSICIAN "continue" with advice: nothing re-runs.
MAP: dict[str, Rerun] = {
    "calorie_increase": Rerun("SCIENTIST", NUTRITION_CHAIN),
    "calorie_decrease": Rerun("SCIENTIST", NUTRITION_CHAIN),
    "protein_recalculation": Rerun("SCIENTIST", NUTRITION_CHAIN),
    "tdee_recalculation": Rerun("SCIENTIST", NUTRITION_CHAIN),
    "training_stall": Rerun("SCIENTIST", ("COACH",)),
    "phase_transition": Rerun("SCIENTIST", ("COACH",)),
    "waist_hip_flag": Rerun("SCIENTIST", ("NUTRITIONIST", "DIETITIAN", "CHEF", "COACH")),
    "compliance": Rerun("DIETITIAN", ("DIETITIAN", "CHEF")),
    "tier_progression": Rerun("SCIENTIST", NUTRITION_CHAIN),
    "advisory": Rerun(None, ()),
    "cycle_adjustment": Rerun("NUTRITIONIST", ("DIETITIAN", "CHEF")),
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
