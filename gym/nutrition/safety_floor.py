"""The safety floor (NUTRITION.md, PHYSICIAN; code, exact): the least action the PHYSICIAN may take, with its
reason codes, from the intake, a check-in (fields and notes), a health question or any agent's input.

Pure: no model, no database. The levels, in order:

    continue (routine) < pause_pending_referral (soon) < pause_pending_referral (urgent) < abort (urgent)

- abort: an active eating disorder (any condition naming one counts as active: the text cannot tell a history
  from remission), insulin use;
- pause soon: pregnancy or breastfeeding, a heart condition, kidney disease, diabetes, amenorrhea, BMI < 17.5;
- pause urgent: chest pain, fainting or passing out, shortness of breath at rest, palpitations, blood in stool,
  urine or vomit, a loss over 1 kg/week while the goal is gain.

A red flag with no floor (energy 2/10 or below) still asks the PHYSICIAN, who may answer `continue`. A model
PHYSICIAN may escalate, never go below the floor: `raise_to_floor` lifts a lower answer (the caller logs the
codes, never the member's words). The words are in `gym.nutrition.safety_words` (en, he, ru).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gym.nutrition import safety_words

BMI_FLOOR = 17.5
CONTINUE, PAUSE_SOON, PAUSE_URGENT, ABORT = 0, 1, 2, 3
LEVELS: tuple[tuple[str, str], ...] = (("continue", "routine"), ("pause_pending_referral", "soon"),
                                       ("pause_pending_referral", "urgent"), ("abort", "urgent"))
ACTION_RANK = {"continue": 0, "pause_pending_referral": 1, "abort": 2}
URGENCY_RANK = {"routine": 0, "soon": 1, "urgent": 2}

# Every reason code, in the order a query names them, with its floor and the words the PHYSICIAN is asked about
# (the query's `symptoms`; `codes_of_labels` reads them back).
LEVEL: dict[str, int] = {
    "amenorrhea": PAUSE_SOON, "low_bmi": PAUSE_SOON, "eating_disorder": ABORT, "pregnancy": PAUSE_SOON,
    "breastfeeding": PAUSE_SOON, "kidney_disease": PAUSE_SOON, "diabetes": PAUSE_SOON,
    "heart_condition": PAUSE_SOON, "insulin": ABORT, "chest_pain": PAUSE_URGENT, "fainting": PAUSE_URGENT,
    "breathless_at_rest": PAUSE_URGENT, "palpitations": PAUSE_URGENT, "bleeding": PAUSE_URGENT,
    "rapid_loss_on_gain_goal": PAUSE_URGENT, "very_low_energy": CONTINUE,
}
CODES: tuple[str, ...] = tuple(LEVEL)
LABELS: dict[str, str] = {
    "amenorrhea": "amenorrhea reported",
    "low_bmi": "BMI below 17.5",
    "eating_disorder": "history naming an eating disorder",
    "pregnancy": "pregnancy",
    "breastfeeding": "breastfeeding",
    "kidney_disease": "kidney disease",
    "diabetes": "diabetes",
    "heart_condition": "a heart condition",
    "insulin": "insulin among medications",
    "chest_pain": "chest pain",
    "fainting": "fainting or passing out",
    "breathless_at_rest": "shortness of breath at rest",
    "palpitations": "palpitations",
    "bleeding": "blood in stool, urine or vomit",
    "rapid_loss_on_gain_goal": "losing over 1 kg/week while the goal is gain",
    "very_low_energy": "energy 2/10 or below",
}
CODE_OF_LABEL = {label: code for code, label in LABELS.items()}


def _compile(table: dict[str, tuple[str, ...]]) -> dict[str, re.Pattern[str]]:
    return {code: re.compile("|".join(f"(?:{p})" for p in patterns)) for code, patterns in table.items()}


TEXT = _compile(safety_words.TEXT)
CONDITION = _compile(safety_words.CONDITION)
MEDICATION = re.compile("|".join(f"(?:{p})" for p in safety_words.MEDICATION))
HEBREW_POINTS = re.compile("[\u0591-\u05bd\u05bf-\u05c7]")


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
    """The codes once each, in `CODES` order."""
    found = set(codes)
    return [code for code in CODES if code in found]


def floor_of(codes: Iterable[str]) -> Floor:
    codes = ordered(codes)
    return Floor(max((LEVEL[code] for code in codes), default=CONTINUE), tuple(codes))


def normalise(text: str) -> str:
    """Lower case, NFC, ё → е, Hebrew points and marks dropped, the maqaf as a hyphen, one space between words."""
    text = unicodedata.normalize("NFC", text).lower().replace("ё", "е").replace("\u05be", "-")
    text = HEBREW_POINTS.sub("", text).replace("\u2019", "'").replace("\u05f3", "'")
    return " ".join(text.split())


def text_codes(text: str | None) -> list[str]:
    """The reason codes the words of a free text name (a question, a check-in's notes, an agent's string)."""
    if not text:
        return []
    clean = normalise(text)
    return ordered(code for code, pattern in TEXT.items() if pattern.search(clean))


def condition_codes(condition: str) -> list[str]:
    """A `medical_history.conditions` entry: the free-text words plus what a condition names in one word."""
    clean = normalise(condition)
    return ordered([*text_codes(clean), *(code for code, pattern in CONDITION.items() if pattern.search(clean))])


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
    """The intake's reason codes: its structured fields (menstrual status, BMI), its conditions, medications (any
    insulin), injuries and aversions."""
    history = intake.medical_history
    found: list[str] = []
    if intake.menstrual_status == "amenorrhea":
        found.append("amenorrhea")
    if bmi(weight_kg or intake.current_weight_kg, intake.height_cm) < BMI_FLOOR:
        found.append("low_bmi")
    for condition in history.conditions:
        found += condition_codes(condition)
    for medication in history.medications:
        found += text_codes(medication)
        if MEDICATION.search(normalise(medication)):
            found.append("insulin")
    for text in (*history.injuries, *intake.food_aversions):
        found += text_codes(text)
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


def raise_to_floor(answer: dict[str, Any], floor: Floor, *, referral_target: str) -> tuple[dict[str, Any], bool]:
    """The PHYSICIAN's `medical_context` at least at the floor (action and urgency each), and whether it was
    raised. A raised answer needs a referral: `referral_target` when the answer named none."""
    if not floor.above_continue:
        return answer, False
    action = max(answer["pipeline_action"], floor.action, key=ACTION_RANK.__getitem__)
    urgency = max(answer["urgency"], floor.urgency, key=URGENCY_RANK.__getitem__)
    if (action, urgency) == (answer["pipeline_action"], answer["urgency"]) and answer["referral_needed"]:
        return answer, False
    raised = {**answer, "pipeline_action": action, "urgency": urgency, "referral_needed": True,
              "referral_target": answer.get("referral_target") or referral_target}
    return raised, True


REFERRALS: dict[str, str] = {
    "eating_disorder": "physician and a registered dietitian", "insulin": "physician and a registered dietitian",
    "amenorrhea": "sports medicine physician or gynecologist", "low_bmi": "sports medicine physician or gynecologist",
    "pregnancy": "obstetrician or midwife", "breastfeeding": "obstetrician or midwife",
    "heart_condition": "cardiologist", "kidney_disease": "nephrologist", "diabetes": "diabetes care team",
    "chest_pain": "a doctor today (emergency services if it is severe or ongoing)",
    "fainting": "a doctor today (emergency services if it is severe or ongoing)",
    "breathless_at_rest": "a doctor today (emergency services if it is severe or ongoing)",
    "palpitations": "a doctor today (emergency services if it is severe or ongoing)",
    "bleeding": "a doctor today (emergency services if it is severe or ongoing)",
    "rapid_loss_on_gain_goal": "a physician",
}


def referral_for(floor: Floor) -> str:
    """Whom to see: the referrals of the codes that set the floor (the highest level), each once."""
    top = [code for code in floor.codes if LEVEL[code] == floor.level and code in REFERRALS]
    return "; ".join(dict.fromkeys(REFERRALS[code] for code in top)) or "a physician"
