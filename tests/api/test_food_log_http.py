"""The member's food log, weights and trend over HTTP (issue 43 item 6).

The hand-computed 21-day series of tests/gym/nutrition/test_weight_trend.py is logged through the endpoints — day 1
as library foods in grams, ounces and servings plus a quick entry by macros, the other days as quick entries — and
the trend and expenditure come back as worked out by hand there. Search finds foods in English, Hebrew and Russian;
a member in pounds enters pounds and ounces; bad input gets its stable code and leaves the log as it was.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from gym.training.profiles import set_units
from tests.gym.nutrition.trend_series import (
    DAY1_FOODS,
    DAY1_QUICK,
    KCAL_BY_DAY,
    TREND_BY_DAY,
    WEIGHT_BY_DAY,
    day,
)
from tests.pipeline.issue25 import member


def _url(org, path: str) -> str:
    return f"/organizations/{org.id}/nutrition/log/{path}"


async def _member(db, factory, name: str = "Dani"):
    org = await factory.org(timezone="UTC")  # the gym's local days are UTC days: the test's dates are the app's
    user, member_id = await member(db, factory, org, name)
    return org, user, member_id


async def _rows(db, member_id, table: str) -> int:
    async with db.owner() as session:
        return await session.scalar(text(f"SELECT count(*) FROM {table} WHERE member_id = :m"), {"m": member_id})


async def log_series(client, org, user, first) -> None:
    """The 21-day series through the endpoints, ending on `day(21, first)`."""
    for n, kg in WEIGHT_BY_DAY.items():
        put = await client.put(_url(org, f"weights/{day(n, first)}"), json={"weight": kg}, headers=user.headers)
        assert put.status_code == 200, put.text
        assert put.json()["weight"] == kg and put.json()["trend"] == TREND_BY_DAY[n]
    for key, amount, unit, _ in DAY1_FOODS:
        added = await client.post(_url(org, "entries"), headers=user.headers, json={
            "date": day(1, first).isoformat(), "meal": "breakfast", "foodKey": key, "amount": amount, "unit": unit})
        assert added.status_code == 201, added.text
    quick = await client.post(_url(org, "quick-entries"), headers=user.headers,
                              json={"date": day(1, first).isoformat(), "meal": "dinner", **DAY1_QUICK})
    assert quick.status_code == 201, quick.text
    for n, kcal in KCAL_BY_DAY.items():
        if n != 1:
            sent = await client.post(_url(org, "quick-entries"), headers=user.headers,
                                     json={"date": day(n, first).isoformat(), "meal": "lunch", "calories": kcal})
            assert sent.status_code == 201, sent.text


async def test_the_21_day_series_gives_the_hand_computed_trend_and_expenditure(client, db, factory) -> None:
    org, user, _ = await _member(db, factory)
    first = datetime.now(UTC).date() - timedelta(days=20)
    await log_series(client, org, user, first)

    logged = (await client.get(_url(org, f"days/{day(1, first)}"), headers=user.headers)).json()
    breakfast = {e["foodKey"]: e for e in logged["meals"][0]["entries"]}
    assert {k: e["calories"] for k, e in breakfast.items()} == {k: kcal for k, _, _, kcal in DAY1_FOODS}
    assert breakfast["salmon fillet"]["grams"] == 141.75 and breakfast["egg"]["grams"] == 100.0
    assert breakfast["egg"]["servingKind"] == "piece" and breakfast["salmon fillet"]["unit"] == "oz"
    dinner = logged["meals"][2]["entries"]
    assert [(e["kind"], e["calories"], e["proteinG"]) for e in dinner] == [("quick", 568.9, 33.0)]
    assert logged["totals"]["calories"] == 2000.0 and logged["weight"] == 80.0 and logged["targets"] is None

    shown = (await client.get(_url(org, "trend?days=21"), headers=user.headers)).json()
    assert [p["trend"] for p in shown["points"]] == [TREND_BY_DAY[n] for n in range(1, 22)]
    assert [p["weight"] for p in shown["points"]] == [WEIGHT_BY_DAY.get(n) for n in range(1, 22)]
    assert shown["trendNow"] == 79.02 and shown["weeklyChange"] == -0.29  # 79.02 − 79.31 (day 14)
    spent = shown["expenditure"]
    assert spent["estimateKcal"] == 2477 and spent["confidence"] == "high"  # 2,100 + 0.98 × 7,700 ÷ 20 = 2,477.3
    assert (spent["averageIntakeKcal"], spent["trendChangeKg"]) == (2100.0, -0.98)
    assert (spent["days"], spent["weights"], spent["loggedDays"]) == (20, 18, 18)
    assert (spent["hasPlan"], spent["offered"], spent["formulaKcal"]) == (False, False, None)


async def test_no_estimate_until_14_days_with_10_weights_and_10_logged_days(client, db, factory) -> None:
    org, user, _ = await _member(db, factory)
    first = datetime.now(UTC).date() - timedelta(days=13)  # day 14 is today: 13 days in the window
    for n in range(1, 15):
        await client.put(_url(org, f"weights/{day(n, first)}"), json={"weight": 70}, headers=user.headers)
        await client.post(_url(org, "quick-entries"), headers=user.headers,
                          json={"date": day(n, first).isoformat(), "meal": "lunch", "calories": 2000})
    spent = (await client.get(_url(org, "trend"), headers=user.headers)).json()["expenditure"]
    assert (spent["ready"], spent["estimateKcal"], spent["days"]) == (False, None, 13)
    assert spent["needs"] == {"days": 14, "weights": 10, "loggedDays": 10}


async def test_search_finds_foods_in_english_hebrew_and_russian(client, db, factory) -> None:
    org, user, _ = await _member(db, factory)
    for locale, words, key, name in (("en", "oats", "rolled oats", "rolled oats"), ("he", "ביצים", "egg", "ביצה"),
                                     ("ru", "курица", "chicken breast", "куриная грудка"),
                                     ("en", "chiken", "chicken breast", "chicken breast"),
                                     ("ru", "орехи", "almonds", "миндаль")):
        found = await client.get(_url(org, "foods"), params={"q": words},
                                 headers={**user.headers, "x-locale": locale})
        assert found.status_code == 200, found.text
        foods = {f["key"]: f for f in found.json()["foods"]}
        assert key in foods and foods[key]["name"] == name, (words, list(foods))
    egg = {f["key"]: f for f in (await client.get(_url(org, "foods"), params={"q": "egg"},
                                                  headers=user.headers)).json()["foods"]}["egg"]
    assert egg["serving"] == {"kind": "piece", "grams": 50.0} and egg["per100g"]["calories"] == 143
    assert egg["state"] == "raw"
    everything = (await client.get(_url(org, "foods"), headers=user.headers)).json()
    assert len(everything["foods"]) == 20 and everything["portionUnit"] == "g"


async def test_a_member_in_pounds_enters_pounds_and_ounces(client, db, factory) -> None:
    org, user, member_id = await _member(db, factory)
    async with db.scope(org_id=org.id) as session:
        await set_units(session, org.id, member_id, weight_unit="lbs")
    put = await client.put(_url(org, "weights/today"), json={"weight": 176.37}, headers=user.headers)
    assert put.json() == {**put.json(), "unit": "lbs", "weight": 176.37}  # 176.37 × 0.45359237 = 80.00 kg
    async with db.owner() as session:
        assert float(await session.scalar(text("SELECT weight_kg FROM body_weights WHERE member_id = :m"),
                                          {"m": member_id})) == 80.0
    added = await client.post(_url(org, "entries"), headers=user.headers,
                              json={"meal": "dinner", "foodKey": "salmon fillet", "amount": 5})  # in oz by default
    entry = added.json()["meals"][2]["entries"][0]
    assert (added.json()["portionUnit"], entry["unit"], entry["grams"], entry["calories"]) == ("oz", "oz", 141.75, 294.8)


async def test_a_weight_per_day_an_edit_replaces_it_and_delete_removes_it(client, db, factory) -> None:
    org, user, member_id = await _member(db, factory)
    for kg in (70.4, 70.1, 70.1):
        put = await client.put(_url(org, "weights/today"), json={"weight": kg}, headers=user.headers)
        assert put.status_code == 200 and put.json()["weight"] == kg
    assert await _rows(db, member_id, "body_weights") == 1
    assert (await client.delete(_url(org, "weights/today"), headers=user.headers)).json()["weight"] is None
    again = await client.delete(_url(org, "weights/today"), headers=user.headers)
    assert (again.status_code, again.json()["code"]) == (404, "weight_not_found")


async def test_an_entry_sent_again_with_its_key_is_logged_once(client, db, factory) -> None:
    org, user, member_id = await _member(db, factory)
    body = {"meal": "lunch", "foodKey": "white rice", "amount": 200}
    headers = {**user.headers, "Idempotency-Key": "rice-1"}
    first = await client.post(_url(org, "entries"), json=body, headers=headers)
    second = await client.post(_url(org, "entries"), json=body, headers=headers)
    assert first.status_code == second.status_code == 201 and first.json() == second.json()
    assert await _rows(db, member_id, "food_log_entries") == 1
    entry_id = first.json()["entryId"]
    gone = await client.delete(_url(org, f"entries/{entry_id}"), headers=user.headers)
    assert gone.status_code == 200 and gone.json()["totals"]["calories"] == 0
    twice = await client.delete(_url(org, f"entries/{entry_id}"), headers=user.headers)
    assert (twice.status_code, twice.json()["code"]) == (404, "food_entry_not_found")


@pytest.mark.parametrize(("path", "body", "status", "code"), [
    ("entries", {"meal": "lunch", "foodKey": "unicorn steak", "amount": 100}, 422, "unknown_food"),
    ("entries", {"meal": "lunch", "foodKey": "white rice", "amount": 1, "unit": "serving"}, 422, "no_serving"),
    ("entries", {"meal": "lunch", "foodKey": "white rice", "amount": 4000}, 422, "portion_too_large"),
    ("entries", {"meal": "brunch", "foodKey": "white rice", "amount": 100}, 400, "validation_failed"),
    ("entries", {"meal": "lunch", "foodKey": "white rice", "amount": -1}, 400, "validation_failed"),
    ("entries", {"meal": "lunch", "foodKey": "white rice", "amount": "lots"}, 400, "validation_failed"),
    ("entries", {"meal": "lunch", "foodKey": "white rice", "amount": 100, "extra": 1}, 400, "validation_failed"),
    ("entries", {"meal": "lunch", "foodKey": "white rice", "amount": 100, "date": "2999-01-01"}, 422,
     "date_in_future"),
    ("entries", {"meal": "lunch", "foodKey": "white rice", "amount": 100, "date": "2001-01-01"}, 422,
     "date_too_old"),
    ("quick-entries", {"meal": "snack"}, 422, "empty_entry"),
    ("quick-entries", {"meal": "snack", "calories": 0}, 422, "empty_entry"),
    ("quick-entries", {"meal": "snack", "proteinG": 1000, "carbsG": 1000, "fatG": 1000}, 422, "energy_too_high"),
    ("quick-entries", {"meal": "snack", "calories": 300, "label": "   "}, 400, "validation_failed"),
    ("quick-entries", {"meal": "snack", "calories": 300, "label": "x" * 81}, 400, "validation_failed"),
    ("quick-entries", {"meal": "snack", "fatG": True, "proteinG": True}, 400, "validation_failed"),  # not 1 g
    ("quick-entries", {"meal": "snack", "calories": "300"}, 400, "validation_failed"),
    ("entries", {"meal": "lunch", "foodKey": "white rice", "amount": True}, 400, "validation_failed"),
])
async def test_bad_entries_get_their_code_and_log_nothing(client, db, factory, path, body, status, code) -> None:
    org, user, member_id = await _member(db, factory)
    refused = await client.post(_url(org, path), json=body, headers=user.headers)
    assert (refused.status_code, refused.json()["code"]) == (status, code), refused.text
    assert await _rows(db, member_id, "food_log_entries") == 0


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), [
    ("put", "weights/today", {"weight": 20}, 422, "weight_out_of_range"),
    ("put", "weights/today", {"weight": 800, "unit": "lbs"}, 422, "weight_out_of_range"),
    ("put", "weights/today", {"weight": 70, "unit": "stone"}, 400, "validation_failed"),
    ("put", "weights/today", {"weight": True}, 400, "validation_failed"),
    ("put", "weights/2026-02-30", {"weight": 70}, 404, "no_such_day"),
    ("put", "weights/0000-01-01", {"weight": 70}, 404, "no_such_day"),
    ("put", "weights/yesterday", {"weight": 70}, 400, "validation_failed"),
    ("put", "weights/2999-01-01", {"weight": 70}, 422, "date_in_future"),
    ("get", "days/2026-13-01", None, 400, "validation_failed"),
    ("get", "trend?days=3", None, 400, "validation_failed"),
    ("put", "tdee-choice", {"choice": "estimate"}, 409, "expenditure_not_offered"),
    ("put", "tdee-choice", {"choice": "maybe"}, 400, "validation_failed"),
])
async def test_bad_weights_days_and_choices_get_their_code(client, db, factory, method, path, body, status,
                                                           code) -> None:
    org, user, member_id = await _member(db, factory)
    refused = await client.request(method.upper(), _url(org, path), json=body, headers=user.headers)
    assert (refused.status_code, refused.json()["code"]) == (status, code), refused.text
    assert await _rows(db, member_id, "body_weights") == 0
    assert await _rows(db, member_id, "expenditure_choices") == 0


async def test_only_the_member_themself_reads_and_writes_their_log(client, db, factory) -> None:
    org, user, _ = await _member(db, factory)
    other, _ = await member(db, factory, org, "Saar")
    added = await client.post(_url(org, "entries"), headers=user.headers,
                              json={"meal": "lunch", "foodKey": "apple", "amount": 1, "unit": "serving"})
    entry_id = added.json()["entryId"]
    assert added.json()["totals"]["calories"] == 94.6  # 182 g × 0.52 kcal/g = 94.64
    theirs = await client.delete(_url(org, f"entries/{entry_id}"), headers=other.headers)
    assert (theirs.status_code, theirs.json()["code"]) == (404, "food_entry_not_found")
    assert (await client.get(_url(org, "days/today"), headers=other.headers)).json()["totals"]["calories"] == 0
    owner = await factory.user(org, "owner")
    staff = await client.get(_url(org, "days/today"), headers=owner.headers)
    assert (staff.status_code, staff.json()["code"]) == (403, "member_profile_required")
    elsewhere = await factory.org()
    foreign = await client.get(_url(elsewhere, "days/today"), headers=user.headers)
    assert foreign.status_code in (403, 404)


async def test_row_level_security_keeps_each_gyms_log_to_itself(client, db, factory) -> None:
    """Behind the queries' filters, RLS: another gym's scope sees none of the rows and cannot write one."""
    org, user, member_id = await _member(db, factory)
    await client.put(_url(org, "weights/today"), json={"weight": 70}, headers=user.headers)
    await client.post(_url(org, "quick-entries"), json={"meal": "lunch", "calories": 500}, headers=user.headers)
    elsewhere = await factory.org()
    async with db.scope(org_id=elsewhere.id) as session:
        for table in ("body_weights", "food_log_entries"):
            assert await session.scalar(text(f"SELECT count(*) FROM {table}")) == 0
    with pytest.raises(DBAPIError, match="row-level security"):
        async with db.scope(org_id=elsewhere.id) as session:
            await session.execute(text("INSERT INTO body_weights (org_id, member_id, measured_on, weight_kg) "
                                       "VALUES (:o, :m, CURRENT_DATE - 1, 70)"), {"o": org.id, "m": member_id})
    assert await _rows(db, member_id, "body_weights") == 1
