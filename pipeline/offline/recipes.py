"""The offline CHEF's cookbook: recipe templates over the food library (`gym.nutrition.foods`).

A template lists its components, each one library food or a choice of several, with the portion range a cook
would use (grams, as weighed: dry oats, pasta and buckwheat, cooked rice, beans and fish); a component whose
range starts at 0 is optional. A variant picks one food per component; the variants a member may eat are those
whose every food passes the member's food rules (an optional component whose food does not pass is left out).
The planner (`pipeline.offline.planner`) chooses variants and grams; the steps name the chosen foods.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gym.nutrition.food_rules import FoodRules, food_refusal, meal_refusal
from gym.nutrition.foods import FOODS, Food

BREAKFAST, LUNCH, SNACK, DINNER, PRESLEEP = "breakfast", "lunch", "snack", "dinner", "presleep"
MAINS = (LUNCH, DINNER)
LIGHT = (SNACK, PRESLEEP)

LEAN = ("chicken breast", "turkey breast", "lean beef mince", "firm tofu", "shrimp", "seitan")
FISH = ("salmon fillet", "cod fillet", "tilapia fillet")
BERRIES = ("blueberries", "strawberries")
SHAKE = ("whey protein", "soy protein")
NUTS_SEEDS = ("almonds", "pumpkin seeds", "sunflower seeds", "cashews")
BREAD = ("multigrain bread", "rye bread")
RICE = ("white rice", "brown rice")


@dataclass(frozen=True)
class Component:
    foods: tuple[str, ...]
    lo: float
    hi: float


@dataclass(frozen=True)
class Template:
    key: str
    meals: tuple[str, ...]
    name: str  # "{0}" etc. are the chosen foods of the components, in order
    cuisine: str
    components: tuple[Component, ...]
    steps: tuple[str, ...]
    prep_min: int
    cook_min: int
    fridge_days: int = 3
    freezer: bool = False
    dish: int | None = None  # the component whose food names the dish ("Salmon" or "Cod" with potato), if any


@dataclass(frozen=True)
class Variant:
    """A template with one food per component (None: an optional component left out). `key` names the template
    and its main choice (the first component offering several foods): the dish a week counts."""

    template: Template
    foods: tuple[str | None, ...]
    key: str

    @property
    def dish(self) -> str:
        """What a week counts when it caps repeats: the template, and the food that names the dish if any."""
        index = self.template.dish
        food = self.foods[index] if index is not None else None
        return f"{self.template.key}-{food.replace(' ', '-')}" if food else self.template.key

    @property
    def parts(self) -> list[tuple[Food, Component]]:
        return [(FOODS[f], c) for f, c in zip(self.foods, self.template.components, strict=True) if f]

    @property
    def name(self) -> str:
        text = self.template.name.format(*(f or "" for f in self.foods))
        return " ".join(text.split()).capitalize()

    @property
    def main_protein(self) -> str:
        return max(self.parts, key=lambda part: part[0].protein_g * part[1].hi)[0].key

    def steps(self) -> list[str]:
        """The steps naming the chosen foods ("∅" where an optional component has none)."""
        return [" ".join(step.format(*(f or "∅" for f in self.foods)).split()) for step in self.template.steps]


def min_use(food: str) -> float:
    """The least of an optional ingredient worth weighing: a teaspoon of oil, a few nuts or seeds, else 10 g."""
    tags = FOODS[food].tags
    return 3.0 if "oil" in tags else 5.0 if tags & {"nut", "seed"} else 10.0


def _c(foods: str | tuple[str, ...], lo: float, hi: float) -> Component:
    return Component((foods,) if isinstance(foods, str) else foods, lo, hi)


TEMPLATES: tuple[Template, ...] = (
    # Breakfast
    Template("overnight-oats", (BREAKFAST, PRESLEEP), "Overnight oats with {2}", "nordic",
             (_c("rolled oats", 30, 120), _c(("greek yogurt",), 0, 300), _c((*BERRIES, "banana"), 50, 200),
              _c("chia seeds", 0, 25), _c(SHAKE, 0, 50)),
             ("Stir the {0} with water (and the {1} and {4} if used) in a jar.", "Top with {2} and {3}.",
              "Chill overnight; eat cold."), 5, 0, 2),
    Template("eggs-on-toast", (BREAKFAST,), "Scrambled eggs with spinach on {2}", "british",
             (_c("egg", 100, 250), _c("egg white", 0, 250), _c(BREAD, 40, 160), _c("spinach", 30, 150),
              _c("olive oil", 0, 10)),
             ("Whisk the {0} with the {1}.", "Wilt the {3} in the {4}, add the eggs and stir over low heat.",
              "Serve on toasted {2}."), 5, 8, 1),
    Template("tofu-scramble", (BREAKFAST, LUNCH), "Tofu scramble with {2} on {1}", "american",
             (_c("firm tofu", 100, 350), _c(BREAD, 40, 160), _c(("spinach", "kale"), 30, 150),
              _c("olive oil", 3, 12), _c("sweetcorn", 0, 100)),
             ("Crumble the {0} into the hot {3}; cook 5 min.", "Add the {2} (and {4}) and stir until wilted.",
              "Serve on toasted {1}."), 5, 10, 2),
    Template("shakshuka", (BREAKFAST, LUNCH, DINNER), "Shakshuka", "israeli",
             (_c("egg", 100, 250), _c("tomato sauce", 120, 350), _c("olive oil", 3, 12), _c(BREAD, 0, 160),
              _c("feta cheese", 0, 40), _c("spinach", 0, 100)),
             ("Simmer the {1} in the {2} with the {5} for 5 min.", "Make wells, crack in the {0}, cover and cook "
              "until set.", "Crumble over the {4}; serve with {3}."), 5, 15, 1),
    Template("yogurt-bowl", (BREAKFAST, SNACK, PRESLEEP), "Greek yogurt bowl with {1}", "greek",
             (_c("greek yogurt", 120, 400), _c((*BERRIES, "banana", "apple"), 50, 200), _c("rolled oats", 0, 60),
              _c(NUTS_SEEDS, 0, 30), _c("chia seeds", 0, 15)),
             ("Spoon the {0} into a bowl.", "Top with {1}, {2}, {3} and {4}."), 3, 0, 1, dish=1),
    Template("buckwheat-porridge", (BREAKFAST,), "Buckwheat porridge with {2}", "russian",
             (_c("buckwheat", 40, 130), _c("milk", 0, 300), _c(("banana", "apple", *BERRIES), 50, 200),
              _c(SHAKE, 0, 50), _c(NUTS_SEEDS, 0, 30)),
             ("Simmer the {0} in twice its volume of water (and the {1}) for 15 min.",
              "Stir in the {3} off the heat.", "Top with {2} and {4}."), 5, 15, 3, dish=2),
    Template("quinoa-breakfast", (BREAKFAST,), "Warm quinoa bowl with {1}", "peruvian",
             (_c("quinoa", 100, 350), _c((*BERRIES, "banana", "apple"), 50, 200), _c(SHAKE, 0, 50),
              _c(("pumpkin seeds", "sunflower seeds", "almonds"), 0, 30), _c("greek yogurt", 0, 200)),
             ("Warm the cooked {0}.", "Stir in the {2} with a splash of water.", "Top with {1}, {3} and {4}."),
             5, 5, 3, dish=1),
    Template("avocado-toast", (BREAKFAST, SNACK), "Avocado toast with {2}", "american",
             (_c(BREAD, 40, 160), _c("avocado", 30, 120), _c(("egg", "firm tofu", "canned tuna"), 50, 200),
              _c("spinach", 0, 80)),
             ("Toast the {0} and mash the {1} on it.", "Top with the cooked {2} and the {3}."), 5, 8, 1, dish=2),
    # Lunch and dinner
    Template("rice-bowl", MAINS, "{0} rice bowl with {2}", "japanese",
             (_c((*LEAN, "salmon fillet"), 80, 350), _c(RICE, 100, 450), _c(("broccoli", "cabbage"), 80, 250),
              _c("olive oil", 3, 20), _c("sweetcorn", 0, 120)),
             ("Season and cook the {0} (grill, pan-fry or bake) until done.", "Steam the {2} for 5 min.",
              "Serve over the {1} with the {4}; dress with the {3}."), 10, 20, 3, True, dish=0),
    Template("noodle-stir-fry", MAINS, "{0} stir-fry with rice noodles", "thai",
             (_c(LEAN, 80, 350), _c("rice noodles", 100, 450), _c(("broccoli", "cabbage", "asparagus"), 80, 250),
              _c("olive oil", 3, 20), _c(("cashews", "tahini"), 0, 25)),
             ("Slice the {0} and sear it in the hot {3}.", "Add the {2}; stir-fry 4 min.",
              "Toss with the soaked {1}; finish with {4}."), 15, 15, 2, dish=0),
    Template("veg-stir-fry", MAINS, "{0} and {1} stir-fry", "chinese",
             (_c((*LEAN, *FISH), 100, 350), _c(("broccoli", "cabbage", "asparagus", "brussels sprouts", "cauliflower"),
                                               100, 300),
              _c(("spinach", "kale"), 0, 150), _c("olive oil", 3, 15), _c(RICE, 0, 250)),
             ("Cut the {0} into strips and sear in the hot {3}.", "Add the {1} and a splash of water; stir-fry 5 min.",
              "Toss in the {2} until wilted; serve with the {4}."), 10, 12, 2, dish=0),
    Template("lentil-curry", MAINS, "{0} and {2} curry with {1}", "indian",
             (_c(("lentils", "chickpeas", "firm tofu"), 100, 350), _c(RICE, 80, 400),
              _c(("spinach", "cauliflower"), 80, 250), _c("tomato sauce", 50, 250), _c("olive oil", 3, 20),
              _c("greek yogurt", 0, 100)),
             ("Warm the {4}, add the {3} and curry spices; simmer 5 min.", "Add the {0} and {2}; simmer 10 min.",
              "Serve over the {1}, topped with the {5}."), 10, 20, 4, True, dish=0),
    Template("fried-rice", MAINS, "{0} fried rice with {2}", "chinese",
             (_c(("egg", "firm tofu", "shrimp", "chicken breast"), 100, 300), _c(RICE, 100, 450),
              _c(("sweetcorn", "broccoli", "cabbage"), 60, 200), _c("olive oil", 3, 15), _c("spinach", 0, 100)),
             ("Cook the {0} in half the {3}; set aside.", "Stir-fry the {2} and the {4} in the rest of the {3}.",
              "Add the {1} and the {0}; toss until hot."), 10, 12, 2, dish=0),
    Template("chili", MAINS, "{0} chili with {2}", "mexican",
             (_c(("black beans", "lentils", "lean beef mince", "turkey breast"), 100, 350),
              _c("tomato sauce", 100, 300), _c(("sweet potato", "potato"), 100, 400), _c("sweetcorn", 0, 120),
              _c("greek yogurt", 0, 100), _c("avocado", 0, 80)),
             ("Simmer the {0} in the {1} with chili and cumin for 20 min, the {3} added for the last 5.",
              "Bake the {2} at 200 °C for 40 min.", "Serve the chili over the {2}, topped with the {4} and {5}."),
             10, 40, 4, True, dish=0),
    Template("chickpea-salad", MAINS, "Chickpea, quinoa and {2} salad", "mediterranean",
             (_c("chickpeas", 80, 300), _c("quinoa", 80, 300), _c(("romaine lettuce", "kale"), 50, 150),
              _c("olive oil", 5, 20), _c("feta cheese", 0, 60), _c(("pumpkin seeds", "sunflower seeds"), 0, 25)),
             ("Toss the {0}, {1} and chopped {2}.", "Dress with the {3}, lemon and salt.",
              "Top with the {4} and {5}."), 10, 0, 3),
    Template("fish-potato", MAINS, "Baked {0} with {1} and {2}", "mediterranean",
             (_c(FISH, 100, 320), _c(("sweet potato", "potato"), 100, 450),
              _c(("asparagus", "broccoli", "brussels sprouts"), 80, 250), _c("olive oil", 3, 20)),
             ("Roast the {1} at 200 °C for 25 min.", "Add the {0} and {2}, brush with the {3}; bake 12 min."),
             10, 35, 2, dish=0),
    Template("pasta", MAINS, "Pasta with {1} and tomato sauce", "italian",
             (_c("pasta", 50, 170), _c(("lean beef mince", "turkey breast", "chicken breast", "lentils", "canned tuna",
                                         "seitan", "firm tofu"), 60, 300),
              _c("tomato sauce", 100, 300), _c("spinach", 0, 150), _c("olive oil", 0, 15), _c("feta cheese", 0, 30)),
             ("Boil the {0} until al dente.", "Brown the {1} in the {4}; add the {2} and simmer 10 min.",
              "Stir in the {3}; toss with the pasta and top with the {5}."), 10, 20, 3, True, dish=1),
    Template("steak-potato", MAINS, "{0} with {1} and {2}", "american",
             (_c(("sirloin steak", "pork tenderloin"), 100, 320), _c(("potato", "sweet potato"), 150, 450),
              _c(("brussels sprouts", "broccoli", "asparagus"), 80, 250), _c("olive oil", 3, 15)),
             ("Roast the {1} at 200 °C for 30 min.", "Sear the {0} in the {3}; rest 5 min.",
              "Roast the {2} alongside for the last 15 min."), 10, 35, 3, dish=0),
    Template("burrito-bowl", MAINS, "Black bean burrito bowl with {1}", "mexican",
             (_c("black beans", 100, 350), _c(RICE, 80, 400), _c("sweetcorn", 40, 150), _c("avocado", 0, 100),
              _c("tomato sauce", 30, 150), _c("romaine lettuce", 30, 120), _c(("chicken breast", "firm tofu"), 0, 200)),
             ("Warm the {0} with the {4} and cumin.", "Cook the {6} if used.",
              "Serve over the {1} with the {2}, {5} and sliced {3}."), 10, 15, 3),
    Template("buckwheat-skillet", MAINS, "Buckwheat with {1} and {2}", "russian",
             (_c("buckwheat", 50, 160), _c(("chicken breast", "turkey breast", "lean beef mince", "firm tofu",
                                             "lentils"), 80, 320),
              _c(("cabbage", "broccoli", "cauliflower"), 80, 250), _c("olive oil", 3, 20)),
             ("Simmer the {0} in twice its volume of water for 15 min.", "Brown the {1} in the {3}; add the {2} and "
              "cook 8 min.", "Fold in the buckwheat."), 10, 25, 3, True, dish=1),
    Template("pita-wrap", MAINS + (SNACK,), "Pita with {1} and {2}", "israeli",
             (_c("wholewheat pita", 60, 180), _c(("chicken breast", "turkey breast", "canned tuna", "chickpeas",
                                                   "firm tofu", "egg"), 60, 250),
              _c(("hummus", "tahini", "avocado"), 15, 100), _c(("romaine lettuce", "cabbage"), 30, 120)),
             ("Warm the {0}.", "Fill with the {1}, the {2} and shredded {3}."), 10, 5, 1, dish=1),
    Template("bulgur-bowl", MAINS, "Bulgur bowl with {1}", "levantine",
             (_c("bulgur", 100, 400), _c(("chicken breast", "chickpeas", "lentils", "seitan", "tilapia fillet"), 80, 300),
              _c(("kale", "spinach", "romaine lettuce"), 50, 150), _c("olive oil", 5, 20), _c("tahini", 0, 30)),
             ("Cook the {1} with cumin and paprika.", "Toss the {0} with the {2} and the {3}.",
              "Top with the {1} and drizzle the {4}."), 10, 15, 3, dish=1),
    # Snacks and before bed
    Template("protein-shake", LIGHT, "{0} shake with {1}", "american",
             (_c(SHAKE, 15, 60), _c(("banana", *BERRIES), 60, 200), _c("milk", 0, 400), _c("rolled oats", 0, 60),
              _c(("almond butter", "tahini"), 0, 25)),
             ("Blend the {0} with the {1}, {2} (or water), {3} and {4}.",), 3, 0, 1, dish=1),
    Template("fruit-and-nuts", LIGHT, "{0} with {1}", "american",
             (_c(("apple", "banana"), 100, 250), _c(NUTS_SEEDS, 10, 45)),
             ("Slice the {0}; serve with the {1}.",), 3, 0, 2, dish=1),
    Template("roasted-chickpeas", LIGHT, "Roasted spiced chickpeas with {2}", "levantine",
             (_c("chickpeas", 60, 220), _c("olive oil", 3, 12), _c(("apple", "strawberries", "banana"), 0, 150)),
             ("Toss the {0} with the {1}, cumin and paprika; roast at 200 °C for 25 min.", "Serve with the {2}."),
             3, 25, 4, dish=2),
    Template("hummus-veg", (SNACK,), "Hummus with {1}", "israeli",
             (_c("hummus", 40, 160), _c(("cauliflower", "broccoli", "romaine lettuce"), 80, 250),
              _c(("egg", "chickpeas"), 0, 120)),
             ("Cut the {1} into florets or sticks.", "Serve with the {0} and the {2}."), 5, 0, 3, dish=1),
    Template("hummus-pita", (SNACK,), "Hummus with pita and {2}", "israeli",
             (_c("hummus", 40, 160), _c("wholewheat pita", 30, 120), _c(("cabbage", "romaine lettuce"), 0, 100)),
             ("Warm the {1} and cut into wedges.", "Serve with the {0} and {2}."), 5, 2, 3),
    Template("eggs-and-fruit", (SNACK, PRESLEEP), "Boiled eggs with {2}", "british",
             (_c("egg", 50, 200), _c("egg white", 0, 150), _c(("apple", *BERRIES), 80, 200)),
             ("Boil the {0} 9 min; cool and peel (whites of {1} too, if used).", "Serve with the {2}."), 2, 10, 3,
             dish=2),
    Template("chia-pudding", LIGHT + (BREAKFAST,), "Chia pudding with {2}", "american",
             (_c("chia seeds", 15, 45), _c(SHAKE, 0, 45), _c(BERRIES, 50, 200), _c("greek yogurt", 0, 200)),
             ("Stir the {0} and {1} into water (or the {3}); chill 4 h.", "Top with {2}."), 5, 0, 3, dish=2),
    Template("seed-toast", LIGHT, "{0} with {1}", "nordic",
             (_c(BREAD, 30, 120), _c(("tahini", "almond butter", "hummus"), 15, 50), _c(("banana", "apple"), 0, 150)),
             ("Toast the {0}.", "Spread with the {1}; top with sliced {2}."), 3, 3, 3),
)


def variants(template: Template, rules: FoodRules) -> list[Variant]:
    """The variants of `template` the member may eat: one per allowed food of its main choice (the first component
    offering several), the other components rotating through their allowed foods so the dishes differ; an
    optional component with no allowed food is left out, a required one leaves no variant."""
    allowed: list[list[str]] = []
    for component in template.components:
        foods = [f for f in component.foods if food_refusal(FOODS[f], rules) is None]
        if not foods and component.lo > 0:
            return []
        allowed.append(foods)
    main = template.dish if template.dish is not None and len(allowed[template.dish]) > 1 else next(
        (i for i, foods in enumerate(allowed) if len(foods) > 1), None)
    if main is None:
        single = _one_meal(template, tuple(foods[0] if foods else None for foods in allowed), rules)
        return [] if single is None else [Variant(template, single, template.key)]
    out = []
    for j, choice in enumerate(allowed[main]):
        picked = tuple(choice if i == main else (options[(j + i) % len(options)] if options else None)
                       for i, options in enumerate(allowed))
        meal = _one_meal(template, picked, rules)
        if meal is not None:
            out.append(Variant(template, meal, f"{template.key}-{choice.replace(' ', '-')}"))
    return out


def _one_meal(template: Template, picked: tuple[str | None, ...], rules: FoodRules) -> tuple[str | None, ...] | None:
    """The foods of one dish as one meal may hold them (kosher: meat and milk apart): an optional ingredient that
    breaks the rule is left out; None when a required one does."""
    foods = [FOODS[f] for f in picked if f]
    if meal_refusal(foods, (), rules) is None:
        return picked
    for i, food in enumerate(picked):
        if food and template.components[i].lo == 0 and "dairy" in FOODS[food].classes:
            picked = (*picked[:i], None, *picked[i + 1:])
    return picked if meal_refusal([FOODS[f] for f in picked if f], (), rules) is None else None


def menu(rules: FoodRules) -> dict[str, list[Variant]]:
    """The variants a member may eat, by meal slot (a fresh dict of fresh lists: the caller's to change)."""
    return {meal: list(found) for meal, found in _menu(rules).items()}


@lru_cache(maxsize=256)
def _menu(rules: FoodRules) -> dict[str, tuple[Variant, ...]]:
    out: dict[str, list[Variant]] = {m: [] for m in (BREAKFAST, LUNCH, SNACK, DINNER, PRESLEEP)}
    for template in TEMPLATES:
        for variant in variants(template, rules):
            for meal in template.meals:
                out[meal].append(variant)
    return {meal: tuple(found) for meal, found in out.items()}
