"""Reading a member's words for the safety floor (en, he, ru): text cut into sentences, each a list of words
tagged with the concepts of `gym.nutrition.safety_words` they name, and the questions the red-flag rules ask of
a sentence (is this word negated, is it someone else's condition, what is said around it).

A word names a vocabulary entry when, after normalising (lower case, ё → е, Hebrew points dropped, a Latin
lookalike inside a Cyrillic word read as Cyrillic), it is the entry, begins with a stem entry (`stem*`: Russian
inflections, English endings), is the entry behind up to three Hebrew one-letter prefixes (ו ה ב כ ל מ ש), is two
entries run together ("chestpain"), or misspells a clinical entry by one edit (a swap of two neighbours counts as
one; the first letter kept; the real words of `GUARD` are never read as misspellings).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from gym.nutrition.safety_words import FUZZY, GUARD, LEXICON

HE_PREFIX = set("ובהכלמש")
HEBREW_POINTS = re.compile("[\u0591-\u05bd\u05bf-\u05c7]")
SENTENCES = re.compile(r"[!?;\n]+|\.(?!\d)")
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
CLAUSE_MARK = re.compile(r",|:|\(|\)|\s[-–—]\s|…")
LATIN_TO_CYRILLIC = str.maketrans("aeopcxykmtbh", "аеорсхукмтвн")
CYRILLIC = re.compile("[а-я]")
NEGATION_WINDOW = 6  # words between a negation and what it negates ("no history of heart problems or diabetes")
IMPLIED = ("can't", "cannot", "cant", "couldn't", "never")  # "can't run without chest pain": it happens
OTHER_WINDOW = 6  # words between someone else ("my wife") and their condition
LONGEST, OVERLAP = 60, 12  # a longer run of words without a full stop is read in overlapping stretches


def normalise(text: str) -> str:
    """Lower case, NFC, ё → е, Hebrew points dropped, curly apostrophes and the geresh as "'", hyphens and the
    maqaf between letters as spaces ("faint-hearted" → "faint hearted")."""
    text = unicodedata.normalize("NFC", text).lower().replace("ё", "е").replace("\u05be", " ")
    text = HEBREW_POINTS.sub("", text).replace("\u2019", "'").replace("\u05f3", "'").replace("`", "'")
    return re.sub(r"(?<=\w)-(?=\w)", " ", text)


def _entries() -> tuple[dict[str, list[tuple[str, tuple[str, ...]]]], set[str], set[str]]:
    """The lexicon by its first atom: atom -> [(concept, atoms of the entry)]; the atoms; the ones a typo may
    stand for (those of the clinical concepts, of five letters or more, four for a swap)."""
    by_first: dict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
    atoms: set[str] = set()
    fuzzy: set[str] = set()
    for concept, entries in LEXICON.items():
        for entry in entries:
            seq = tuple(normalise(entry).split())
            by_first[seq[0]].append((concept, seq))
            atoms.update(seq)
            if concept in FUZZY:
                fuzzy.update(a for a in seq if len(a.rstrip("*")) >= 4 and not a[0].isdigit())
    return by_first, atoms, fuzzy


BY_FIRST, ATOMS, FUZZY_ATOMS = _entries()
FUZZY_BY_LETTER: dict[str, list[str]] = defaultdict(list)
for _atom in FUZZY_ATOMS:
    FUZZY_BY_LETTER[_atom[0]].append(_atom)
EXACT = frozenset(a for a in ATOMS if not a.endswith("*"))
STEMS: dict[str, list[str]] = defaultdict(list)
for _atom in ATOMS:
    if _atom.endswith("*"):
        STEMS[_atom[:2]].append(_atom)


def damerau(a: str, b: str, limit: int) -> int:
    """The optimal-string-alignment distance of `a` and `b` (a swap of neighbours is one edit), capped at limit+1."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def _misspells(word: str, atom: str) -> bool:
    """`word` is `atom` (an entry or a stem*) with one edit (a four-letter entry: a swap of neighbours only)."""
    if word[0] != atom[0] or word in GUARD:
        return False
    stem = atom.endswith("*")
    target = atom.rstrip("*")
    if len(target) == 4:
        return not stem and len(word) == 4 and damerau(word, target, 1) == 1 and sorted(word) == sorted(target)
    if stem:
        return len(target) >= 6 and any(damerau(word[:k], target, 1) <= 1
                                         for k in range(len(target) - 1, len(target) + 2) if k <= len(word))
    return damerau(word, target, 1) <= 1


