"""The offline trainer's moves (issue 24 item 5), at unit level: for the phrasings a member would use, in English,
Hebrew and Russian, the first tool call it makes and its arguments; the flows that need more than one (a workout
for a recovering muscle, a swap with no like-for-like alternative, a schedule that builds the workout); what it
says when it cannot help; always labelled as the offline demo, never an id in its words."""

from __future__ import annotations

import re
import string
from datetime import datetime, timedelta
from typing import Any

import pytest
from pydantic import BaseModel, Field

from core.i18n import catalog
from gym.training.constraints import Exclusions
from offline_model.trainer import exclusions_input
from offline_model.trainer_library import MOVES
from tests.trainer.offline_chat import NOW, OfflineChat, knowledge, recovery, workout
from tools.leaves.trainer.prefs import DeletePreferenceInput, SetPreferenceInput

LABELS = {loc: catalog(loc)["offline"]["label"] for loc in ("en", "he", "ru")}
INTERNAL = re.compile(r"\bex_\d+|\bworkout_\d+|\b[a-z]+__[a-z_]+\b")
MOVE = {m.name: m for m in MOVES}
FRIDAY_18 = (NOW + timedelta(days=1)).replace(hour=18).isoformat()
TOMORROW_7 = (NOW + timedelta(days=1)).replace(hour=7).isoformat()


def primary(ex: dict[str, Any]) -> str:
    return max(ex["muscles"], key=lambda m: m["share"])["name"]


def chest_workout(i: dict[str, Any]) -> bool:
    reps = [e for e in i["exercises"] if e["type"] == "reps"]
    return len(reps) == 3 and all(primary(e) == "Chest" for e in reps) and all(
        "Shoulder Press" not in e["name"] for e in i["exercises"])


def until(days: int):
    return lambda i: abs(datetime.fromisoformat(i["expires_at"]) - (NOW + timedelta(days=days))) < timedelta(minutes=1)


