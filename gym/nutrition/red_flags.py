"""Red flags (NUTRITION.md): everything found is batched into one `health_query` for the PHYSICIAN.

Intake: amenorrhea; BMI under 17.5; a condition naming an eating disorder, pregnancy, kidney disease,
diabetes or a heart condition; insulin among medications. Check-in: a loss over 1 kg/week while the
goal is gain, or energy at 2 of 10 or below. Flags carry codes; the query text names them, never the
member's own words.
"""

from __future__ import annotations

from dataclasses import dataclass

from gym.nutrition.payloads.common import Requester
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.medical import HealthQuery, UserContext

BMI_FLOOR = 17.5
CONDITION_WORDS: dict[str, tuple[str, ...]] = {
    "eating_disorder": ("eating disorder", "disordered eating", "anorexi", "bulimi", "binge", "arfid",
                        "orthorexi"),
    "pregnancy": ("pregnan",),
    "kidney_disease": ("kidney", "renal", "nephr", "ckd"),
    "diabetes": ("diabet",),
    "heart_condition": ("heart", "cardiac", "cardio", "arrhythm", "coronary", "angina"),
}
LABELS = {
    "amenorrhea": "amenorrhea reported",
    "low_bmi": "BMI below 17.5",
    "eating_disorder": "history naming an eating disorder",
    "pregnancy": "pregnancy",
    "kidney_disease": "kidney disease",
    "diabetes": "diabetes",
    "heart_condition": "a heart condition",
    "insulin": "insulin among medications",
    "rapid_loss_on_gain_goal": "losing over 1 kg/week while the goal is gain",
    "very_low_energy": "energy 2/10 or below",
}


@dataclass(frozen=True)
class RedFlag:
    code: str
    source: str  # "intake" or "checkin"


def bmi(weight_kg: float, height_cm: float) -> float:
    return weight_kg / (height_cm / 100) ** 2


def intake_flags(intake: IntakeData, weight_kg: float | None = None) -> list[RedFlag]:
    found: list[str] = []
    if intake.menstrual_status == "amenorrhea":
        found.append("amenorrhea")
    if bmi(weight_kg or intake.current_weight_kg, intake.height_cm) < BMI_FLOOR:
        found.append("low_bmi")
    conditions = " ".join(intake.medical_history.conditions).lower()
    found += [code for code, words in CONDITION_WORDS.items() if any(word in conditions for word in words)]
    if any("insulin" in medication.lower() for medication in intake.medical_history.medications):
        found.append("insulin")
    return [RedFlag(code, "intake") for code in found]


def checkin_flags(checkin: WeeklyCheckin, *, goal: str, weekly_change_kg: float | None) -> list[RedFlag]:
    found: list[str] = []
    if goal == "gain" and weekly_change_kg is not None and weekly_change_kg < -1:
        found.append("rapid_loss_on_gain_goal")
    if checkin.subjective_markers is not None and checkin.subjective_markers.energy <= 2:
        found.append("very_low_energy")
    return [RedFlag(code, "checkin") for code in found]


def health_query(flags: list[RedFlag], intake: IntakeData, *, weight_kg: float, training_weeks: int,
                 requesting_agent: Requester = "SCIENTIST") -> HealthQuery:
    """One batched `health_query` (004 §5: several red flags in a run make a single query)."""
    if not flags:
        raise ValueError("no red flags to ask about")
    return HealthQuery(
        query_type="red_flag",
        query="Red flags found: " + "; ".join(LABELS[flag.code] for flag in flags) + ".",
        requesting_agent=requesting_agent,
        user_context=UserContext(current_weight_kg=weight_kg, bmi=round(bmi(weight_kg, intake.height_cm), 1),
                                 symptoms=[LABELS[flag.code] for flag in flags],
                                 menstrual_status=intake.menstrual_status, training_weeks=training_weeks,
                                 supplements_current=[]),
    )
