"""The offline trainer's reading of a member's words, in English, Hebrew and Russian: which request it is and its
arguments (a muscle group, an exercise's place, a day and time, a period, a body part, a goal).

Regular expressions over the phrasings a member would use; `understand` returns the first matching `Request`.
Pure: no model, database or clock (the member's local "now" comes in).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from offline_model.trainer_names import named_in

_F = re.IGNORECASE


@dataclass(frozen=True)
class Request:
    kind: str
    args: dict[str, Any] = field(default_factory=dict)


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), _F)


# --- small words ---------------------------------------------------------------------------------------------

NUMBERS = {"one": 1, "a": 1, "an": 1, "two": 2, "couple": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "ten": 10, "אחד": 1, "אחת": 1, "שניים": 2, "שתיים": 2, "שני": 2, "שתי": 2,
           "שלושה": 3, "שלוש": 3, "ארבעה": 4, "ארבע": 4, "חמישה": 5, "חמש": 5, "один": 1, "одну": 1, "одна": 1,
           "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "двух": 2, "трех": 3, "трёх": 3,
           "четырех": 4, "четырёх": 4, "пяти": 5}
ORDINALS: tuple[tuple[str, int], ...] = (
    (r"\bfirst\b|\b1st\b|ראשון|перв", 1), (r"\bsecond\b|\b2nd\b|(?<![א-ת])ה?שני(?![א-ת])|втор", 2),
    (r"\bthird\b|\b3rd\b|שלישי|трет", 3), (r"\bfourth\b|\b4th\b|רביעי|четв[её]рт", 4),
    (r"\bfifth\b|\b5th\b|חמישי|пят[ооыа]", 5), (r"\blast\b|אחרון|последн", -1))
TARGETS: tuple[tuple[str, str], ...] = (
    ("full", r"full[- ]body|whole body|כל הגוף|פול באדי|вс[её] тело|фулбоди|всего тела"),
    ("upper", r"upper[- ]body|פלג גוף עליון|верх тела|верхн"),
    ("lower", r"lower[- ]body|פלג גוף תחתון|низ тела|нижн"),
    ("chest", r"\bchest\b|\bpecs?\b|חזה|груд"),
    ("pull", r"\bpull(?:ing)?\b|\bback\b|\brows?\b|משיכ|(?<![א-ת])גב(?![א-ת])|спин|тяг"),
    ("push", r"\bpush(?:ing)?\b|דחיפ|толка"),
    ("legs", r"\blegs?\b|\bsquats?\b|רגל|ног"),
    ("shoulders", r"\bshoulders?\b|כתפ|плеч"),
    ("arms", r"\barms?\b|\bbiceps\b|\btriceps\b|ידיים|(?<![א-ת])יד(?![א-ת])|рук|бицепс|трицепс"),
    ("core", r"\bcore\b|\babs\b|בטן|ליבה|пресс|\bкор\b"),
    ("glutes", r"\bglutes?\b|\bbutt\b|ישבן|ягодиц"),
)
QUICK = _rx(r"\bquick\b|\bshort\b|\bfast\b|\bexpress\b|מהיר|קצר|быстр|коротк")
LIGHT = _rx(r"\blight\b|\beasy\b|\bgentle\b|(?<![א-ת])קל(?:ה)?(?![א-ת])|л[её]гк")
ANYWAY = _rx(r"\banyway\b|\bregardless\b|בכל זאת|вс[её] равно")
PERIODS: tuple[tuple[str, str], ...] = (
    ("all_time", r"all[- ]time|\bever\b|מאז ומעולם|אי פעם|за вс[её] время|когда-либо"),
    ("week", r"\bweek\b|שבוע|недел"), ("quarter", r"\bquarter\b|רבעון|квартал"),
    ("year", r"\byear\b|שנה|\bгод|году"), ("month", r"\bmonth\b|חודש|месяц"))


def target_of(words: str) -> str | None:
    return next((name for name, pattern in TARGETS if re.search(pattern, words, _F)), None)


def position_of(words: str) -> int | None:
    """An exercise's place: an ordinal word, "exercise 2", "#2" or "number 2" (-1: the last)."""
    for pattern, n in ORDINALS:
        if re.search(pattern, words, _F):
            return n
    m = re.search(r"(?:exercise|#|number|no\.?|תרגיל(?: מספר)?|упражнени[ея](?: номер)?|номер)\s*(\d{1,2})\b", words,
                  _F)
    return int(m.group(1)) if m else None


