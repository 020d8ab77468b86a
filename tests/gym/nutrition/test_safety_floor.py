"""The safety floor (NUTRITION.md, PHYSICIAN and "Clinical rules in code") as tables: the least action of what a
text names, the structured fields of the intake (menstrual status, BMI, age, the PAR-Q+ screening) and of a
check-in, the levels' order, and an answer below the floor replaced by the floor's own.

What members' words name, in English, Hebrew and Russian, is measured by the suite in tests/safety/ (hundreds of
phrasings with their recall and false-alarm figures); this file pins the floor's own rules.
"""

from __future__ import annotations

import pytest

from gym.nutrition import safety_floor as sf
from gym.nutrition.floor_words import floor_answer, raise_to_floor
from gym.nutrition.payloads.feedback import WeeklyCheckin
from tests.gym.nutrition import samples


@pytest.mark.parametrize(("text", "action", "urgency"), [
    ("I had chest pain and fainted twice", "pause_pending_referral", "urgent"),
    ("no period for four months", "pause_pending_referral", "soon"),
    ("pregnant with heart failure", "pause_pending_referral", "soon"),
    ("pregnant, and I passed out", "pause_pending_referral", "urgent"),
    ("bulimia, and chest pain", "abort", "urgent"),
    ("I take insulin", "abort", "urgent"),
    ("Is creatine safe?", "continue", "routine"),
])
def test_the_least_action_is_the_gravest_code(text: str, action: str, urgency: str) -> None:
    floor = sf.floor_of(sf.text_codes(text))
    assert (floor.action, floor.urgency) == (action, urgency)


@pytest.mark.parametrize(("history", "codes"), [
    ({"conditions": ["pregnant", "heart failure"]}, ["pregnancy", "heart_condition"]),
    ({"conditions": ["heart murmur"]}, ["heart_condition"]),
    ({"conditions": ["heartburn"]}, []),
    ({"conditions": ["בעיות לב"]}, ["heart_condition"]), ({"conditions": ["почки"]}, ["kidney_disease"]),
    ({"conditions": ["binge eating"]}, ["eating_disorder_active"]), ({"conditions": ["insulin resistance"]}, []),
    ({"conditions": ["anorexia, recovered 10 years ago"]}, ["eating_disorder_history"]),
    ({"conditions": ["type 1 diabetes"]}, ["diabetes", "insulin"]),
    ({"medications": ["Insulin glargine"]}, ["insulin"]), ({"medications": ["אינסולין"]}, ["insulin"]),
    ({"medications": ["инсулин"]}, ["insulin"]), ({"medications": ["Tresiba"]}, ["insulin"]),
    ({"medications": ["metformin"]}, []),
    ({"injuries": ["fainted and hit my head"]}, ["syncope"]),
    ({"conditions": ["no heart problems"]}, []),
])
def test_the_intake_fields_and_words(history: dict, codes: list[str]) -> None:
    full = {"medications": [], "conditions": [], "injuries": [], **history}
    assert sf.intake_codes(samples.intake(medical_history=full)) == codes


def test_the_intake_structured_fields() -> None:
    assert sf.intake_codes(samples.intake(menstrual_status="amenorrhea")) == ["amenorrhea"]
    assert sf.intake_codes(samples.intake(menstrual_status="postmenopausal")) == []  # no referral
    assert sf.intake_codes(samples.intake(menstrual_status="perimenopausal")) == []
    assert sf.intake_codes(samples.intake(current_weight_kg=47.0)) == ["low_bmi"]  # 47 / 1.65² = 17.26
    assert sf.intake_codes(samples.intake(current_weight_kg=47.7)) == []  # 17.52
    assert sf.intake_codes(samples.intake(age=15)) == ["under_16"]
    assert sf.intake_codes(samples.intake(age=16)) == []


@pytest.mark.parametrize("question", sorted(samples.NO_SCREENING))
def test_any_screening_yes_pauses_soon(question: str) -> None:
    """PAR-Q+ (NUTRITION.md): any of the seven answers true sets the floor to pause_pending_referral (soon)."""
    intake = samples.intake(screening={**samples.NO_SCREENING, question: True})
    assert sf.intake_codes(intake) == ["parq_screening"]
    floor = sf.floor_of(sf.intake_codes(intake))
    assert (floor.action, floor.urgency) == ("pause_pending_referral", "soon")
    assert sf.intake_codes(samples.intake(screening=samples.NO_SCREENING)) == []


def _checkin(**fields) -> WeeklyCheckin:
    return WeeklyCheckin.model_validate({"weight_kg": 56.0, **fields})


@pytest.mark.parametrize(("fields", "change", "codes"), [
    ({}, -1.2, ["rapid_loss_on_gain_goal"]),
    ({}, -1.0, []),
    ({"subjective_markers": {"energy": 2, "sleep_quality": 5, "mood": 5, "appetite": 5}}, 0.1, ["very_low_energy"]),
    ({"notes": "Fainted twice during training this week."}, 0.1, ["syncope"]),
    ({"notes": "התעלפתי פעמיים באימון"}, 0.1, ["syncope"]),
    ({"notes": "Дважды падала в обморок"}, 0.1, ["syncope"]),
    ({"notes": "Felt bloated on Wednesday, skipped afternoon snack"}, 0.1, []),
    ({"weight_kg": 47.0}, 0.1, ["low_bmi"]),  # BMI 17.26, down from the intake's 20.6
])
def test_a_checkins_fields_and_notes(fields: dict, change: float, codes: list[str]) -> None:
    checkin = _checkin(**fields)
    assert sf.checkin_codes(checkin, goal="gain", weekly_change_kg=change, height_cm=165, last_weight_kg=56.2) == codes


