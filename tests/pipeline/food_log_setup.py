"""A member with a nutrition plan who logged the hand-computed 21-day series (tests/gym/nutrition/trend_series.py)
ending today: the setup of the food log's check-in and browser tests.

A man of 28, 180 cm, 80 kg aiming at 75 kg, 11,000 steps, pre-training (formula TDEE 3,087.75 → target 2,540 kcal;
tests/pipeline/test_food_log_checkin_http.py works it out), whose plan started 21 days ago.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from gym.nutrition import body_weights, food_log
from tests.gym.nutrition import samples
from tests.gym.nutrition.trend_series import KCAL_BY_DAY, WEIGHT_BY_DAY, day
from tests.pipeline.issue25 import follow, member, start, states

MAN = {**{k: v for k, v in samples.INTAKE.items() if k != "menstrual_status"}, "sex": "male", "height_cm": 180,
       "current_weight_kg": 80.0, "target_weight_kg": 75.0, "training_phase": "pre_training",
       "avg_daily_steps": 11_000}

async def planned_member(client, db, factory, **intake):
    """A member whose plan started 21 days ago and who logged the 21-day series ending today (UTC days)."""
    org = await factory.org(timezone="UTC")
    user, member_id = await member(db, factory, org)
    url = await start(client, org, user.headers, {**MAN, **intake})
    frames = await follow(client, url, user.headers)
    assert states(frames)[-1] == "output_ready"
    today = datetime.now(UTC).date()
    first = today - timedelta(days=20)
    async with db.owner() as session:
        await session.execute(text("UPDATE nutrition_runs SET started_on = :d WHERE id = :r"),
                              {"d": first, "r": url.rsplit("/", 1)[1]})
    async with db.scope(org_id=org.id) as session:
        for n, kg in WEIGHT_BY_DAY.items():
            await body_weights.put_weight(session, org.id, member_id, day(n, first), kg)
        for n, kcal in KCAL_BY_DAY.items():
            await food_log.add_quick(session, org.id, member_id, on=day(n, first), meal="lunch",
                                     quick=food_log.Quick(calories=kcal))
    return org, user, member_id, url, frames[-1][0], today
