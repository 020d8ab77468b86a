"""The closed vocabularies of the food constraints (NUTRITION.md, "Constraints on closed vocabularies").

Allergen codes are the EU's 14 (Regulation (EU) No 1169/2011, Annex II) and the US's 9 (FALCPA as amended by the
FASTER Act 2021) together, plus the intolerance `lactose`; diet patterns are six. A member's words are mapped to
these codes once, at intake (`gym.nutrition.allergy_terms`); every check runs on the codes and on the food
classes a library food carries (`gym.nutrition.foods`), never on words. Which classes each diet leaves out is
decided here and nowhere else; kosher's "no meat and milk in one meal" is a rule over a meal's foods
(`gym.nutrition.food_rules.meal_refusal`).
"""

from __future__ import annotations

from typing import Literal, get_args

AllergenCode = Literal["milk", "egg", "fish", "crustacean_shellfish", "mollusc", "tree_nuts", "peanut", "gluten",
                       "wheat", "soy", "sesame", "celery", "mustard", "lupin", "sulphites", "lactose"]
ALLERGENS: tuple[str, ...] = get_args(AllergenCode)
INTOLERANCES: frozenset[str] = frozenset({"lactose"})
LACTOSE_G_PER_SERVING = 1.0  # a milk food above this much lactose in a serving carries `lactose`

DietPatternCode = Literal["omnivore", "pescatarian", "vegetarian", "vegan", "kosher", "halal"]
DIET_PATTERNS: tuple[str, ...] = get_args(DietPatternCode)

# Food classes: what a food is made of, for the diet patterns (a library food's `classes`, a mentioned food's too).
CLASSES = ("meat", "poultry", "red_meat", "pork", "fish", "fish_without_scales", "crustacean", "mollusc", "dairy",
           "egg", "honey", "alcohol", "gelatin")
# The classes each diet pattern leaves out.
DIET_EXCLUDES: dict[str, frozenset[str]] = {
    "omnivore": frozenset(),
    "pescatarian": frozenset({"meat", "gelatin"}),
    "vegetarian": frozenset({"meat", "fish", "crustacean", "mollusc", "gelatin"}),
    "vegan": frozenset({"meat", "fish", "crustacean", "mollusc", "gelatin", "dairy", "egg", "honey"}),
    "kosher": frozenset({"pork", "crustacean", "mollusc", "fish_without_scales"}),
    "halal": frozenset({"pork", "alcohol"}),
}
assert set(DIET_EXCLUDES) == set(DIET_PATTERNS), "one vocabulary: the Literal and its rules"
# A class that implies others (pork is red meat is meat): a family excludes by its own, most specific classes.
IMPLIES: dict[str, frozenset[str]] = {"poultry": frozenset({"meat"}), "red_meat": frozenset({"meat"}),
                                      "pork": frozenset({"meat", "red_meat"}), "fish_without_scales": frozenset({"fish"}),
                                      "gelatin": frozenset({"meat", "pork"})}
KOSHER_APART = (frozenset({"meat"}), frozenset({"dairy"}))  # never in one meal (fish and eggs are neither)


def defining(classes: frozenset[str]) -> frozenset[str]:
    """The most specific of `classes` ("red meat" is meat and red meat: it names red meat, not chicken)."""
    implied = {c for own in classes for c in IMPLIES.get(own, ())}
    return classes - implied


def diets_of(classes: frozenset[str]) -> tuple[str, ...]:
    """The diet patterns a food of these classes belongs to (its diet tags, by the label logic above)."""
    return tuple(d for d in DIET_PATTERNS if not classes & DIET_EXCLUDES[d])


def allergen_label_key(code: str) -> str:
    """Where a person reads an allergen code's name: `nutrition.allergen.<code>` in locales/."""
    return f"nutrition.allergen.{code}"