def period_of(words: str, default: str = "month") -> str:
    return next((name for name, pattern in PERIODS if re.search(pattern, words, _F)), default)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else NUMBERS.get(word.lower(), 1)


DURATION_UNIT = r"(days?|weeks?|months?|fortnight|ימים|יום|שבועות|שבוע|חודשים|חודש|дн[еяи]й?|день|недел[юиьея]|месяц[аев]*)"


def duration_days(words: str) -> int | None:
    """"for two weeks", "the next 2 weeks", "לשבועיים", "במשך שבועיים", "две недели", "в течение двух недель",
    "на 10 дней" → days; None when no duration is said."""
    for pattern, days in ((r"שבועיים", 14), (r"יומיים", 2), (r"חודשיים", 60), (r"\bfortnight\b", 14)):
        if re.search(pattern, words, _F):
            return days
    counted = re.search(r"(?<![\w:])(\d+|[a-zа-яё]+)\s+" + DURATION_UNIT, words, _F)
    if counted and (counted.group(1).isdigit() or counted.group(1).lower() in NUMBERS):
        n, unit = _count(counted.group(1)), counted.group(2)
    else:
        m = re.search(r"(?:\bfor\b|\bnext\b|(?<![א-ת])ל-?|(?<![א-ת])במשך|\bна\b|\bв течение\b)\s*(?:the\s+)?(?:a\s+)?"
                      + DURATION_UNIT, words, _F)
        if not m:
            return None
        n, unit = 1, m.group(1)
    unit = unit.lower()
    per = 7 if unit.startswith(("week", "שבוע", "недел")) else 30 if unit.startswith(("month", "חוד", "месяц")) else 1
    return n * per


# --- days and times ------------------------------------------------------------------------------------------

WEEKDAYS: tuple[tuple[str, int], ...] = (
    (r"\bmonday\b|יום שני|понедельник", 0), (r"\btuesday\b|יום שלישי|вторник", 1),
    (r"\bwednesday\b|יום רביעי|сред[уа]", 2), (r"\bthursday\b|יום חמישי|четверг", 3),
    (r"\bfriday\b|יום שישי|пятниц", 4), (r"\bsaturday\b|(?<![א-ת])שבת|суббот", 5),
    (r"\bsunday\b|יום ראשון|воскресень", 6))
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def day_of(words: str, today: date) -> date | None:
    """The day the words name (today, tomorrow, the day after, a weekday: its next one), or None."""
    if re.search(r"day after tomorrow|מחרתיים|послезавтра", words, _F):
        return today + timedelta(days=2)
    if re.search(r"\btomorrow\b|מחר|завтра", words, _F):
        return today + timedelta(days=1)
    if re.search(r"\btoday\b|\btonight\b|היום|הערב|сегодня|вечером", words, _F):
        return today
    for pattern, weekday in WEEKDAYS:
        if re.search(pattern, words, _F):
            return today + timedelta(days=(weekday - today.weekday()) % 7 or 7)
    return None


