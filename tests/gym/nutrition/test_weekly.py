"""The weekly loop as pure functions: triggers, the re-execution map of 004 §10, versions and the
`adjustment_result` delta (004 §7.4), table-driven."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from gym.nutrition.adjustment import delta, weekly_outcome
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.reexecution import MAP, agents_to_rerun, next_version, rerun_path
from gym.nutrition.scientist import ScientistState, direction, ramps
from gym.nutrition.states import State, check_transition
from gym.nutrition.triggers import LoopState, Point, evaluate, stall_streaks, weeks_between
from tests.gym.nutrition import samples

START = date(2026, 1, 5)
STALLED = [{"name": "Hip Thrust", "best_set": {"weight_kg": 45, "reps": 12}, "progressed": False},
           {"name": "Goblet Squat", "best_set": {"weight_kg": 16, "reps": 10}, "progressed": False},
           {"name": "Row", "best_set": {"weight_kg": 20, "reps": 10}, "progressed": True}]


def point(week: int, kg: float, **fields: Any) -> Point:
    on = START + timedelta(days=7 * week)
    return Point(WeeklyCheckin.model_validate({"weight_kg": kg, **fields}), on, weeks_between(START, on))


def loop(intake=None, **changes: Any) -> LoopState:
    intake = intake or samples.intake()
    base = dict(goal=direction(intake.current_weight_kg, intake.target_weight_kg), start_date=START,
                start_weight_kg=intake.current_weight_kg, tdee_weight_kg=intake.current_weight_kg,
                tier=ScientistState.initial(intake).tier, ramps=ramps(intake))
    return LoopState(**{**base, **changes})


def run_checkins(points: list[Point], state: LoopState | None = None) -> list[list[str]]:
    state = state or loop()
    return [evaluate(state, points[:i], p).triggers for i, p in enumerate(points)]


def test_week_6_gain_of_0_18_twice_raises_calories_by_200_and_reruns_the_nutrition_chain() -> None:
    intake = samples.intake()
    week5, week6 = point(5, 57.1), point(6, 57.28)  # 0.9 kg over 5 weeks, then 0.18 kg in one
    state, scientist = loop(intake), ScientistState.initial(intake)
    first = evaluate(state, [], week5)
    assert first.triggers == [] and first.rate_kg_per_week == pytest.approx(0.18)
    no_change = weekly_outcome(intake, scientist, first, week5, version=1)
    assert no_change.version == 1 and no_change.agents_re_run == ()

    second = evaluate(state, [week5], week6)
    assert second.triggers == ["calorie_increase"] and second.kcal_change == 200
    out = weekly_outcome(intake, no_change.state, second, week6, version=no_change.version)
    result = delta(out.result)
    assert result["triggers_fired"] == ["calorie_increase"] and result["adjustment_type"] == "calorie_increase"
    assert result["adjustment_amount_kcal"] == 200
    assert result["new_target_intake_kcal"] == 2380  # 2180 + 200
    # protein stays 1.8 × 56.2 = 101; fat 0.25 × 2380 / 9 = 66.1 -> 66; carbs (2380 − 404.64 − 595) / 4 = 345.09
    assert result["new_macros"] == {"protein_g": 101, "fat_g": 66, "carbs_g": 345}
    assert result["agents_re_run"] == ["NUTRITIONIST", "DIETITIAN", "CHEF"]
    assert result["agents_unchanged"] == ["COACH"]
    assert out.version == 2 and out.targets.target_intake_kcal == 2380
    assert any("0.18" in note for note in result["notes"])


def test_week_6_gain_of_0_32_is_no_change() -> None:
    intake = samples.intake()
    week5, week6 = point(5, 57.8), point(6, 58.12)
    ev = evaluate(loop(intake), [week5], week6)
    out = weekly_outcome(intake, ScientistState.initial(intake), ev, week6, version=1)
    result = delta(out.result)
    assert result == {"triggers_fired": [], "adjustment_type": None, "agents_re_run": [],
                      "agents_unchanged": ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"],
                      "notes": ["Week 6: gain rate 0.32 kg/week — within target range"]}
    assert out.version == 1


def test_a_stall_of_two_lifts_for_three_checkins_reruns_coach_only() -> None:
    intake = samples.intake()
    log = {"training_log": {"sessions_completed": 3, "exercises": STALLED}}
    points = [point(5, 57.8, **log), point(6, 58.12, **log), point(7, 58.44, **log)]
    assert run_checkins(points) == [[], [], ["training_stall"]]
    assert stall_streaks([p.checkin for p in points]) == {"hip thrust": 3, "goblet squat": 3, "row": 0}
    ev = evaluate(loop(intake), points[:2], points[2])
    out = weekly_outcome(intake, ScientistState.initial(intake), ev, points[2], version=1)
    assert out.result.agents_re_run == ["COACH"]
    assert out.result.agents_unchanged == ["NUTRITIONIST", "DIETITIAN", "CHEF"]
    assert out.result.new_target_intake_kcal is None and out.version == 2


def test_luteal_reruns_dietitian_and_chef_only() -> None:
    intake = samples.intake()
    p = point(5, 57.8, cycle_phase="luteal", cycle_day=20)
    ev = evaluate(loop(intake), [], p)
    out = weekly_outcome(intake, ScientistState.initial(intake), ev, p, version=3)
    assert ev.triggers == ["cycle_adjustment"]
    assert out.result.agents_re_run == ["DIETITIAN", "CHEF"]
    assert out.result.agents_unchanged == ["NUTRITIONIST", "COACH"]
    assert out.version == 4


GAIN = samples.intake()
LOSS = samples.intake(current_weight_kg=70.0, target_weight_kg=62.0, appetite_level="normal")
MAINTAIN = samples.intake(target_weight_kg=56.5)


@pytest.mark.parametrize(("name", "intake", "points", "expected"), [
    ("gain too fast", GAIN, [(5, 57.0), (6, 57.8)], [[], ["calorie_decrease"]]),
    ("slow gain during adaptation", GAIN, [(1, 56.3), (3, 56.4)], [[], []]),
    ("slow, then fine: not consecutive", GAIN, [(5, 57.0), (6, 57.5), (7, 57.6)], [[], [], []]),
    ("week 2 tier", GAIN, [(2, 56.9)], [["tier_progression"]]),
    ("week 4 tier and protein", GAIN, [(4, 57.4)], [["protein_recalculation", "tier_progression"]]),
    ("no tier without the ramp", LOSS, [(2, 69.0)], [[]]),
    ("protein every 4 weeks only", LOSS, [(5, 67.0), (8, 65.5), (9, 65.2)],
     [[], ["protein_recalculation"], []]),
    ("loss too slow twice", LOSS, [(5, 69.0), (6, 68.9)], [[], ["calorie_decrease"]]),
    ("loss too fast", LOSS, [(5, 67.5), (6, 66.6)], [[], ["calorie_increase"]]),
    ("5 kg since TDEE", LOSS, [(5, 67.5), (10, 65.0)], [[], ["tdee_recalculation"]]),
    ("maintenance has no rate triggers", MAINTAIN, [(5, 56.2), (6, 56.2)], [[], []]),
])
def test_triggers_table(name: str, intake, points: list[tuple[int, float]], expected: list[list[str]]) -> None:
    assert run_checkins([point(w, kg) for w, kg in points], loop(intake)) == expected, name


def test_loss_mirrors_the_amounts() -> None:
    slow = evaluate(loop(LOSS), [point(5, 69.0)], point(6, 68.9))
    fast = evaluate(loop(LOSS), [point(5, 67.5)], point(6, 66.6))
    gain_fast = evaluate(loop(GAIN), [point(5, 57.0)], point(6, 57.8))
    assert (slow.kcal_change, fast.kcal_change, gain_fast.kcal_change) == (-200, 150, -150)


def test_a_calorie_change_resets_the_slow_count() -> None:
    points = [point(5, 57.1), point(6, 57.2), point(7, 57.3), point(8, 57.4)]
    fired = run_checkins(points[:2])
    assert fired == [[], ["calorie_increase"]]
    after = loop(calorie_reset=2)
    assert evaluate(after, points[:2], points[2]).triggers == []
    assert "calorie_increase" in evaluate(after, points[:3], points[3]).triggers


@pytest.mark.parametrize(("first", "second", "flag"), [
    ((68.5, 92.5), (70.0, 93.0), True),   # waist +1.5, hips +0.5
    ((68.5, 92.5), (69.0, 93.5), False),  # hips grew more
    ((68.5, 92.5), (68.0, 92.0), False),  # waist shrank
])
def test_waist_growing_more_than_hips_is_a_full_review(first, second, flag: bool) -> None:
    a = point(5, 57.8, waist_cm=first[0], hip_cm=first[1])
    b = point(7, 58.44, waist_cm=second[0], hip_cm=second[1])
    ev = evaluate(loop(), [a], b)
    assert ("waist_hip_flag" in ev.triggers) is flag
    if flag:
        assert agents_to_rerun(ev.triggers) == (("NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"), ())


def test_more_than_two_minimum_viable_days_is_compliance() -> None:
    assert evaluate(loop(), [], point(5, 57.8, minimum_viable_days_count=2)).triggers == []
    ev = evaluate(loop(), [], point(5, 57.8, minimum_viable_days_count=3))
    assert ev.triggers == ["compliance"]
    assert agents_to_rerun(ev.triggers) == (("DIETITIAN", "CHEF"), ("NUTRITIONIST", "COACH"))


def test_luteal_fires_on_entering_the_phase_only() -> None:
    luteal = {"cycle_phase": "luteal"}
    assert run_checkins([point(5, 57.8, **luteal), point(6, 58.1, **luteal)]) == [["cycle_adjustment"], []]


# 004 §10, row by row: trigger -> (change point, re-run, skipped among the four downstream agents).
SPEC_MAP = [
    ("calorie_increase", "SCIENTIST", ["NUTRITIONIST", "DIETITIAN", "CHEF"], ["COACH"]),
    ("calorie_decrease", "SCIENTIST", ["NUTRITIONIST", "DIETITIAN", "CHEF"], ["COACH"]),
    ("protein_recalculation", "SCIENTIST", ["NUTRITIONIST", "DIETITIAN", "CHEF"], ["COACH"]),
    ("tdee_recalculation", "SCIENTIST", ["NUTRITIONIST", "DIETITIAN", "CHEF"], ["COACH"]),
    ("training_stall", "SCIENTIST", ["COACH"], ["NUTRITIONIST", "DIETITIAN", "CHEF"]),
    ("phase_transition", "SCIENTIST", ["COACH"], ["NUTRITIONIST", "DIETITIAN", "CHEF"]),
    ("waist_hip_flag", "SCIENTIST", ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"], []),
    ("compliance", "DIETITIAN", ["DIETITIAN", "CHEF"], ["NUTRITIONIST", "COACH"]),
    ("tier_progression", "SCIENTIST", ["NUTRITIONIST", "DIETITIAN", "CHEF"], ["COACH"]),
    ("advisory", None, [], ["NUTRITIONIST", "DIETITIAN", "CHEF", "COACH"]),
    ("cycle_adjustment", "NUTRITIONIST", ["DIETITIAN", "CHEF"], ["NUTRITIONIST", "COACH"]),
]


@pytest.mark.parametrize(("trigger", "change_point", "rerun", "skipped"), SPEC_MAP)
def test_the_reexecution_map_is_004_section_10(trigger, change_point, rerun, skipped) -> None:
    assert MAP[trigger].change_point == change_point
    assert agents_to_rerun([trigger]) == (tuple(rerun), tuple(skipped))


def test_the_map_has_exactly_the_spec_rows() -> None:
    assert set(MAP) == {row[0] for row in SPEC_MAP}


def test_several_triggers_rerun_the_union_in_pipeline_order() -> None:
    assert agents_to_rerun(["training_stall", "compliance"]) == (("DIETITIAN", "CHEF", "COACH"), ("NUTRITIONIST",))
    assert agents_to_rerun(["cycle_adjustment", "calorie_increase"]) == (
        ("NUTRITIONIST", "DIETITIAN", "CHEF"), ("COACH",))


def test_versions_and_the_rerun_path_is_legal() -> None:
    assert next_version(1, ()) == 1 and next_version(1, ("COACH",)) == 2
    path = rerun_path()
    for current, target in zip(path, path[1:], strict=False):
        check_transition(current, target)
    assert path[0] is State.OUTPUT_READY and path[-1] is State.OUTPUT_READY


def test_tier_progression_moves_the_ramp_and_reruns_the_nutrition_chain() -> None:
    intake = samples.intake()
    p = point(2, 56.9)
    ev = evaluate(loop(intake), [], p)
    out = weekly_outcome(intake, ScientistState.initial(intake), ev, p, version=1)
    assert out.state.tier == 1 and out.result.new_target_intake_kcal == 2320  # 1906.07 + 412.5
    assert out.result.adjustment_amount_kcal == 140 and out.version == 2


def test_tdee_recalculation_uses_the_new_weight() -> None:
    p = point(10, 65.0)
    ev = evaluate(loop(LOSS), [point(5, 67.5)], p)
    assert ev.triggers == ["tdee_recalculation"]
    out = weekly_outcome(LOSS, ScientistState.initial(LOSS), ev, p, version=2)
    assert out.state.tdee_weight_kg == 65.0 and out.state.protein_weight_kg == 70.0
    # BMR at 65 kg: 650 + 1031.25 − 140 − 161 = 1380.25; TDEE × 1.475 = 2035.87; −550 -> 1485.87 -> 1490
    assert out.targets.bmr_kcal == 1380 and out.targets.target_intake_kcal == 1490
