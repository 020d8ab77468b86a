"""Query terms for ambient search: tokens minus the stopwords of every registered language.

Stopwords here are the words of a staff request that name no entity: articles and pronouns, request
verbs ("find", "תראה", "покажи"), calendar words ("tomorrow", "היום", "завтра") and the entity nouns
themselves ("member", "אימון", "тренировка"), which would otherwise match every document of a scope. Each
language's are in its own file, `locales/stopwords/<code>.txt` (whitespace-separated; core.languages.FILES).
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

from core.i18n import LOCALES_DIR, SUPPORTED_LOCALES

BY_LANGUAGE: dict[str, frozenset[str]] = {
    code: frozenset((LOCALES_DIR / "stopwords" / f"{code}.txt").read_text(encoding="utf-8").split())
    for code in SUPPORTED_LOCALES}
STOPWORDS = frozenset().union(*BY_LANGUAGE.values())
HEBREW = BY_LANGUAGE["he"]  # the prefix rule below is Hebrew's morphology, as the Russian endings are Russian's
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
