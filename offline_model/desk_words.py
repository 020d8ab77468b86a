"""The offline demo model's reading of the front desk's requests (issue 42) in en / he / ru: book a member into a
class, check a member in, freeze or unfreeze a membership, put someone on a waitlist, and message the at-risk
members or those booked into a cancelled class. Pure: regular expressions over the words, no model or clock.
"""

from __future__ import annotations

import re
from typing import Any

_F = re.IGNORECASE | re.DOTALL

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10,
            "одну": 1, "один": 1, "одна": 1, "две": 2, "два": 2, "три": 3, "четыре": 4, "пять": 5,
            "שתי": 2, "שני": 2, "שלושה": 3, "שלוש": 3, "ארבעה": 4, "ארבע": 4}
_UNITS = (("week", 7), ("weeks", 7), ("day", 1), ("days", 1), ("month", 30), ("months", 30),
          ("недел", 7), ("дн", 1), ("день", 1), ("месяц", 30), ("שבוע", 7), ("ימים", 1), ("יום", 1), ("חודש", 30))
_DUALS = {"שבועיים": 14, "חודשיים": 60, "יומיים": 2}


def freeze_days(words: str) -> int | None:
    """'for two weeks' / 'לשבועיים' / 'на две недели' / 'for 10 days' → days; None when no length is said."""
    text = words.lower()
    for dual, days in _DUALS.items():
        if dual in text:
            return days
    m = re.search(r"(?:(\d{1,3})|\b(a|an|one|two|three|four|five|six|ten|одну|один|одна|две|два|три|четыре|пять)\b|"
                  r"(שתי|שני|שלושה|שלוש|ארבעה|ארבע))?\s*-?\s*(weeks?|days?|months?|недел\w*|дн\w*|день|месяц\w*|"
                  r"שבועות|שבוע|ימים|יום|חודשים|חודש)", text)
    if m is None:
        return None
    count = int(m.group(1)) if m.group(1) else _NUMBERS.get(m.group(2) or m.group(3) or "", 1)
    unit = next(days for stem, days in _UNITS if m.group(4).startswith(stem))
    return count * unit


_BOOK = re.compile(r"^(?:please\s+)?(?:book|sign\s+up|register|put)\s+(?P<who>(?!(?:a|an|the|new)\s).+?)\s+"
                   r"(?:in|into|for|on)\s+(?P<what>.+)$|"
                   r"^(?:תרשום|רשום|רשמי|תרשמי)\s+(?:את\s+)?(?P<he_who>.+?)\s+ל(?P<he_what>\S.*)$|"
                   r"^(?:запиши|записать|зарегистрируй)\s+(?P<ru_who>.+?)\s+на\s+(?P<ru_what>.+)$", _F)
_CHECK_IN = re.compile(r"^(?:please\s+)?check[\s-]?in\s+(?P<who>.+)$|^(?P<who2>.+?)\s+(?:is here|has arrived|arrived)$|"
                       r"^(?:תעשה\s+|תעשי\s+|עשה\s+)?צ'?ק[\s-]?אין\s+(?:ל|את\s+)?(?P<he>.+)$|"
                       r"^(?:отметь|отметить|зачекинь|чек-?ин)\s+(?P<ru>.+?)(?:\s+на входе)?$", _F)
_UNFREEZE = re.compile(r"^(?:please\s+)?(?:unfreeze|unpause|lift\s+(?:the\s+)?freeze\s+(?:of|for|on))\s+(?P<who>.+)$|"
                       r"^(?:הפשר|תפשיר|תסיר\s+(?:את\s+)?ההקפאה\s+(?:של|מ)?)\s*(?:את\s+)?(?:המנוי\s+של\s+)?(?P<he>.+)$|"
                       r"^(?:разморозь|разморозить|сними заморозку(?:\s+с)?)\s+(?:абонемент\s+)?(?P<ru>.+)$", _F)
_FREEZE = re.compile(r"^(?:please\s+)?(?:freeze|pause)\s+(?P<who>.+?)(?:['’]s)?(?:\s+(?:membership|subscription|plan))?"
                     r"(?:\s+(?:for|from)\s+.+)?$|"
                     r"^(?:תקפיא|הקפא|תקפיאי)\s+(?:את\s+)?(?:המנוי\s+של\s+)?(?P<he>.+?)(?:\s+ל\S*(?:\s+\S+)?)?$|"
                     r"^(?:заморозь|заморозить|приостанови)\s+(?:абонемент\s+)?(?P<ru>.+?)(?:\s+на\s+.+)?$", _F)
_WAITLIST = re.compile(r"wait[\s-]?list|waiting list|רשימת (?:ה)?המתנה|лист\w* ожидания", _F)
_MESSAGE_VERB = (r"(?:message|email|e-mail|text|write\s+to|send\s+(?:a\s+)?(?:message|messages|email|emails|note)\s+to|"
                 r"draft\s+(?:a\s+)?(?:message|messages|email|emails)\s+(?:to|for)|reach\s+out\s+to|"
                 r"שלח|תשלח|שלחי|נסח|תנסח|כתוב|תכתוב|הודעה|напиши|отправь|разошли|подготовь|сообщение)")
_MESSAGE_AT_RISK = re.compile(_MESSAGE_VERB + r".{0,60}(?:at[-\s]risk|בסיכון|в зоне риска|риск)", _F)
_MESSAGE_BOOKED = re.compile(_MESSAGE_VERB + r".{0,80}(?:booked|cancell?ed class|רשומים|שבוטל|записан\w*|отмен\w*)|"
                             r"^(?:message|email|text)\s+them\b|^(?:שלח|תשלח)\s+להם\b|^(?:напиши|отправь)\s+им\b", _F)


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(" \t\n.!?,;:\"'“”«»")


def _who(m: re.Match[str], *groups: str) -> str:
    found = next((m[g] for g in groups if m[g]), "")
    return re.sub(r"['’]s$", "", _clean(found))[:200]


def classify_desk(text: str) -> tuple[str, dict[str, Any]] | None:
    """(intent kind, arguments) of a desk request, or None: the other rules read the words then."""
    if _MESSAGE_AT_RISK.search(text):
        return "message_at_risk", {}
    if _MESSAGE_BOOKED.search(text):
        return "message_booked", {}
    if _WAITLIST.search(text):
        return "waitlist", {}
    if m := _BOOK.match(text):
        what = m["what"] or m["he_what"] or m["ru_what"] or ""
        return "book", {"who": _who(m, "who", "he_who", "ru_who"), "what": _clean(what)}
    if m := _UNFREEZE.match(text):
        return "unfreeze", {"who": _who(m, "who", "he", "ru")}
    if m := _FREEZE.match(text):
        who = _who(m, "who", "he", "ru")
        if who:
            return "freeze", {"who": who, "days": freeze_days(text)}
    if m := _CHECK_IN.match(text):
        return "check_in", {"who": _who(m, "who", "who2", "he", "ru")}
    return None