def time_of(words: str) -> time | None:
    """"at 7am", "7:30", "19:00", "6 pm", "ב-7 בבוקר", "в 6 вечера" → a time of day, or None."""
    m = re.search(r"(?<![\d:])(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|בבוקר|בערב|אחה\"?צ|אחר הצהריים|"
                  r"утра|вечера|дня|ночи)?(?![\d:])", _clock_part(words), _F)
    if not m:
        return None
    hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
    if half.startswith(("p", "בער", "אחה", "אחר", "веч", "дня")) and hour < 12:
        hour += 12
    if half.startswith(("a", "בבו", "утр", "ноч")) and hour == 12:
        hour = 0
    return time(hour, minute) if hour < 24 and minute < 60 else None


def _clock_part(words: str) -> str:
    """The words after "at" / "ב-" / "в" when a time follows them (so "3x8" or "2 weeks" are not a time)."""
    m = re.search(r"(?:\bat\b|\baround\b|(?<![א-ת])ב-?|(?<![а-яё])в|\bto\b|(?<![א-ת])ל-?|\bна\b)\s*(\d{1,2}(?::\d{2})?"
                  r"(?:\s*(?:am|pm|a\.m\.|p\.m\.|בבוקר|בערב|אחה\"?צ|אחר הצהריים|утра|вечера|дня|ночи))?)", words, _F)
    if m:
        return m.group(1)
    m = re.search(r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s*(?:am|pm)\b", words, _F)
    return m.group(0) if m else ""


def when_of(words: str, now: datetime | None, *, default_hour: int = 18) -> tuple[datetime, bool] | None:
    """The moment the words name in the member's zone (their `now`'s), and whether a time was said."""
    if now is None:
        return None
    day, at = day_of(words, now.date()), time_of(words)
    if day is None and at is None:
        return None
    moment = datetime.combine(day or now.date(), at or time(default_hour), tzinfo=now.tzinfo)
    if day is None and moment <= now:
        moment += timedelta(days=1)
    return moment, at is not None


# --- body parts, goals ---------------------------------------------------------------------------------------

BODY_PARTS: tuple[tuple[str, str], ...] = (
    ("lower_back", r"lower back|\blow back\b|גב תחתון|поясниц"), ("knee", r"\bknees?\b|ברך|ברכיים|колен"),
    ("shoulder", r"\bshoulders?\b|כתף|плеч"), ("wrist", r"\bwrists?\b|שורש כף היד|פרק כף היד|запяст"),
    ("ankle", r"\bankles?\b|קרסול|лодыж|голеност"), ("elbow", r"\belbows?\b|מרפק|локот|локт"),
    ("hip", r"\bhips?\b|(?<![א-ת])ירך|бедр|тазобедр"), ("neck", r"\bneck\b|צוואר|\bше[ея]\b|шею"),
    ("back", r"\bback\b|(?<![א-ת])גב(?![א-ת])|спин"))
SIDES = ((r"\bleft\b|שמאל|лев", "left"), (r"\bright\b|ימין|прав", "right"))
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("Strength", r"strength|stronger|\bstrong\b|\bpower|כוח|כח|חוזק|חזק|сил[аеуы]|сильн|силов"),
    ("Hypertrophy", r"hypertrophy|muscle|bigger|\bsize\b|\bmass\b|מסה|היפרטרופיה|שריר|масс|гипертроф|мышц"),
    ("Conditioning", r"conditioning|cardio|endurance|fitter|stamina|\bengine\b|סיבולת|כושר|קרדיו|вынослив|кардио"),
    ("Mobility", r"mobility|flexib|stretch|גמישות|מוביליטי|мобильн|гибк|растяж"))


def body_part_of(words: str) -> tuple[str | None, str | None]:
    part = next((name for name, pattern in BODY_PARTS if re.search(pattern, words, _F)), None)
    side = next((name for pattern, name in SIDES if re.search(pattern, words, _F)), None)
    return part, side


def category_of(words: str) -> str | None:
    return next((name for name, pattern in CATEGORIES if re.search(pattern, words, _F)), None)


# --- logging -------------------------------------------------------------------------------------------------

