"""Issue 25 item 6, computed by hand: protein on the reference weight (the adjusted body weight from BMI 30, Devine
IBW), 2.0 g/kg only when the direction is loss, and imperial intakes stored and computed metric."""

from __future__ import annotations

import pytest

from gym.nutrition.envelope import validate_intake
from gym.nutrition.errors import PayloadInvalid
from gym.nutrition.scientist import ideal_body_weight, macro_targets, reference_weight
from gym.nutrition.units import display
from tests.gym.nutrition import samples

MAN = {"sex": "male", "menstrual_status": None, "training_phase": "pre_training", "appetite_level": "normal"}


@pytest.mark.parametrize(("sex", "height_cm", "ibw"), [
    ("female", 165, 56.9094),  # 165 / 2.54 = 64.9606 in; 45.5 + 2.3 × 4.9606
    ("male", 170, 65.9370),    # 66.9291 in; 50 + 2.3 × 6.9291
    ("male", 152.4, 50.0),     # exactly 60 in
    ("female", 145, 45.5),     # 57.09 in: no inches over 60
])
def test_devine_ideal_body_weight(sex: str, height_cm: float, ibw: float) -> None:
    assert ideal_body_weight(sex, height_cm) == pytest.approx(ibw, abs=1e-4)


@pytest.mark.parametrize(("name", "changes", "expected"), [
    # 150 kg woman cutting, 40 y, 165 cm, 4,000 steps: BMI 55.1 -> ABW 56.9094 + 0.4 × 93.0906 = 94.1457;
    # loss: 2.0 × 94.1457 = 188.29 -> 188 g (not 300 g = 55 % of the kcal). BMR 1500 + 1031.25 − 200 − 161 =
    # 2170.25, TDEE × 1.2 = 2604.3, −550 = 2054.3 is under the BMR floor -> 2180; fat 545 / 9 = 60.56 -> 61;
    # carbs what the rounded grams leave: (2180 − 188·4 − 61·9) / 4 = 219.75 -> 220
    ("150 kg cut", {"age": 40, "height_cm": 165, "current_weight_kg": 150, "target_weight_kg": 110,
                    "avg_daily_steps": 4000, "training_phase": "pre_training", "appetite_level": "normal"},
     (2180, 2.0, 188, 61, 220)),
    # maintenance whose rounded target sits under TDEE: man 30 y, 175 cm, 80 -> 80.5 kg, 8,000 steps:
    # BMR 800 + 1093.75 − 150 + 5 = 1748.75, TDEE × 1.55 = 2710.56 -> 2710 < TDEE, still 1.8 × 80 = 144
    ("maintain under TDEE", {**MAN, "age": 30, "height_cm": 175, "current_weight_kg": 80, "target_weight_kg": 80.5,
                             "avg_daily_steps": 8000},
     (2710, 1.8, 144, 75, 365)),  # carbs (2710 − 576 − 675) / 4 = 364.75
    # gaining at BMI 32.9: man 25 y, 170 cm, 95 -> 100 kg: ABW 65.937 + 0.4 × 29.063 = 77.562; 1.8 × = 139.61 -> 140
    ("gain at BMI 33", {**MAN, "age": 25, "height_cm": 170, "current_weight_kg": 95, "target_weight_kg": 100,
                        "avg_daily_steps": 8000},
     (3480, 1.8, 140, 97, 512)),  # carbs (3480 − 560 − 873) / 4 = 511.75
    # BMI 29.76 (86 kg, 170 cm): the weight itself; loss 2.0 × 86 = 172
    ("BMI under 30", {**MAN, "age": 25, "height_cm": 170, "current_weight_kg": 86, "target_weight_kg": 80,
                      "avg_daily_steps": 8000},
     (2240, 2.0, 172, 62, 249)),  # carbs (2240 − 688 − 558) / 4 = 248.5, half up
    # 145 cm (57.1 in), 80 kg, BMI 38.1: IBW 45.5 (no inches over 60), ABW 45.5 + 0.4 × 34.5 = 59.3; 2.0 × = 118.6
    ("short and heavy", {"age": 50, "height_cm": 145, "current_weight_kg": 80, "target_weight_kg": 70,
                         "avg_daily_steps": 3000, "training_phase": "pre_training", "appetite_level": "normal"},
     (1300, 2.0, 119, 36, 125)),
])
def test_protein_on_the_reference_weight_and_the_direction(name: str, changes: dict, expected: tuple) -> None:
    t = macro_targets(samples.intake(**changes))
    assert (t.target_intake_kcal, t.protein_g_per_kg, t.protein_g, t.fat_g, t.carbs_g) == expected, name


def test_the_reference_weight_switches_at_bmi_30() -> None:
    assert reference_weight("male", 86.0, 170) == 86.0  # BMI 29.76
    assert reference_weight("male", 86.7, 170) == pytest.approx(65.937 + 0.4 * (86.7 - 65.937), abs=1e-3)  # 30.0


def test_an_imperial_intake_is_stored_and_computed_metric() -> None:
    """65 in = 165.1 cm; 124 lb = 56.25 kg; 136.7 lb = 62.01 kg. BMR 562.5 + 1031.875 − 140 − 161 = 1293.375;
    TDEE × 1.375 + 129.34 = 1907.73; gain, low appetite tier 0: + 275 = 2182.73 -> 2180; 1.8 × 56.25 = 101.25."""
    metric = {k: v for k, v in samples.INTAKE.items()
              if k not in ("height_cm", "current_weight_kg", "target_weight_kg")}
    intake = validate_intake({**metric, "height_in": 65, "current_weight_lb": 124, "target_weight_lb": 136.7})
    assert (intake.height_cm, intake.current_weight_kg, intake.target_weight_kg) == (165.1, 56.25, 62.01)
    t = macro_targets(intake)
    assert (t.bmr_kcal, t.tdee_kcal, t.target_intake_kcal, t.protein_g) == (1293, 1908, 2180, 101)
    shown = display(intake.model_dump(), t.model_dump(), weight_unit="lbs")
    assert shown == {"units": "imperial", "height_in": 65.0, "current_weight_lb": 124.0, "target_weight_lb": 136.7,
                     "weekly_weight_target_lb": 1.1}
    assert display(intake.model_dump(), t.model_dump(), weight_unit="kg")["current_weight_kg"] == 56.25


@pytest.mark.parametrize(("changes", "field", "code"), [
    ({"height_in": 65}, "height_in", "units_conflict"),  # height_cm is also there
    ({"current_weight_lb": 40}, "current_weight_lb", "greater_than_equal"),  # under 25 kg
    ({"target_weight_lb": "136"}, "target_weight_lb", "float_type"),
])
def test_bad_imperial_values_are_named_as_sent(changes: dict, field: str, code: str) -> None:
    payload = {**samples.INTAKE, **changes}
    if field != "height_in":
        payload.pop(field.replace("_lb", "_kg"))
    with pytest.raises(PayloadInvalid) as raised:
        validate_intake(payload)
    assert [(e["field"], e["code"]) for e in raised.value.params["errors"]] == [(field, code)]