FIRST_MOVES: list[tuple[str, str, str, Any]] = [
    # Dani's five demo flows
    ("give me a quick chest workout", "תן לי אימון חזה מהיר", "дай быструю тренировку груди",
     "workout__generate_workout", chest_workout),
    ("swap the second exercise", "תחליף את התרגיל השני", "замени второе упражнение",
     "workout__swap_exercise", lambda i: i["exercise_id"] == "ex_002" and primary(i["new_exercise"]) == "Chest"),
    ("log it: bench 3x8 at 40 kg", 'תרשום: לחיצת חזה 3x8 ב-40 ק"ג', "запиши: жим лёжа 3x8 40 кг",
     "logbook__log_completed_exercise",
     lambda i: (i["exercise_name"], i["sets"], i["reps"], i["load"]) == ("Bench Press", 3, 8, 40)),
    ("how many workouts this month?", "כמה אימונים עשיתי החודש?", "сколько тренировок в этом месяце?",
     "stats__get_workout_statistics", lambda i: i["period"] == "month"),
    ("avoid shoulders for two weeks", "תימנע מכתפיים לשבועיים", "избегай плечи на две недели",
     "prefs__set_preference", lambda i: i["type"] == "muscle_group" and until(14)(i) and "shoulders" in i["guidance"]),
    # injury, goal, timer, calendar, PRs
    ("my left knee hurts", "כואבת לי הברך השמאלית", "у меня болит левое колено",
     "prefs__set_preference", lambda i: i["type"] == "injury" and until(14)(i) and "jumping" in i["guidance"].lower()
     and "left knee" in i["description"]),
    ("I want to focus on strength", "אני רוצה להתמקד בכוח", "хочу сосредоточиться на силе",
     "goals__set_goals", lambda i: i["goal_type"] == "category" and max(i["goals"], key=lambda g: g["weight"])["name"]
     == "Strength"),
    ("timer for the plank", "טיימר לפלאנק", "таймер для планки",
     "timers__generate_exercise_timer", lambda i: i == {"exercise_id": "ex_003"}),
    ("timers for the whole workout", "טיימר לאימון", "таймер для тренировки",
     "timers__generate_workout_timers", lambda i: i == {}),
    ("schedule a leg workout tomorrow at 7am", "תקבע לי אימון רגליים מחר ב-7 בבוקר",
     "запланируй тренировку ног на завтра в 7 утра", "calendar__schedule_workout",
     lambda i: i["scheduled_at"] == TOMORROW_7 and
     {primary(e) for e in i["exercises"] if e["type"] == "reps"} <= {"Quadriceps", "Glutes", "Hamstrings"}),
    ("move tomorrow's workout to Friday 6pm", "תזיז את האימון של מחר ליום שישי ב-18:00",
     "перенеси завтрашнюю тренировку на пятницу в 18:00", "calendar__update_scheduled_workout",
     lambda i: i["scheduled_at"] == FRIDAY_18),
    ("cancel tomorrow's workout", "תבטל את האימון של מחר", "отмени завтрашнюю тренировку",
     "calendar__delete_scheduled_workout", lambda i: i["id"].startswith("5a1e0c2b")),
    ("what's on my calendar?", "מה מתוכנן לי?", "что у меня запланировано?", "coach__message_notify_user",
     lambda i: "07:00" in i["text"]),
    ("make me a 4-week plan, 3 days a week", "תוכנית אימונים ל-4 שבועות, 3 פעמים בשבוע",
     "план тренировок на 4 недели, 3 раза в неделю", "calendar__create_workout_plan",
     lambda i: (i["duration_weeks"], i["workouts_per_week"], i["start_date"]) == (4, 3, NOW.date().isoformat())),
    ("what are my PRs?", "מה השיאים האישיים שלי?", "какие у меня рекорды?",
     "stats__get_workout_statistics", lambda i: i["period"] == "all_time"),
    # the rest of the tools
    ("remove the third exercise", "תוריד את התרגיל השלישי", "убери третье упражнение",
     "workout__remove_exercise", lambda i: i == {"exercise_id": "ex_003"}),
    ("make the first exercise 4 sets", "תעשה את התרגיל הראשון 4 סטים", "сделай первое упражнение 4 подхода",
     "workout__adjust_exercise", lambda i: i["exercise_id"] == "ex_001" and i["changes"]["sets"] == 4
     and len(i["changes"]["reps"]) == 4),
    ("done with the first exercise", "סיימתי את התרגיל הראשון", "сделал первое упражнение",
     "logbook__mark_exercise_complete", lambda i: i == {"exercise_id": "ex_001"}),
    ("log the whole workout", "סיימתי את האימון", "закончил тренировку",
     "logbook__log_workout", lambda i: [e["exercise_name"] for e in i["completed_exercises"]]
     == ["Dumbbell Floor Press", "Push-up", "Plank"]),
    ("how is my recovery?", "מה מצב ההתאוששות שלי?", "как моё восстановление?", "coach__message_notify_user",
     lambda i: "41" in i["text"]),
    ("I'm at the gym", "אני בחדר כושר", "я в зале", "location__set_current_location",
     lambda i: i == {"location_name": "Harbor Strength"}),
    ("break down my training by muscle", "פילוח האימונים שלי לפי שריר", "разбивка тренировок по мышцам",
     "stats__get_exercise_breakdown", lambda i: i["by"] == "muscle"),
    ("how is my bench going?", "איך ההתקדמות בלחיצת חזה?", "какой прогресс в жиме лёжа?",
     "stats__get_progress_trends", lambda i: i.get("exercise") == "Bench Press"),
    ("summarize my month", "סכם לי את החודש", "итоги месяца", "stats__generate_stats_summary",
     lambda i: i["period"] == "month"),
    ("my shoulder feels better", "הכתף כבר לא כואבת", "плечо больше не болит",
     "prefs__delete_preference", lambda i: i["id"].startswith("7b0d3f9e")),
    ("I want to run a 5k", 'אני רוצה לרוץ 5 ק"מ', "хочу пробежать 5 км", "goals__create_milestone",
     lambda i: (i["goal_type"], i["target_value"], i["target_unit"]) == ("distance", 5, "km")),
]
ROWS = [(loc, words, tool, check) for *phrases, tool, check in FIRST_MOVES
        for loc, words in zip(("en", "he", "ru"), phrases, strict=True)]


@pytest.mark.parametrize(("locale", "words", "tool", "check"), ROWS, ids=[f"{r[0]}-{r[1][:30]}" for r in ROWS])
def test_first_move_in_three_languages(locale, words, tool, check) -> None:
    use = OfflineChat(locale).say(words)
    assert use["name"] == tool, use
    assert check(use["input"]), use["input"]
    if tool == "coach__message_notify_user":
        assert use["input"]["text"].startswith(LABELS[locale]) and not INTERNAL.search(use["input"]["text"])


