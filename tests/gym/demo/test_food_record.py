"""The demo's food log: Dani opens Food on 21 days of weights and food, enough for a trend and an estimate."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gym.demo.food_record import MENUS, UNLOGGED, WEIGHTS
from gym.demo.seed import seed_demo
from gym.demo.tenancy import HARBOR, clerk_id_for


@pytest.fixture(scope="module")
async def demo(db):
    return await seed_demo(db, now=datetime.now(UTC))


async def test_dani_opens_food_on_a_trend_and_an_estimate(demo, client, dev_keys) -> None:
    token = dev_keys.sign(sub=clerk_id_for("dani@harbor.test"), email="dani@harbor.test")
    headers = {"authorization": f"Bearer {token}"}
    assert demo["dani_food_entries"] == 9 * len(MENUS[0]) + 9 * len(MENUS[1])  # 18 logged days, menus alternating
    shown = await client.get(f"/organizations/{HARBOR.id}/nutrition/log/trend?days=21", headers=headers)
    assert shown.status_code == 200, shown.text
    body = shown.json()
    assert [p["weight"] for p in body["points"]] == list(WEIGHTS)
    spent = body["expenditure"]
    assert (spent["ready"], spent["days"], spent["weights"], spent["loggedDays"]) == (True, 20, 18, 20 - len(UNLOGGED))
    assert spent["confidence"] == "high"  # 18/21 weights = 0.857, 18/20 days = 0.90
    assert spent["trendChangeKg"] < 0 and spent["estimateKcal"] > spent["averageIntakeKcal"]  # losing: burns more
    yesterday = body["points"][-2]["date"]
    day = (await client.get(f"/organizations/{HARBOR.id}/nutrition/log/days/{yesterday}", headers=headers)).json()
    assert [m["meal"] for m in day["meals"] if m["entries"]] == ["breakfast", "lunch", "dinner", "snack"]
