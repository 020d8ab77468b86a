"""The safety floor (NUTRITION.md, PHYSICIAN) as tables: phrasings in English, Hebrew and Russian with the reason
codes they must (and must not) set, the structured fields of the intake and a check-in, the levels' order, and the
raise of a PHYSICIAN answer below the floor.

Negation is deliberately not read: "no chest pain", "לא בהריון", "не беременна" still set the floor (the last rows
of `PHRASES` pin that down). A missed negation would lower a floor; a pause the member acknowledges costs little.
Words that only name an organ or a hormone ("heart rate", "kidneys", "insulin spike") set nothing.
"""

from __future__ import annotations

import pytest

from gym.nutrition import safety_floor as sf
from gym.nutrition.payloads.feedback import WeeklyCheckin
from tests.gym.nutrition import samples

PHRASES: list[tuple[str, list[str]]] = [
    # the three cases
    ("I had chest pain and fainted twice during training this week", ["chest_pain", "fainting"]),
    ("No period for four months now, is that normal?", ["amenorrhea"]),
    ("I'm pregnant and I have heart failure. Can I take creatine?", ["pregnancy", "heart_condition"]),
    ("כאבים בחזה והתעלפתי באימון", ["chest_pain", "fainting"]),
    ("לא קיבלתי מחזור כבר ארבעה חודשים", ["amenorrhea"]),
    ("אני בהריון ויש לי אי ספיקת לב", ["pregnancy", "heart_condition"]),
    ("Боль в груди, и я упала в обморок на тренировке", ["chest_pain", "fainting"]),
    ("Уже четыре месяца нет месячных", ["amenorrhea"]),
    ("Я беременна, у меня сердечная недостаточность", ["pregnancy", "heart_condition"]),
    # chest pain
    ("My chest feels tight when I walk upstairs", ["chest_pain"]),
    ("sharp pain in my chest after deadlifts", ["chest_pain"]),
    ("כואב לי בחזה", ["chest_pain"]), ("לחץ בחזה בזמן ריצה", ["chest_pain"]), ("כאבי חזה", ["chest_pain"]),
    ("болит грудь после бега", ["chest_pain"]), ("давит в груди", ["chest_pain"]),
    # fainting, passing out
    ("I passed out in the shower", ["fainting"]), ("I nearly blacked out on the bike", ["fainting"]),
    ("she fainted", ["fainting"]), ("Fainting spells", ["fainting"]), ("I lost consciousness for a minute", ["fainting"]),
    ("התעלפה אתמול", ["fainting"]), ("איבדתי הכרה לכמה שניות", ["fainting"]), ("אני מרגישה שאני מתעלפת", ["fainting"]),
    ("упал в обморок", ["fainting"]), ("потеряла сознание на тренировке", ["fainting"]), ("обмороки", ["fainting"]),
    # shortness of breath at rest
    ("I'm short of breath even at rest", ["breathless_at_rest"]), ("I can't breathe properly", ["breathless_at_rest"]),
    ("shortness of breath while lying in bed", ["breathless_at_rest"]),
    ("קוצר נשימה במנוחה", ["breathless_at_rest"]), ("קשה לי לנשום", ["breathless_at_rest"]),
    ("одышка в покое", ["breathless_at_rest"]), ("задыхаюсь даже в покое", ["breathless_at_rest"]),
    ("не хватает воздуха", ["breathless_at_rest"]),
    # palpitations
    ("I get palpitations at night", ["palpitations"]), ("my heart is racing for no reason", ["palpitations"]),
    ("דפיקות לב חזקות", ["palpitations"]), ("הלב שלי דוהר", ["palpitations"]),
    ("учащенное сердцебиение", ["palpitations"]), ("сердце колотится", ["palpitations"]),
    # blood in stool, urine or vomit
    ("blood in my stool", ["bleeding"]), ("I threw up blood", ["bleeding"]), ("bloody urine", ["bleeding"]),
    ("דם בצואה", ["bleeding"]), ("הקאתי דם", ["bleeding"]), ("דם בשתן", ["bleeding"]),
    ("кровь в моче", ["bleeding"]), ("рвота с кровью", ["bleeding"]), ("кровь в кале", ["bleeding"]),
    # amenorrhea
    ("I haven't had my period since March", ["amenorrhea"]), ("my periods stopped", ["amenorrhea"]),
    ("three months without a period", ["amenorrhea"]), ("Amenorrhea", ["amenorrhea"]),
    ("אין לי מחזור", ["amenorrhea"]), ("המחזור שלי נעלם", ["amenorrhea"]), ("חצי שנה בלי מחזור", ["amenorrhea"]),
    ("месячные пропали", ["amenorrhea"]), ("не было месячных полгода", ["amenorrhea"]), ("аменорея", ["amenorrhea"]),
    # pregnancy, breastfeeding
    ("12 weeks pregnant", ["pregnancy"]), ("in my second trimester", ["pregnancy"]), ("בהיריון", ["pregnancy"]),
    ("беременность 20 недель", ["pregnancy"]), ("I'm breastfeeding my son", ["breastfeeding"]),
    ("אני מניקה", ["breastfeeding"]), ("кормлю грудью", ["breastfeeding"]), ("кормящая мама", ["breastfeeding"]),
    # heart condition, kidney disease, diabetes
    ("I have a heart condition", ["heart_condition"]), ("atrial fibrillation", ["heart_condition"]),
    ("מחלת לב", ["heart_condition"]), ("הפרעות קצב", ["heart_condition"]), ("перенесла инфаркт", ["heart_condition"]),
    ("chronic kidney disease", ["kidney_disease"]), ("I'm on dialysis", ["kidney_disease"]),
    ("אי ספיקת כליות", ["kidney_disease"]), ("болезнь почек", ["kidney_disease"]),
    ("I'm diabetic", ["diabetes"]), ("סוכרת סוג 2", ["diabetes"]), ("сахарный диабет", ["diabetes"]),
    # abort: eating disorder, insulin use
    ("I was diagnosed with anorexia", ["eating_disorder"]), ("I binge and purge", ["eating_disorder"]),
    ("I make myself throw up after dinner", ["eating_disorder"]), ("הפרעת אכילה", ["eating_disorder"]),
    ("בולימיה", ["eating_disorder"]), ("булимия", ["eating_disorder"]), ("у меня РПП", ["eating_disorder"]),
    ("I take insulin with meals", ["insulin"]), ("I'm on insulin", ["insulin"]), ("insulin pump", ["insulin"]),
    ("Lantus at night", ["insulin"]), ("אני מזריקה אינסולין", ["insulin"]), ("משאבת אינסולין", ["insulin"]),
    ("колю инсулин", ["insulin"]), ("я на инсулине", ["insulin"]), ("инсулинозависимая", ["insulin"]),
    # nothing: organs, hormones and training words that are not a condition, a use or a symptom
    ("Is creatine safe while I train?", []), ("What heart rate should I train at?", []),
    ("Is a high protein diet bad for my kidneys?", []), ("Do carbs spike insulin?", []),
    ("chest day tomorrow: bench press and flyes", []), ("my legs hurt after squats", []),
    ("I'm out of breath after sprints", []), ("Why do my knees cave in on squats?", []),
    ("Should I eat before my period?", []), ("How much water should I drink?", []),
    ("מה הדופק המומלץ באימון?", []), ("אימון חזה מחר", []), ("האם חלבון מזיק לכליות?", []),
    ("Как углеводы влияют на инсулин?", []), ("Какой пульс нужен на тренировке?", []), ("жим груди лежа", []),
    # negation is not read (documented above): the floor is set anyway
    ("I have no chest pain", ["chest_pain"]), ("אני לא בהריון", ["pregnancy"]), ("я не беременна", ["pregnancy"]),
]