@pytest.mark.parametrize("locale", ["en", "he", "ru"])
def test_a_workout_for_a_recovering_muscle_says_why_and_offers_a_light_one(locale) -> None:
    """Chest was trained an hour ago: "quick chest workout" builds a pull session instead, says chest's percent,
    and asks whether a light chest one is wanted; the light answer builds it."""
    chat = OfflineChat(locale, knowledge(recovery_status=[recovery("Chest", 1), recovery("Triceps", 1, 24)]))
    built = chat.say({"en": "give me a quick chest workout", "he": "תן לי אימון חזה מהיר",
                      "ru": "дай быструю тренировку груди"}[locale])
    assert built["name"] == "workout__generate_workout"
    assert {primary(e) for e in built["input"]["exercises"] if e["type"] == "reps"} <= {"Back", "Biceps"}
    told = chat.result({"workoutId": "workout_2", "exercises": []})
    assert told["name"] == "coach__message_notify_user" and told["input"]["attachments"] == ["workout_2"]
    assert "2 %" in told["input"]["text"] or "2%" in told["input"]["text"]
    asked = chat.result("<result>ok</result>")
    assert asked["name"] == "coach__message_ask_user" and len(asked["input"]["options"]) == 2
    assert chat.result("<result>ok</result>")["name"] == "coach__idle"
    light, keep = asked["input"]["options"]
    again = OfflineChat(locale, knowledge(recovery_status=[recovery("Chest", 1)])).say(light)
    assert again["name"] == "workout__generate_workout"
    reps = [e for e in again["input"]["exercises"] if e["type"] == "reps"]
    assert reps and all(primary(e) == "Chest" and e["sets"] == 2 for e in reps)
    kept = OfflineChat(locale).say(keep)
    assert kept["name"] == "coach__message_notify_user" and "?" not in kept["input"]["text"].split("\n", 1)[1]


@pytest.mark.parametrize("locale", ["en", "he", "ru"])
def test_a_swap_with_no_like_for_like_alternative_says_so_and_offers_what_it_can(locale) -> None:
    every_chest = workout(("Dumbbell Floor Press", {"Chest": .7, "Triceps": .3}), ("Push-up", {"Chest": .7, "Triceps": .3}),
                          ("Band Chest Press", {"Chest": .8, "Triceps": .2}), ("Dumbbell Fly", {"Chest": 1.0}))
    words = {"en": "swap the second exercise", "he": "תחליף את התרגיל השני", "ru": "замени второе упражнение"}[locale]
    asked = OfflineChat(locale, knowledge(current_workout=every_chest)).say(words)
    assert asked["name"] == "coach__message_ask_user" and "Push-up" in asked["input"]["text"]
    swap_for, remove, lighter = asked["input"]["options"]
    for answer, tool in ((swap_for, "workout__swap_exercise"), (remove, "workout__remove_exercise"),
                         (lighter, "workout__adjust_exercise")):
        chat = OfflineChat(locale, knowledge(current_workout=every_chest))
        chat.say(words)
        chat.result("<result>ok</result>")  # the question, answered next
        use = chat.say(answer)
        assert use["name"] == tool and use["input"]["exercise_id"] == "ex_002", (answer, use)


def test_scheduling_a_leg_workout_schedules_it_with_its_exercises_and_keeps_todays() -> None:
    """A plan for another day never replaces today's workout (issue 38 item 7): no generate_workout, the schedule
    carries the exercises, and the reply says what it will be."""
    chat = OfflineChat("en")
    scheduled = chat.say("schedule a leg workout tomorrow at 7am")
    assert scheduled["name"] == "calendar__schedule_workout"
    assert scheduled["input"]["scheduled_at"] == TOMORROW_7 and scheduled["input"]["workout_type"] == "Leg workout"
    assert scheduled["input"]["exercises"]
    told = chat.result({"id": "s1", "when": TOMORROW_7})
    assert told["name"] == "coach__message_notify_user" and told["input"]["attachments"] == []
    assert "07:00" in told["input"]["text"] and "87 %" in told["input"]["text"]  # legs at 7am: 42 of 48 hours
    assert "Today's workout stays" in told["input"]["text"]


def test_a_refused_workout_is_built_again_without_what_the_rule_named() -> None:
    chat = OfflineChat("en", knowledge(recovery_status=[]))
    first = chat.say("give me a quick chest workout")
    refused = first["input"]["exercises"][0]["name"]
    again = chat.result({"code": "injury_conflict", "message": f"{refused} breaks 'left shoulder'", "hint": None},
                        error=True)
    assert again["name"] == "workout__generate_workout"
    assert refused not in [e["name"] for e in again["input"]["exercises"]]


