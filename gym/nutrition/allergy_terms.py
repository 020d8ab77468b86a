"""A member's words mapped to codes, once, at intake (NUTRITION.md, "Constraints on closed vocabularies").

- An allergy term ("milk allergy", "dairy-free", "lactose intolerant", "אלרגיה לאגוזים", "аллергия на орехи") is
  read with the food dictionary (`gym.nutrition.food_lexicon`, misspellings within a letter or two allowed): its
  food words give the allergen codes they carry, and every other word must be one of the words around an allergy
  (`food_words.FRAME`: "allergic", "free", "no", "непереносимость", ...). A term with a word left over, or whose
  food words carry no allergen code ("chicken"), maps to nothing: it is refused with the codes nearest to it
  (422 `unknown_allergen`), never stored as text and never ignored. A code is taken as it is.
- A diet pattern is a code or the member's word for one ("plant-based", "צמחונית", "халяль").
- An aversion resolves to the library foods or families it names; one that names none is kept, and shown as not
  recognised.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from pydantic_core import PydanticCustomError

from gym.nutrition.food_lexicon import (
    Concept,
    Mention,
    allergy_index,
    candidates,
    diet_phrases,
    frame_forms,
    lexicon,
    scan,
)
from gym.nutrition.vocabulary import ALLERGENS, DIET_PATTERNS
from gym.nutrition.word_forms import distance, form

NEAREST = 3


@dataclass(frozen=True)
class Allergy:
    """What one allergy term was understood as: its codes, or the words not understood and the nearest codes."""

    term: str
    codes: tuple[str, ...]
    unknown: tuple[str, ...] = ()
    nearest: tuple[str, ...] = ()

    @property
    def understood(self) -> bool:
        return bool(self.codes) and not self.unknown


def _ordered(codes: set[str] | frozenset[str]) -> tuple[str, ...]:
    """The codes in the vocabulary's order; `lactose` only without `milk` (a milk allergy already excludes it)."""
    return tuple(c for c in ALLERGENS if c in codes and not (c == "lactose" and "milk" in codes))


def _diet_positions(cands: list[frozenset[str]]) -> set[int]:
    out: set[int] = set()
    for key in diet_phrases():
        for i in range(len(cands) - len(key) + 1):
            if all(key[k] in cands[i + k] for k in range(len(key))):
                out.update(range(i, i + len(key)))
    return out


@lru_cache(maxsize=4096)
def understand_allergy(term: str) -> Allergy:
    """The allergen codes `term` names (a code, or the member's words in en/he/ru)."""
    if term in ALLERGENS:
        return Allergy(term, (term,))
    words, cands = candidates(term, fuzzy=True)
    found = scan(words, cands, allergy_index())
    found = _headed(found)
    covered = {i for m in found if m.concept.allergy for i in range(m.start, m.end)}
    frame = frame_forms()
    unknown = tuple(w for i, (w, c) in enumerate(zip(words, cands, strict=True))
                    if i not in covered and not c & frame)
    codes = _ordered({code for m in found for code in m.concept.allergy})
    if codes and not unknown:
        return Allergy(term, codes)
    return Allergy(term, codes, unknown or tuple(words) or (term,), nearest_codes(unknown or tuple(words)))


def _headed(found: list[Mention]) -> list[Mention]:
    """A family word beside a narrower allergen word is the phrase's head noun, not an allergen of its own ("cashew
    nuts", "אגוזי קשיו", "орехи кешью": tree nuts, not tree nuts and peanuts)."""
    out = list(found)
    for a, b in zip(found, found[1:], strict=False):
        if a.end == b.start and a.concept.allergy and b.concept.allergy and not b.words.startswith("ו"):  # ו: "and"
            wide, narrow = (a, b) if b.concept.allergy < a.concept.allergy else (b, a)
            if narrow.concept.allergy < wide.concept.allergy and wide in out:
                out[out.index(wide)] = Mention(narrow.concept, wide.words, wide.start, wide.end)
    return out


