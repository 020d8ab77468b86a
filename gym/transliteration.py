"""Hebrew and Cyrillic spellings of Latin-stored names, for member search.

Cyrillic transliterates letter by letter ("Саар Коэн" → "saar koen"), close enough for trigram search.
Hebrew is written without most vowels, so it is matched on consonant skeletons instead: "סער כהן" →
"sr chn", compared with the skeleton of the stored name ("Saar Cohen" → "sr chn"); letters with two
common readings (כ k/ch, ח h/ch, ב b/v, פ p/f, ו v/–, ש sh/s) give a few variants.
"""

from __future__ import annotations

import itertools
import re

CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя", [
    "a", "b", "v", "g", "d", "e", "yo", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f",
    "kh", "ts", "ch", "sh", "sch", "", "y", "", "e", "yu", "ya"], strict=True))

# Each Hebrew letter's consonant readings ("" = a vowel letter or silent).
HEBREW: dict[str, tuple[str, ...]] = {
    "א": ("",), "ב": ("b", "v"), "ג": ("g",), "ד": ("d",), "ה": ("h", ""), "ו": ("v", ""), "ז": ("z",),
    "ח": ("h", "ch"), "ט": ("t",), "י": ("",), "כ": ("ch", "k"), "ך": ("ch", "k"), "ל": ("l",), "מ": ("m",),
    "ם": ("m",), "נ": ("n",), "ן": ("n",), "ס": ("s",), "ע": ("",), "פ": ("p", "f"), "ף": ("f",), "צ": ("tz",),
    "ץ": ("tz",), "ק": ("k",), "ר": ("r",), "ש": ("sh", "s"), "ת": ("t",),
}
MAX_VARIANTS = 8
_HEBREW_RE = re.compile(r"[\u05D0-\u05EA]")
_CYRILLIC_RE = re.compile(r"[\u0400-\u04FF]")
LATIN_VOWELS = "aeiouy"


def has_hebrew(text: str) -> bool:
    return bool(_HEBREW_RE.search(text))


def cyrillic_to_latin(text: str) -> str | None:
    """The Latin spelling of a Cyrillic query, or None when it has no Cyrillic letters."""
    if not _CYRILLIC_RE.search(text):
        return None
    return "".join(CYRILLIC.get(ch, CYRILLIC.get(ch.lower(), ch)) for ch in text.lower())


def latin_skeleton(text: str) -> str:
    """'Saar Cohen' → 'sr chn': lower case, vowels dropped, one space between words."""
    words = ("".join(ch for ch in word if ch not in LATIN_VOWELS) for word in text.lower().split())
    return " ".join(w for w in words if w)


def hebrew_skeletons(text: str) -> list[str]:
    """Consonant skeletons of a Hebrew query ('סער כהן' → ['sr chn', 'sr khn', ...]), at most MAX_VARIANTS."""
    words = [w for w in text.split() if has_hebrew(w)]
    options: list[list[str]] = []
    for word in words:
        letters = [HEBREW.get(ch, ("",)) for ch in word]
        spellings = ["".join(p) for p in itertools.islice(itertools.product(*letters), MAX_VARIANTS)]
        options.append(list(dict.fromkeys(s for s in spellings if s)))
    out = [" ".join(combo) for combo in itertools.islice(itertools.product(*options), MAX_VARIANTS)]
    return [s for s in dict.fromkeys(out) if s]
