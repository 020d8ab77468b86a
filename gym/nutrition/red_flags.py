"""Red flags (NUTRITION.md): everything found is batched into one `health_query` for the PHYSICIAN.

What is a red flag is the safety floor's screening (`gym.nutrition.safety_floor`: the intake's structured fields
and words, a check-in's fields and notes, in en/he/ru), plus energy at 2 of 10 or below, which asks the PHYSICIAN
without a floor. Flags carry codes; the query text names them, never the member's own words.
"""

from __future__ import annotations

from dataclasses import dataclass

from gym.nutrition.payloads.common import Requester
from gym.nutrition.payloads.feedback import WeeklyCheckin
from gym.nutrition.payloads.intake import IntakeData
from gym.nutrition.payloads.medical import HealthQuery, UserContext
from gym.nutrition.safety_floor import LABELS, bmi, checkin_codes, intake_codes, ordered

__all__ = ["LABELS", "RedFlag", "bmi", "checkin_flags", "health_query", "intake_flags"]


@dataclass(frozen=True)
class RedFlag:
    code: str
    source: str  # "intake", "checkin" or the agent whose input named it


def intake_flags(intake: IntakeData, weight_kg: float | None = None) -> list[RedFlag]:
    return [RedFlag(code, "intake") for code in intake_codes(intake, weight_kg)]


def checkin_flags(checkin: WeeklyCheckin, *, goal: str, weekly_change_kg: float | None, height_cm: float | None = None,
                  last_weight_kg: float | None = None) -> list[RedFlag]:
    return [RedFlag(code, "checkin") for code in checkin_codes(
        checkin, goal=goal, weekly_change_kg=weekly_change_kg, height_cm=height_cm, last_weight_kg=last_weight_kg)]


def health_query(flags: list[RedFlag], intake: IntakeData, *, weight_kg: float, training_weeks: int,
                 requesting_agent: Requester = "SCIENTIST") -> HealthQuery:
    """One batched `health_query` (004 §5: several red flags in a run make a single query). A code stored under
    an older name is asked about under its new one."""
    codes = ordered(flag.code for flag in flags)
    if not codes:
        raise ValueError("no red flags to ask about")
    labels = [LABELS[code] for code in codes]
    return HealthQuery(
        query_type="red_flag",
        query="Red flags found: " + "; ".join(labels) + ".",
        requesting_agent=requesting_agent,
        user_context=UserContext(current_weight_kg=weight_kg, bmi=round(bmi(weight_kg, intake.height_cm), 1),
                                 symptoms=labels,
                                 menstrual_status=intake.menstrual_status, training_weeks=training_weeks,
                                 supplements_current=[]),
    )
