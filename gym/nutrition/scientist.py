"""SCIENTIST, in code: NUTRITION.md's formulas, to the gram.

BMR (Mifflin-St Jeor) = 10·kg + 6.25·cm − 5·age + (5 male, −161 female); TDEE = BMR × the step
multiplier, + 0.1 × BMR in active training; target = TDEE + rate × 1,100, never below
max(BMR, 1,200 female / 1,500 male), rounded to 10; a low appetite with a surplus over 300 kcal ramps
by tier (½, ¾, all). Protein 1.8 g/kg (2.0 when the direction is loss) of the reference weight (the
adjusted body weight from BMI 30), fat 25 % of kcal, carbs the remainder.

Intermediate values stay exact; only outputs are rounded, half up (kcal to 1, target to 10, grams to
1, litres to 0.1). Carbs are what the rounded protein and fat grams leave, so the grams shown add up to the
target (within 2 kcal: carbs' own rounding).

Across the weekly loop the SCIENTIST's inputs move only when a trigger says so: `ScientistState`
holds the weight of the last TDEE calculation, the weight of the last protein calculation, the ramp
tier and the sum of calorie adjustments, and the member's estimated expenditure when they chose it as their TDEE
(issue 43: the food log's energy balance, `gym.nutrition.weight_trend`; the floor still applies).

The clinical rules (`gym.nutrition.clinical`) decide the goal before any number: a minor, a BMI under 18.5,
pregnancy or breastfeeding get no deficit (a loss goal is planned as maintenance), and the excluded supplements travel
to NUTRITIONIST in `client_constraints`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from gym.nutrition.clinical import Limits, limits
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.nutrition import ClientConstraints, MacroTargets

KCAL_PER_KG_PER_WEEK = 1_100  # 7,700 kcal per kg over 7 days
RAMP_SHARE = {0: 0.5, 1: 0.75, 2: 1.0}
RAMP_MIN_SURPLUS = 300
FAT_SHARE = 0.25
Phase = Literal["pre_training", "active_training"]
CM_PER_INCH = 2.54
ABW_FROM_BMI = 30
ABW_SHARE = 0.4  # adjusted body weight = IBW + 0.4 × (current − IBW)


def round_half_up(value: float, step: float = 1) -> float:
    """`value` rounded to a multiple of `step`, halves away from zero (Python's round() is banker's)."""
    quantum = Decimal(str(step))
    result = (Decimal(repr(value)) / quantum).quantize(Decimal(1), rounding=ROUND_HALF_UP) * quantum
    return float(result)


def whole(value: float) -> int:
    return int(round_half_up(value))


def bmr(sex: str, weight_kg: float, height_cm: float, age: float) -> float:
    return 10 * weight_kg + 6.25 * height_cm - 5 * age + (5 if sex == "male" else -161)


def activity_multiplier(steps: float) -> float:
    if steps < 5_000:
        return 1.2
    if steps < 7_500:
        return 1.375
    if steps < 10_000:
        return 1.55
    return 1.725


def tdee(bmr_kcal: float, steps: float, training_phase: str) -> float:
    return bmr_kcal * activity_multiplier(steps) + (0.1 * bmr_kcal if training_phase == "active_training" else 0)


def direction(current_kg: float, target_kg: float) -> str:
    delta = target_kg - current_kg
    if delta >= 1:
        return "gain"
    if delta <= -1:
        return "loss"
    return "maintain"


def clinical_limits(intake: IntakeData, state: ScientistState | None = None) -> Limits:
    """The clinical rules for the intake at `state` (its current weight, the codes raised during the run)."""
    if state is None:
        return limits(intake)
    return limits(intake, weight_kg=state.current_weight_kg, known=state.clinical)


def clinical_notes(intake: IntakeData, state: ScientistState | None = None) -> list[str]:
    """What the clinical rules changed in the member's plan, as note codes (the page words them)."""
    wanted = direction(intake.current_weight_kg, intake.target_weight_kg)
    return clinical_limits(intake, state).notes(cut_wanted=wanted == "loss")


def goal(intake: IntakeData, state: ScientistState | None = None) -> str:
    """The direction planned for: the intake's, but maintenance instead of a loss the clinical rules forbid."""
    wanted = direction(intake.current_weight_kg, intake.target_weight_kg)
    if wanted == "loss" and clinical_limits(intake, state).no_deficit:
        return "maintain"
    return wanted


def weekly_rate(intake: IntakeData, state: ScientistState | None = None) -> float:
    """`weekly_weight_target_kg`: 0.5 (none/beginner) or 0.25 (intermediate), signed by the planned direction."""
    planned = goal(intake, state)
    if planned == "maintain":
        return 0.0
    size = 0.25 if intake.training_experience == "intermediate" else 0.5
    return size if planned == "gain" else -size


def ramps(intake: IntakeData) -> bool:
    """A low appetite with a surplus over 300 kcal eats the surplus in tiers."""
    return intake.appetite_level == "low" and weekly_rate(intake) * KCAL_PER_KG_PER_WEEK > RAMP_MIN_SURPLUS


def tier_for_week(weeks_on_program: int) -> int:
    """Tier 0 in weeks 0–1, tier 1 in weeks 2–3, tier 2 from week 4."""
    return 0 if weeks_on_program < 2 else 1 if weeks_on_program < 4 else 2


def kcal_floor(sex: str, bmr_kcal: float) -> float:
    return max(bmr_kcal, 1_200 if sex == "female" else 1_500)


@dataclass(frozen=True)
class Macros:
    protein_g: int
    fat_g: int
    carbs_g: int


