"""Issue 37 items 1, 2, 6 and the understood-words answer through the front door: everyday allergy words in three
languages are mapped to codes at intake, stored as codes and shown back in the caller's language; a term that maps
to nothing is 422 `unknown_allergen` with the nearest codes and nothing is stored; the plan serves none of the
allergens (checked on the library's codes); constraints no day of allowed foods can meet end the run at once in
`constraints_infeasible`, not recoverable, naming the constraints; vegan + soy + gluten gets a plan or that error."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from gym.nutrition.food_rules import find_food
from gym.nutrition.models import NutritionRun
from tests.gym.nutrition import samples
from tests.pipeline.issue25 import base, detail, follow, member, start, states

CUTTING = {**samples.INTAKE, "age": 40, "current_weight_kg": 150, "target_weight_kg": 110, "avg_daily_steps": 4000,
           "training_phase": "pre_training", "appetite_level": "normal"}


def _served_allergens(got: dict[str, Any]) -> set[str]:
    return {code for recipe in got["outputs"]["recipes"]["recipes"] for i in recipe["ingredients"]
            for code in find_food(i["item"]).allergens}


@pytest.mark.parametrize(("words", "codes", "absent"), [
    (["milk allergy", "nut allergy"], ["milk", "tree_nuts", "peanut"], {"milk", "lactose", "tree_nuts", "peanut"}),
    (["lactose intolerant", "celiac disease"], ["gluten", "lactose"], {"gluten", "lactose"}),
    (["רגישות ללקטוז", "אלרגיה לביצים"], ["egg", "lactose"], {"egg", "lactose"}),
    (["аллергия на орехи", "непереносимость глютена"], ["tree_nuts", "peanut", "gluten"],
     {"tree_nuts", "peanut", "gluten"}),
    (["dairy-free", "fish allergy", "egg allergy"], ["milk", "egg", "fish"], {"milk", "egg", "fish"}),
], ids=["milk-nut", "lactose-celiac", "hebrew", "russian", "dairy-free-fish-egg"])
async def test_everyday_allergy_words_are_stored_as_codes_shown_back_and_never_served(client, db, factory, words,
                                                                                       codes, absent) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org)
    started = await client.post(f"{base(org)}/runs", headers={**user.headers, "accept-language": "ru"},
                                json={"intake": {**samples.INTAKE, "allergies": words, "food_aversions": []}})
    assert started.status_code == 202, started.text
    understood = started.json()["understood"]["allergies"]
    assert [a["term"] for a in understood] == words and all(a["understood"] for a in understood)
    shown = {c["code"]: c["label"] for a in understood for c in a["codes"]}
    assert set(shown) == set(codes) and all(label != code for code, label in shown.items())  # Russian names
    url = f"{base(org)}/runs/{started.json()['runId']}"
    frames = await follow(client, url, user.headers)
    assert states(frames)[-1] == "output_ready", [d for _, kind, d in frames if kind in ("conflict", "error")]
    got = await detail(client, url, user.headers)
    assert got["outputs"]["macro_targets"]["client_constraints"]["allergies"] == codes  # codes, never words
    assert not _served_allergens(got) & absent


async def test_an_allergy_that_maps_to_nothing_is_422_with_the_nearest_codes_and_nothing_is_stored(
        client, db, factory) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org)
    got = await client.post(f"{base(org)}/runs", headers=user.headers,
                            json={"intake": {**samples.INTAKE, "allergies": ["peanuts", "allergic to kiwi"]}})
    assert got.status_code == 422, got.text
    body = got.json()
    assert body["code"] == "unknown_allergen" and body["message"]
    assert [(e["field"], e["term"]) for e in body["errors"]] == [("allergies.1", "allergic to kiwi")]
    assert len(body["errors"][0]["nearest"]) == 3
    async with db.scope(org_id=org.id) as session:
        assert await session.scalar(select(func.count()).select_from(NutritionRun)) == 0


async def test_the_understood_endpoint_shows_words_back_and_the_vocabulary_names_every_code(client, db,
                                                                                           factory) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org)
    got = await client.post(f"{base(org)}/understood", headers={**user.headers, "accept-language": "he"},
                            json={"allergies": ["coeliac", "kiwi"], "diet_pattern": "plant-based",
                                  "food_aversions": ["peanut_butter", "salmon", "aubergine"]})
    assert got.status_code == 200, got.text
    body = got.json()
    coeliac, kiwi = body["allergies"]
    assert (coeliac["understood"], [c["code"] for c in coeliac["codes"]]) == (True, ["gluten"])
    assert coeliac["codes"][0]["label"].startswith("גלוטן")
    assert not kiwi["understood"] and kiwi["codes"] == [] and len(kiwi["nearest"]) == 3
    assert body["dietPattern"] == {"code": "vegan", "label": "טבעוני/ת"}
    peanut_butter, salmon, aubergine = body["aversions"]
    assert peanut_butter["recognised"] and peanut_butter["families"] == ["בוטנים"]
    assert salmon["recognised"] and [f["food"] for f in salmon["foods"]] == ["salmon_fillet"]
    assert not aubergine["recognised"]  # kept, shown as not recognised
    vocab = (await client.get(f"{base(org)}/vocabulary", headers=user.headers)).json()
    assert len(vocab["allergens"]) == 16 and {d["code"] for d in vocab["dietPatterns"]} >= {"kosher", "halal"}


async def test_constraints_no_day_can_meet_end_at_once_in_constraints_infeasible(client, db, factory) -> None:
    """188 g of protein a day, vegan, with soy and gluten allergies: no day of the foods left meets it. Decided in
    code after SCIENTIST, before any agent is asked: not recoverable, naming what conflicts, no retry."""
    org = await factory.org()
    user, _ = await member(db, factory, org)
    url = await start(client, org, user.headers, {**CUTTING, "allergies": ["soy allergy", "gluten-free"],
                                                   "diet_pattern": "vegan"})
    frames = await follow(client, url, user.headers)
    assert states(frames) == ["intake_pending", "scientist_processing", "error"]
    [error] = [d for _, kind, d in frames if kind == "error"]
    assert (error["errorType"], error["failingAgent"], error["recoverable"], error["retryCount"]) == (
        "constraints_infeasible", "SCIENTIST", False, 0)
    assert all(c in error["details"] for c in ("allergy:soy", "allergy:gluten", "diet:vegan"))
    assert not [d for _, kind, d in frames if kind == "envelope" and d["fromAgent"] not in ("INTAKE", "SCIENTIST", "ORCHESTRATOR")]


async def test_vegan_with_soy_and_gluten_allergies_gets_a_plan_or_constraints_infeasible(client, db, factory) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org)
    url = await start(client, org, user.headers, {**samples.INTAKE, "allergies": ["soy", "gluten"],
                                                   "diet_pattern": "vegan", "food_aversions": []})
    frames = await follow(client, url, user.headers)
    final = states(frames)[-1]
    assert final in ("output_ready", "error")
    if final == "error":
        [error] = [d for _, kind, d in frames if kind == "error"]
        assert (error["errorType"], error["recoverable"], error["retryCount"]) == ("constraints_infeasible", False, 0)
        assert all(c in error["details"] for c in ("allergy:soy", "allergy:gluten", "diet:vegan"))
        assert not [d for _, kind, d in frames if kind == "conflict"]
    else:
        got = await detail(client, url, user.headers)
        assert not _served_allergens(got) & {"soy", "gluten"}


async def test_recipes_and_groceries_give_weights_as_bought_and_cooked_only_through_a_stated_yield(
        client, db, factory) -> None:
    """Issue 37 item 7: rice, noodles, pulses and potatoes are listed dry or raw, as bought, with their yield stated;
    chicken is weighed raw and uses raw values (USDA FDC 171077, not the roasted 171477); a recipe's energy is its
    ingredients' as bought, times the yield where it is cooked; the grocery list sums the bought weights."""
    org = await factory.org()
    user, _ = await member(db, factory, org)
    url = await start(client, org, user.headers, {**samples.INTAKE, "food_aversions": []})
    assert states(await follow(client, url, user.headers))[-1] == "output_ready"
    got = await detail(client, url, user.headers)
    converted = set()
    for recipe in got["outputs"]["recipes"]["recipes"]:
        energy = 0.0
        for ingredient in recipe["ingredients"]:
            food = find_food(ingredient["item"])
            factor = food.yield_factor
            if food.state == "cooked" and factor is not None:
                converted.add(food.key)
                assert f"yield {factor:.2f}" in ingredient["prep_notes"], ingredient
                assert f"FDC {food.bought.fdc_id}" in ingredient["prep_notes"], ingredient
            energy += ingredient["amount_g"] * (factor or 1.0) * food.kcal / 100
        assert abs(energy - recipe["macros_per_serving"]["calories"]) <= 0.02 * energy + 3, recipe["recipe_name"]
    assert converted  # the week cooks rice, pulses or potatoes
    chicken = find_food("chicken breast")
    assert (chicken.fdc_id, chicken.state, chicken.kcal, chicken.protein_g) == (171077, "raw", 120, 22.5)
    listed = {i["food"]: i["grams"] for shelf in got["groceries"] for i in shelf["items"]}
    for key in converted:
        bought = sum(i["amount_g"] * len(r["slots"]) for r in got["outputs"]["recipes"]["recipes"]
                     for i in r["ingredients"] if find_food(i["item"]).key == key)
        assert listed[find_food(key).slug] == -(-bought // 1)  # the dry or raw weight, rounded up
