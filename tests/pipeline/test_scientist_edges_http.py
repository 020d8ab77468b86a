"""Issue 25 item 6 through the front door: a member whose units are pounds sends an imperial intake; the run stores
and computes it metric and shows it back in pounds and inches; a 150 kg woman cutting gets protein on her adjusted
body weight (188 g, not 300 g)."""

from __future__ import annotations

from sqlalchemy import select

from gym.nutrition.models import NutritionRun
from tests.gym.nutrition import samples
from tests.pipeline.issue25 import detail, follow, member, start

METRIC = ("height_cm", "current_weight_kg", "target_weight_kg")


async def test_an_imperial_intake_is_stored_metric_and_shown_in_pounds(client, db, factory) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org)
    units = await client.put(f"/organizations/{org.id}/trainer/settings", json={"weightUnit": "lbs"},
                             headers=user.headers)
    assert units.status_code == 200, units.text
    intake = {k: v for k, v in samples.INTAKE.items() if k not in METRIC}
    url = await start(client, org, user.headers,
                      {**intake, "height_in": 65, "current_weight_lb": 124, "target_weight_lb": 136.7})
    await follow(client, url, user.headers)
    got = await detail(client, url, user.headers)
    targets = got["outputs"]["macro_targets"]
    # 124 lb = 56.25 kg, 65 in = 165.1 cm: 2180 kcal, 1.8 × 56.25 = 101 g (tests/gym/nutrition/test_scientist_edges)
    assert (targets["current_weight_kg"], targets["target_intake_kcal"], targets["protein_g"]) == (56.25, 2180, 101)
    assert got["display"] == {"units": "imperial", "height_in": 65.0, "current_weight_lb": 124.0,
                              "target_weight_lb": 136.7, "weekly_weight_target_lb": 1.1}
    async with db.scope(org_id=org.id) as session:
        stored = (await session.scalars(select(NutritionRun.intake).where(NutritionRun.org_id == org.id))).one()
    assert (stored["height_cm"], stored["current_weight_kg"], stored["target_weight_kg"]) == (165.1, 56.25, 62.01)
    assert "height_in" not in stored and "current_weight_lb" not in stored

    both = await client.post(f"/organizations/{org.id}/nutrition/runs", headers=user.headers,
                             json={"intake": {**samples.INTAKE, "current_weight_lb": 124}})
    assert both.status_code == 422
    assert [(e["field"], e["code"]) for e in both.json()["errors"]] == [("current_weight_lb", "units_conflict")]


async def test_a_150_kg_woman_cutting_gets_protein_on_her_adjusted_body_weight(client, db, factory) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org)
    url = await start(client, org, user.headers, {
        **samples.INTAKE, "age": 40, "current_weight_kg": 150, "target_weight_kg": 110, "avg_daily_steps": 4000,
        "training_phase": "pre_training", "appetite_level": "normal"})
    await follow(client, url, user.headers)
    targets = (await detail(client, url, user.headers))["outputs"]["macro_targets"]
    # ABW 56.91 + 0.4 × 93.09 = 94.15 kg; loss: 2.0 × 94.15 = 188 g (34 % of 2,180 kcal, not 300 g = 55 %)
    assert (targets["target_intake_kcal"], targets["protein_g_per_kg"], targets["protein_g"]) == (2180, 2.0, 188)
    assert (await detail(client, url, user.headers))["display"]["units"] == "metric"