def _candidates(word: str) -> list[str]:
    """The forms a word may be read as: itself; without an English clitic ("heart's", "i've" stays); a Hebrew word
    behind up to three one-letter prefixes; a Cyrillic word with its Latin lookalikes made Cyrillic."""
    out = [word]
    if CYRILLIC.search(word):
        out = [word.translate(LATIN_TO_CYRILLIC)]
    elif "'" in word and word.endswith("'s"):
        out.append(word[:-2])
    elif "\u05d0" <= word[0] <= "\u05ea":
        for k in range(1, 4):
            if len(word) - k < 2 or word[k - 1] not in HE_PREFIX:
                break
            out.append(word[k:])
    return out


def _direct(form: str) -> set[str]:
    found = {form} if form in EXACT else set()
    found.update(stem for stem in STEMS.get(form[:2], ()) if form.startswith(stem[:-1]))
    return found


@lru_cache(maxsize=65_536)
def atoms_of(word: str) -> frozenset[str]:
    """Every lexicon atom the word names (see the module's docstring)."""
    forms = _candidates(word)
    found = {atom for form in forms for atom in _direct(form)}
    if not found and len(word) >= 4 and word.isalpha():
        found = {atom for form in forms if len(form) >= 4
                 for atom in FUZZY_BY_LETTER.get(form[0], ()) if _misspells(form, atom)}
    if not found and len(word) >= 7 and word.isascii() and word.isalpha():  # "chestpain"
        for cut in range(3, len(word) - 2):
            left, right = _direct(word[:cut]), _direct(word[cut:])
            if left and right:
                found = left | right
                break
    return frozenset(found)


@dataclass(frozen=True)
class Hit:
    concept: str
    start: int
    end: int  # exclusive


