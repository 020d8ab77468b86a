"""The offline demo model's reading of the person's words: which request it is and its arguments.

Regular expressions over en / he / ru phrasings; `classify` returns the first matching `Intent`. Pure: no
model, database or clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from offline_model.desk_words import classify_desk

REVENUE_PERIODS = ("this_week", "last_7_days", "last_30_days", "this_month", "last_month", "this_quarter", "this_year")
ANALYTICS_PERIODS = REVENUE_PERIODS
PUBLISH_PERIODS = ("today", "tomorrow", "this_week", "next_week", "this_month", "next_month")


@dataclass(frozen=True)
class Intent:
    kind: str
    args: dict[str, Any] = field(default_factory=dict)


# --- reading the words ------------------------------------------------------------------------------------

_F = re.IGNORECASE | re.DOTALL
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_WORDS = {"today": "today", "tonight": "today", "tomorrow": "tomorrow", "היום": "today", "הערב": "today",
              "מחר": "tomorrow", "сегодня": "today", "завтра": "tomorrow"}
_FOREIGN_WEEKDAYS = {"ראשון": "sunday", "שני": "monday", "שלישי": "tuesday", "רביעי": "wednesday",
                     "חמישי": "thursday", "שישי": "friday", "שבת": "saturday",
                     "понедельник": "monday", "вторник": "tuesday", "сред": "wednesday", "четверг": "thursday",
                     "пятниц": "friday", "суббот": "saturday", "воскресень": "sunday"}
# Class type names as people write them in Hebrew or Russian → the name the gym uses.
_TYPE_NAMES = {"אופן ג'ים": "open gym", "אופן גים": "open gym", "אופן-ג'ים": "open gym", "קרוספיט": "crossfit",
               "יוגה": "yoga", "опен джим": "open gym", "открытый зал": "open gym", "кроссфит": "crossfit",
               "йога": "yoga"}
_SCHEDULE_VERB = re.compile(r"^(?:please\s+)?(?:schedule|add|create|book|set up|put|plan|"
                            r"תקבע|קבע|קבעי|לקבוע|תזמן|תזמני|הוסף|תוסיף|הוסיפי|"
                            r"запланируй|запланировать|добавь|создай|поставь|назначь)\s+", _F)
_TIME_RANGE = re.compile(r"(?:from\s+|с\s+|מ-?\s*)?(?<![\d:])(?<!\d-)(?P<start>\d{1,2}(?::\d{2})?)\s*"
                         r"(?:-|–|—|to|until|עד|до)\s*(?P<end>\d{1,2}(?::\d{2})?)(?![\d:])", _F)
_DAY = re.compile(r"(?<!\w)(?P<day>\d{4}-\d{2}-\d{2}|today|tonight|tomorrow|(?:next\s+|this\s+)?(?:"
                  + "|".join(_WEEKDAYS) + r")|היום|הערב|מחר|сегодня|завтра|"
                  r"(?:ב?יום\s+)?(?:ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת)|(?:в\s+|во\s+)?(?:понедельник|вторник|"
                  r"сред[ау]|четверг|пятниц[ау]|суббот[ау]|воскресенье))(?!\w)", _F)
_UNPUBLISHED = re.compile(r"\bunpublished\b|\bnot published\b|\bdraft\b|\bhidden\b|לא מפורסם|טיוטה|"
                          r"не опубликован\w*|черновик", _F)
_PUBLISHED = re.compile(r"\bpublish(?:ed)?\b|\bvisible\b|\blive\b|מפורסם|פורסם|לפרסם|опубликован\w*|"
                        r"опубликуй\w*|опубликовать", _F)
_FILLER = re.compile(r"^(?:a|an|the|new|class|session|שיעור|אימון|занятие|класс|тренировку|урок)\s+", _F)
_TRAILING = re.compile(r"\s+(?:on|at|for|from|ב|в|на)$", _F)

_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("whoami", re.compile(r"\bwho\s*am\s*i\b|^מי אני|^кто я\b", _F)),
    ("anyway", re.compile(r"\banyway\b|\beven though\b|בכל זאת|למרות|вс[её] равно|несмотря", _F)),
    # Requests no tool can serve: said plainly, never answered with something else.
    ("task_done", re.compile(r"^(?:please\s+)?(?:mark|complete|finish|close|tick off)\s+(?:the\s+)?task\s+"
                             r"(?:called\s+)?(?P<title>.+?)(?:\s+(?:as\s+)?(?:done|complete|completed|finished))?$|"
                             r"^(?:סמן|סגור|תסגור)\s+(?:את\s+)?(?:ה)?משימה\s+(?P<he>.+?)(?:\s+כבוצעה)?$|"
                             r"^(?:закрой|выполни|отметь выполненной)\s+задачу\s+(?P<ru>.+)$", _F)),
    ("task", re.compile(r"^(?:please\s+)?(?:create|add|make|new|open)\s+(?:a\s+)?(?:new\s+)?task\b\s*"
                        r"(?:[:\-–—]\s*|to\s+|called\s+)?(?P<title>.+)$|"
                        r"^(?:צור|תיצור|הוסף|תוסיף)\s+משימה\s*[:\-–—]?\s*(?P<he>.+)$|"
                        r"^(?:создай|добавь)\s+задачу\s*[:\-–—]?\s*(?P<ru>.+)$", _F)),
    ("workout_delete", re.compile(r"^(?:please\s+)?(?:delete|remove)\s+(?:the\s+)?workout\s+"
                                  r"(?:called\s+|named\s+)?(?P<name>.+)$|^(?:מחק|תמחק)\s+(?:את\s+)?(?:ה)?אימון\s+"
                                  r"(?P<he>.+)$|^(?:удали)\s+тренировку\s+(?P<ru>.+)$", _F)),
    ("workout_create", re.compile(r"^(?:please\s+)?(?:build|create|make|write)\s+(?:me\s+)?(?:a\s+)?(?:new\s+)?"
                                  r"workout(?:\s+(?:called|named)\s+(?P<title>[^:\n]+?))?\s*[:\-–—]?\s+"
                                  r"(?P<text>\S.*)$", _F)),
    ("cant_message", re.compile(r"^(?:please\s+)?(?:send|text|email|e-mail|sms|message|remind|notify|whatsapp)\b|"
                                r"\b(?:send|write)\b.{0,40}\b(?:message|email|sms|reminder)s?\b|"
                                r"שלח|תשלח|שלחי|הודעה ל|תזכורת|"
                                r"^(?:напиши|отправь|разошли|напомни|сообщи)\b", _F)),
    ("churn_compare", re.compile(r"(?:churn|cancell?ations?|отток|נטישה|ביטולים).{0,40}"
                                 r"(?:\bvs\.?\b|versus|compared|than|last quarter|previous|прошл|קודם|שעבר)", _F)),
    ("churn", re.compile(r"\bchurn|отток|נטישה|\bcancell?ations?\b", _F)),
    ("at_risk", re.compile(r"\bat[-\s]risk\b|risk of leaving|might leave|likely to leave|בסיכון|в зоне риска|"
                           r"\bриск", _F)),
    ("unpaid", re.compile(r"not paid|n'?t paid|unpaid|failed payments?|overdue|\bowe\b|debts?\b|לא שיל|חוב|"
                          r"תשלומים שנכשלו|не оплатил|не заплатил|неоплач|просроч|долг", _F)),
    ("cant_refund", re.compile(r"^(?:please\s+)?(?:refund\b|give\b.{0,20}\bmoney back)|^(?:תחזיר|החזר|זכה)\b|"
                               r"^(?:верни|сделай возврат|возврат)\b", _F)),
    ("revenue_trend", re.compile(r"(?:revenue|income|הכנסות|выручк\w*|доход\w*).{0,20}(?:by|per|each|trend|לפי|по)\s*"
                                 r"(?:month|week|day|חודש|שבוע|месяц|недел|дням|trend)?|"
                                 r"(?:trend|динамик\w*|מגמ\w*).{0,20}(?:revenue|הכנסות|выручк)", _F)),
    ("revenue", re.compile(r"\brevenue\b|\bincome\b|\brefund(?:s|ed)\b|הכנסות|החזרים|выручк|доход|возврат\w*\s+за", _F)),
    ("publish", re.compile(r"\bpublish\b.*\bassignments?\b|פרסם.*שיוכ|опубликуй.*назначени", _F)),
    ("comments", re.compile(r"\bcomments?\s+(?:in|on|for|from)\s+(?:the\s+)?(?P<program>.+?)"
                            r"(?:\s+program)?\s*$", _F)),
    ("tasks", re.compile(r"\b(?:open |my |our )?tasks\b|\bto-?dos?\b|משימות|задач[иа]?\b", _F)),
    ("cancel_class", re.compile(r"^(?:please\s+)?cancel\s+(?:the\s+)?(?P<rest>.+)$|^(?:בטל|תבטל|בטלי)\s+(?:את\s+)?"
                                r"(?P<he>.+)$|^(?:отмени|отменить)\s+(?P<ru>.+)$", _F)),
    ("popular", re.compile(r"popular|busiest|most booked|פופולרי|מבוקש|популярн", _F)),
    ("utilization", re.compile(r"utili[sz]ation|how full|fill rate|occupancy|תפוס|заполняем|загрузк", _F)),
    ("day", re.compile(r"\b(?:classes|sessions|schedule|timetable)\b|what'?s on\b|what is on\b|שיעורים|מה יש (?:היום|מחר)|"
                       r"מערכת(?: ה)?שעות|לו\"?ז|занятия|расписание|какие тренировки", _F)),
    ("attendance", re.compile(r"attendance|\bvisits\b|how many came|no[- ]shows?|נוכחות|ביקורים|посещаем|визит", _F)),
    ("members_growth", re.compile(r"new members|who joined|\bjoined\b|signups?|growth|מתאמנים חדשים|הצטרפו|"
                                  r"новые (?:участники|клиенты)|новых (?:участников|клиентов)|прирост|рост", _F)),
    ("members_summary", re.compile(r"how many (?:active )?members|member count|members? summary|"
                                   r"כמה (?:מתאמנים|מנויים|חברים)|сколько (?:у нас )?(?:участников|клиентов)", _F)),
    ("forms", re.compile(r"forms?\b|waivers?|par-?q|טפס|טפסים|ויתור|הצהרת בריאות|анкет|форм[ыа]|неподписан", _F)),
    ("plans", re.compile(r"plan (?:breakdown|distribution|mix)|which plans|by plan|subscriptions? by|מסלולים|"
                         r"התפלגות|по тарифам|тариф", _F)),
    ("coaches", re.compile(r"\bcoach(?:es)?\b.{0,20}(?:overview|doing|load|performance|stats)|how are (?:the |our )?"
                           r"coaches|מאמנים|тренер(?:ы|ов|ам)\b", _F)),
    ("workouts_summary", re.compile(r"workouts? (?:summary|stats)|how many workouts|top exercises|סיכום אימונים|"
                                    r"сколько тренировок|сводка тренировок", _F)),
    ("templates", re.compile(r"\btemplates?\b|תבניות|шаблон", _F)),
    ("insights", re.compile(r"overview|how (?:is|are) (?:the gym|we|things) doing|dashboard|\bkpis?\b|at a glance|"
                            r"מה המצב|סיכום|תמונת מצב|как (?:дела|идут дела)|обзор|сводка", _F)),
    ("plan", re.compile(r"^(?:please\s+)?(?:show|check|what(?:'s| is)|get)\s+(?:me\s+)?(?P<name>.+?)['’]s?\s+"
                        r"(?:plan|payment|membership|subscription)", _F)),
    ("plan", re.compile(r"\b(?:plan|payment status|payments)\s+(?:and\s+payment(?:\s+status)?\s+)?(?:for|of)\s+"
                        r"(?P<name>.+)$", _F)),
    ("programs", re.compile(r"\b(?:what|which|list|show)\b.*\bprograms\b|^programs$|(?:אילו|איזה|רשימת)\s+"
                            r"תוכניות|какие\s+(?:у нас\s+)?программы|список программ", _F)),
    ("find", re.compile(r"^(?:please\s+)?(?:find|look\s*up|search(?:\s+for)?|who\s+is|show\s+me)\s+"
                        r"(?:the\s+)?(?:member\s+)?(?P<name>.+)$", _F)),
    ("find", re.compile(r"^(?:תמצא|מצא|מצאי|חפש|תחפש|חפשי)\s+(?:לי\s+)?(?:את\s+)?(?:ה?מתאמן\s+|ה?מנוי\s+)?"
                        r"(?P<name>.+)$", _F)),
    ("find", re.compile(r"^(?:найди|найти|поищи|ищи|покажи)\s+(?:мне\s+)?(?:участника\s+|клиента\s+)?"
                        r"(?P<name>.+)$", _F)),
]


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(" \t\n.!?؟,;:\"'“”«»")


def _clock(value: str) -> str:
    hour, _, minute = value.partition(":")
    return f"{int(hour):02d}:{minute or '00'}"


def _day(word: str) -> str:
    """A day word in any supported language → the form class_sessions accepts (today/tomorrow/weekday/ISO)."""
    text = " ".join(word.lower().split())
    if text in _DAY_WORDS:
        return _DAY_WORDS[text]
    for stem, english in _FOREIGN_WEEKDAYS.items():
        if stem in text:
            return english
    return text


def parse_schedule(words: str) -> dict[str, Any] | None:
    """'schedule open gym tomorrow 13:00–14:00 published' → class_sessions__create input, or None."""
    verb = _SCHEDULE_VERB.match(words)
    times = _TIME_RANGE.search(words)
    if verb is None or times is None:
        return None
    day = _DAY.search(words)
    cut = min(times.start(), day.start() if day else len(words))
    name = words[verb.end():cut].strip()
    while _FILLER.match(name):
        name = _FILLER.sub("", name, count=1)
    name = _TRAILING.sub("", name).strip(" ,-–")
    if not name:
        return None
    lowered = name.lower()
    name = _TYPE_NAMES.get(lowered, _TYPE_NAMES.get(lowered.replace("’", "'"), name))
    start, end = _clock(times["start"]), _clock(times["end"])
    if not (start < "24" and end < "24"):
        return None
    published = bool(_PUBLISHED.search(words)) and not _UNPUBLISHED.search(words)
    return {"classType": name, "date": _day(day["day"]) if day else "today", "start": start, "end": end,
            "published": published}


_PERIOD_WORDS = {
    "last_7_days": ("last 7 days", "past week", "7 הימים", "последние 7 дней", "за неделю"),
    "last_30_days": ("last 30 days", "past month", "30 הימים", "последние 30 дней"),
    "this_week": ("this week", "השבוע", "на этой неделе", "эта неделя", "эту неделю", "этой недели"),
    "next_week": ("next week", "שבוע הבא", "следующей неделе", "следующую неделю", "следующей недели"),
    "last_month": ("last month", "previous month", "חודש שעבר", "בחודש הקודם", "прошлом месяце", "прошлый месяц",
                   "прошлого месяца"),
    "next_month": ("next month", "חודש הבא", "следующем месяце"),
    "this_month": ("this month", "החודש", "этом месяце", "этот месяц", "этого месяца", "за месяц"),
    "this_quarter": ("this quarter", "quarter", "רבעון", "квартал"),
    "this_year": ("this year", "השנה", "этом году", "этот год", "за год"),
    "today": ("today", "היום", "сегодня"),
    "tomorrow": ("tomorrow", "מחר", "завтра"),
}


def _period(words: str, default: str, allowed: tuple[str, ...]) -> str:
    """The named period the words mention in en, he or ru (among `allowed`), else `default`."""
    lowered = words.lower()
    for period, phrases in _PERIOD_WORDS.items():
        if period in allowed and any(phrase in lowered for phrase in phrases):
            return period
    for period in allowed:
        if period.replace("_", " ") in lowered:
            return period
    return default


def _named(kind: str, key: str = "name") -> Callable[[re.Match[str]], Intent | None]:
    def build(m: re.Match[str]) -> Intent | None:
        value = _clean(next((g for g in m.groups() if g), ""))
        return Intent(kind, {key: value[:300]}) if value else None
    return build


def _report(kind: str, default: str = "this_month") -> Callable[[re.Match[str]], Intent]:
    return lambda m: Intent("report", {"name": kind, "period": _period(m.string, default, ANALYTICS_PERIODS)})


def _day_of(words: str) -> str:
    found = _DAY.search(words)
    return _day(found["day"]) if found else "today"


_CLASS_FILLER = frozenset({"at", "on", "the", "class", "session", "today's", "tomorrow's", "'s", "’s", "ב", "ב-", "את",
                           "שיעור", "השיעור", "в", "во", "на", "занятие", "тренировку"})


def class_words(rest: str) -> dict[str, Any] | None:
    """'the 18:30 crossfit tomorrow' → the class's type words, day and time (None: names no day or time)."""
    clock = re.search(r"(?<![\d:])(\d{1,2})(?::(\d{2}))?(?![\d:])", rest)
    day = _DAY.search(rest)
    if clock is None and day is None:
        return None
    name = rest
    for found in (clock, day):
        if found is not None:
            name = name.replace(found.group(0), " ")
    words = [w.strip("-–,") for w in name.lower().split()]
    words = [w[1:] if w.startswith("ה") and w[1:] in _TYPE_NAMES else w for w in words]
    name = " ".join(w for w in words if w and w not in _CLASS_FILLER)
    name = _TYPE_NAMES.get(name, name)
    time = f"{int(clock.group(1)):02d}:{clock.group(2) or '00'}" if clock else None
    return {"name": name[:100], "date": _day(day["day"]) if day else "today", "time": time}


