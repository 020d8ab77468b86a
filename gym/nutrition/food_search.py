"""Library foods by a member's words in English, Hebrew or Russian: the food log's search.

One vocabulary and one normaliser: the library's names and aliases in the three languages (`gym.nutrition.foods`)
and the food dictionary (`gym.nutrition.food_lexicon`), read through `gym.nutrition.word_forms`. A food ranks by
the best way one of its names meets the query:

0. a name is the query;
1. a name starts with it;
2. every query word starts a word of one name (typing: "chick", "חזה עו", "кури");
3. every query word has a word form of one name ("eggs", "яйца", "ביצים", "בביצה");
4. the dictionary reads the query as a concept naming the food ("poultry" → chicken and turkey breast, "орехи" →
   almonds and cashews), a letter or two off allowed ("chiken").

Ties go by the name in the member's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gym.nutrition.food_lexicon import candidates, scan
from gym.nutrition.foods import FOODS, Food
from gym.nutrition.word_forms import clean, form, forms, tokens

MAX_QUERY = 60


@dataclass(frozen=True)
class _Name:
    text: str  # cleaned
    words: tuple[str, ...]
    word_forms: frozenset[str]


@cache
def _names() -> dict[str, tuple[_Name, ...]]:
    out: dict[str, tuple[_Name, ...]] = {}
    for food in FOODS.values():
        names = []
        for name in dict.fromkeys((*food.names.values(), *food.aliases)):
            words = tuple(tokens(name))
            names.append(_Name(" ".join(words), words, frozenset(form(w) for w in words)))
        out[food.key] = tuple(names)
    return out


def _rank(name: _Name, query: str, words: list[str], readings: list[frozenset[str]]) -> int | None:
    if name.text == query:
        return 0
    if name.text.startswith(query):
        return 1
    if all(any(w.startswith(q) for w in name.words) for q in words):
        return 2
    if all(r & name.word_forms for r in readings):
        return 3
    return None


def _concept_foods(text: str) -> set[str]:
    words, cands = candidates(text, fuzzy=True)
    return {key for mention in scan(words, cands) for key in mention.concept.covers}


def search(text: str | None, locale: str, limit: int = 20) -> list[Food]:
    """The library foods the words name, best first; every food by name when there are no words."""
    words = tokens((text or "")[:MAX_QUERY])
    by_name = sorted(FOODS.values(), key=lambda f: clean(f.names.get(locale, f.key)))
    if not words:
        return by_name[:limit]
    query = " ".join(words)
    readings = [frozenset(forms(w)) for w in words]
    ranks: dict[str, int] = {}
    for key, names in _names().items():
        found = [r for name in names if (r := _rank(name, query, words, readings)) is not None]
        if found:
            ranks[key] = min(found)
    for key in _concept_foods(query):
        ranks.setdefault(key, 4)
    return sorted((f for f in by_name if f.key in ranks), key=lambda f: ranks[f.key])[:limit]
