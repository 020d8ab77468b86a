"""Query terms for ambient search: tokens minus stopwords in English, Hebrew and Russian.

Stopwords here are the words of a staff request that name no entity: articles and pronouns, request
verbs ("find", "תראה", "покажи"), calendar words ("tomorrow", "היום", "завтра") and the entity nouns
themselves ("member", "אימון", "тренировка"), which would otherwise match every document of a scope.
Exercise words that look like verbs ("press", "row", "clean", "pull", "push", "run") are kept.

Hebrew glues one- or two-letter prefixes to words (ו "and", ה "the", ב "in", ל "to", מ "from",
ש "that", כ "as"): a token is a stopword when it is one after removing such a prefix ("והיום",
"לאימון"), and a content word also yields its unprefixed variant ("בדדליפט" → "דדליפט") for matching.
Russian inflects: a content word yields a crude stem (common endings removed) for prefix matching.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

ENGLISH = frozenset("""
a an the this that these those some any all every each other another such same s t d m x ll re ve
i me my mine we us our ours you your yours he him his she her hers it its they them their theirs
who whom whose what which when where why how whats whos
is are was were be been being am do does did done doing have has had having
can could would should will shall may might must cant dont doesnt didnt wont isnt arent
to for of in on at by with from about into onto over under than as out off via per up down
and or but if so then also too not no yes just only very really please thanks thank hi hey hello ok okay
there here again still already any anything something someone anyone everyone
find show search look get give list tell open see check display bring fetch need needs want wants like
help add create make schedule update change set sets put send remove delete cancel assign enroll sign let
know move moved book booked edit rename reschedule mark note ask asked asking going go doing
more most less many much lot lots few latest recent recently new old current last next first
today tonight tomorrow yesterday now soon later week weeks weekend month months year years morning evening
afternoon night noon day days weekly monthly yearly
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
january february march april june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
member members client clients customer customers athlete athletes person people trainee trainees
workout workouts wod wods training trainings program programs programme programmes exercise exercises
movement movements session sessions class classes plan plans record records profile details info
replace replaced swap substitute substitutes alternative alternatives instead because explain difference
between use used using good better best log teach sure knows times time come came follow while maybe
variation variations option options part end style piece result results together thing things way kind
type able anything everything someone something around done doing hardest easiest easy hard long short
membership memberships subscription renew renewed renewal visit visits visited booking bookings reminder
payment payments pay paid owe owes invoice attendance attended score scores pr prs progress progression
still yet ever never always usually often enough same
scale scaled scaling block blocks cycle phase finisher warmup warm-up cooldown cool-down
""".split())

HEBREW = frozenset("""
את של על עם אל מה מי איך למה מדוע מתי איפה היכן כמה זה זאת זו אלה אלו הוא היא הם הן אני אנחנו אתה את אתם אתן
יש אין לי לו לה לנו להם להן לך שלי שלו שלה שלנו שלהם שלך כל גם רק עוד כבר אבל או אם כי אז פה כאן שם
בבקשה תודה היי שלום אפשר צריך צריכה רוצה רוצים יכול יכולה תן תני תנו בשביל עבור לגבי אצל בין לפני אחרי
מצא מצאי תמצא תמצאי חפש חפשי תחפש תחפשי הראה הראי תראה תראי הצג הציגי תציג תציגי פתח תפתח תפתחי בדוק
תבדוק תבדקי הוסף תוסיף תוסיפי תזמן תזמני רשום תרשום תרשמי שלח תשלח תשלחי מחק תמחק תמחקי עדכן תעדכן תעדכני
שנה תשנה תשני קבע תקבע תקבעי בטל תבטל תבטלי הזז תזיז תזיזי רשמי ספר תספר תספרי תגיד תגידי
היום מחר אתמול מחרתיים עכשיו שבוע שבועות חודש חודשים שנה שנים בוקר ערב צהריים לילה הבא הבאה הבאים
שעבר שעברה האחרון האחרונה אחרון אחרונה ראשון שני שלישי רביעי חמישי שישי שבת יום ימים חדש חדשה
חבר חברה חברים חברות מתאמן מתאמנת מתאמנים מתאמנות לקוח לקוחה לקוחות מנוי מנויה מנויים אימון אימונים
תוכנית תכנית תוכניות תכניות תרגיל תרגילים שיעור שיעורים מאמן מאמנת פרטים
חלופי חלופה חלופות במקום להחליף החלף תחליף תחליפי אפשר תכין תכיני להוסיף להכין לעשות עושה עושים עשינו עשה
היה היתה היו השתתף השתתפו שילם שילמה שילמו תשלום פעמים פעם הזה הזאת הזו קצר קצרה ארוך טוב טובה אחד אחת
""".split())

RUSSIAN = frozenset("""
и в во не что он на я с со как а то все всё она так его но да ты к у же вы за бы по только ее её мне было
вот от меня еще ещё нет о об из ему когда даже ну ли если уже или ни быть был него до вас нибудь уж вам
там потом себя ей может они тут где есть надо ней для мы тебя их чем была сам без чего раз тоже себе под
будет ж тогда кто этот того потому этого какой какая какие ним здесь этом мой моя мои тем чтобы нее были
куда зачем всех можно при над после через эти нас про всего них эту свою этой перед том им между
пожалуйста спасибо привет мне нам нужно нужна нужен нужны хочу хотим можешь можете сколько
найди найдите найти покажи покажите показать поищи ищи искать открой открыть проверь проверьте добавь
добавьте запиши запишите перенеси отмени удали удалите измени создай создайте отправь напомни скажи дай
дайте посмотри посмотреть
сегодня завтра вчера послезавтра сейчас неделя неделе недели неделю месяц месяце месяца год году года
утро утром вечер вечером днём днем ночью понедельник вторник среда среду четверг пятница пятницу суббота
субботу воскресенье следующий следующей следующую следующая прошлый прошлой прошлую прошлая новый новая
клиент клиента клиенту клиентом клиенты клиентов клиентка клиентки член участник спортсмен атлет
тренировка тренировки тренировку тренировкой тренировок тренировке программа программы программу
программе программой упражнение упражнения упражнений упражнением занятие занятия занятий класс тренер
замени заменить поставь поставить правильно делать сделать какое какие каком были был было нужен нужна
нужно есть обычные обычный конце начале комплекс там оплатил оплатила оплата абонемент посещение
короткие короткий хороший хорошее лучше вместо
""".split())

STOPWORDS = ENGLISH | HEBREW | RUSSIAN
HEBREW_PREFIXES = ("וכש", "וה", "וב", "ול", "ומ", "וש", "שה", "מה", "לה", "בה", "כש", "כה",
                   "ו", "ה", "ב", "ל", "מ", "ש", "כ")
RUSSIAN_ENDINGS = ("ями", "ами", "ого", "его", "ому", "ему", "ыми", "ими", "ая", "яя", "ое", "ее", "ые", "ие",
                   "ой", "ей", "ий", "ый", "ую", "юю", "ых", "их", "ом", "ем", "ам", "ям", "ах", "ях", "ов",
                   "ев", "а", "я", "ы", "и", "у", "ю", "е", "о")
_TOKEN = re.compile(r"\w+(?:['’\-]\w+)*")
_NIQQUD = re.compile(r"[\u0591-\u05C7]")
_HEBREW_LETTER = re.compile(r"[\u05D0-\u05EA]")
_CYRILLIC_LETTER = re.compile(r"[\u0400-\u04FF]")


@dataclass(frozen=True)
class Term:
    """One content word of a query and the spellings it may match as (first = as typed, normalized)."""

    text: str
    variants: tuple[str, ...]
    prefixes: tuple[str, ...]  # full-text prefixes (Russian stems, unprefixed Hebrew)
    position: int = 0  # index of the token in the message: adjacent content words form a phrase


def normalize(text: str) -> str:
    """NFKC, case-folded, Hebrew points removed, Hebrew maqaf and gershayim made plain."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _NIQQUD.sub("", text).replace("\u05be", "-").replace("\u05f3", "'").replace("\u05f4", '"')
    return text.replace("ё", "е")


