"""The week's grocery list (issue 25 item 8): a recipe's grams (one serving) × the slots it serves, summed per
library food (names and aliases folded), shelved by the library's aisle in shop order, rounded up."""

from __future__ import annotations

from typing import Any

from gym.nutrition.grocery import grocery_list


def _recipe(ingredients: list[tuple[str, float]], slots: int, servings: float | None = None) -> dict[str, Any]:
    return {"servings": servings or slots, "slots": [{"day": "monday", "meal": "lunch"}] * slots,
            "ingredients": [{"item": item, "amount_g": grams, "prep_notes": ""} for item, grams in ingredients]}


def test_grams_follow_the_slots_served_and_the_servings_cooked() -> None:
    got = grocery_list({"recipes": [
        _recipe([("chicken breast", 150), ("white rice", 200.4), ("olive oil", 5)], slots=3),
        _recipe([("Chicken", 200), ("broccoli", 75)], slots=2, servings=2),  # "chicken" is chicken breast
        _recipe([("banana", 120), ("greek yogurt", 250)], slots=1),
    ]})
    assert got == [
        {"aisle": "produce", "items": [{"food": "banana", "grams": 120}, {"food": "broccoli", "grams": 150}]},
        {"aisle": "meat_and_fish", "items": [{"food": "chicken_breast", "grams": 850}]},  # 150 × 3 + 200 × 2
        {"aisle": "dairy_and_eggs", "items": [{"food": "greek_yogurt", "grams": 250}]},
        {"aisle": "grains_and_pasta", "items": [{"food": "white_rice", "grams": 602}]},  # 601.2 rounded up
        {"aisle": "oils_and_condiments", "items": [{"food": "olive_oil", "grams": 15}]},
    ]


def test_a_food_the_library_does_not_know_is_listed_under_other_and_no_recipes_is_no_list() -> None:
    got = grocery_list({"recipes": [_recipe([("Dragon fruit", 100), ("apple", 80)], slots=2)]})
    assert got == [{"aisle": "produce", "items": [{"food": "apple", "grams": 160}]},
                   {"aisle": "other", "items": [{"food": "dragon fruit", "grams": 200}]}]
    assert grocery_list(None) is None and grocery_list({"recipes": []}) is None