@dataclass
class Sentence:
    """One sentence: its words, the clause (between commas) and the part (between "but"s) of each, and the
    concepts its words name."""

    words: list[str]
    clause: list[int]
    part: list[int]
    hits: list[Hit]
    by_concept: dict[str, list[Hit]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for hit in self.hits:
            self.by_concept.setdefault(hit.concept, []).append(hit)

    @property
    def concepts(self) -> set[str]:
        return set(self.by_concept)

    def of(self, *concepts: str) -> list[Hit]:
        if len(concepts) == 1:
            return self.by_concept.get(concepts[0], [])
        return [h for c in concepts for h in self.by_concept.get(c, ())]

    def has(self, concept: str, *, part: int | None = None, clause: int | None = None) -> bool:
        return any((part is None or self.part[h.start] == part) and (clause is None or self.clause[h.start] == clause)
                   for h in self.by_concept.get(concept, ()))

    def in_part(self, at: int, *concepts: str) -> bool:
        return any(self.has(c, part=self.part[at]) for c in concepts)

    def in_clause(self, at: int, *concepts: str) -> bool:
        return any(self.has(c, clause=self.clause[at]) for c in concepts)

    def starting(self, at: int, concept: str) -> bool:
        return any(h.concept == concept and h.start == at for h in self.hits)

    def ending(self, at: int, concept: str) -> bool:
        return any(h.concept == concept and h.end == at for h in self.hits)

    def word(self, at: int) -> str:
        return self.words[at] if 0 <= at < len(self.words) else ""

    def pairs(self, first: Iterable[str], second: Iterable[str], window: int, *,
              across_commas: bool = False) -> Iterator[tuple[Hit, Hit]]:
        """Hits of `first` and `second` at most `window` words apart, in either order, in the same clause (the same
        part of the sentence, `across_commas`)."""
        ones, twos = self.of(*first), self.of(*second)
        scope = self.part if across_commas else self.clause
        for a in ones:
            for b in twos:
                gap = max(b.start - a.end, a.start - b.end)  # negative when they overlap
                if a is not b and gap <= window and scope[a.start] == scope[b.start]:
                    yield a, b

    def follows(self, hit: Hit, concepts: Iterable[str], window: int) -> bool:
        """A hit of `concepts` begins within `window` words after `hit`, in its clause."""
        names = set(concepts)
        return any(h.concept in names and hit.end <= h.start <= hit.end + window
                   and self.clause[h.start] == self.clause[hit.start] for h in self.hits)

    def negated(self, at: int) -> bool:
        """A negation ("no", "never", "לא", "не", ...) up to six words before `at` in its clause, with no "and",
        "but", "because" or a new "I" between; not a hedge ("not sure", "don't think") nor the Russian "almost"
        ("чуть не"), nor one that ends ("never ... until yesterday") or is undone ("can't run without chest pain")."""
        if any(h.start > at and self.clause[h.start] == self.clause[at] for h in self.of("UNTIL")):
            return False  # "never had chest pain until yesterday"
        scope = [neg for neg in self.of("NEG")
                 if neg.end <= at and at - neg.end <= NEGATION_WINDOW and self.clause[neg.start] == self.clause[at]
                 and not self.starting(neg.end, "HEDGE") and not self.ending(neg.start, "ALMOST")
                 and not any(h.concept in ("BREAK", "SELF") and neg.end <= h.start < at for h in self.hits)]
        implied = any(self.words[neg.start] == "without" and any(  # "I never run without chest pain": it happens
            self.words[k] in IMPLIED for k in range(neg.start) if self.clause[k] == self.clause[at]) for neg in scope)
        return bool(scope) and not implied

    def someone_else(self, at: int) -> bool:
        """The words at `at` are about someone else: a relative named before them in the clause with no "I"
        between ("my wife is pregnant"), a family history ("runs in my family"), or "for my husband"."""
        clause = self.clause[at]
        if self.has("FAMILY_HISTORY", clause=clause) and not self.has("SELF", clause=clause):
            return True  # "diabetes runs in my family" (but not "... and I was just diagnosed")
        mine = self.of("SELF")
        for other in self.of("OTHER"):
            if other.end <= at and not mine:  # "my brother fainted at his wedding, is fainting genetic?"
                return True
            if self.clause[other.start] != clause:
                continue
            if self.ending(other.start, "FOR") or self.ending(other.start - 1, "FOR"):
                return True
            if other.end <= at and at - other.end <= OTHER_WINDOW and not any(
                    h.concept == "SELF" and other.end <= h.start < at for h in self.hits):
                return True
        return False

    def excluded(self, at: int) -> bool:
        return self.negated(at) or self.someone_else(at)


def _hits(words: list[str]) -> list[Hit]:
    atoms = [atoms_of(w) for w in words]
    found: list[Hit] = []
    for i in range(len(words)):
        for atom in atoms[i]:
            for concept, seq in BY_FIRST.get(atom, ()):
                if i + len(seq) <= len(words) and all(seq[k] in atoms[i + k] for k in range(1, len(seq))):
                    found.append(Hit(concept, i, i + len(seq)))
    return found


def _sentence(text: str) -> Sentence:
    words: list[str] = []
    clause: list[int] = []
    for number, chunk in enumerate(CLAUSE_MARK.split(text)):
        for word in WORD.findall(chunk):
            words.append(word)
            clause.append(number)
    hits = _hits(words)
    part, current = [], 0
    breaks = {h.start for h in hits if h.concept == "BUT"}
    for i in range(len(words)):
        if i in breaks:
            current += 1
        part.append(current)
    # a word inside a set phrase is not read alone ("heart" in "heart rate", "period" in "rest period")
    for phrase, alone in (("HEART_RATE", "HEART"), ("IDIOM", "HEART"), ("IDIOM", "FAINT"), ("BLOOD_NOT", "BLOOD"),
                          ("PERIOD_NOT", "PERIOD"), ("PREG_NOT", "PREG"), ("PREG_TEST", "PREG"), ("INSULIN_NOT", "INSULIN"),
                          ("BLOOD_NOT", "PAIN"), ("HEART_COND", "PAIN"), ("IDIOM", "OTHER"), ("PERIOD", "OTHER"), ("BLOOD_NOT", "SITE"),
                          ("IDIOM", "BLACKOUT"), ("IDIOM", "COLLAPSE"), ("HEART_COND_NOT", "HEART_COND")):
        spans = [(h.start, h.end) for h in hits if h.concept == phrase]
        hits = [h for h in hits if h.concept != alone or not any(s <= h.start < e for s, e in spans)]
    return Sentence(words, clause, part, hits)


def _windows(chunk: str) -> list[str]:
    """A sentence longer than `LONGEST` words, read as overlapping stretches of that many (what a rule looks at spans
    a few words; the reading of one stretch grows with the square of its length)."""
    spaces = chunk.split()
    if len(spaces) <= LONGEST:
        return [chunk]
    step = LONGEST - OVERLAP
    return [" ".join(spaces[i:i + LONGEST]) for i in range(0, len(spaces) - OVERLAP, step)]


def sentences(text: str) -> list[Sentence]:
    """The sentences of a free text, each read (see `Sentence`)."""
    return [_sentence(window) for chunk in SENTENCES.split(normalise(text)) if chunk.strip()
            for window in _windows(chunk)]
