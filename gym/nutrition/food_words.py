"""The food words of every registered language, each meaning one concept: what it carries (allergen codes, food
classes) and which library foods it names. The one dictionary a member's allergies and aversions and every agent's
free text are read with (`gym.nutrition.food_lexicon` matches it; `gym.nutrition.allergy_terms` maps intake words).

Words are dictionary forms; `gym.nutrition.word_forms` meets their inflections ("орехов", "ללקטוז", "peanuts"),
so a word is listed once per lemma, with only the forms Russian and Hebrew make irregularly ("яиц", "креветок").
A concept is a family ("nuts", "seafood", "meat": it excludes by the codes or classes it carries) or a food ("salmon",
"bacon", "cheese": it names foods). The library's own foods join as food concepts by their names in each language
(`gym.nutrition.foods`). The codes and classes are here; the words are each language's, in
`locales/food_words/<code>.json` (`concepts` by key, `diets` by diet pattern, `frame`). `FRAME` holds the words
around an allergy that name no food ("allergic to", "-free", "непереносимость", "רגישות ל"): what is left after
them must be food words, or the term is not understood.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.i18n import DEFAULT_LOCALE, in_every_language, part

FAMILY, FOOD = "family", "food"


@dataclass(frozen=True)
class Words:
    key: str
    kind: str  # FAMILY or FOOD
    allergens: str  # space-separated codes
    classes: str  # space-separated food classes
    tags: str  # the library tags whose foods it names ("" for none)
    names: str  # the codes an allergy written with it names ("wheat": wheat; it carries gluten too)
    words: tuple[str, ...]  # its words in every registered language, `concepts.<key>` of locales/food_words/


def _w(key: str, kind: str, allergens: str, classes: str, tags: str, *, names: str | None = None) -> Words:
    return Words(key, kind, allergens, classes, tags, allergens if names is None else names,
                 in_every_language("food_words", "concepts", key))


CONCEPTS: tuple[Words, ...] = (
    # Milk and lactose
    _w("dairy", FAMILY, "milk lactose", "dairy", "dairy"),
    _w("lactose", FAMILY, "lactose", "dairy", "dairy"),
    _w("cheese", FOOD, "milk lactose", "dairy", "cheese"),
    _w("butter", FOOD, "milk", "dairy", ""),
    _w("cream", FOOD, "milk lactose", "dairy", ""),
    _w("yogurt", FOOD, "milk lactose", "dairy", "yogurt"),
    _w("whey", FOOD, "milk lactose", "dairy", "whey"),
    # Eggs
    _w("egg", FAMILY, "egg", "egg", "egg"),
    # Fish, crustaceans, molluscs
    _w("seafood", FAMILY, "fish crustacean_shellfish mollusc", "fish crustacean mollusc", "fish crustacean"),
    _w("shellfish", FAMILY, "crustacean_shellfish mollusc", "crustacean mollusc", "crustacean"),
    _w("fish", FAMILY, "fish", "fish", "fish"),
    _w("scaled fish", FOOD, "fish", "fish", ""),
    _w("fish without scales", FOOD, "fish", "fish fish_without_scales", ""),
    _w("crustacean", FAMILY, "crustacean_shellfish", "crustacean", "crustacean"),
    _w("mollusc", FAMILY, "mollusc", "mollusc", ""),
    # Nuts and peanuts
    _w("nuts", FAMILY, "tree_nuts peanut", "", "nut"),
    _w("tree nuts", FAMILY, "tree_nuts", "", "tree_nut"),
    _w("peanut", FAMILY, "peanut", "", "peanut"),
    # Cereals
    _w("gluten", FAMILY, "gluten", "", "gluten"),
    _w("wheat", FAMILY, "wheat gluten", "", "wheat",
       names="wheat"),
    _w("bread", FOOD, "wheat gluten", "", "bread"),
    _w("rice", FOOD, "", "", "rice"),
    _w("oats", FOOD, "gluten", "", "oat"),
    _w("noodles", FOOD, "wheat gluten", "", ""),
    # Soy, sesame and the other EU allergens
    _w("soy", FAMILY, "soy", "", "soy"),
    _w("soy sauce", FOOD, "soy wheat gluten", "", ""),
    _w("sesame", FAMILY, "sesame", "", "sesame"),
    _w("celery", FAMILY, "celery", "", ""),
    _w("mustard", FAMILY, "mustard", "", ""),
    _w("lupin", FAMILY, "lupin", "", ""),
    _w("sulphites", FAMILY, "sulphites", "", ""),
    # Meat and the other classes diets leave out
    _w("meat", FAMILY, "", "meat", "meat"),
    _w("red meat", FAMILY, "", "meat red_meat", "red_meat"),
    _w("beef", FOOD, "", "meat red_meat", "beef"),
    _w("lamb", FOOD, "", "meat red_meat", ""),
    _w("pork", FAMILY, "", "meat red_meat pork", "pork"),
    _w("pork products", FOOD, "", "meat red_meat pork", ""),
    _w("poultry", FAMILY, "", "meat poultry", "poultry"),
    _w("duck", FOOD, "", "meat poultry", ""),
    _w("gelatin", FOOD, "", "gelatin pork meat", ""),
    _w("honey", FOOD, "", "honey", ""),
    _w("alcohol", FAMILY, "sulphites", "alcohol", ""),
    # Words that name a food some allergens share their name with, and are not it
    _w("plant milk", FOOD, "", "", ""),
    _w("almond milk", FOOD, "tree_nuts", "", ""),
    _w("cocoa butter", FOOD, "", "", ""),
)


# Diet patterns in the member's words (the intake's `diet_pattern`), every registered language's.
DIETS: dict[str, tuple[str, ...]] = {
    diet: in_every_language("food_words", "diets", diet) for diet in part("food_words", DEFAULT_LOCALE)["diets"]}

# The words around an allergy or a diet that name no food, every registered language's.
FRAME: tuple[str, ...] = in_every_language("food_words", "frame")
