"""What the service understood of a member's food constraints, in the member's language (NUTRITION.md: "Answers
carry the codes understood, in the member's language, so the member sees what was understood").

Allergies show their codes with their names (`console.nutrition.enum.allergen.<code>` in locales/), or, for a term
not understood, the nearest codes; the diet pattern its name; each aversion the library foods it names, or the
allergen and food-class names of a family without library foods ("peanut butter": Peanuts), or that it was not
recognised. The same words the nutrition page reads.
"""

from __future__ import annotations

from typing import Any

from core.i18n import catalog
from gym.nutrition.allergy_terms import diet_code, resolve_aversion, understand_allergy
from gym.nutrition.foods import FOODS
from gym.nutrition.vocabulary import ALLERGENS, CLASSES, DIET_PATTERNS


def _enum(locale: str, group: str) -> dict[str, str]:
    return catalog(locale)["console"]["nutrition"]["enum"].get(group, {})


def _code(code: str, locale: str) -> dict[str, str]:
    return {"code": code, "label": _enum(locale, "allergen").get(code, code)}


def understood(data: dict[str, Any], locale: str) -> dict[str, Any]:
    """`{allergies: [...], dietPattern, aversions: [...]}` for an intake (raw, the member's words, or stored)."""
    allergies = []
    for term in data.get("allergies") or []:
        if not isinstance(term, str):
            continue
        found = understand_allergy(term)
        allergies.append({"term": term, "understood": found.understood,
                          "codes": [_code(c, locale) for c in found.codes] if found.understood else [],
                          "unknownWords": list(found.unknown), "nearest": [_code(c, locale) for c in found.nearest]})
    diet_text = data.get("diet_pattern") or "omnivore"
    diet = diet_code(diet_text) if isinstance(diet_text, str) else None
    foods = catalog(locale)["console"]["nutrition"].get("food", {})
    classes = _enum(locale, "foodClass")
    aversions = []
    for term in data.get("food_aversions") or []:
        if not isinstance(term, str):
            continue
        aversion = resolve_aversion(term)
        named = [{"food": FOODS[f].slug, "label": foods.get(FOODS[f].slug, f)} for f in sorted(aversion.foods)]
        families = [_code(c, locale)["label"] for concept in aversion.concepts if not concept.covers
                    for c in ALLERGENS if c in concept.allergens]
        families += [classes.get(c, c) for concept in aversion.concepts if not concept.covers and not concept.allergens
                     for c in CLASSES if c in concept.classes][:1]
        aversions.append({"term": term, "recognised": aversion.recognised, "foods": named, "families": families})
    return {"allergies": allergies,
            "dietPattern": {"code": diet, "label": _enum(locale, "diet_pattern").get(diet, diet)} if diet else None,
            "aversions": aversions}


def vocabulary(locale: str) -> dict[str, Any]:
    """The closed vocabularies with their names, for a picker: allergen codes and diet patterns."""
    diets = _enum(locale, "diet_pattern")
    return {"allergens": [_code(c, locale) for c in ALLERGENS],
            "dietPatterns": [{"code": d, "label": diets.get(d, d)} for d in DIET_PATTERNS]}
