"""Clinical rules in code (NUTRITION.md): what a member's age, weight, pregnancy or breastfeeding forbid in any plan,
whatever an agent proposes. One place decides them; SCIENTIST, the checks between agents and the run's view read it.

- No calorie deficit (a loss goal is planned as maintenance, with a note the member reads) for a minor (under 18),
  a current BMI under 18.5, pregnancy or breastfeeding.
- No creatine and no stimulant supplements for a minor, in pregnancy or while breastfeeding.
- A target weight whose BMI is under 18.5 is refused (422 `target_below_healthy_range`, with the lowest healthy
  weight for the height, in kg and lb).

Pregnancy and breastfeeding count when the intake names them or when a check-in or a health question raised them
during the run (`ScientistState.clinical`): the rules hold after the referral is acknowledged or clearance recorded.
(The floor's pauses for these, for under 16 and for PAR-Q+ "yes" answers, are `gym.nutrition.safety_floor`'s.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from core.errors import InvalidInput
from gym.nutrition.payloads.common import ExcludedSupplement
from gym.nutrition.safety_floor import bmi, intake_codes
from gym.nutrition.units import KG_PER_LB

HEALTHY_BMI = 18.5
ADULT_AGE = 18
CARRYING = ("pregnancy", "breastfeeding")
EXCLUDED_SUPPLEMENTS: tuple[ExcludedSupplement, ...] = ("creatine", "stimulants")


@dataclass(frozen=True)
class Limits:
    """The rules that hold for a member: why no deficit (note codes) and whether supplements are excluded."""

    no_deficit: tuple[str, ...] = ()
    supplements_excluded: tuple[ExcludedSupplement, ...] = ()

    def notes(self, *, cut_wanted: bool) -> list[str]:
        """What the member reads about what the rules changed (locale keys `console.nutrition.safety.note.*`): why
        there is no deficit, when one was wanted; that supplements are excluded."""
        return [*(self.no_deficit if cut_wanted else ()), *(["no_supplements"] if self.supplements_excluded else [])]


def limits(intake: Any, *, weight_kg: float | None = None, known: Iterable[str] = ()) -> Limits:
    """The limits of a member with this intake at `weight_kg` (the intake's by default), `known` the red-flag codes
    raised during the run."""
    codes = {*intake_codes(intake, weight_kg), *known}
    minor = intake.age < ADULT_AGE
    carrying = any(code in codes for code in CARRYING)
    no_deficit = [note for note, applies in (
        ("minor_no_deficit", minor),
        ("low_bmi_no_deficit", bmi(weight_kg or intake.current_weight_kg, intake.height_cm) < HEALTHY_BMI),
        ("pregnancy_no_deficit", carrying)) if applies]
    return Limits(tuple(no_deficit), EXCLUDED_SUPPLEMENTS if minor or carrying else ())


def lowest_healthy_weight_kg(height_cm: float) -> float:
    """The lowest weight at BMI 18.5 for the height, rounded up to 0.1 kg (so it is itself healthy)."""
    return math.ceil(HEALTHY_BMI * (height_cm / 100) ** 2 * 10 - 1e-9) / 10


def check_target(intake: Any, *, field: str = "target_weight_kg") -> None:
    """422 `target_below_healthy_range` when the target weight's BMI is under 18.5, naming the lowest healthy weight
    (kg and lb) under `field`, the name the member sent the target by."""
    if bmi(intake.target_weight_kg, intake.height_cm) >= HEALTHY_BMI:
        return
    kg = lowest_healthy_weight_kg(intake.height_cm)
    lb = math.ceil(kg / KG_PER_LB * 10 - 1e-9) / 10
    raise InvalidInput("target_below_healthy_range", detail="the target weight's BMI is below 18.5", kg=kg, lb=lb,
                       errors=[{"field": field, "code": "target_below_healthy_range",
                                "lowestHealthyWeightKg": kg, "lowestHealthyWeightLb": lb}])
