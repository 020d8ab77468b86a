"""The safety floor (NUTRITION.md, PHYSICIAN and "Clinical rules in code"; code, exact): the least action the
PHYSICIAN may take, with its reason codes, from the intake, a check-in (fields and notes), a health question or any
agent's input.

Pure: no model, no database. The levels, in order:

    continue (routine) < pause_pending_referral (soon) < pause_pending_referral (urgent) < abort (urgent)

- abort: an active eating disorder, insulin use (type 1 diabetes counts as insulin use);
- pause soon: pregnancy or breastfeeding, a heart condition (high blood pressure counts), kidney disease,
  diabetes, amenorrhea, BMI < 17.5, an eating disorder told as past, any PAR-Q+ screening answer "yes", age < 16;
- pause urgent: chest pain, fainting or passing out (syncope), shortness of breath at rest, palpitations, blood in
  stool, urine or vomit, a loss over 1 kg/week while the goal is gain.

A red flag with no floor (energy 2/10 or below) still asks the PHYSICIAN, who may answer `continue`. A model
PHYSICIAN may escalate, never go below the floor: `raise_to_floor` replaces a lower answer with the floor's own
(`gym.nutrition.floor_words`; the caller logs the codes, never the member's words nor the model's). What a member's
words name is `gym.nutrition.red_flag_rules` (en, he, ru; negation, someone else, typos).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gym.nutrition.red_flag_rules import condition_flags, medication_flags, red_flags

BMI_FLOOR = 17.5
MIN_AGE_WITHOUT_REFERRAL = 16
CONTINUE, PAUSE_SOON, PAUSE_URGENT, ABORT = 0, 1, 2, 3
LEVELS: tuple[tuple[str, str], ...] = (("continue", "routine"), ("pause_pending_referral", "soon"),
                                       ("pause_pending_referral", "urgent"), ("abort", "urgent"))
ACTION_RANK = {"continue": 0, "pause_pending_referral": 1, "abort": 2}
URGENCY_RANK = {"routine": 0, "soon": 1, "urgent": 2}

# Every reason code, in the order a query names them, with its floor and the words the PHYSICIAN is asked about
# (the query's `symptoms`; `codes_of_labels` reads them back).
LEVEL: dict[str, int] = {
    "amenorrhea": PAUSE_SOON, "low_bmi": PAUSE_SOON, "eating_disorder_active": ABORT,
    "eating_disorder_history": PAUSE_SOON, "pregnancy": PAUSE_SOON, "breastfeeding": PAUSE_SOON,
    "kidney_disease": PAUSE_SOON, "diabetes": PAUSE_SOON, "heart_condition": PAUSE_SOON,
    "parq_screening": PAUSE_SOON, "under_16": PAUSE_SOON, "insulin": ABORT, "chest_pain": PAUSE_URGENT,
    "syncope": PAUSE_URGENT, "dyspnea_at_rest": PAUSE_URGENT, "palpitations": PAUSE_URGENT,
    "bleeding": PAUSE_URGENT, "rapid_loss_on_gain_goal": PAUSE_URGENT, "very_low_energy": CONTINUE,
}
CODES: tuple[str, ...] = tuple(LEVEL)
LABELS: dict[str, str] = {
    "amenorrhea": "amenorrhea reported",
    "low_bmi": "BMI below 17.5",
    "eating_disorder_active": "an active eating disorder",
    "eating_disorder_history": "a past eating disorder",
    "pregnancy": "pregnancy",
    "breastfeeding": "breastfeeding",
    "kidney_disease": "kidney disease",
    "diabetes": "diabetes",
    "heart_condition": "a heart condition",
    "parq_screening": "a PAR-Q+ screening answer of yes",
    "under_16": "under 16 years old",
    "insulin": "insulin among medications",
    "chest_pain": "chest pain",
    "syncope": "fainting or passing out",
    "dyspnea_at_rest": "shortness of breath at rest",
    "palpitations": "palpitations",
    "bleeding": "blood in stool, urine or vomit",
    "rapid_loss_on_gain_goal": "losing over 1 kg/week while the goal is gain",
    "very_low_energy": "energy 2/10 or below",
}
# Codes and labels runs stored before the codes were renamed (their plans and queries) still read as the new ones.
LEGACY = {"fainting": "syncope", "breathless_at_rest": "dyspnea_at_rest", "eating_disorder": "eating_disorder_active"}
CODE_OF_LABEL = {**{label: code for code, label in LABELS.items()},
                 "history naming an eating disorder": "eating_disorder_active"}


@dataclass(frozen=True)
class Floor:
    """The least `pipeline_action` and `urgency` the PHYSICIAN may answer, and why (reason codes)."""

    level: int
    codes: tuple[str, ...] = ()

    @property
    def action(self) -> str:
        return LEVELS[self.level][0]

    @property
    def urgency(self) -> str:
        return LEVELS[self.level][1]

    @property
    def above_continue(self) -> bool:
        return self.level > CONTINUE

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action, "urgency": self.urgency, "reasons": list(self.codes)}


def ordered(codes: Iterable[str]) -> list[str]:
    """The codes once each, in `CODES` order (a stored legacy code read as its new one, an unknown one dropped)."""
    found = {LEGACY.get(code, code) for code in codes}
    return [code for code in CODES if code in found]


def floor_of(codes: Iterable[str]) -> Floor:
    codes = ordered(codes)
    return Floor(max((LEVEL[code] for code in codes), default=CONTINUE), tuple(codes))


def text_codes(text: str | None) -> list[str]:
    """The reason codes the words of a free text name (a question, a check-in's notes, an agent's string)."""
    return ordered(red_flags(text))


def condition_codes(condition: str) -> list[str]:
    """A `medical_history.conditions` entry: its words, plus what a condition names in one word ("heart murmur",
    "почки", "כליות")."""
    return ordered(condition_flags(condition))


def strings_in(value: Any) -> Iterable[str]:
    """Every string in a JSON value (the keys aside)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings_in(item)