def test_a_bmi_already_under_the_floor_is_not_raised_again_at_every_checkin() -> None:
    assert sf.checkin_codes(_checkin(weight_kg=46.5), goal="gain", weekly_change_kg=0.1, height_cm=165,
                            last_weight_kg=46.0) == []


def test_the_levels_are_ordered_continue_pause_soon_pause_urgent_abort() -> None:
    assert [sf.LEVELS[level] for level in (sf.CONTINUE, sf.PAUSE_SOON, sf.PAUSE_URGENT, sf.ABORT)] == [
        ("continue", "routine"), ("pause_pending_referral", "soon"), ("pause_pending_referral", "urgent"),
        ("abort", "urgent")]
    assert {code for code, level in sf.LEVEL.items() if level == sf.ABORT} == {"eating_disorder_active", "insulin"}
    assert {code for code, level in sf.LEVEL.items() if level == sf.PAUSE_SOON} == {
        "pregnancy", "breastfeeding", "heart_condition", "kidney_disease", "diabetes", "amenorrhea", "low_bmi",
        "eating_disorder_history", "parq_screening", "under_16"}
    assert {code for code, level in sf.LEVEL.items() if level == sf.PAUSE_URGENT} == {
        "chest_pain", "syncope", "dyspnea_at_rest", "palpitations", "bleeding", "rapid_loss_on_gain_goal"}


def test_codes_stored_under_their_old_names_read_as_the_new_ones() -> None:
    assert sf.ordered(["fainting", "breathless_at_rest", "eating_disorder", "no_such_code"]) == [
        "eating_disorder_active", "syncope", "dyspnea_at_rest"]
    assert sf.codes_of_labels(["history naming an eating disorder"]) == ["eating_disorder_active"]


def _answer(action: str, urgency: str, *, referral: str | None = None) -> dict:
    return {"response": "r", "sources": [], "mechanism_explained": "m", "timeline": None,
            "referral_needed": referral is not None, "referral_target": referral, "urgency": urgency,
            "pipeline_action": action, "disclaimer": "d"}


@pytest.mark.parametrize(("answer", "text", "raised"), [
    (("continue", "routine"), "I had chest pain", ("pause_pending_referral", "urgent")),
    (("pause_pending_referral", "soon"), "I fainted", ("pause_pending_referral", "urgent")),
    (("pause_pending_referral", "urgent"), "I'm pregnant", None),  # above the floor: as answered
    (("abort", "routine"), "I fainted", ("abort", "urgent")),  # each of action and urgency at least the floor's
    (("continue", "soon"), "I take insulin", ("abort", "urgent")),
    (("continue", "routine"), "Is creatine safe?", None),
    (("abort", "urgent"), "Is creatine safe?", None),  # a model may escalate
])
def test_an_answer_below_the_floor_is_replaced_by_the_floors_own(answer, text, raised) -> None:
    floor = sf.floor_of(sf.text_codes(text))
    given = _answer(*answer, referral="a GP" if answer[0] != "continue" else None)
    out, changed = raise_to_floor(given, floor)
    assert changed is (raised is not None)
    assert (out["pipeline_action"], out["urgency"]) == (raised or answer)
    if changed:  # nothing of the lower answer is kept: the floor's words, referral and disclaimer, with its reasons
        assert out == floor_answer(floor, action=raised[0], urgency=raised[1])
        assert out["referral_needed"] is True and out["referral_target"] == sf.referral_for(floor)
        assert out["floor_reasons"] == list(floor.codes) and "r" not in out.values()
    else:
        assert out is given


def test_the_floors_own_answer_names_its_reasons_referral_and_disclaimer() -> None:
    floor = sf.floor_of(["pregnancy", "heart_condition"])
    answer = floor_answer(floor)
    assert (answer["pipeline_action"], answer["urgency"], answer["referral_needed"]) == (
        "pause_pending_referral", "soon", True)
    assert answer["response"].startswith("Pregnancy; a heart condition:")
    assert answer["referral_target"] == "obstetrician or midwife; cardiologist"
    assert answer["disclaimer"] and answer["floor_reasons"] == ["pregnancy", "heart_condition"]
    calm = floor_answer(sf.floor_of([]))
    assert (calm["pipeline_action"], calm["referral_needed"], calm["floor_reasons"]) == ("continue", False, [])


def test_a_query_floor_reads_its_red_flags_and_a_question_its_words_only() -> None:
    red_flag = {"query_type": "red_flag", "query": "Red flags found: pregnancy.",
                "user_context": {"symptoms": [sf.LABELS["pregnancy"], sf.LABELS["insulin"]], "bmi": 21.0,
                                 "menstrual_status": "regular"}}
    assert sf.query_floor(red_flag).as_dict() == {"action": "abort", "urgency": "urgent",
                                                  "reasons": ["pregnancy", "insulin"]}
    question = {"query_type": "health_question", "query": "Is creatine safe?",
                "user_context": {"symptoms": [], "bmi": 16.0, "menstrual_status": "amenorrhea"}}
    assert not sf.query_floor(question).above_continue  # the intake's fields were screened when the run started


@pytest.mark.parametrize("text", ["resting pulse²²² 150", "давление ١٦٠ на ١٠٠", "\x00\u202e\ufffd", "ה" * 3000,
                                  "faint " * 500, "", "  \n\n ,,, ..."])
def test_odd_text_is_read_without_error(text: str) -> None:
    """Whatever a member types reaches the floor: superscript digits, other scripts' digits, control characters,
    long repetitions (schemathesis found a 500 on a superscript digit)."""
    codes = sf.text_codes(text)
    assert set(codes) <= set(sf.CODES)
