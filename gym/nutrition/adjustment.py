"""The weekly loop's outcome for one check-in: new SCIENTIST state, agents to re-run, the version
and the `adjustment_result` delta of 004 §7.4 (only changed fields; `no_change` when nothing fired)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gym.nutrition.payloads.feedback import AdjustmentResult, NewMacros
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.nutrition import MacroTargets
from gym.nutrition.reexecution import agents_to_rerun, next_version
from gym.nutrition.scientist import ScientistState, macro_targets
from gym.nutrition.triggers import PROTEIN_EVERY_WEEKS, Evaluation, Point, tier_reached

DELTA_FIELDS = ("adjustment_amount_kcal", "new_target_intake_kcal", "new_macros")


@dataclass(frozen=True)
class Outcome:
    state: ScientistState
    targets: MacroTargets
    agents_re_run: tuple[str, ...]
    version: int
    result: AdjustmentResult


def advance(state: ScientistState, ev: Evaluation, new: Point) -> ScientistState:
    """The SCIENTIST's inputs after the fired triggers: only what a trigger names moves."""
    fired = set(ev.triggers)
    weight = new.checkin.weight_kg
    phase = new.checkin.training_phase if "phase_transition" in fired else state.training_phase
    tdee = "tdee_recalculation" in fired
    return replace(
        state, current_weight_kg=weight, weeks_on_program=new.week,
        kcal_offset=state.kcal_offset + ev.kcal_change,
        tdee_weight_kg=weight if tdee else state.tdee_weight_kg,
        protein_weight_kg=weight if "protein_recalculation" in fired else state.protein_weight_kg,
        protein_period=new.week // PROTEIN_EVERY_WEEKS if "protein_recalculation" in fired else state.protein_period,
        tier=tier_reached(new.week) if "tier_progression" in fired else state.tier,
        training_phase=phase, tdee_training_phase=phase if tdee else state.tdee_training_phase,
        tdee_kcal=ev.tdee_kcal if tdee else state.tdee_kcal)


def weekly_outcome(intake: IntakeData, state: ScientistState, ev: Evaluation, new: Point, *,
                   version: int) -> Outcome:
    before = macro_targets(intake, state)
    after_state = advance(state, ev, new)
    after = macro_targets(intake, after_state)
    rerun, unchanged = agents_to_rerun(ev.triggers)
    notes = list(ev.notes)
    kcal_delta = after.target_intake_kcal - before.target_intake_kcal
    macros_changed = any(getattr(after, n) != getattr(before, n) for n in ("protein_g", "fat_g", "carbs_g"))
    if ev.kcal_change > 0:
        notes.append(f"Added {ev.kcal_change} kcal primarily from carbohydrates")
    elif ev.kcal_change < 0:
        notes.append(f"Removed {-ev.kcal_change} kcal primarily from carbohydrates")
    result = AdjustmentResult(
        triggers_fired=list(ev.triggers), adjustment_type=ev.triggers[0] if ev.triggers else None,
        adjustment_amount_kcal=kcal_delta if kcal_delta else None,
        new_target_intake_kcal=after.target_intake_kcal if kcal_delta else None,
        new_macros=NewMacros(protein_g=after.protein_g, fat_g=after.fat_g, carbs_g=after.carbs_g)
        if macros_changed else None,
        agents_re_run=list(rerun), agents_unchanged=list(unchanged), notes=notes)
    return Outcome(after_state if rerun else replace(state, current_weight_kg=new.checkin.weight_kg,
                                                     weeks_on_program=new.week),
                   after if rerun else before, rerun, next_version(version, rerun), result)


def delta(result: AdjustmentResult | dict[str, Any]) -> dict[str, Any]:
    """The wire form (004 §7.4), wherever an adjustment is shown: the optional delta fields appear only when they
    changed. Takes the result or its stored payload."""
    data = result.model_dump(mode="json") if isinstance(result, AdjustmentResult) else dict(result)
    for name in DELTA_FIELDS:
        if name in data and data[name] is None:
            del data[name]
    return data