def nearest_codes(words: tuple[str, ...], count: int = NEAREST) -> tuple[str, ...]:
    """The allergen codes whose words are nearest (fewest edits, relative to length) to any of `words` (the first
    few: a long sentence is refused whatever else it holds)."""
    best: dict[str, float] = {}
    for word in words[:3]:
        for code, score in _nearness(word).items():
            best[code] = min(best.get(code, 9.0), score)
    return tuple(sorted(best, key=lambda c: (best[c], ALLERGENS.index(c)))[:count])


@lru_cache(maxsize=4096)
def _nearness(word: str) -> dict[str, float]:
    """Per allergen code, how near `word` is to its nearest word (edits over length; 3 edits and more count alike)."""
    word_form = form(word)
    out: dict[str, float] = {}
    # the dictionary's words that begin as it does (a hint, not a search: a first letter wrong is rare), and the codes
    for key, codes in (*_allergy_words().get(word_form[:1], ()), *((code, frozenset({code})) for code in ALLERGENS)):
        score = distance(word_form if key not in ALLERGENS else word.lower(), key, 3) / max(len(word_form), len(key), 1)
        for code in codes:
            out[code] = min(out.get(code, 9.0), score)
    return out


@cache
def _allergy_words() -> dict[str, tuple[tuple[str, frozenset[str]], ...]]:
    """The one-word dictionary forms that name allergen codes, with their codes, by first letter."""
    out: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for key, concept in lexicon().items():
        if len(key) == 1 and concept.allergy:
            out.setdefault(key[0][:1], []).append((key[0], concept.allergy))
    return {letter: tuple(words) for letter, words in out.items()}


def allergy_codes(terms: list[str] | tuple[str, ...]) -> tuple[tuple[str, ...], list[Allergy]]:
    """The codes of every term (in the vocabulary's order, once each) and the terms not understood."""
    codes: set[str] = set()
    refused = []
    for term in terms:
        found = understand_allergy(term)
        if found.understood:
            codes.update(found.codes)
        else:
            refused.append(found)
    return _ordered(codes), refused


@lru_cache(maxsize=1024)
def diet_code(text: str) -> str | None:
    """The diet pattern `text` names (a code or the member's word), or None (none, or several)."""
    if text in DIET_PATTERNS:
        return text
    words, cands = candidates(text, fuzzy=True)
    found = {code for key, code in diet_phrases().items() for i in range(len(words) - len(key) + 1)
             if all(key[k] in cands[i + k] for k in range(len(key)))}
    rest = [i for i, c in enumerate(cands) if i not in _diet_positions(cands) and not c & frame_forms()]
    return found.pop() if len(found) == 1 and not rest else None


@dataclass(frozen=True)
class Aversion:
    term: str
    concepts: tuple[Concept, ...]  # what it names; none: kept, shown as not recognised

    @property
    def recognised(self) -> bool:
        return bool(self.concepts)

    @property
    def foods(self) -> frozenset[str]:
        return frozenset(f for c in self.concepts for f in c.covers)


@lru_cache(maxsize=4096)
def resolve_aversion(term: str) -> Aversion:
    """The library foods and families an aversion names ("salmon", "nuts", "peanut_butter", "חצילים")."""
    words, cands = candidates(term.replace("_", " "), fuzzy=True)
    found: list[Mention] = scan(words, cands)
    return Aversion(term, tuple(dict.fromkeys(m.concept for m in found)))




def refused_allergies(payload: object) -> list[tuple[int, Allergy]]:
    """The allergy terms of a raw intake that map to no code, with their positions (nothing to say about a payload
    whose `allergies` is not a list of strings: its schema says what is wrong)."""
    terms = payload.get("allergies") if isinstance(payload, dict) else None
    if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
        return []
    return [(i, found) for i, t in enumerate(terms) if not (found := understand_allergy(t)).understood]


def unknown_allergens_error(refused: list[Allergy]) -> PydanticCustomError:
    said = "; ".join(f"'{a.term}' (nearest: {', '.join(a.nearest)})" for a in refused)
    return PydanticCustomError("unknown_allergen", "not an allergen this service knows: {said}", {"said": said})


def unknown_diet_error(text: str) -> PydanticCustomError:
    return PydanticCustomError("unknown_diet_pattern", "not a diet pattern: {text} (one of: {codes})",
                               {"text": text, "codes": ", ".join(DIET_PATTERNS)})
