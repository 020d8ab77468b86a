"""Dani's food log and body weights in the demo (issue 43 item 6): the 21 days up to the seeding day, so the member
app's Food screen opens on a trend and an estimated expenditure, and a check-in without a weight takes the trend.

Deterministic like the rest of the demo: fixed weights and menus, the entries' ids uuid5, dates relative to the seeding day in
Harbor's timezone. Entries go through the food log's own `add_food` (energy and macros from the library's USDA
values) and weights through `body_weights.put_weight`; both tables cascade from `members`, so re-seeding (which
deletes the demo's members) starts them afresh.
"""

from __future__ import annotations

import uuid
from datetime import date, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from gym.demo.tenancy import demo_id
from gym.nutrition import body_weights, food_log
from gym.nutrition.portions import Unit

DAYS = 21
# Dani's morning weights (kg), oldest first; None: a morning she did not weigh in (3 of 21)
WEIGHTS = (68.6, 68.3, 68.7, 68.4, None, 68.2, 68.5, 68.1, 68.4, 68.0, None, 68.2, 67.9, 68.3,
           68.0, 67.8, 68.1, None, 67.9, 67.6, 67.8)
# Two menus she alternates: (meal, library food, grams or servings, unit)
MENUS: tuple[tuple[tuple[str, str, float, Unit], ...], ...] = (
    (("breakfast", "rolled oats", 70, "g"), ("breakfast", "greek yogurt", 1, "serving"),
     ("breakfast", "banana", 1, "serving"), ("lunch", "chicken breast", 160, "g"), ("lunch", "white rice", 220, "g"),
     ("lunch", "broccoli", 150, "g"), ("dinner", "salmon fillet", 140, "g"), ("dinner", "potato", 250, "g"),
     ("dinner", "olive oil", 1, "serving"), ("snack", "almonds", 30, "g")),
    (("breakfast", "egg", 3, "serving"), ("breakfast", "multigrain bread", 2, "serving"),
     ("breakfast", "avocado", 0.5, "serving"), ("lunch", "lentils", 200, "g"), ("lunch", "bulgur", 180, "g"),
     ("lunch", "feta cheese", 40, "g"), ("dinner", "turkey breast", 150, "g"), ("dinner", "sweet potato", 250, "g"),
     ("dinner", "spinach", 100, "g"), ("snack", "apple", 1, "serving"), ("snack", "whey protein", 30, "g")),
)
UNLOGGED = (6, 13)  # days (0 = the first) she logged no food


async def seed_dani_food(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, today: date) -> int:
    """Dani's weights on the 21 days ending `today` and her food on the 20 before it; the number of entries."""
    first = today - timedelta(days=DAYS - 1)
    for n, kg in enumerate(WEIGHTS):
        if kg is not None:
            await body_weights.put_weight(session, org_id, member_id, first + timedelta(days=n), kg)
    entries = 0
    for n in range(DAYS - 1):
        if n in UNLOGGED:
            continue
        for i, (meal, key, amount, unit) in enumerate(MENUS[n % 2]):
            await food_log.add_food(session, org_id, member_id, on=first + timedelta(days=n), meal=meal, food_key=key,
                                    amount=amount, unit=unit, entry_id=demo_id("food", str(member_id), f"{n}/{i}"))
            entries += 1
    return entries
