"""Word forms in English, Hebrew and Russian: what a member's or a model's food words are compared by.

A token is reduced to the forms it may stand for, so "Allergies", "allergic", "אלרגיה", "ללקטוז", "орехов" and
"орехи" meet their dictionary word whatever their inflection:

- Latin script: the Snowball English stemmer ("peanuts" -> "peanut", "allergic" -> "allerg").
- Cyrillic: the Snowball Russian stemmer ("орехов" -> "орех", "молочные" -> "молочн"); a stem shorter than three
  letters keeps the word ("соя", not "со", which is also the preposition "with").
- Hebrew (no stemmer is maintained for it): the one-letter prefixes ו ה ב כ ל מ ש glued to a word (up to three,
  "ולחלב") come off, then the plural and feminine endings (ים, ות, ה, construct י) and final letters become
  ordinary ones, so "ביצים", "ביצה" and "בביצה" share "ביצ". A token yields every such reading, as-is first; a
  dictionary word yields one (its as-is reading), so prefixes are only ever taken off the member's side.

`distance` (optimal string alignment) lets intake words a letter or two off ("glutten", "alergic", "сезам") find
their dictionary form; free text is matched exactly.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import snowballstemmer

_TOKEN = re.compile(r"[^\W\d_]+", re.UNICODE)
_NIQQUD = re.compile(r"[\u0591-\u05C7]")
_HEBREW = re.compile(r"[\u05D0-\u05EA]")
_CYRILLIC = re.compile(r"[\u0400-\u04FF]")
HE_PREFIXES = "והבכלמש"
HE_ENDINGS = ("ים", "ות", "יה", "ה", "י", "ת")
HE_FINALS = str.maketrans("ךםןףץ", "כמנפצ")
_EN = snowballstemmer.stemmer("english")
_RU = snowballstemmer.stemmer("russian")


def clean(text: str) -> str:
    """NFKC, case-folded, Hebrew points and punctuation marks (gershayim, maqaf) made plain, ё as е."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _NIQQUD.sub("", text).replace("\u05be", " ").replace("\u05f3", "").replace("\u05f4", "")
    return text.replace("ё", "е").replace("'", "").replace("’", "")


def tokens(text: str) -> list[str]:
    """The words of `text`, in order ("dairy-free" is two words; digits and punctuation are not words)."""
    return _TOKEN.findall(clean(text))


def _hebrew_base(word: str) -> str:
    """A Hebrew word without its plural or feminine ending, final letters made ordinary."""
    for ending in HE_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 2:
            word = word[: -len(ending)]
            break
    return word.translate(HE_FINALS)


@lru_cache(maxsize=65_536)
def forms(token: str) -> tuple[str, ...]:
    """The forms a token of running text may stand for, the likeliest first."""
    if _HEBREW.search(token):
        out = [_hebrew_base(token), token.translate(HE_FINALS)]
        rest = token
        while len(rest) > 2 and rest[0] in HE_PREFIXES and len(out) < 8:
            rest = rest[1:]
            if len(rest) >= 2:
                out += [_hebrew_base(rest), rest.translate(HE_FINALS)]
        return tuple(dict.fromkeys(out))
    return (form(token),)


@lru_cache(maxsize=16_384)
def form(word: str) -> str:
    """The one form of a dictionary word (no prefix taken off a Hebrew one)."""
    if _HEBREW.search(word):
        return _hebrew_base(word)
    if _CYRILLIC.search(word):
        stem = _RU.stemWord(word)
        return stem if len(stem) >= 3 else word
    stem = _EN.stemWord(word)
    return stem if len(stem) >= 3 else word


def phrase(words: str) -> tuple[str, ...]:
    """A dictionary phrase as its word forms ("tree nuts" -> ("tree", "nut"))."""
    return tuple(form(t) for t in tokens(words))


def distance(a: str, b: str, limit: int = 3) -> int:
    """Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`; `limit` + 1 once past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def tolerance(word_form: str) -> int:
    """How many edits a misspelt form of this length may be off: none under 4 letters, 1 under 8, else 2 (Hebrew
    writes no vowels, so its words are a letter shorter: one edit from 3 letters)."""
    size = len(word_form) + (1 if _HEBREW.search(word_form) else 0)
    return 0 if size < 4 else 1 if size < 8 else 2