def _cancel_class(m: re.Match[str]) -> Intent | None:
    """'cancel the 18:30 crossfit tomorrow' → the class to cancel (None: not a class)."""
    found = class_words(_clean(next((g for g in m.groups() if g), "")))
    return Intent("cancel_class", found) if found else None


def _workout_text(m: re.Match[str]) -> Intent:
    body = m["text"].strip()
    title = _clean(m["title"] or "") or _clean(body.splitlines()[0])
    return Intent("workout_create", {"text": body[:10000], "title": title[:60] or "Workout"})


_BUILDERS: dict[str, Callable[[re.Match[str]], Intent | None]] = {
    "whoami": lambda m: Intent("whoami"), "at_risk": lambda m: Intent("at_risk"),
    "programs": lambda m: Intent("programs"), "anyway": lambda m: Intent("anyway"),
    "revenue": lambda m: Intent("revenue", {"period": _period(m.string, "this_month", REVENUE_PERIODS)}),
    "publish": lambda m: Intent("publish", {"period": _period(m.string, "next_week", PUBLISH_PERIODS)}),
    "comments": _named("comments"), "task": _named("task", "title"), "workout_delete": _named("workout_delete"),
    "task_done": _named("task_done", "title"),
    "workout_create": _workout_text, "plan": _named("plan"), "find": _named("find"),
    "cancel_class": _cancel_class,
    "churn_compare": lambda m: Intent("churn_compare"),
    "churn": _report("churn"),
    "day": lambda m: Intent("report", {"name": "day", "date": _day_of(m.string)}),
    **{kind: _report(kind) for kind in ("attendance", "members_summary", "members_growth", "popular", "utilization",
                                        "plans", "coaches", "workouts_summary", "insights", "unpaid",
                                        "revenue_trend")},
    "forms": lambda m: Intent("report", {"name": "forms"}),
    "tasks": lambda m: Intent("report", {"name": "tasks"}),
    "templates": lambda m: Intent("report", {"name": "templates"}),
    **{kind: (lambda k: lambda m: Intent("cant", {"what": k}))(kind)
       for kind in ("cant_message", "cant_refund")},
}


def classify(words: str) -> Intent:
    """The first rule that matches, in order; a schedule request (a verb and a time range) is tried first."""
    text = _clean(words)
    if schedule := parse_schedule(text):
        return Intent("schedule", schedule)
    if desk := classify_desk(text):  # the front desk's work (offline_model/desk_words.py)
        return Intent(*desk)
    for kind, pattern in _RULES:
        m = pattern.search(words.strip() if kind == "workout_create" else text)
        if m is not None and (intent := _BUILDERS[kind](m)) is not None:
            return intent
    return Intent("help")


