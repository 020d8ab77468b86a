"""The food library every agent's served food is checked against (NUTRITION.md, "Checks between agents").

Each food carries its per-100 g energy, protein, fat, carbohydrate (by difference) and total dietary fibre
as published in USDA FoodData Central (SR Legacy, April 2018 release, the last; public domain), cited by
its FDC id, so a food's numbers can be looked up at https://fdc.nal.usda.gov/food-details/<fdc_id>.
Rows marked `*` in the comment carry SR Legacy's figures rounded to three significant digits as the copy
they were taken from gives them; the others carry every published digit. Tags name the families a member's
allergy or aversion may name (`nut` covers almonds and cashews, `fish` salmon and tuna, `meat` every
land animal's flesh), the diet patterns follow from the tags, the aisle groups a shopping list, and every
food has its name and aliases in each registered language, in `locales/foods/<code>.json`.
`gym.nutrition.food_rules` decides what may be served to whom.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from core.i18n import SUPPORTED_LOCALES, in_every_language, part
from gym.nutrition.vocabulary import CLASSES, DIET_EXCLUDES, DIET_PATTERNS, diets_of

__all__ = ["AISLES", "DIET_EXCLUDES", "DIET_PATTERNS", "FOODS", "Food", "State"]
AISLES = ("produce", "meat_and_fish", "dairy_and_eggs", "bakery", "grains_and_pasta", "legumes_and_canned",
          "nuts_and_seeds", "oils_and_condiments", "plant_protein", "supplements")
State = Literal["raw", "dry", "cooked"]


@dataclass(frozen=True)
class Bought:
    """The state a cooked food is bought in, as its USDA FoodData Central entry gives it."""

    fdc_id: int
    description: str
    kcal: float
    state: State


@dataclass(frozen=True)
class Food:
    key: str  # the name agents serve it by (English, singular)
    fdc_id: int
    description: str  # the FoodData Central description
    kcal: float
    protein_g: float
    fat_g: float
    carbs_g: float
    fiber_g: float
    tags: frozenset[str]  # the families an aversion may name (`nut`, `fish`, `leafy`, ...), its classes among them
    allergens: frozenset[str]  # allergen codes by its label (gym.nutrition.vocabulary.ALLERGENS)
    state: State  # what the per-100 g values are for: the food raw, dry, or cooked as FoodData Central describes it
    aisle: str
    names: dict[str, str]  # by language code: its name in each registered language
    aliases: tuple[str, ...] = ()  # the other words it is typed as, in every registered language
    bought: Bought | None = None  # a cooked food bought dry or raw: that state's USDA entry, for its yield
    classes: frozenset[str] = field(init=False)  # what it is made of, for the diet patterns
    diets: tuple[str, ...] = field(init=False)  # its diet tags: the patterns it belongs to

    def __post_init__(self) -> None:
        object.__setattr__(self, "classes", self.tags & frozenset(CLASSES))
        object.__setattr__(self, "diets", diets_of(self.classes))

    @property
    def yield_factor(self) -> float | None:
        """Grams cooked per gram as bought (None: bought as its values are, raw, dry or ready to eat). Grains,
        pulses and potatoes gain or lose water in the pot or the oven and keep their energy, so the yield is the ratio
        of the two USDA entries' energy per 100 g."""
        return None if self.bought is None else self.bought.kcal / self.kcal

    @property
    def slug(self) -> str:
        """The food's key where words cannot go (JSON keys, locale keys: `nutrition.food.<slug>`)."""
        return self.key.replace(" ", "_")

    def per(self, grams: float) -> dict[str, float]:
        """Energy and macros of `grams` of the food."""
        k = grams / 100
        return {"calories": self.kcal * k, "protein_g": self.protein_g * k, "fat_g": self.fat_g * k,
                "carbs_g": self.carbs_g * k, "fiber_g": self.fiber_g * k}


def _f(key: str, fdc_id: int, description: str, kcal: float, protein: float, fat: float, carbs: float,
       fiber: float, tags: str, allergens: str, state: State, aisle: str) -> Food:
    """A library food; its names and aliases in each registered language come from `locales/foods/<code>.json`."""
    return Food(key, fdc_id, description, kcal, protein, fat, carbs, fiber, frozenset(tags.split()),
                frozenset(allergens.split()), state, aisle,
                {code: part("foods", code)[key]["name"] for code in SUPPORTED_LOCALES},
                in_every_language("foods", key, "aliases"), BOUGHT.get(key))


