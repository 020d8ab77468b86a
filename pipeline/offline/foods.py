"""The packaged food and recipe library the offline agents cook from (per 100 g, rounded label values).

Each recipe template pairs a protein food with an energy food and fixed extras; the CHEF solves the
two grams so a serving hits its slot's calories and protein exactly.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Food:
    name: str
    kcal: float
    protein_g: float
    fat_g: float
    carbs_g: float
    fiber_g: float


FOODS: dict[str, Food] = {f.name: f for f in (
    Food("chicken breast", 165, 31.0, 3.6, 0.0, 0.0),
    Food("salmon fillet", 208, 20.0, 13.0, 0.0, 0.0),
    Food("lean beef mince", 176, 20.0, 10.0, 0.0, 0.0),
    Food("firm tofu", 144, 17.0, 9.0, 3.0, 2.0),
    Food("eggs", 143, 12.6, 9.5, 0.7, 0.0),
    Food("greek yogurt", 97, 9.0, 5.0, 3.9, 0.0),
    Food("cottage cheese", 98, 11.0, 4.3, 3.4, 0.0),
    Food("whey protein", 400, 80.0, 6.0, 8.0, 0.0),
    Food("cooked rice", 130, 2.7, 0.3, 28.0, 0.4),
    Food("cooked pasta", 158, 5.8, 0.9, 31.0, 1.8),
    Food("rolled oats", 389, 16.9, 6.9, 66.0, 10.6),
    Food("sourdough bread", 260, 9.0, 1.5, 50.0, 2.7),
    Food("sweet potato", 86, 1.6, 0.1, 20.0, 3.0),
    Food("banana", 89, 1.1, 0.3, 23.0, 2.6),
    Food("granola", 471, 10.0, 20.0, 64.0, 7.0),
    Food("mixed vegetables", 35, 2.0, 0.3, 7.0, 3.0),
    Food("berries", 50, 0.7, 0.3, 12.0, 2.4),
    Food("olive oil", 884, 0.0, 100.0, 0.0, 0.0),
)}


@dataclass(frozen=True)
class RecipeTemplate:
    recipe_id: str
    meal: str
    name: str
    cuisine: str
    protein_food: str
    energy_food: str
    extras: tuple[tuple[str, float], ...]
    steps: tuple[str, ...]
    prep_min: int
    cook_min: int
    fridge_days: int
    freezer_friendly: bool


def _t(recipe_id: str, meal: str, name: str, cuisine: str, protein: str, energy: str,
       extras: tuple[tuple[str, float], ...], steps: tuple[str, ...], prep: int, cook: int, fridge: int = 3,
       freezer: bool = False) -> RecipeTemplate:
    return RecipeTemplate(recipe_id, meal, name, cuisine, protein, energy, extras, steps, prep, cook, fridge, freezer)


RECIPES: tuple[RecipeTemplate, ...] = (
    _t("oats-yogurt-bowl", "breakfast", "Overnight oats with yogurt", "nordic", "greek yogurt", "rolled oats",
       (("berries", 60),), ("Stir oats into yogurt.", "Top with berries.", "Chill overnight."), 5, 0),
    _t("egg-toast", "breakfast", "Scrambled eggs on sourdough", "british", "eggs", "sourdough bread",
       (("olive oil", 3),), ("Whisk the eggs.", "Scramble in the oil over low heat.", "Serve on toast."), 5, 5, 1),
    _t("chicken-rice-bowl", "lunch", "Chicken rice bowl", "japanese", "chicken breast", "cooked rice",
       (("mixed vegetables", 80), ("olive oil", 5)), ("Grill the chicken.", "Steam the vegetables.",
                                                       "Serve over rice."), 10, 20, 3, True),
    _t("tofu-pasta", "lunch", "Tofu and vegetable pasta", "italian", "firm tofu", "cooked pasta",
       (("mixed vegetables", 80), ("olive oil", 5)), ("Brown the tofu.", "Toss with pasta and vegetables."),
       10, 15, 3, True),
    _t("cottage-banana", "snack", "Cottage cheese with banana", "american", "cottage cheese", "banana", (),
       ("Slice the banana over the cottage cheese.",), 3, 0, 1),
    _t("yogurt-granola", "snack", "Yogurt and granola cup", "american", "greek yogurt", "granola",
       (("berries", 40),), ("Layer yogurt, granola and berries.",), 3, 0, 1),
    _t("salmon-sweet-potato", "dinner", "Baked salmon with sweet potato", "mediterranean", "salmon fillet",
       "sweet potato", (("mixed vegetables", 100),), ("Roast the sweet potato 25 min.", "Bake the salmon 12 min.",
                                                       "Serve with vegetables."), 10, 30, 2),
    _t("beef-rice", "dinner", "Beef and rice skillet", "mexican", "lean beef mince", "cooked rice",
       (("mixed vegetables", 100), ("olive oil", 5)), ("Brown the beef.", "Add vegetables and rice.",
                                                        "Simmer 5 min."), 10, 20, 3, True),
    _t("casein-oats", "presleep", "Protein oats pot", "nordic", "whey protein", "rolled oats", (("berries", 40),),
       ("Mix oats with water and protein.", "Top with berries."), 3, 2, 2),
    _t("yogurt-banana", "presleep", "Yogurt with banana", "american", "greek yogurt", "banana", (),
       ("Slice the banana into the yogurt.",), 2, 0, 1),
)
