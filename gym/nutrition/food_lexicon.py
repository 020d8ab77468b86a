"""Food words found in text: every phrase of `gym.nutrition.food_words` and every name of the food library, as word
forms (`gym.nutrition.word_forms`), matched longest first and without overlap.

`mentions(text)` is how free text is read (an agent's recipe steps, tactics, notes, in any of the three languages)
and how a member's allergy or aversion words are read at intake (`gym.nutrition.allergy_terms`, which also lets a
misspelt word find its dictionary form with `fuzzy=True`). Each mention carries its concept: the allergen codes
and food classes it carries and the library foods it names, so every decision after it runs on codes and classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from gym.nutrition.food_words import CONCEPTS, DIETS, FAMILY, FOOD, FRAME
from gym.nutrition.foods import FOODS
from gym.nutrition.word_forms import distance, form, forms, phrase, tokens, tolerance

EXACT = "="  # a dictionary word marked so is matched as written (a Russian stem it shares with another word)


@dataclass(frozen=True)
class Concept:
    key: str
    kind: str  # FAMILY (excludes by its codes and classes) or FOOD (names foods)
    allergens: frozenset[str]  # the codes it carries (what a check refuses it by)
    classes: frozenset[str]
    covers: frozenset[str]  # the library foods it names
    names: frozenset[str] = frozenset()  # the codes an allergy written with it names (default: its allergens)

    @property
    def allergy(self) -> frozenset[str]:
        return self.names or self.allergens


@dataclass(frozen=True)
class Mention:
    concept: Concept
    words: str  # as written
    start: int  # token positions
    end: int


def _phrase(word: str) -> tuple[str, ...]:
    if word.startswith(EXACT):
        return tuple(EXACT + t for t in tokens(word[1:]))
    return phrase(word)


@cache
def lexicon() -> dict[tuple[str, ...], Concept]:
    """Every phrase as word forms -> its concept; a concept's own words win over a library name they share."""
    out: dict[tuple[str, ...], Concept] = {}
    for food in FOODS.values():
        concept = Concept(f"food:{food.key}", FOOD, food.allergens, food.classes, frozenset({food.key}))
        for name in (*food.names.values(), *food.aliases):
            out[_phrase(name)] = concept
    for words in CONCEPTS:
        tags = frozenset(words.tags.split())
        concept = Concept(words.key, words.kind, frozenset(words.allergens.split()), frozenset(words.classes.split()),
                          frozenset(f.key for f in FOODS.values() if f.tags & tags), frozenset(words.names.split()))
        for word in words.words:
            out[_phrase(word)] = concept
    out.pop((), None)
    return out


@cache
def _index() -> dict[str, list[tuple[tuple[str, ...], Concept]]]:
    index: dict[str, list[tuple[tuple[str, ...], Concept]]] = {}
    for key, concept in lexicon().items():
        index.setdefault(key[0], []).append((key, concept))
    for entries in index.values():
        entries.sort(key=lambda e: -len(e[0]))
    return index


@cache
def allergy_index() -> dict[str, list[tuple[tuple[str, ...], Concept]]]:
    """The phrases that name allergen codes (what an allergy term is read with: a misspelt word near both an
    allergen's word and another food's is read as the allergen's, and shown back)."""
    return {first: kept for first, entries in _index().items()
            if (kept := [(key, concept) for key, concept in entries if concept.allergy])}


@cache
def frame_forms() -> frozenset[str]:
    return frozenset(form(word) for word in FRAME)


@cache
def diet_phrases() -> dict[tuple[str, ...], str]:
    return {phrase(word): code for code, words in DIETS.items() for word in (code, *words)}


@cache
def known_forms() -> frozenset[str]:
    """Every word form a dictionary phrase, a diet word or a frame word holds (what a misspelling is held to)."""
    return frozenset(f for key in (*lexicon(), *diet_phrases()) for f in key) | frame_forms()


def candidates(text: str, *, fuzzy: bool = False) -> tuple[list[str], list[frozenset[str]]]:
    """The tokens of `text` and, for each, the forms it may stand for (with `fuzzy`, a word no dictionary holds also
    stands for the dictionary forms within `word_forms.tolerance` edits of it)."""
    words = tokens(text)
    out = []
    for token in words:
        found = frozenset((*forms(token), EXACT + token))
        if fuzzy and not found & known_forms():
            found |= _near(forms(token))
        out.append(found)
    return words, out


@cache
def _deletion_index() -> dict[str, frozenset[str]]:
    """Every dictionary form under each string one or two of its letters deleted leave (symmetric-delete lookup: a
    misspelling within two edits of a form shares one of these with it), so a word is compared with a few forms,
    not with the whole dictionary."""
    index: dict[str, set[str]] = {}
    for known in known_forms():
        if not known.startswith(EXACT) and len(known) >= 3:
            for variant in _deletions(known, 2):
                index.setdefault(variant, set()).add(known)
    return {variant: frozenset(found) for variant, found in index.items()}


def _deletions(word: str, depth: int) -> set[str]:
    out = {word}
    for _ in range(depth):
        out |= {w[:i] + w[i + 1:] for w in out for i in range(len(w))}
    return out


@lru_cache(maxsize=4096)
def _near(readings: tuple[str, ...]) -> frozenset[str]:
    """The dictionary forms fewest edits away from any reading of a word, relative to their length (a 4-letter word
    one letter off is nearer than a 3-letter one), within `word_forms.tolerance`."""
    index = _deletion_index()
    scored: list[tuple[float, str]] = []
    for reading in readings:
        limit = tolerance(reading)
        if not limit or len(reading) > 24:
            continue
        near = {known for variant in _deletions(reading, limit) for known in index.get(variant, ())}
        scored += [(d / len(known), known) for known in near if (d := distance(reading, known, limit)) <= limit]
    best = min((score for score, _ in scored), default=None)
    return frozenset(known for score, known in scored if score == best)


def scan(words: list[str], cands: list[frozenset[str]],
         table: dict[str, list[tuple[tuple[str, ...], Concept]]] | None = None) -> list[Mention]:
    """The longest dictionary phrases over the token candidates, left to right, without overlap."""
    index = table if table is not None else _index()
    out: list[Mention] = []
    i = 0
    while i < len(words):
        best: tuple[tuple[str, ...], Concept] | None = None
        for candidate in cands[i]:
            for key, concept in index.get(candidate, ()):
                if (best is None or len(key) > len(best[0])) and i + len(key) <= len(words) and all(
                        key[k] in cands[i + k] for k in range(1, len(key))):
                    best = (key, concept)
                    break
        if best is None:
            i += 1
            continue
        out.append(Mention(best[1], " ".join(words[i:i + len(best[0])]), i, i + len(best[0])))
        i += len(best[0])
    return out


@lru_cache(maxsize=8192)
def mentions(text: str) -> tuple[Mention, ...]:
    """The food words of free text, each with its concept."""
    words, cands = candidates(text)
    return tuple(scan(words, cands))


def family_concepts() -> list[Concept]:
    """The family concepts (what an allergy word may name), once each."""
    return list({c.key: c for c in lexicon().values() if c.kind == FAMILY}.values())