@pytest.mark.parametrize(("text", "codes"), PHRASES, ids=[text[:40] for text, _ in PHRASES])
def test_the_words_of_a_question_or_a_note(text: str, codes: list[str]) -> None:
    assert sf.text_codes(text) == codes


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
    ({"conditions": ["binge eating"]}, ["eating_disorder"]), ({"conditions": ["insulin resistance"]}, []),
    ({"medications": ["Insulin glargine"]}, ["insulin"]), ({"medications": ["אינסולין"]}, ["insulin"]),
    ({"medications": ["инсулин"]}, ["insulin"]), ({"medications": ["Tresiba"]}, ["insulin"]),
    ({"medications": ["metformin"]}, []),
    ({"injuries": ["fainted and hit my head"]}, ["fainting"]),
])
def test_the_intake_fields_and_words(history: dict, codes: list[str]) -> None:
    full = {"medications": [], "conditions": [], "injuries": [], **history}
    assert sf.intake_codes(samples.intake(medical_history=full)) == codes


def test_the_intake_structured_fields() -> None:
    assert sf.intake_codes(samples.intake(menstrual_status="amenorrhea")) == ["amenorrhea"]
    assert sf.intake_codes(samples.intake(current_weight_kg=47.0)) == ["low_bmi"]  # 47 / 1.65² = 17.26
    assert sf.intake_codes(samples.intake(current_weight_kg=47.7)) == []  # 17.52


