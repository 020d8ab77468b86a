"""Whether a food may be served to a member, or named to them: the one rule every agent's output is checked by.

It runs on codes and classes, never on names: a library food carries its allergen codes and food classes
(`gym.nutrition.foods`); a food named in free text carries its concept's (`gym.nutrition.food_lexicon`). A member's
allergies are allergen codes (mapped from their words at intake, `gym.nutrition.allergy_terms`), their diet pattern
leaves out the classes `gym.nutrition.vocabulary.DIET_EXCLUDES` names, and their aversions resolve to the library
foods and families they name. Kosher also keeps meat and milk out of one meal (`meal_refusal`). A served food the
library does not know cannot be checked and is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from gym.nutrition.allergy_terms import allergy_codes, diet_code, resolve_aversion
from gym.nutrition.food_lexicon import FAMILY, Concept, Mention, mentions
from gym.nutrition.foods import FOODS, Food
from gym.nutrition.vocabulary import DIET_EXCLUDES, KOSHER_APART, defining
from gym.nutrition.word_forms import phrase, tokens

# Words that say a food is left out, not served ("no dairy", "gluten-free", "ללא גלוטן", "без орехов").
NEGATORS = frozenset({"no", "without", "non", "ללא", "בלי", "נטול", "נטולת", "נטולי", "без", "нет"})
FREE = frozenset(phrase("free"))


@dataclass(frozen=True)
class FoodRules:
    """A member's food constraints: allergen codes, aversions as the member wrote them, and a diet pattern."""

    allergies: tuple[str, ...] = ()
    aversions: tuple[str, ...] = ()
    diet_pattern: str = "omnivore"

    @classmethod
    def of(cls, constraints: Any) -> FoodRules:
        """From an `IntakeData`, `ClientConstraints` or their dict form (allergies are codes there; words from an
        older record are mapped the same way intake maps them)."""
        get = constraints.get if isinstance(constraints, dict) else lambda name, default: getattr(
            constraints, name, default)
        codes, _ = allergy_codes(tuple(get("allergies", ()) or ()))
        diet = get("diet_pattern", "omnivore") or "omnivore"
        return cls(codes, tuple(get("food_aversions", ()) or ()), diet_code(diet) or diet)


@lru_cache(maxsize=1024)
def _avoided(aversions: tuple[str, ...]) -> tuple[tuple[str, Concept], ...]:
    return tuple((a, c) for a in aversions for c in resolve_aversion(a).concepts)


def _aversion(allergens: frozenset[str], classes: frozenset[str], covers: frozenset[str], key: str,
              rules: FoodRules) -> str | None:
    """The aversion that covers a food or concept with these codes, classes and foods, if any."""
    for term, avoided in _avoided(rules.aversions):
        if key == avoided.key or (covers and covers <= avoided.covers):
            return term
        if avoided.kind == FAMILY and (allergens & avoided.allergens or classes & defining(avoided.classes)):
            return term
    return None


def _why(what: str, allergens: frozenset[str], classes: frozenset[str], covers: frozenset[str], key: str,
         rules: FoodRules) -> str | None:
    hit = sorted(allergens & set(rules.allergies))
    if hit:
        return f"{what} carries the allergen {', '.join(hit)} the member is allergic to"
    off = sorted(classes & DIET_EXCLUDES.get(rules.diet_pattern, frozenset()))
    if off:
        return f"{what} is not {rules.diet_pattern} ({', '.join(off)})"
    term = _aversion(allergens, classes, covers, key, rules)
    if term is not None:
        return f"{what} is excluded by the aversion '{term}'"
    return None


def food_refusal(food: Food, rules: FoodRules) -> str | None:
    """Why `food` may not be served under `rules` (naming the food and the rule), or None."""
    return _food_refusal(food.key, rules)


@lru_cache(maxsize=8192)
def _food_refusal(key: str, rules: FoodRules) -> str | None:
    food = FOODS[key]
    return _why(food.key, food.allergens, food.classes, frozenset({key}), f"food:{key}", rules)


def concept_refusal(concept: Concept, words: str, rules: FoodRules) -> str | None:
    """Why a food named in text (`words`, meaning `concept`) may not be named to the member, or None."""
    return _why(f"'{words}'", concept.allergens, concept.classes, concept.covers, concept.key, rules)


@cache
def _exact_names() -> dict[tuple[str, ...], str]:
    return {phrase(name): food.key for food in FOODS.values() for name in (food.key, *food.names.values(), *food.aliases)}


def find_food(item: str) -> Food | None:
    """The library food a served item names: one of its names, else the one library food its words mention
    ("cooked white rice" -> white rice); None when there is none, or more than one."""
    key = _exact_names().get(phrase(item))
    if key is not None:
        return FOODS[key]
    named = {f for m in mentions(item) for f in m.concept.covers if m.concept.key.startswith("food:")}
    return FOODS[named.pop()] if len(named) == 1 else None


def served(text: str) -> list[Mention]:
    """The foods `text` names as food to eat: a food said to be left out ("no dairy", "gluten-free",
    "ללא גלוטן", "без орехов") is not one."""
    words = tokens(text)
    out = []
    for m in mentions(text):
        before = words[m.start - 1] if m.start else ""
        after = phrase(words[m.end]) if m.end < len(words) else ()
        if before in NEGATORS or (after and after[0] in FREE):
            continue
        out.append(m)
    return out


def refusal(item: str, rules: FoodRules) -> str | None:
    """The decision for one served food (a meal-plan item or a recipe ingredient): None when it may be served,
    else why not. A food the library does not know cannot be checked, so it is refused."""
    food = find_food(item)
    if food is None:
        return (f"'{item}' is not a food of the library, so it cannot be checked against allergies, aversions "
                "and diet; name one library food")
    return food_refusal(food, rules) or text_refusal(item, rules)


def text_refusal(text: str, rules: FoodRules) -> str | None:
    """Why free text naming foods (a step, a tactic, a note, an emergency meal) may not be shown to the member."""
    for m in served(text):
        reason = concept_refusal(m.concept, m.words, rules)
        if reason:
            return reason
    return None


def meal_refusal(foods: Iterable[Food], texts: Iterable[str], rules: FoodRules) -> str | None:
    """Kosher: meat and milk never in one meal (its foods and the foods its text names)."""
    if rules.diet_pattern != "kosher":
        return None
    classes = {c for f in foods for c in f.classes} | {c for t in texts for m in served(t) for c in m.concept.classes}
    meat, milk = KOSHER_APART
    return "meat and milk in one meal are not kosher" if classes & meat and classes & milk else None


def allowed_foods(rules: FoodRules) -> list[Food]:
    """The library foods that may be served under `rules`."""
    return [food for food in FOODS.values() if food_refusal(food, rules) is None]


__all__ = ["FoodRules", "allowed_foods", "concept_refusal", "find_food", "food_refusal", "meal_refusal", "refusal",
           "served", "text_refusal"]