# Cooked foods people buy dry or raw: the USDA entry of the state bought (energy per 100 g), whose ratio to the cooked
# entry's is the yield a recipe converts by (`Food.yield_factor`).
BOUGHT: dict[str, Bought] = {
    "white rice": Bought(169756, "Rice, white, long-grain, regular, raw, enriched", 365, "dry"),
    "brown rice": Bought(169703, "Rice, brown, long-grain, raw", 370, "dry"),
    "quinoa": Bought(168874, "Quinoa, uncooked", 368, "dry"),
    "bulgur": Bought(170285, "Bulgur, dry", 342, "dry"),
    "rice noodles": Bought(169742, "Rice noodles, dry", 364, "dry"),
    "lentils": Bought(172420, "Lentils, raw", 352, "dry"),
    "chickpeas": Bought(173756, "Chickpeas (garbanzo beans, bengal gram), mature seeds, raw", 378, "dry"),
    "black beans": Bought(173734, "Beans, black, mature seeds, raw", 341, "dry"),
    "potato": Bought(170026, "Potatoes, flesh and skin, raw", 77, "raw"),
    "sweet potato": Bought(168482, "Sweet potato, raw, unprepared", 86, "raw"),
}


MEAT, FISH, DAIRY = "meat_and_fish", "meat_and_fish", "dairy_and_eggs"
FOODS: dict[str, Food] = {f.key: f for f in (
    # Poultry and meat
    _f("chicken breast", 171077, "Chicken, broilers or fryers, breast, meat only, raw",  # *
       120, 22.5, 2.62, 0, 0, "meat poultry chicken", "", "raw", MEAT),
    _f("turkey breast", 171098, "Turkey, whole, breast, meat only, raw",  # * NDB 05219
       114, 23.7, 1.48, 0.14, 0, "meat poultry turkey", "", "raw", MEAT),
    _f("lean beef mince", 173110, "Beef, ground, 93% lean meat / 7% fat, raw",
       152, 20.85, 7, 0, 0, "meat red_meat beef", "", "raw", MEAT),
    _f("sirloin steak", 173118, "Beef, top sirloin, steak, separable lean only, trimmed to 1/8\" fat, choice, "
       "cooked, broiled", 187, 29.5, 6.72, 0, 0, "meat red_meat beef", "", "cooked", MEAT),  # *
    _f("pork tenderloin", 168249, "Pork, fresh, loin, tenderloin, separable lean only, raw",
       109, 20.65, 2.17, 0, 0, "meat red_meat pork", "", "raw", MEAT),
    # Fish and shellfish
    _f("salmon fillet", 175167, "Fish, salmon, Atlantic, farmed, raw",  # NDB 15236
       208, 20.42, 13.42, 0, 0, "fish oily_fish salmon", "fish", "raw", FISH),
    _f("canned tuna", 173709, "Fish, tuna, light, canned in water, drained solids",  # *
       86, 19.4, 0.96, 0, 0, "fish tuna", "fish", "cooked", FISH),
    _f("cod fillet", 171955, "Fish, cod, Atlantic, raw",  # NDB 15015
       82, 17.81, 0.67, 0, 0, "fish white_fish cod", "fish", "raw", FISH),
    _f("tilapia fillet", 175176, "Fish, tilapia, raw",  # NDB 15261
       96, 20.08, 1.7, 0, 0, "fish white_fish tilapia", "fish", "raw", FISH),
    _f("shrimp", 175179, "Crustaceans, shrimp, raw",  # NDB 15270 (SR28: "raw (not previously frozen)")
       85, 20.1, 0.51, 0, 0, "crustacean shellfish", "crustacean_shellfish", "raw", FISH),
    # Eggs and dairy
    _f("egg", 171287, "Egg, whole, raw, fresh",  # *
       143, 12.6, 9.51, 0.72, 0, "egg", "egg", "raw", DAIRY),
    _f("egg white", 172183, "Egg, white, raw, fresh",  # *
       52, 10.9, 0.17, 0.73, 0, "egg", "egg", "raw", DAIRY),
    _f("greek yogurt", 170894, "Yogurt, Greek, plain, nonfat",  # *
       59, 10.2, 0.39, 3.6, 0, "dairy yogurt", "milk lactose", "raw", DAIRY),
    _f("milk", 170870, "Milk, reduced fat, fluid, 2% milkfat, with added nonfat milk solids and vitamin A and "
       "vitamin D", 51, 3.48, 1.92, 4.97, 0, "dairy", "milk lactose", "raw", DAIRY),
    _f("feta cheese", 173420, "Cheese, feta",
       265, 14.21, 21.49, 3.88, 0, "dairy cheese", "milk lactose", "raw", DAIRY),
    _f("whey protein", 173177, "Beverages, Whey protein powder isolate",  # *
       359, 58.1, 1.16, 29.1, 0, "dairy whey", "milk lactose", "dry", "supplements"),
    # Plant protein
    _f("firm tofu", 172475, "Tofu, raw, firm, prepared with calcium sulfate",
       144, 17.27, 8.72, 2.78, 2.3, "soy legume", "soy", "raw", "plant_protein"),
    _f("seitan", 168147, "Vital wheat gluten",
       370, 75.16, 1.85, 13.79, 0.6, "gluten wheat", "gluten wheat", "dry", "plant_protein"),
    _f("soy protein", 174276, "Soy protein isolate",
       335, 88.32, 3.39, 0, 0, "soy legume", "soy", "dry", "supplements"),
    _f("lentils", 172421, "Lentils, mature seeds, cooked, boiled, without salt",
       116, 9.02, 0.38, 20.13, 7.9, "legume", "", "cooked", "legumes_and_canned"),
    _f("chickpeas", 173757, "Chickpeas (garbanzo beans, bengal gram), mature seeds, cooked, boiled, without salt",
       164, 8.86, 2.59, 27.42, 7.6, "legume", "", "cooked", "legumes_and_canned"),
    _f("black beans", 173735, "Beans, black, mature seeds, cooked, boiled, without salt",
       132, 8.86, 0.54, 23.71, 8.7, "legume bean", "", "cooked", "legumes_and_canned"),
    _f("hummus", 174289, "Hummus, commercial",
       237, 7.78, 17.82, 15, 5.5, "legume sesame", "sesame", "cooked", "legumes_and_canned"),
    # Grains, bread and starches
    _f("rolled oats", 173904, "Cereals, oats, regular and quick, not fortified, dry",  # *
       379, 13.2, 6.52, 67.7, 10.1, "grain oat gluten", "gluten", "dry", "grains_and_pasta"),
    _f("white rice", 169753, "Rice, white, long-grain, regular, cooked, enriched, with salt",  # *
       130, 2.69, 0.28, 28.2, 0.4, "grain rice", "", "cooked", "grains_and_pasta"),
    _f("brown rice", 169704, "Rice, brown, long-grain, cooked",  # *
       123, 2.74, 0.97, 25.6, 1.6, "grain rice", "", "cooked", "grains_and_pasta"),
    _f("quinoa", 168917, "Quinoa, cooked",
       120, 4.4, 1.92, 21.3, 2.8, "grain", "", "cooked", "grains_and_pasta"),
    _f("buckwheat", 170286, "Buckwheat",
       343, 13.25, 3.4, 71.5, 10, "grain", "", "dry", "grains_and_pasta"),
    _f("bulgur", 170287, "Bulgur, cooked",
       83, 3.08, 0.24, 18.58, 4.5, "grain gluten wheat", "gluten wheat", "cooked", "grains_and_pasta"),
    _f("pasta", 169736, "Pasta, dry, enriched",
       371, 13.04, 1.51, 74.67, 3.2, "grain gluten wheat", "gluten wheat", "dry", "grains_and_pasta"),
    _f("rice noodles", 168914, "Rice noodles, cooked",
       108, 1.79, 0.2, 24.01, 1, "grain rice", "", "cooked", "grains_and_pasta"),
    _f("multigrain bread", 168013, "Bread, multi-grain (includes whole-grain)",
       265, 13.36, 4.23, 43.34, 7.4, "grain gluten wheat bread", "gluten wheat", "cooked", "bakery"),
    _f("rye bread", 172684, "Bread, rye",
       259, 8.5, 3.3, 48.3, 5.8, "grain gluten rye bread", "gluten wheat", "cooked", "bakery"),
    _f("wholewheat pita", 174916, "Bread, pita, whole-wheat",
       262, 9.8, 1.71, 55.89, 6.1, "grain gluten wheat bread", "gluten wheat", "cooked", "bakery"),
    _f("potato", 170093, "Potatoes, baked, flesh and skin, without salt",  # *
       93, 2.5, 0.13, 21.2, 2.2, "vegetable nightshade", "", "cooked", "produce"),
    _f("sweet potato", 168483, "Sweet potato, cooked, baked in skin, flesh, without salt",  # *
       90, 2.01, 0.15, 20.7, 3.3, "vegetable", "", "cooked", "produce"),
    # Fruit
    _f("banana", 173944, "Bananas, raw",  # *
       89, 1.09, 0.33, 22.8, 2.6, "fruit", "", "raw", "produce"),
    _f("apple", 171688, "Apples, raw, with skin",  # *
       52, 0.26, 0.17, 13.8, 2.4, "fruit", "", "raw", "produce"),
    _f("blueberries", 171711, "Blueberries, raw",  # *
       57, 0.74, 0.33, 14.5, 2.4, "fruit berry", "", "raw", "produce"),
    _f("strawberries", 167762, "Strawberries, raw",  # *
       32, 0.67, 0.3, 7.68, 2, "fruit berry", "", "raw", "produce"),
    _f("avocado", 171705, "Avocados, raw, all commercial varieties",  # *
       160, 2, 14.7, 8.53, 6.7, "fruit", "", "raw", "produce"),
    # Vegetables
    _f("broccoli", 170379, "Broccoli, raw",
       34, 2.82, 0.37, 6.64, 2.6, "vegetable", "", "raw", "produce"),
    _f("spinach", 168462, "Spinach, raw",
       23, 2.86, 0.39, 3.63, 2.2, "vegetable leafy", "", "raw", "produce"),
    _f("kale", 168421, "Kale, raw",
       35, 2.92, 1.49, 4.42, 4.1, "vegetable leafy", "", "raw", "produce"),
    _f("cauliflower", 169986, "Cauliflower, raw",
       25, 1.92, 0.28, 4.97, 2, "vegetable", "", "raw", "produce"),
    _f("brussels sprouts", 170383, "Brussels sprouts, raw",
       43, 3.38, 0.3, 8.95, 3.8, "vegetable", "", "raw", "produce"),
    _f("cabbage", 169975, "Cabbage, raw",
       25, 1.28, 0.1, 5.8, 2.5, "vegetable", "", "raw", "produce"),
    _f("asparagus", 168389, "Asparagus, raw",
       20, 2.2, 0.12, 3.88, 2.1, "vegetable", "", "raw", "produce"),
    _f("sweetcorn", 169998, "Corn, sweet, yellow, raw",
       86, 3.27, 1.35, 18.7, 2, "vegetable", "", "raw", "produce"),
    _f("romaine lettuce", 169247, "Lettuce, cos or romaine, raw",
       17, 1.23, 0.3, 3.29, 2.1, "vegetable leafy", "", "raw", "produce"),
    _f("tomato sauce", 170054, "Tomato products, canned, sauce",
       24, 1.2, 0.3, 5.31, 1.5, "vegetable nightshade tomato", "", "cooked", "legumes_and_canned"),
    # Nuts, seeds and fats
    _f("almonds", 170567, "Nuts, almonds",
       579, 21.15, 49.93, 21.55, 12.5, "nut tree_nut almond", "tree_nuts", "raw", "nuts_and_seeds"),
    _f("cashews", 170162, "Nuts, cashew nuts, raw",
       553, 18.22, 43.85, 30.19, 3.3, "nut tree_nut cashew", "tree_nuts", "raw", "nuts_and_seeds"),
    _f("almond butter", 168588, "Nuts, almond butter, plain, without salt added",
       614, 20.96, 55.5, 18.82, 10.3, "nut tree_nut almond nut_butter", "tree_nuts", "raw", "nuts_and_seeds"),
    _f("chia seeds", 170554, "Seeds, chia seeds, dried",
       486, 16.54, 30.74, 42.12, 34.4, "seed", "", "dry", "nuts_and_seeds"),
    _f("pumpkin seeds", 170556, "Seeds, pumpkin and squash seed kernels, dried",
       559, 30.23, 49.05, 10.71, 6, "seed", "", "dry", "nuts_and_seeds"),
    _f("sunflower seeds", 170562, "Seeds, sunflower seed kernels, dried",
       584, 20.78, 51.46, 20, 8.6, "seed", "", "dry", "nuts_and_seeds"),
    _f("tahini", 170191, "Seeds, sesame butter, paste",
       586, 18.08, 50.87, 24.05, 5.5, "seed sesame", "sesame", "raw", "nuts_and_seeds"),
    _f("olive oil", 171413, "Oil, olive, salad or cooking",
       884, 0, 100, 0, 0, "oil", "", "raw", "oils_and_condiments"),
)}