def test_a_cancelled_delete_and_a_failed_tool_are_said_in_the_members_words() -> None:
    chat = OfflineChat("ru")
    chat.say("отмени завтрашнюю тренировку")
    kept = chat.result({"code": "rejected_by_user", "message": "x"}, error=True)
    assert kept["name"] == "coach__message_notify_user" and "расписании" in kept["input"]["text"]
    chat = OfflineChat("he")
    chat.say("תוריד את התרגיל השלישי")
    failed = chat.result({"code": "last_exercise", "message": "A workout needs at least one exercise."}, error=True)
    assert "לפחות תרגיל אחד" in failed["input"]["text"] and failed["input"]["text"].startswith(LABELS["he"])


@pytest.mark.parametrize(("locale", "words"), [("en", "what's the weather like?"), ("he", "מה מזג האוויר?"),
                                               ("ru", "какая погода?")])
def test_what_it_cannot_do_gets_what_it_can(locale, words) -> None:
    said = OfflineChat(locale).say(words)
    assert said["name"] == "coach__message_notify_user"
    text = said["input"]["text"]
    assert text.startswith(LABELS[locale]) and text.count("•") >= 6  # the kinds of request it understands


def test_missing_knowledge_is_fetched_first_and_a_workout_needs_one() -> None:
    chat = OfflineChat("he", knowledge(current_workout=None, recovery_status=None))
    fetched = chat.say("תחליף את התרגיל השני")
    assert fetched == {**fetched, "name": "data__fetch_data"} and "current_workout" in fetched["input"]["sources"]
    told = chat.result("<result>ok: current_workout in context</result>", knowledge={"current_workout": None})
    assert told["name"] == "coach__message_notify_user" and "אין לך אימון" in told["input"]["text"]


def test_an_update_that_carries_only_changes_is_applied() -> None:
    """A swap in an earlier turn reaches the offline model as a knowledge_update of changes only."""
    chat = OfflineChat("en")
    chat.say("hi")
    chat.result("<result>ok</result>")
    changed = {**workout(("Dumbbell Row", {"Back": .8, "Biceps": .2}))["exercises"][0], "id": "ex_002", "order": 2}
    chat._add("user_message", {"message": "swap the second exercise", "context": f"<turn_context>\nNow: {NOW.isoformat()}"
                                                                            " (UTC)\n</turn_context>\n"})
    chat._add("knowledge_update", {"source": "current_workout", "changes": {"exercises": {"changed": [changed]}}})
    use = chat.move()
    assert use["name"] == "workout__swap_exercise" and primary(use["input"]["new_exercise"]) == "Back"


class Flagged(BaseModel):
    """A tool input that holds its exclusions under another name: the type says where they go, not the name."""

    rules: Exclusions = Field(default_factory=Exclusions)
    hard: bool = True


FILLED = [
    (SetPreferenceInput, {"exclusions": {"patterns": ["jump", "deep_knee_flexion"], "muscles": ["Calves"]},
                          "hard": True}),
    (Flagged, {"rules": {"patterns": ["jump", "deep_knee_flexion"], "muscles": ["Calves"]}, "hard": True}),
    (DeletePreferenceInput, {}),
    (None, {}),
]


@pytest.mark.parametrize(("model", "expected"), FILLED)
def test_exclusions_fill_the_fields_the_tools_declared_input_has(model, expected) -> None:
    exclusions = {"patterns": ["jump", "deep knee flexion", "no such pattern"], "muscles": ["Calves"],
                  "exercises": []}
    assert exclusions_input(model, exclusions) == expected
    if model is not None and expected:
        model.model_validate(expected | {"type": "injury", "description": "knee", "guidance": "no jumping"})


def test_every_offline_trainer_string_is_in_every_language_with_the_same_placeholders() -> None:
    def leaves(tree: dict, prefix: str = "") -> dict[str, str]:
        out = {}
        for key, value in tree.items():
            out.update(leaves(value, f"{prefix}{key}.") if isinstance(value, dict) else {prefix + key: value})
        return out

    strings = {loc: leaves(catalog(loc)["offline"]["trainer"]) for loc in ("en", "he", "ru")}
    assert strings["en"].keys() == strings["he"].keys() == strings["ru"].keys()
    for key, text in strings["en"].items():
        names = {f[1] for f in string.Formatter().parse(text) if f[1]}
        for loc in ("he", "ru"):
            assert {f[1] for f in string.Formatter().parse(strings[loc][key]) if f[1]} == names, (loc, key)