def _checkin(**fields) -> WeeklyCheckin:
    return WeeklyCheckin.model_validate({"weight_kg": 56.0, **fields})


@pytest.mark.parametrize(("fields", "change", "codes"), [
    ({}, -1.2, ["rapid_loss_on_gain_goal"]),
    ({}, -1.0, []),
    ({"subjective_markers": {"energy": 2, "sleep_quality": 5, "mood": 5, "appetite": 5}}, 0.1, ["very_low_energy"]),
    ({"notes": "Fainted twice during training this week."}, 0.1, ["fainting"]),
    ({"notes": "התעלפתי פעמיים באימון"}, 0.1, ["fainting"]),
    ({"notes": "Дважды падала в обморок"}, 0.1, ["fainting"]),
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
    assert {code for code, level in sf.LEVEL.items() if level == sf.ABORT} == {"eating_disorder", "insulin"}
    assert {code for code, level in sf.LEVEL.items() if level == sf.PAUSE_SOON} == {
        "pregnancy", "breastfeeding", "heart_condition", "kidney_disease", "diabetes", "amenorrhea", "low_bmi"}
    assert {code for code, level in sf.LEVEL.items() if level == sf.PAUSE_URGENT} == {
        "chest_pain", "fainting", "breathless_at_rest", "palpitations", "bleeding", "rapid_loss_on_gain_goal"}


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
def test_an_answer_below_the_floor_is_raised(answer, text, raised) -> None:
    floor = sf.floor_of(sf.text_codes(text))
    given = _answer(*answer, referral="a GP" if answer[0] != "continue" else None)
    out, changed = sf.raise_to_floor(given, floor, referral_target=sf.referral_for(floor))
    assert changed is (raised is not None)
    assert (out["pipeline_action"], out["urgency"]) == (raised or answer)
    if changed:
        assert out["referral_needed"] is True and out["referral_target"]


def test_a_query_floor_reads_its_red_flags_and_a_question_its_words_only() -> None:
    red_flag = {"query_type": "red_flag", "query": "Red flags found: pregnancy.",
                "user_context": {"symptoms": [sf.LABELS["pregnancy"], sf.LABELS["insulin"]], "bmi": 21.0,
                                 "menstrual_status": "regular"}}
    assert sf.query_floor(red_flag).as_dict() == {"action": "abort", "urgency": "urgent",
                                                  "reasons": ["pregnancy", "insulin"]}
    question = {"query_type": "health_question", "query": "Is creatine safe?",
                "user_context": {"symptoms": [], "bmi": 16.0, "menstrual_status": "amenorrhea"}}
    assert not sf.query_floor(question).above_continue  # the intake's fields were screened when the run started