LOG = re.compile(r"(?P<name>[^\d:,]+?)\s*[,:]?\s*(?P<sets>\d+)\s*[x×х]\s*(?P<reps>\d+)(?:\s*(?:at|@|ב-?|по|с)?\s*"
                 r"(?P<load>\d+(?:[.,]\d+)?)\s*(?P<unit>kg|lbs?|lb|ק\"?ג|קילו|кг|фунт\w*)?)?", _F)
LOG_VERB = re.compile(r"^\s*(?:please\s+)?(?:log(?:\s+it)?|i did|did|record|track|תרשום|רשום|תרשמי|עשיתי|"
                      r"запиши|записать|сделал[аи]?|отметь)\s*[:\-–—]?\s*", _F)


def log_of(words: str) -> dict[str, Any] | None:
    """"log it: bench 3x8 at 40 kg" → {name, sets, reps, load?, unit?}."""
    rest = LOG_VERB.sub("", words, count=1)
    m = LOG.search(rest)
    if not m or not m.group("name").strip(" -–:"):
        return None
    out: dict[str, Any] = {"name": m.group("name").strip(" -–:"), "sets": int(m.group("sets")),
                           "reps": int(m.group("reps"))}
    if m.group("load"):
        out["load"] = float(m.group("load").replace(",", "."))
        unit = (m.group("unit") or "").lower()
        out["unit"] = "lbs" if unit.startswith(("lb", "фунт")) else "kg" if unit else None
    return out


# --- which request -------------------------------------------------------------------------------------------

