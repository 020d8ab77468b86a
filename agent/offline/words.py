"""The offline demo model's reading of the person's words: which request it is and its arguments.

Regular expressions over en / he / ru phrasings; `classify` returns the first matching `Intent`. Pure: no
model, database or clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

REVENUE_PERIODS = ("this_week", "last_7_days", "last_30_days", "this_month", "last_month", "this_quarter", "this_year")
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
    ("at_risk", re.compile(r"\bat[-\s]risk\b|\bchurn|בסיכון|в зоне риска|риск", _F)),
    ("revenue", re.compile(r"\brevenue\b|\bincome\b|הכנסות|выручк|доход", _F)),
    ("publish", re.compile(r"\bpublish\b.*\bassignments?\b", _F)),
    ("comments", re.compile(r"\bcomments?\s+(?:in|on|for|from)\s+(?:the\s+)?(?P<program>.+?)"
                            r"(?:\s+program)?\s*$", _F)),
    ("task", re.compile(r"^(?:please\s+)?(?:create|add|make|new|open)\s+(?:a\s+)?(?:new\s+)?task\s*"
                        r"(?:[:\-–—]\s*|to\s+|called\s+)?(?P<title>.+)$", _F)),
    ("workout_delete", re.compile(r"^(?:please\s+)?(?:delete|remove)\s+(?:the\s+)?workout\s+"
                                  r"(?:called\s+|named\s+)?(?P<name>.+)$", _F)),
    ("workout_create", re.compile(r"^(?:please\s+)?(?:build|create|make|write)\s+(?:me\s+)?(?:a\s+)?(?:new\s+)?"
                                  r"workout(?:\s+(?:called|named)\s+(?P<title>[^:\n]+?))?\s*[:\-–—]?\s+"
                                  r"(?P<text>\S.*)$", _F)),
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


def _period(words: str, default: str, allowed: tuple[str, ...]) -> str:
    """The named period the words mention (among `allowed`), else `default`."""
    lowered = words.lower()
    for period in allowed:
        if period.replace("_", " ") in lowered:
            return period
    return default


def _named(kind: str, key: str = "name") -> Callable[[re.Match[str]], Intent | None]:
    def build(m: re.Match[str]) -> Intent | None:
        value = _clean(m.group(1))
        return Intent(kind, {key: value[:300]}) if value else None
    return build


def _workout_text(m: re.Match[str]) -> Intent:
    body = m["text"].strip()
    title = _clean(m["title"] or "") or _clean(body.splitlines()[0])
    return Intent("workout_create", {"text": body[:10000], "title": title[:60] or "Workout"})


_BUILDERS: dict[str, Callable[[re.Match[str]], Intent | None]] = {
    "whoami": lambda m: Intent("whoami"), "at_risk": lambda m: Intent("at_risk"),
    "programs": lambda m: Intent("programs"),
    "revenue": lambda m: Intent("revenue", {"period": _period(m.string, "this_month", REVENUE_PERIODS)}),
    "publish": lambda m: Intent("publish", {"period": _period(m.string, "next_week", PUBLISH_PERIODS)}),
    "comments": _named("comments"), "task": _named("task", "title"), "workout_delete": _named("workout_delete"),
    "workout_create": _workout_text, "plan": _named("plan"), "find": _named("find"),
}


def classify(words: str) -> Intent:
    """The first rule that matches, in order; a schedule request is tried before the name lookups."""
    text = _clean(words)
    for kind, pattern in _RULES:
        if kind == "plan" and (schedule := parse_schedule(text)):
            return Intent("schedule", schedule)
        m = pattern.search(words.strip() if kind == "workout_create" else text)
        if m is not None and (intent := _BUILDERS[kind](m)) is not None:
            return intent
    return Intent("help")


