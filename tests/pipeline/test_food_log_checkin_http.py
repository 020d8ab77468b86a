"""The food log meets the weekly check-in (issue 43 item 6), through the front door with the in-process worker.

A man of 28, 180 cm, 80 kg aiming at 75 kg (a beginner: −0.5 kg/week) starts a plan; 21 days later he has logged
the hand-computed series of tests/gym/nutrition/test_weight_trend.py (trend 80.00 → 79.02 kg, average intake
2,100 kcal, expenditure 2,477.3 kcal/day). Worked by hand (NUTRITION.md's SCIENTIST):

    BMR = 10 × 80 + 6.25 × 180 − 5 × 28 + 5 = 800 + 1,125 − 140 + 5 = 1,790
    11,000 steps, pre-training: TDEE = 1,790 × 1.725 = 3,087.75; target = 3,087.75 − 0.5 × 1,100 = 2,537.75 → 2,540
    estimate against formula: (2,477.3 − 3,087.75) ÷ 3,087.75 = −19.8 %: more than 10 % → offered
     6,500 steps: TDEE = 1,790 × 1.375 = 2,461.25; (2,477.3 − 2,461.25) ÷ 2,461.25 = +0.7 % → not offered

A check-in on day 21 without weight_kg counts the trend that day, 79.02 kg. Accepting the estimate, the check-in
fires tdee_recalculation and SCIENTIST takes 2,477 as TDEE: target = 2,477 − 550 = 1,927 → 1,930 (above the floor
max(BMR at 79.02 kg = 790.2 + 1,125 − 140 + 5 = 1,780.2, 1,500)); protein 2.0 × 80 = 160 g; fat 25 % × 1,930 ÷ 9 =
53.6 → 54 g; carbs (1,930 − 640 − 486) ÷ 4 = 201 g. Keeping the formula, nothing fires and the target stays 2,540.
"""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import text

from tests.pipeline.food_log_setup import planned_member
from tests.pipeline.issue25 import detail, follow, states

M = {"waist_cm": 86.0, "hip_cm": 98.0}  # the check-in's measurements


def _log(org, path: str) -> str:
    return f"/organizations/{org.id}/nutrition/log/{path}"


async def _checkin(client, user, url: str, on: date, **fields):
    sent = await client.post(f"{url}/checkins", headers=user.headers, json={"checkin_date": on.isoformat(), **M,
                                                                           **fields})
    assert sent.status_code == 202, sent.text
    return sent.json()


async def test_a_checkin_without_a_weight_counts_the_trend_and_offers_the_estimate(client, db, factory) -> None:
    org, user, _, url, _, today = await planned_member(client, db, factory)
    day_log = (await client.get(_log(org, "days/today"), headers=user.headers)).json()
    assert day_log["targets"] == {"calories": 2540, "proteinG": 160, "fatG": 71, "carbsG": 315, "fiberMinG": 36}
    spent = (await client.get(_log(org, "trend"), headers=user.headers)).json()["expenditure"]
    assert (spent["estimateKcal"], spent["formulaKcal"], spent["differencePct"]) == (2477, 3088, -19.8)
    assert spent["offered"] and spent["inUse"] == "formula" and spent["choice"] is None

    body = await _checkin(client, user, url, today)
    assert body["weight"] == {"kg": 79.02, "source": "trend"}
    assert body["expenditure"]["offered"] and body["expenditure"]["estimateKcal"] == 2477
    assert body["adjustment"]["triggers_fired"] == []  # no choice made: the plan keeps its formula
    async with db.owner() as session:
        stored = await session.scalar(text("SELECT payload->>'weight_kg' FROM nutrition_checkins WHERE run_id = :r"),
                                      {"r": url.rsplit("/", 1)[1]})
    assert float(stored) == 79.02


async def test_accepting_the_estimate_makes_the_next_checkin_plan_on_it(client, db, factory) -> None:
    org, user, member_id, url, last, today = await planned_member(client, db, factory)
    chosen = await client.put(_log(org, "tdee-choice"), json={"choice": "estimate"}, headers=user.headers)
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["choice"]["choice"] == "estimate" and chosen.json()["choice"]["estimateKcal"] == 2477
    body = await _checkin(client, user, url, today)
    adjustment = body["adjustment"]
    assert adjustment["triggers_fired"] == ["tdee_recalculation"] and body["version"] == 2
    assert (adjustment["new_target_intake_kcal"], adjustment["adjustment_amount_kcal"]) == (1930, -610)
    assert adjustment["new_macros"] == {"protein_g": 160, "fat_g": 54, "carbs_g": 201}
    assert adjustment["agents_re_run"] == ["NUTRITIONIST", "DIETITIAN", "CHEF"]
    frames = await follow(client, url, user.headers, after=last)
    assert states(frames)[-1] == "output_ready"
    targets = (await detail(client, url, user.headers))["outputs"]["macro_targets"]
    assert (targets["tdee_kcal"], targets["target_intake_kcal"]) == (2477, 1930)
    spent = (await client.get(_log(org, "trend"), headers=user.headers)).json()["expenditure"]
    assert (spent["inUse"], spent["inUseKcal"]) == ("estimate", 2477)


async def test_keeping_the_formula_leaves_the_plan_as_it_was(client, db, factory) -> None:
    org, user, _, url, _, today = await planned_member(client, db, factory)
    kept = await client.put(_log(org, "tdee-choice"), json={"choice": "formula"}, headers=user.headers)
    assert kept.status_code == 200 and kept.json()["choice"]["choice"] == "formula"
    assert kept.json()["choice"]["estimateKcal"] is None and kept.json()["offered"]  # still offered; kept
    body = await _checkin(client, user, url, today, weight_kg=79.3)
    assert body["weight"] == {"kg": 79.3, "source": "entered"}
    assert body["adjustment"]["triggers_fired"] == [] and body["version"] == 1
    assert "new_target_intake_kcal" not in body["adjustment"]
    targets = (await detail(client, url, user.headers))["outputs"]["macro_targets"]
    assert (targets["tdee_kcal"], targets["target_intake_kcal"]) == (3088, 2540)


async def test_within_10_percent_nothing_is_offered(client, db, factory) -> None:
    org, user, _, _, _, _ = await planned_member(client, db, factory, avg_daily_steps=6_500)
    spent = (await client.get(_log(org, "trend"), headers=user.headers)).json()["expenditure"]
    assert (spent["estimateKcal"], spent["formulaKcal"], spent["differencePct"]) == (2477, 2461, 0.7)
    assert not spent["offered"]
    refused = await client.put(_log(org, "tdee-choice"), json={"choice": "estimate"}, headers=user.headers)
    assert (refused.status_code, refused.json()["code"]) == (409, "expenditure_not_offered")


async def test_a_checkin_without_a_weight_and_no_recent_one_still_asks_for_it(client, db, factory) -> None:
    org, user, member_id, url, _, today = await planned_member(client, db, factory)
    async with db.owner() as session:  # the last weight 8 days before the check-in
        await session.execute(text("DELETE FROM body_weights WHERE member_id = :m AND measured_on > :d"),
                              {"m": member_id, "d": today - timedelta(days=8)})
    refused = await client.post(f"{url}/checkins", headers=user.headers,
                                json={"checkin_date": today.isoformat(), **M})
    assert refused.status_code == 422 and refused.json()["code"] == "validation_failed", refused.text
    assert "weight_kg" in refused.text