def ideal_body_weight(sex: str, height_cm: float) -> float:
    """Devine: 50 kg (male) / 45.5 kg (female) + 2.3 kg per inch of height over 60 in."""
    return (50 if sex == "male" else 45.5) + 2.3 * max(0.0, height_cm / CM_PER_INCH - 60)


def reference_weight(sex: str, weight_kg: float, height_cm: float) -> float:
    """What protein is dosed on: the weight itself while BMI < 30, else the adjusted body weight
    IBW + 0.4 × (weight − IBW) (NUTRITION.md: 1.8 g/kg of 150 kg is 54 % of a cut's calories)."""
    if weight_kg / (height_cm / 100) ** 2 < ABW_FROM_BMI:
        return weight_kg
    ibw = ideal_body_weight(sex, height_cm)
    return ibw + ABW_SHARE * (weight_kg - ibw)


def protein_per_kg(goal: str) -> float:
    """2.0 g/kg when the direction is loss, else 1.8: the direction decides, never the rounded target."""
    return 2.0 if goal == "loss" else 1.8


def split_macros(kcal: float, protein_reference_kg: float, goal: str) -> tuple[float, Macros]:
    """(protein g/kg, macros) for `kcal`: protein by reference weight, fat 25 % of kcal, carbs the remainder."""
    per_kg = protein_per_kg(goal)
    protein, fat = whole(per_kg * protein_reference_kg), whole(FAT_SHARE * kcal / 9)
    carbs = max(0.0, (kcal - protein * 4 - fat * 9) / 4)  # what the shown grams leave: within 2 kcal of kcal
    return per_kg, Macros(protein, fat, whole(carbs))


@dataclass(frozen=True)
class ScientistState:
    """What the SCIENTIST's numbers rest on; it changes only through weekly-loop triggers."""

    tdee_weight_kg: float
    protein_weight_kg: float
    current_weight_kg: float
    tier: int
    kcal_offset: int = 0
    weeks_on_program: int = 0
    protein_period: int = 0  # the 4-week period of the last protein recalculation (week // 4)
    training_phase: Phase | None = None  # the phase COACH plans for, once a check-in changed it (None: the intake's)
    tdee_training_phase: Phase | None = None  # the phase the energy numbers use: it moves with a TDEE recalculation
    clinical: tuple[str, ...] = ()  # red-flag codes raised during the run (pregnancy from a question, say)
    tdee_kcal: int | None = None  # the member's accepted expenditure estimate, used as TDEE (None: the formula)

    @classmethod
    def initial(cls, intake: IntakeData) -> ScientistState:
        return cls(tdee_weight_kg=intake.current_weight_kg, protein_weight_kg=intake.current_weight_kg,
                   current_weight_kg=intake.current_weight_kg, tier=tier_for_week(0) if ramps(intake) else 2)


def energy_phase(intake: IntakeData, state: ScientistState) -> Phase:
    """The training phase TDEE and hydration use: the intake's until a TDEE recalculation picks up a changed one
    (004 §10: a phase transition re-runs COACH only, so the nutrition numbers wait for their own trigger)."""
    return state.tdee_training_phase or intake.training_phase


def target_intake_kcal(intake: IntakeData, state: ScientistState) -> tuple[float, float, int]:
    """(BMR, TDEE, target kcal) for the intake at `state` (exact BMR/TDEE, target rounded to 10)."""
    base = bmr(intake.sex, state.tdee_weight_kg, intake.height_cm, intake.age)
    expenditure = state.tdee_kcal if state.tdee_kcal is not None else tdee(base, intake.avg_daily_steps,
                                                                            energy_phase(intake, state))
    surplus = weekly_rate(intake, state) * KCAL_PER_KG_PER_WEEK
    if ramps(intake):
        surplus *= RAMP_SHARE[state.tier]
    floor = kcal_floor(intake.sex, base)
    target = round_half_up(expenditure + surplus + state.kcal_offset, 10)
    if target < floor:
        target = math.ceil(floor / 10) * 10
    return base, expenditure, int(target)


def macro_targets(intake: IntakeData, state: ScientistState | None = None) -> MacroTargets:
    """The `macro_targets` payload (004 §4.2) for `intake` at `state` (initial state by default)."""
    state = state or ScientistState.initial(intake)
    base, expenditure, target = target_intake_kcal(intake, state)
    reference = reference_weight(intake.sex, state.protein_weight_kg, intake.height_cm)
    per_kg, macros = split_macros(target, reference, goal(intake, state))
    phase = energy_phase(intake, state)
    hydration = 0.035 * state.tdee_weight_kg + (0.5 if phase == "active_training" else 0)
    return MacroTargets(
        bmr_kcal=whole(base), tdee_kcal=whole(expenditure), target_intake_kcal=target,
        protein_g=macros.protein_g, protein_g_per_kg=per_kg, fat_g=macros.fat_g,
        fat_percent=FAT_SHARE * 100, carbs_g=macros.carbs_g,
        fiber_g_min=whole(max(20, 14 * target / 1_000)), hydration_L=round_half_up(hydration, 0.1),
        current_weight_kg=state.current_weight_kg, target_weight_kg=intake.target_weight_kg,
        weekly_weight_target_kg=weekly_rate(intake, state), training_phase=phase,
        weeks_on_program=state.weeks_on_program, adaptation_period_complete=state.weeks_on_program >= 4,
        client_constraints=ClientConstraints(food_aversions=list(intake.food_aversions),
                                             allergies=list(intake.allergies), diet_pattern=intake.diet_pattern,
                                             appetite_level=intake.appetite_level,
                                             cooking_skill=intake.cooking_skill, partner_cooks=intake.partner_cooks,
                                             supplements_excluded=list(clinical_limits(intake, state)
                                                                       .supplements_excluded)),
    )