def is_hebrew(token: str) -> bool:
    return bool(_HEBREW_LETTER.search(token))


def _hebrew_cores(token: str) -> list[str]:
    """The token without each prefix that leaves at least three letters."""
    return [token[len(p):] for p in HEBREW_PREFIXES if token.startswith(p) and len(token) - len(p) >= 3]


def _is_stopword(token: str) -> bool:
    if token in STOPWORDS or token.replace("'", "").replace("’", "") in STOPWORDS:  # "can't", "what's"
        return True
    if is_hebrew(token):
        return any(core in HEBREW for core in _hebrew_cores(token))
    if token.endswith(("'s", "’s")):
        return token[:-2] in STOPWORDS
    return False


def _english_singulars(token: str) -> list[str]:
    """"rdls" → "rdl", "lunges" → "lunge", "crunches" → "crunch": plural forms typed against singular names."""
    if not token.isascii() or not token.endswith("s") or token.endswith("ss") or len(token) < 4:
        return []
    out = [token[:-1]]
    if token.endswith("es") and len(token) >= 5:
        out.append(token[:-2])
    return out


def _russian_stem(token: str) -> str | None:
    if len(token) < 5 or not _CYRILLIC_LETTER.search(token):
        return None
    for ending in RUSSIAN_ENDINGS:
        if token.endswith(ending) and len(token) - len(ending) >= 3:
            return token[: -len(ending)]
    return None


def _split_hebrew_hyphen(token: str) -> str:
    """"ה-wod" / "ל-crossfit": a Hebrew prefix joined by a hyphen to a (usually Latin) word."""
    head, sep, rest = token.partition("-")
    if sep and rest and is_hebrew(head) and head in {p for p in HEBREW_PREFIXES if len(p) <= 2}:
        return rest
    return token


def terms(text: str) -> list[Term]:
    """The content words of `text`, in order, without duplicates; each with its matching variants."""
    out: list[Term] = []
    seen: set[str] = set()
    for position, raw in enumerate(_TOKEN.findall(normalize(text))):
        token = _split_hebrew_hyphen(raw.strip("'’-"))
        if token.endswith(("'s", "’s")) and not _is_stopword(token):
            token = token[:-2]
        if not token or token in seen or _is_stopword(token):
            continue
        if token.isdigit() and len(token) < 3:
            continue  # "5 rounds", "12 members": numbers this short match everything
        if len(token) < 2 and not token.isalpha():
            continue  # single letters stay: "Strength B", "Z Press"
        seen.add(token)
        variants, prefixes = [token], [token]
        variants += _english_singulars(token)
        if is_hebrew(token):
            cores = _hebrew_cores(token)
            variants += cores
            prefixes += cores
        stem = _russian_stem(token)
        if stem:
            prefixes.append(stem)
        out.append(Term(token, tuple(dict.fromkeys(variants)), tuple(dict.fromkeys(prefixes)), position))
    return out


def strip_stopwords(text: str) -> str:
    """`text` reduced to its content words, space-separated (what semantic search embeds)."""
    return " ".join(term.text for term in terms(text))
