"""SCIENTIST equals NUTRITION.md's formulas by hand, to the gram, for the issue's intake and variants."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gym.nutrition import red_flags, scientist
from gym.nutrition.scientist import (
    ScientistState,
    activity_multiplier,
    macro_targets,
    round_half_up,
    tier_for_week,
)
from tests.gym.nutrition import samples


def test_the_issues_intake_by_hand() -> None:
    """female, 28 y, 165 cm, 56.2 kg -> 62 kg, 6,500 steps, active_training, beginner, low appetite."""
    t = macro_targets(samples.intake())
    # BMR = 10·56.2 + 6.25·165 − 5·28 − 161 = 562 + 1031.25 − 140 − 161 = 1292.25
    assert t.bmr_kcal == 1292
    # TDEE = 1292.25 × 1.375 (6,500 < 7,500 steps) + 0.1 × 1292.25 = 1776.84375 + 129.225 = 1906.06875
    assert t.tdee_kcal == 1906
    # gain (62 − 56.2 = 5.8 ≥ 1), beginner 0.5 kg/week -> surplus 550; low appetite, surplus > 300,
    # tier 0 (week 0) eats half: 1906.06875 + 275 = 2181.07 -> 2180
    assert t.weekly_weight_target_kg == 0.5
    assert t.target_intake_kcal == 2180
    # protein 1.8 × 56.2 = 101.16 -> 101; fat 0.25 × 2180 / 9 = 60.56 -> 61;
    # carbs: what the rounded grams leave, (2180 − 101·4 − 61·9) / 4 = 1227 / 4 = 306.75 -> 307
    assert (t.protein_g, t.protein_g_per_kg, t.fat_g, t.fat_percent, t.carbs_g) == (101, 1.8, 61, 25, 307)
    assert abs(t.protein_g * 4 + t.fat_g * 9 + t.carbs_g * 4 - t.target_intake_kcal) <= 4  # 2181: within 4 kcal
    # fiber max(20, 14 × 2.18 = 30.52) -> 31; hydration 0.035 × 56.2 + 0.5 = 2.467 -> 2.5
    assert (t.fiber_g_min, t.hydration_L) == (31, 2.5)
    assert (t.weeks_on_program, t.adaptation_period_complete) == (0, False)
    assert (t.current_weight_kg, t.target_weight_kg, t.training_phase) == (56.2, 62, "active_training")
    assert t.client_constraints.appetite_level == "low"
    assert t.client_constraints.food_aversions == ["peanut_butter", "nut_butters"]


@pytest.mark.parametrize(("weeks", "tier", "kcal"), [
    (0, 0, 2180), (1, 0, 2180),  # 1906.07 + 275
    (2, 1, 2320), (3, 1, 2320),  # 1906.07 + 412.5 = 2318.57
    (4, 2, 2460), (9, 2, 2460),  # 1906.07 + 550 = 2456.07
])
def test_the_low_appetite_ramp_by_tier(weeks: int, tier: int, kcal: int) -> None:
    assert tier_for_week(weeks) == tier
    state = replace(ScientistState.initial(samples.intake()), tier=tier, weeks_on_program=weeks)
    t = macro_targets(samples.intake(), state)
    assert t.target_intake_kcal == kcal
    assert t.adaptation_period_complete is (weeks >= 4)


def test_normal_appetite_eats_the_whole_surplus_from_week_0() -> None:
    t = macro_targets(samples.intake(appetite_level="normal"))
    assert t.target_intake_kcal == 2460  # 1906.07 + 550


def test_intermediate_gains_a_quarter_kilo_and_no_ramp_under_300() -> None:
    t = macro_targets(samples.intake(training_experience="intermediate"))
    assert t.weekly_weight_target_kg == 0.25
    assert t.target_intake_kcal == 2180  # surplus 275 ≤ 300: no ramp; 1906.07 + 275


def test_a_man_losing_weight_by_hand() -> None:
    """male, 40 y, 180 cm, 95 -> 85 kg, 11,000 steps, pre-training, none."""
    t = macro_targets(samples.intake(sex="male", age=40, height_cm=180, current_weight_kg=95, target_weight_kg=85,
                                     avg_daily_steps=11_000, training_phase="pre_training",
                                     training_experience="none", menstrual_status=None))
    # BMR = 950 + 1125 − 200 + 5 = 1880; TDEE = 1880 × 1.725 = 3243; loss 0.5 -> −550: 2693 -> 2690
    assert (t.bmr_kcal, t.tdee_kcal, t.weekly_weight_target_kg, t.target_intake_kcal) == (1880, 3243, -0.5, 2690)
    # deficit: protein 2.0 × 95 = 190; fat 672.5 / 9 = 74.72 -> 75; carbs (2690 − 190·4 − 75·9) / 4 = 313.75
    assert (t.protein_g, t.protein_g_per_kg, t.fat_g, t.carbs_g) == (190, 2.0, 75, 314)
    # fiber 14 × 2.69 = 37.66 -> 38; hydration 0.035 × 95 = 3.325 -> 3.3
    assert (t.fiber_g_min, t.hydration_L) == (38, 3.3)


@pytest.mark.parametrize("changes", [
    {}, {"appetite_level": "normal"}, {"target_weight_kg": 56.9}, {"current_weight_kg": 98.4, "target_weight_kg": 80},
    {"sex": "male", "age": 40, "height_cm": 180, "current_weight_kg": 95, "target_weight_kg": 85,
     "avg_daily_steps": 11_000, "training_phase": "pre_training", "training_experience": "none",
     "menstrual_status": None},
    {"sex": "male", "age": 23, "height_cm": 191, "current_weight_kg": 71.3, "target_weight_kg": 80.5,
     "avg_daily_steps": 8_200, "training_experience": "intermediate", "menstrual_status": None},
])
def test_the_shown_grams_add_up_to_the_target_within_4_kcal(changes: dict) -> None:
    """NUTRITION.md: carbs are what the rounded protein and fat grams leave, so 4·P + 9·F + 4·C is the target
    within 4 kcal (fat from the exact 25 % and protein from the exact g/kg missed by up to 6.5 kcal)."""
    t = macro_targets(samples.intake(**changes))
    shown = t.protein_g * 4 + t.fat_g * 9 + t.carbs_g * 4
    assert abs(shown - t.target_intake_kcal) <= 4, (shown, t.target_intake_kcal)
    assert t.carbs_g == round((t.target_intake_kcal - t.protein_g * 4 - t.fat_g * 9) / 4 + 1e-9)


def test_maintenance_inside_a_kilo() -> None:
    t = macro_targets(samples.intake(target_weight_kg=56.9))
    assert t.weekly_weight_target_kg == 0 and t.target_intake_kcal == 1910  # TDEE 1906.07 -> 1910
    assert t.protein_g_per_kg == 1.8


def test_the_floor_is_max_of_bmr_and_1200_for_women() -> None:
    """female, 60 y, 150 cm, 45 -> 40 kg, 1,000 steps: BMR 450 + 937.5 − 300 − 161 = 926.5, TDEE 1111.8,
    −550 -> 561.8, floored to 1,200."""
    t = macro_targets(samples.intake(age=60, height_cm=150, current_weight_kg=45, target_weight_kg=40,
                                     avg_daily_steps=1_000, training_phase="pre_training"))
    assert t.target_intake_kcal == 1200
    # and fiber: 14 × 1.2 = 16.8 < 20 -> 20
    assert t.fiber_g_min == 20


@pytest.mark.parametrize(("steps", "multiplier"), [(0, 1.2), (4_999, 1.2), (5_000, 1.375), (7_499, 1.375),
                                                   (7_500, 1.55), (9_999, 1.55), (10_000, 1.725)])
def test_step_bands(steps: int, multiplier: float) -> None:
    assert activity_multiplier(steps) == multiplier


def test_rounding_is_half_up_not_bankers() -> None:
    assert round_half_up(2.5) == 3 and round_half_up(2185, 10) == 2190 and round_half_up(2.45, 0.1) == 2.5


@pytest.mark.parametrize(("changes", "codes"), [
    ({}, []),
    ({"menstrual_status": "amenorrhea"}, ["amenorrhea"]),
    ({"current_weight_kg": 47.0}, ["low_bmi"]),  # 47 / 1.65² = 17.26
    ({"medical_history": {"medications": ["Insulin glargine"], "conditions": ["Type 1 diabetes"], "injuries": []}},
     ["diabetes", "insulin"]),
    ({"medical_history": {"medications": [], "conditions": ["history of anorexia", "pregnant (12 weeks)",
                                                            "chronic kidney disease", "heart murmur"],
                          "injuries": []}},
     ["eating_disorder_history", "pregnancy", "kidney_disease", "heart_condition"]),
    ({"menstrual_status": "amenorrhea", "current_weight_kg": 45.0}, ["amenorrhea", "low_bmi"]),
])
def test_intake_red_flags(changes: dict, codes: list[str]) -> None:
    intake = samples.intake(**changes)
    found = red_flags.intake_flags(intake)
    assert [flag.code for flag in found] == codes
    if found:
        query = red_flags.health_query(found, intake, weight_kg=intake.current_weight_kg, training_weeks=0)
        assert query.query_type == "red_flag" and query.requesting_agent == "SCIENTIST"
        assert len(query.user_context.symptoms) == len(codes)  # all batched into one query


def test_checkin_red_flags() -> None:
    from gym.nutrition.payloads.feedback import WeeklyCheckin

    tired = WeeklyCheckin(weight_kg=56, subjective_markers={"energy": 2, "sleep_quality": 5, "mood": 5,
                                                             "appetite": 5})
    assert [f.code for f in red_flags.checkin_flags(tired, goal="gain", weekly_change_kg=-1.2)] == [
        "rapid_loss_on_gain_goal", "very_low_energy"]
    assert red_flags.checkin_flags(WeeklyCheckin(weight_kg=56), goal="loss", weekly_change_kg=-1.2) == []
    assert red_flags.checkin_flags(WeeklyCheckin(weight_kg=56), goal="gain", weekly_change_kg=-1.0) == []


def test_no_deficit_and_no_creatine_where_the_clinical_rules_say_so() -> None:
    """NUTRITION.md, "Clinical rules in code": a loss goal is planned as maintenance for a minor, at a BMI under
    18.5 (the intake's or one reached during the run), in pregnancy or breastfeeding (the intake's words or a code
    raised during the run); minors and pregnancy or breastfeeding exclude creatine and stimulants."""
    cut = {"current_weight_kg": 70.0, "target_weight_kg": 62.0}
    adult = samples.intake(**cut)
    assert scientist.weekly_rate(adult) == -0.5 and scientist.clinical_notes(adult) == []
    minor = samples.intake(**cut, age=17)
    assert scientist.weekly_rate(minor) == 0.0
    assert scientist.macro_targets(minor).client_constraints.supplements_excluded == ["creatine", "stimulants"]
    nursing = samples.intake(**cut, medical_history={"medications": [], "conditions": ["breastfeeding"],
                                                     "injuries": []})
    assert scientist.clinical_notes(nursing) == ["pregnancy_no_deficit", "no_supplements"]
    gaining_minor = samples.intake(age=17)  # 56.2 -> 62 kg: no deficit was wanted, so none is said
    assert scientist.clinical_notes(gaining_minor) == ["no_supplements"]
    assert scientist.goal(nursing) == "maintain"

    losing = samples.intake(current_weight_kg=60.0, target_weight_kg=55.0)  # 165 cm: BMI 22.0 -> 20.2
    state = scientist.ScientistState.initial(losing)
    assert scientist.weekly_rate(losing, state) == -0.5
    thin = replace(state, current_weight_kg=50.0)  # BMI 18.4 reached during the run
    assert scientist.macro_targets(losing, thin).weekly_weight_target_kg == 0.0
    assert scientist.clinical_notes(losing, thin) == ["low_bmi_no_deficit"]
    told = replace(state, clinical=("pregnancy",))  # a question raised it during the run
    targets = scientist.macro_targets(losing, told)
    assert (targets.weekly_weight_target_kg, targets.protein_g_per_kg) == (0.0, 1.8)  # maintenance's protein
    assert targets.client_constraints.supplements_excluded == ["creatine", "stimulants"]


def test_the_lowest_healthy_weight_is_bmi_18_5_rounded_up() -> None:
    from gym.nutrition.clinical import lowest_healthy_weight_kg

    assert lowest_healthy_weight_kg(165) == 50.4  # 18.5 × 1.65² = 50.37
    assert lowest_healthy_weight_kg(180) == 60.0  # 18.5 × 1.8² = 59.94
    assert lowest_healthy_weight_kg(200) == 74.0
