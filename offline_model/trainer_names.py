"""Which library exercise a member's words name, wherever it stands in the sentence and however it is inflected:
"add a plank at the end", "תוסיף לי פלנק בסוף", "добавь мне планку в конце", "never back squats".

Every name and alias of the exercise library (English, Hebrew, Russian) is matched word by word against the words:
case, punctuation and hyphens aside; a word may carry an ending ("lunges", "выпадов", "планку") but not lose one
("план" is not "планка"); Hebrew is compared without the vowel letters א ו י that spellings add or drop ("פלאנק" =
"פלנק"), with final letters as their plain forms and one leading prefix letter (ה ו ב ל מ ש כ) allowed. The longest
name found wins, so "back squats" is Back Squat and never the muscle "back". Pure: no model or database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from gym.exercise_library import LIBRARY

HEBREW = re.compile(r"[\u0590-\u05FF]")
FINALS = str.maketrans("ךםןףץ", "כמנפצ")
PREFIXES = "הובלמשכ"


@dataclass(frozen=True)
class Named:
    """A library exercise the words name, and where: `rest` is the words without it."""

    name: str
    rest: str


def _word(word: str) -> str:
    word = word.lower().replace("ё", "е")
    if HEBREW.search(word):
        word = word.translate(FINALS)
        word = word[:1] + re.sub(r"[אוי]", "", word[1:])
    return word


def _words(text: str) -> list[str]:
    return [_word(w) for w in re.findall(r"[\w']+", text.replace("-", " ")) if w.strip("'")]


@cache
def _aliases() -> tuple[tuple[tuple[str, ...], str], ...]:
    """(words of a name or alias, library name), longest first."""
    out = {(tuple(_words(alias)), e.name) for e in LIBRARY for alias in (e.name, *e.all_aliases)
           if len(alias.strip()) > 2}  # "BS", "FS": whiteboard shorthand, too short to find inside a sentence
    return tuple(sorted((a for a in out if a[0]), key=lambda a: (-len(a[0]), -sum(map(len, a[0])), a[1])))


def _same(said: str, known: str) -> bool:
    """A word of the member's for a word of a name: equal, or the name's word with an ending. English adds one
    ("squats", "lunges"); Russian and Hebrew change the last letters ("планку", "выпадов", "מכרעים")."""
    if said == known:
        return True
    if said.isascii():
        return said == known + "s" or (len(known) > 3 and said.startswith(known) and len(said) - len(known) <= 2)
    hebrew = HEBREW.search(said) is not None
    for word in (said, said[1:] if hebrew and said[:1] in PREFIXES else None):
        if not word or len(known) <= 3:
            if word == known:
                return True
            continue
        if len(word) >= len(known) - 1 and word.startswith(known[:max(3, len(known) - 2)]):
            return True
    return False


def named_in(text: str) -> Named | None:
    """The library exercise the words name (the longest match), or None."""
    said = re.findall(r"[\w']+", text.replace("-", " "))
    keys = [_word(w) for w in said]
    for alias, name in _aliases():
        n = len(alias)
        for i in range(len(keys) - n + 1):
            if all(_same(keys[i + j], alias[j]) for j in range(n)):
                return Named(name, " ".join(said[:i] + said[i + n:]))
    return None