def payload_codes(value: Any) -> list[str]:
    """The reason codes named anywhere in an agent's input (its strings, read as free text)."""
    return ordered(code for text in strings_in(value) for code in text_codes(text))


def bmi(weight_kg: float, height_cm: float) -> float:
    return weight_kg / (height_cm / 100) ** 2


def intake_codes(intake: Any, weight_kg: float | None = None) -> list[str]:
    """The intake's reason codes: its structured fields (menstrual status, BMI, age, the PAR-Q+ screening), its
    conditions, medications (any insulin), injuries and aversions."""
    history = intake.medical_history
    found: list[str] = []
    if intake.menstrual_status == "amenorrhea":
        found.append("amenorrhea")
    if bmi(weight_kg or intake.current_weight_kg, intake.height_cm) < BMI_FLOOR:
        found.append("low_bmi")
    if intake.age < MIN_AGE_WITHOUT_REFERRAL:
        found.append("under_16")
    screening = getattr(intake, "screening", None)
    if screening is not None and any(screening.model_dump().values()):
        found.append("parq_screening")
    for condition in history.conditions:
        found += condition_flags(condition)
    for medication in history.medications:
        found += medication_flags(medication)
    for text in (*history.injuries, *intake.food_aversions):
        found += red_flags(text)
    return ordered(found)


def checkin_codes(checkin: Any, *, goal: str, weekly_change_kg: float | None, height_cm: float | None = None,
                  last_weight_kg: float | None = None) -> list[str]:
    """A check-in's reason codes: a loss over 1 kg/week on a gain goal, energy 2/10 or below, a BMI that fell under
    17.5 since the last weight (one already under it was raised then), and its notes' words."""
    found: list[str] = []
    if goal == "gain" and weekly_change_kg is not None and weekly_change_kg < -1:
        found.append("rapid_loss_on_gain_goal")
    if checkin.subjective_markers is not None and checkin.subjective_markers.energy <= 2:
        found.append("very_low_energy")
    if height_cm and bmi(checkin.weight_kg, height_cm) < BMI_FLOOR <= bmi(last_weight_kg or 350.0, height_cm):
        found.append("low_bmi")
    return ordered([*found, *text_codes(checkin.notes)])


def codes_of_labels(symptoms: Iterable[str]) -> list[str]:
    return ordered(CODE_OF_LABEL[s] for s in symptoms if s in CODE_OF_LABEL)


def query_floor(query: dict[str, Any]) -> Floor:
    """The floor of a `health_query` payload: the codes its symptoms name (a red flag's, from the screening that
    raised it) and the words of its text and symptoms. Its user context (the run's intake BMI and menstrual status)
    is not screened again: the intake was screened when the run started, so an acknowledged amenorrhea does not
    pause again at every question or check-in."""
    symptoms = (query.get("user_context") or {}).get("symptoms") or []
    found = [*codes_of_labels(symptoms), *text_codes(query.get("query"))]
    for symptom in symptoms:
        found += text_codes(symptom)
    return floor_of(found)


def answer_level(answer: dict[str, Any]) -> tuple[int, int]:
    return ACTION_RANK[answer["pipeline_action"]], URGENCY_RANK[answer["urgency"]]


def level_of(action: str, urgency: str) -> int:
    """The floor level an answer's action and urgency stand at (a routine pause is a soon one)."""
    if action == "abort":
        return ABORT
    if action == "continue":
        return CONTINUE
    return PAUSE_URGENT if urgency == "urgent" else PAUSE_SOON


SEE_A_DOCTOR_TODAY = "a doctor today (emergency services if it is severe or ongoing)"
REFERRALS: dict[str, str] = {
    "eating_disorder_active": "physician and a registered dietitian",
    "eating_disorder_history": "physician and a registered dietitian",
    "insulin": "physician and a registered dietitian",
    "amenorrhea": "sports medicine physician or gynecologist", "low_bmi": "sports medicine physician or gynecologist",
    "pregnancy": "obstetrician or midwife", "breastfeeding": "obstetrician or midwife",
    "heart_condition": "cardiologist", "kidney_disease": "nephrologist", "diabetes": "diabetes care team",
    "parq_screening": "a physician (PAR-Q+ follow-up)", "under_16": "a pediatrician or sports medicine physician",
    "chest_pain": SEE_A_DOCTOR_TODAY, "syncope": SEE_A_DOCTOR_TODAY, "dyspnea_at_rest": SEE_A_DOCTOR_TODAY,
    "palpitations": SEE_A_DOCTOR_TODAY, "bleeding": SEE_A_DOCTOR_TODAY, "rapid_loss_on_gain_goal": "a physician",
}


def referral_for(floor: Floor) -> str:
    """Whom to see: the referrals of the codes that set the floor (the highest level), each once."""
    top = [code for code in floor.codes if LEVEL[code] == floor.level and code in REFERRALS]
    return "; ".join(dict.fromkeys(REFERRALS[code] for code in top)) or "a physician"
