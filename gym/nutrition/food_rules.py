"""Whether a served food may be served to a member: the one rule every agent's output is checked by.

A member's allergies and aversions name foods or families, in any case, singular or plural, in en/he/ru
("Eggs", "nuts", "seafood", "דגים", "орехи"). A word matches a food when it names one of the food's families
(its tags, or a family word such as "seafood" = fish + shellfish, "dairy"/"milk"/"lactose"), or when it
appears, as whole words, in one of the food's names or aliases ("salmon" matches "salmon fillet"). The diet
pattern leaves out the families `gym.nutrition.foods.DIET_EXCLUDES` names. A served food that is not in the
library cannot be checked and is refused; free text that mentions foods (an emergency meal, a supplement,
a primary protein) is refused when a food or family it mentions is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from gym.nutrition.foods import DIET_EXCLUDES, FOODS, Food

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_KEEP_S = ("ss", "us", "is")

# Family words a member may write -> the library tags they cover (keys in any language, normalized on use).
FAMILIES: dict[str, tuple[str, ...]] = {
    "seafood": ("fish", "shellfish"), "sea food": ("fish", "shellfish"), "tree nut": ("nut",), "nut": ("nut",),
    "milk": ("dairy",), "lactose": ("dairy",), "dairy": ("dairy",), "dairy product": ("dairy",),
    "cheese": ("dairy",), "whey": ("dairy",), "casein": ("dairy",), "egg": ("egg",), "gluten": ("gluten",),
    "wheat": ("wheat",), "soy": ("soy",), "soya": ("soy",), "sesame": ("sesame",), "peanut": ("peanut",),
    "groundnut": ("peanut",), "peanut butter": ("peanut",), "nut butter": ("nut butter", "peanut"),
    "meat": ("meat",), "red meat": ("red meat",), "white meat": ("poultry",), "poultry": ("poultry",),
    "fish": ("fish",), "shellfish": ("shellfish",), "crustacean": ("shellfish",), "mollusc": ("shellfish",),
    "mollusk": ("shellfish",), "animal product": ("meat", "fish", "shellfish", "dairy", "egg"),
    # Hebrew
    "אגוזים": ("nut",), "אגוז": ("nut",), "דגים": ("fish",), "דג": ("fish",), "פירות ים": ("fish", "shellfish"),
    "חלב": ("dairy",), "מוצרי חלב": ("dairy",), "לקטוז": ("dairy",), "ביצים": ("egg",), "ביצה": ("egg",),
    "גלוטן": ("gluten",), "חיטה": ("wheat",), "סויה": ("soy",), "שומשום": ("sesame",), "בוטנים": ("peanut",),
    "בוטן": ("peanut",), "בשר": ("meat",), "עוף": ("poultry",), "רכיכות": ("shellfish",),
    "סרטנים": ("shellfish",), "בשר אדום": ("red meat",),
    # Russian
    "орехи": ("nut",), "орех": ("nut",), "рыба": ("fish",), "морепродукты": ("fish", "shellfish"),
    "молоко": ("dairy",), "молочные продукты": ("dairy",), "лактоза": ("dairy",), "яйца": ("egg",),
    "яйцо": ("egg",), "глютен": ("gluten",), "пшеница": ("wheat",), "соя": ("soy",), "кунжут": ("sesame",),
    "арахис": ("peanut",), "мясо": ("meat",), "птица": ("poultry",), "курица": ("poultry",),
    "моллюски": ("shellfish",), "ракообразные": ("shellfish",), "красное мясо": ("red meat",),
}


@lru_cache(maxsize=16_384)  # pure, and asked hundreds of thousands of times while a week is planned and checked
def normalize(text: str) -> str:
    """Lower case, words only, English plurals folded ("Eggs" -> "egg", "berries" -> "berry")."""
    words = []
    for word in _WORD.findall(text.lower()):
        if word.isascii() and len(word) > 3:
            if word.endswith("ies"):
                word = word[:-3] + "y"
            elif word.endswith("oes"):
                word = word[:-2]
            elif word.endswith("s") and not word.endswith(_KEEP_S):
                word = word[:-1]
        words.append(word)
    return " ".join(words)


def _contains(haystack: str, needle: str) -> bool:
    """`needle`'s words appear, in order and whole, in `haystack` (both normalized)."""
    return bool(needle) and f" {needle} " in f" {haystack} "


@cache
def _families() -> dict[str, frozenset[str]]:
    return {normalize(word): frozenset(normalize(t) for t in tags) for word, tags in FAMILIES.items()}


@cache
def _tags(food_key: str) -> frozenset[str]:
    return frozenset(normalize(t) for t in FOODS[food_key].tags)


@cache
def _names(food_key: str) -> tuple[str, ...]:
    food = FOODS[food_key]
    return tuple(dict.fromkeys(normalize(n) for n in (food.key, *food.names.values(), *food.aliases)))