_WORKOUT = r"workout|session|\btrain|routine|exercises|אימון|תרגילים|тренировк|заняти|упражнения"
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("keep", _rx(r"^\s*(?:keep|that'?s fine|fine|ok(?:ay)?|thanks|thank you|sounds good|great|perfect|no thanks)\b",
                 r"^\s*(?:נשאר|תודה|סבבה|מעולה|אחלה|בסדר)", r"^\s*(?:оставим|оставь|пусть будет|спасибо|хорошо|ок\b|отлично)")),
    ("undo_log", _rx(r"\bundo\b|scratch that|didn'?t do (?:it|that)|delete (?:the )?last log",
                     r"בטל את הרישום|תבטל את הרישום|לא עשיתי", r"отмени (?:последн|запис)|удали (?:последн|запис)")),
    ("timer", _rx(r"\btimers?\b|טיימר|таймер")),
    ("forget", _rx(r"\b(?:forget|drop|remove|delete) (?:the |my )?(?:\w+ )?(?:preference|injury|avoid)",
                   r"(?:feels|is|are) (?:better|fine|healed)|no longer hurts|stopped hurting",
                   r"תשכח את|כבר לא כואב|הרגיש(?:ה)? טוב", r"забудь|больше не болит|прошл[оаи]|уже лучше")),
    ("injury", _rx(r"\bhurts?\b|\bpain\b|\binjur|\bsore\b|\bstrain|\btweak|\bsprain|\bache",
                   r"כואב|כאב|פציעה|נפצעתי|נקע|מתיחה", r"болит|боль|травм|потянул|растяну")),
    ("avoid", _rx(r"\bavoid\b|^\s*no (?:more )?\w|\bnever\b|\bdon'?t (?:give|want|like|load|do)\b|\bhate\b|"
                  r"\bstop giving\b|\bexclude\b",
                  r"תימנע|להימנע|^\s*בלי|לא רוצה|אף פעם|לעולם לא|לעולם אל|אל תיתן|אל תתן|אל תכניס|אל תעמיס|שונא",
                  r"избега|^\s*без\s|никаких|никогда|не хочу|не люблю|ненавиж|не давай|не включай|не нагружай|"
                  r"не грузи|исключи")),
    ("milestone", _rx(r"\bmilestone\b|\brun an? \d+\s*k\b|\bmarathon\b", r"אבן דרך|מרתון|לרוץ \d+",
                      r"\bвеха\b|марафон|пробежать \d+")),
    ("plan", _rx(r"\d+[- ]week plan|plan for \d+ weeks|\b(?:training|workout) plan\b",
                 r"תוכנית(?: אימונים)? ל-?\s*\d+ שבועות|תוכנית אימונים", r"план (?:тренировок )?на \d+ недел|план тренировок")),
    ("move", _rx(r"\b(?:move|reschedule|shift)\b.*(?:" + _WORKOUT + r"|\bit\b)|\bpush (?:it|my|the)\b.*\bto\b",
                 r"(?:תזיז|הזז|להזיז|דחה|תדחה)", r"(?:перенеси|передвинь|сдвинь|перенести)")),
    ("unschedule", _rx(r"\b(?:cancel|delete|remove|drop)\b.*\b(?:scheduled|tomorrow'?s?|today'?s?|monday|tuesday|"
                       r"wednesday|thursday|friday|saturday|sunday)\b", r"\bcancel\b.*(?:workout|session)",
                       r"(?:תבטל|בטל|מחק|תמחק).*(?:אימון|מחר|היום|יום)", r"(?:отмени|удали).*(?:тренировк|завтра|сегодня)")),
    ("schedule", _rx(r"\b(?:schedule|book|plan|put)\b.*(?:" + _WORKOUT + r")",
                     r"(?:תקבע|קבע|תזמן|תזמני|לקבוע|תכניס).*אימון", r"(?:запланируй|поставь|назначь|запиши меня).*тренировк")),
    ("calendar", _rx(r"\b(?:calendar|upcoming|what'?s (?:scheduled|planned|on|next))\b|what do i have",
                     r"(?<![א-ת])לוח(?: ה)?אימונים|מה מתוכנן|מה יש לי", r"расписани|календар|что (?:запланировано|у меня)")),
    ("log_workout", _rx(r"(?:finished|done with|completed|log) (?:the |my )?(?:whole )?(?:workout|session)\b",
                        r"סיימתי את האימון", r"законч\w* тренировку|сделал\w* всю тренировку")),
    ("log", _rx(r"^\s*(?:please\s+)?(?:log|record|track)\b", r"^\s*i did\b.*\d+\s*[x×]\s*\d+",
                r"^\s*(?:תרשום|רשום|תרשמי)", r"^\s*(?:запиши|отметь)")),
    ("mark_done", _rx(r"(?:done with|finished|completed|did)\b.*(?:exercise|first|second|third|fourth|last|#\d)",
                      r"סיימתי את (?:ה)?תרגיל", r"(?:сделал|законч|выполнил)\w*.*упражнени")),
    ("goal", _rx(r"focus on|\bfocus\b|\bgoals?\b|prioriti|\bemphasi[sz]e?\b|i want to (?:get|be|build|improve)|"
                 r"more (?:strength|cardio|muscle|mobility|conditioning)",
                 r"להתמקד|תתמקד|מתמקד|פוקוס|דגש|מיקוד|מטרה|מטרות|אני רוצה להיות|לשפר",
                 r"сосредоточ|сфокусир|фокус|упор на|акцент на|\bцел[ьи]|хочу (?:стать|быть|набрать|улучшить)|"
                 r"приоритет")),
    ("swap", _rx(r"\b(?:swap|replace|change)\b.*(?:exercise|first|second|third|fourth|fifth|last|#\d|\d)|^\s*swap\b",
                 r"תחליף|החלף|להחליף|תחליפי", r"замени|поменяй|заменить")),
    ("remove", _rx(r"\b(?:remove|drop|skip|delete|take out)\b", r"תוריד|הסר|תסיר|דלג|תדלג|תמחק", r"убери|удали|пропусти")),
    ("adjust", _rx(r"\b(?:make|set)\b.*\b(?:sets?|reps?|lighter|heavier|easier|harder)\b|\b(?:lighter|heavier)\b",
                   r"קל יותר|כבד יותר|\d+ סטים|\d+ חזרות", r"легче|тяжелее|\d+ подход|\d+ повтор")),
    ("add", _rx(r"^\s*(?:please\s+)?add\b", r"^\s*(?:תוסיף|הוסף|תוסיפי)", r"^\s*(?:добавь|добавить)")),
    ("prs", _rx(r"\bprs?\b|personal (?:record|best)|\brecords?\b|\bbest lifts?\b", r"שיא", r"рекорд")),
    ("breakdown", _rx(r"\bbreak ?down\b|\bsplit\b|\bby (?:muscle|category|type)\b", r"פילוח|חלוקה",
                      r"разбивк|распределени")),
    ("summary", _rx(r"\bsummar|\boverview\b|\breport\b", r"סיכום|סכם", r"итог|сводк|обзор")),
    ("stats", _rx(r"how many|\bstats?\b|statistic|\bvolume\b|how much did i", r"כמה", r"сколько|статистик")),
    ("recovery", _rx(r"\brecover|\bready to train\b|\brested\b|what can i train|\bsore\b", r"התאוששות|מה אפשר לאמן",
                     r"восстанов|что можно тренировать")),
    ("trend", _rx(r"\bprogress(?:ing)? (?:on|with|in)\b|\btrend\b|how is my \w+", r"התקדמות ב|מגמה",
                  r"прогресс (?:в|по)\b|динамик")),
    ("location", _rx(r"\bi'?m (?:at|home)\b|\bi am (?:at|home)\b|\bswitch (?:location )?to\b|\btraining at\b",
                     r"אני ב(?:בית|חדר כושר|מכון)|עברתי ל|אני מתאמן ב", r"я (?:дома|в зале)|переключи на|тренируюсь (?:в|дома)")),
    ("workout", _rx(_WORKOUT, r"give me|i want (?:a|to train)", r"תן לי|תני לי", r"дай|хочу (?:тренировку|позаниматься)")),
)