@cache
def _all_tags() -> frozenset[str]:
    return frozenset(t for key in FOODS for t in _tags(key))


def families_of(term: str) -> frozenset[str]:
    """The library tags a member's word names ("seafood" -> fish, shellfish; "almonds" -> almond)."""
    word = normalize(term)
    named = set(_families().get(word, ()))
    if word in _all_tags():
        named.add(word)
    return frozenset(named)


def matches(food: Food, term: str) -> bool:
    """A member's allergy or aversion `term` covers `food` (the food itself or one of its families)."""
    word = normalize(term)
    if not word:
        return False
    if families_of(term) & _tags(food.key):
        return True
    return any(_contains(name, word) for name in _names(food.key))


def find_food(item: str) -> Food | None:
    """The library food a served item names: one of its names exactly, else the food whose longest name its words
    contain ("cooked white rice" -> white rice); None when there is none or a tie."""
    word = normalize(item)
    for key in FOODS:
        if word in _names(key):
            return FOODS[key]
    best: dict[str, int] = {}
    for key in FOODS:
        lengths = [len(name) for name in _names(key) if _contains(word, name)]
        if lengths:
            best[key] = max(lengths)
    if not best:
        return None
    top = max(best.values())
    keys = [key for key, length in best.items() if length == top]
    return FOODS[keys[0]] if len(keys) == 1 else None


@dataclass(frozen=True)
class FoodRules:
    """A member's food constraints, from the intake or the `client_constraints` every agent receives."""

    allergies: tuple[str, ...] = ()
    aversions: tuple[str, ...] = ()
    diet_pattern: str = "omnivore"

    @classmethod
    def of(cls, constraints: Any) -> FoodRules:
        """From an `IntakeData`, `ClientConstraints` or their dict form."""
        get = constraints.get if isinstance(constraints, dict) else lambda name, default: getattr(
            constraints, name, default)
        return cls(tuple(get("allergies", ()) or ()), tuple(get("food_aversions", ()) or ()),
                   get("diet_pattern", "omnivore") or "omnivore")


def food_refusal(food: Food, rules: FoodRules) -> str | None:
    """Why `food` may not be served under `rules` (naming the food and the rule), or None."""
    return _food_refusal(food.key, rules)


@lru_cache(maxsize=8192)
def _food_refusal(key: str, rules: FoodRules) -> str | None:
    food = FOODS[key]
    for kind, terms in (("allergy", rules.allergies), ("aversion", rules.aversions)):
        for term in terms:
            if matches(food, term):
                return f"{food.key} is excluded by the {kind} '{term}'"
    off = sorted(_tags(food.key) & {normalize(t) for t in DIET_EXCLUDES[rules.diet_pattern]})
    if off:
        return f"{food.key} is not {rules.diet_pattern} ({', '.join(off)})"
    return None


def refusal(item: str, rules: FoodRules) -> str | None:
    """The decision for one served food (a meal-plan item or a recipe ingredient): None when it may be served,
    else why not. A food the library does not know cannot be checked, so it is refused."""
    food = find_food(item)
    if food is None:
        return (f"'{item}' is not a food of the library, so it cannot be checked against allergies, aversions "
                "and diet; name one library food")
    return food_refusal(food, rules) or text_refusal(item, rules)


@lru_cache(maxsize=4096)
def mentioned(text: str) -> tuple[tuple[Food, ...], frozenset[str]]:
    """The library foods and the families free text mentions by name."""
    words = normalize(text)
    foods = tuple(FOODS[key] for key in FOODS if any(_contains(words, name) for name in _names(key)))
    families = frozenset(t for word, tags in _families().items() if _contains(words, word) for t in tags)
    return foods, families | frozenset(t for t in _all_tags() if _contains(words, t))


def text_refusal(text: str, rules: FoodRules) -> str | None:
    """Why free text naming foods (an emergency meal, a supplement, a primary protein) may not be served."""
    foods, families = mentioned(text)
    for food in foods:
        reason = food_refusal(food, rules)
        if reason:
            return reason
    words = normalize(text)
    for kind, terms in (("allergy", rules.allergies), ("aversion", rules.aversions)):
        for term in terms:
            if families_of(term) & families or _contains(words, normalize(term)):
                return f"'{text}' is excluded by the {kind} '{term}'"
    off = sorted(families & {normalize(t) for t in DIET_EXCLUDES[rules.diet_pattern]})
    if off:
        return f"'{text}' is not {rules.diet_pattern} ({', '.join(off)})"
    return None


def allowed_foods(rules: FoodRules) -> list[Food]:
    """The library foods that may be served under `rules`."""
    return [food for food in FOODS.values() if food_refusal(food, rules) is None]