CONDITIONS = {
    "injury": lambda text: body_part_of(text)[0] is not None,  # "I'm sore" is about recovery
    "goal": lambda text: category_of(text) is not None or bool(re.search(r"goal|מטרה|цел", text, _F)),
}


def _after(pattern: str, text: str) -> str | None:
    """The first group the pattern captured in the text, trimmed; None when nothing is left."""
    m = re.search(pattern, text, _F)
    found = next((g for g in m.groups() if g), "") if m else ""
    return found.strip(" .!?,:;\"'") or None


def understand(words: str, now: datetime | None = None) -> Request:
    """The member's request: its kind and what the words say of it."""
    text = " ".join(words.split())
    named = named_in(text)
    rest = named.rest if named else text  # "back squats" is an exercise, not the muscle "back"
    kind = next((name for name, pattern in RULES if pattern.search(text) and CONDITIONS.get(name, bool)(rest)),
                "help")
    if kind == "location" and re.search(_WORKOUT, text, _F):
        kind = "workout"
    args: dict[str, Any] = {"exercise": named.name if named else None,
                            "target": target_of(rest), "position": position_of(text), "quick": bool(QUICK.search(text)),
                            "light": bool(LIGHT.search(text)), "anyway": bool(ANYWAY.search(text)),
                            "period": period_of(text), "days": duration_days(text)}
    when = when_of(text, now)
    if when is not None:
        args["when"], args["time_said"] = when
    if kind == "log":
        args["log"] = log_of(text)
    if kind == "injury":
        args["part"], args["side"] = body_part_of(rest)
    if kind in ("goal", "summary", "breakdown"):
        args["category"] = category_of(text)
    if kind == "move" and now is not None:
        head = re.split(r"\bto\b|\bfor\b|(?<![א-ת])ל(?=יום|מחר|שבת|-)|\bна\b", text, maxsplit=1, flags=_F)[0]
        args["from_day"] = day_of(head, now.date())
    if kind == "swap":
        args["replacement"] = _after(r"\b(?:for|with|into)\s+(?:an?\s+|the\s+|some\s+)?(.+)$|(?:ב-|עם\s+)(\S.+)$|"
                                     r"(?<![а-яё])на\s+(\S.+)$", text)
        if args["replacement"] and position_of(args["replacement"]) is not None:
            args["replacement"] = None
    if kind == "add":
        args["what"] = _after(r"^\s*(?:please\s+)?(?:add|תוסיף|הוסף|תוסיפי|добавь|добавить)\s+(?:me\s+)?(?:an?\s+|some\s+|"
                              r"the\s+|לי\s+|мне\s+)?(.+?)(?:\s+(?:to|at|in)\s+the\s+(?:end|start|workout).*)?$", text)
    if kind == "avoid":
        args["thing"] = _after(r"(?:avoid|no more|no|never(?: include| do| give me)?|don'?t (?:give me|want|like|load|do)|"
                               r"hate|stop giving me|exclude|תימנע מ|להימנע מ|בלי|לא רוצה|אף פעם לא|לעולם לא|"
                               r"אל (?:תיתן|תתן|תכניס)(?: לי)?|אל תעמיס על|избегай|без|никаких|никогда(?: не)?"
                               r"(?: давай| делай| включай)?(?: мне)?|не хочу|не люблю|не давай(?: мне)?|не включай|"
                               r"не нагружай|не грузи|исключи)\s+(.+?)"
                               r"(?:\s+(?:for|ל-?|на|במשך|в течение)\s+.*)?$", text)
    if kind == "location":
        args["name"] = _after(r"(?:\bat|\bto|ב|на|в)\s+(?:the\s+)?(.+)$", text)
        args["home"] = bool(re.search(r"\bhome\b|בבית|дома", text, _F))
    if kind == "trend":
        args["exercise"] = _after(r"(?:progress(?:ing)? (?:on|with|in)\s+|how is my\s+|התקדמות ב-?|прогресс (?:в|по)\s+)"
                                  r"(?:the\s+)?(.+?)(?:\s+going)?\s*[?.!]*$", text)
    if kind == "milestone":
        m = re.search(r"(\d+(?:[.,]\d+)?)\s*(k\b|km|ק\"?מ|קילומטר|км|mi\b|miles?)", text, _F)
        args["distance"] = (float(m.group(1).replace(",", ".")), "mi" if m.group(2).lower().startswith("mi") else "km") \
            if m else None
        if re.search(r"marathon|מרתון|марафон", text, _F) and not m:
            args["distance"] = (42.2, "km")
        m = re.search(r"\b(\d{4}-\d{2}-\d{2})\b", text)
        args["date"] = m.group(1) if m else None
    m = re.search(r"(\d+)[- ]?(?:week|שבוע|недел)", text, _F)
    args["weeks"] = int(m.group(1)) if m else None
    m = re.search(r"(\d+|\w+) (?:days|times) (?:a|per) week|(\d+) (?:ימים|פעמים) בשבוע|(\d+) (?:раз|дн\w*) в неделю",
                  text, _F)
    args["per_week"] = next((_count(g) for g in m.groups() if g), None) if m else None
    m = re.search(r"(\d+)\s*(?:sets?|סטים|подход\w*)", text, _F)
    args["sets"] = int(m.group(1)) if m else None
    m = re.search(r"(\d+)\s*(?:reps?|חזרות|повтор\w*)", text, _F)
    args["reps"] = int(m.group(1)) if m else None
    args["heavier"] = bool(re.search(r"heavier|harder|more weight|כבד יותר|קשה יותר|тяжелее|сложнее", text, _F))
    args["lighter"] = bool(re.search(r"lighter|easier|less weight|קל יותר|легче|проще", text, _F))
    return Request(kind, args)
