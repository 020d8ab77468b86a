"""Issue 25 item 7 through the front door (the in-process worker, offline agents): week-bound triggers fire once at
the first check-in on or after their week (check-ins at weeks 3, 5, 7, 9); a change of training phase re-runs COACH;
waist +0.2 cm against hips +0.1 cm is no change; the luteal re-run moves carbohydrate to dinner; every substitution
names a recipe of the run; the intake and an error travel as envelopes; the check-in's hint names `weight_kg`."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import text

from gym.nutrition.payloads.common import DAYS
from tests.gym.nutrition import samples
from tests.pipeline.issue25 import detail, follow, member, start, states

M = {"waist_cm": 68.5, "hip_cm": 92.5}


async def _ready_since(client, db, factory, weeks: int):
    """A member's finished run that started `weeks` weeks ago (backdated), with its URL and the last frame id."""
    org = await factory.org()
    user, _ = await member(db, factory, org)
    url = await start(client, org, user.headers, samples.INTAKE)
    frames = await follow(client, url, user.headers)
    assert states(frames)[-1] == "output_ready"
    started = date.today() - timedelta(weeks=weeks)
    async with db.owner() as session:
        await session.execute(text("UPDATE nutrition_runs SET started_on = :d WHERE id = :r"),
                              {"d": started, "r": url.rsplit("/", 1)[1]})
    return user, url, started, frames[-1][0]


class Checkins:
    """Check-ins at given weeks, each followed (when it re-plans) until the run rests again."""

    def __init__(self, client, user, url: str, started: date, last: int) -> None:
        self.client, self.user, self.url, self.started, self.last = client, user, url, started, last

    async def at(self, week: int, kg: float, **fields: Any) -> dict[str, Any]:
        on = self.started + timedelta(weeks=week)
        sent = await self.client.post(f"{self.url}/checkins", headers=self.user.headers,
                                      json={"weight_kg": kg, "checkin_date": on.isoformat(), **fields})
        assert sent.status_code == 202, sent.text
        body = sent.json()
        if body["adjustment"]["agents_re_run"]:
            frames = await follow(self.client, self.url, self.user.headers, after=self.last)
            assert states(frames)[-1] == "output_ready", frames
            self.last = frames[-1][0]
        return body


async def test_week_bound_triggers_fire_once_at_the_first_checkin_on_or_after_their_week(client, db,
                                                                                        factory) -> None:
    user, url, started, last = await _ready_since(client, db, factory, weeks=9)
    week = Checkins(client, user, url, started, last)
    fired = [(await week.at(w, kg, **M))["adjustment"]["triggers_fired"]
             for w, kg in ((3, 56.8), (5, 57.4), (7, 58.0), (9, 58.6))]
    assert fired == [["tier_progression"], ["protein_recalculation", "tier_progression"], [],
                     ["protein_recalculation"]]
    targets = (await detail(client, url, user.headers))["outputs"]["macro_targets"]
    # tier 2 (the whole 550 kcal surplus): 1906.07 + 550 -> 2460; protein at week 9: 1.8 × 58.6 = 105.48 -> 105
    assert (targets["target_intake_kcal"], targets["protein_g"]) == (2460, 105)


async def test_a_change_of_training_phase_reruns_the_coach(client, db, factory) -> None:
    user, url, started, last = await _ready_since(client, db, factory, weeks=1)
    body = await Checkins(client, user, url, started, last).at(1, 56.5, training_phase="pre_training", **M)
    adjustment = body["adjustment"]
    assert adjustment["triggers_fired"] == ["phase_transition"] and adjustment["agents_re_run"] == ["COACH"]
    assert adjustment["agents_unchanged"] == ["NUTRITIONIST", "DIETITIAN", "CHEF"] and body["version"] == 2
    # the run's detail shows the same 004 §7.4 delta: no calorie or macro fields, as nothing of them changed
    assert (await detail(client, url, user.headers))["adjustments"][-1] == adjustment
    assert "new_target_intake_kcal" not in adjustment and "new_macros" not in adjustment
    frames = await follow(client, url, user.headers)
    v2 = [(d["fromAgent"], d["dataType"]) for _, kind, d in frames if kind == "envelope" and d["runVersion"] == 2]
    assert ("COACH", "training_program") in v2 and ("NUTRITIONIST", "nutrition_strategy") not in v2
    async with db.owner() as session:
        phase = await session.scalar(text(
            "SELECT payload->'client_data'->>'current_phase' FROM nutrition_messages WHERE run_id = :r "
            "AND data_type = 'training_input' AND run_version = 2"), {"r": url.rsplit("/", 1)[1]})
    assert phase == "pre_training"  # COACH planned for the new phase


async def test_waist_a_little_ahead_of_hips_is_no_change(client, db, factory) -> None:
    user, url, started, last = await _ready_since(client, db, factory, weeks=3)
    week = Checkins(client, user, url, started, last)
    await week.at(1, 56.5, **M)
    second = await week.at(3, 56.9, waist_cm=68.7, hip_cm=92.6)  # waist +0.2 cm, hips +0.1 cm
    assert second["adjustment"]["triggers_fired"] == ["tier_progression"]  # week 3: the ramp, not a review
    assert "COACH" in second["adjustment"]["agents_unchanged"]


async def test_the_luteal_rerun_moves_carbohydrate_to_dinner(client, db, factory) -> None:
    user, url, started, last = await _ready_since(client, db, factory, weeks=1)
    before = (await detail(client, url, user.headers))["outputs"]
    body = await Checkins(client, user, url, started, last).at(1, 56.5, cycle_phase="luteal", cycle_day=20, **M)
    assert body["adjustment"]["agents_re_run"] == ["DIETITIAN", "CHEF"]
    after = (await detail(client, url, user.headers))["outputs"]
    for day in DAYS:
        old, new = (plan["weekly_meal_plan"]["weekly_template"][day] for plan in (before, after))
        carbs = {meal: (old[meal]["slot_spec"]["carbs_g"], new[meal]["slot_spec"]["carbs_g"]) for meal in old}
        day_carbs = sum(was for was, _ in carbs.values())
        assert carbs["dinner"][1] - carbs["dinner"][0] == round(0.10 * day_carbs)  # a tenth of the day's carbs
        assert all(now < was for meal, (was, now) in carbs.items() if meal != "dinner")
        for field in ("calories", "protein_g", "carbs_g", "fat_g"):  # the day's totals stay
            assert sum(s["slot_spec"][field] for s in new.values()) == sum(s["slot_spec"][field] for s in old.values())
    dinner = after["weekly_meal_plan"]["weekly_template"]["monday"]["dinner"]["slot_spec"]
    served = [r for r in after["recipes"]["recipes"] if {"day": "monday", "meal": "dinner"} in r["slots"]]
    assert served and abs(served[0]["macros_per_serving"]["calories"] - dinner["calories"]) <= 0.1 * dinner["calories"]


async def test_every_substitution_names_a_recipe_of_the_run(client, db, factory) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org)
    for intake in (samples.INTAKE, {**samples.INTAKE, "appetite_level": "normal"}):  # 2,180 and 2,460 kcal
        url = await start(client, org, user.headers, intake)
        await follow(client, url, user.headers)
        outputs = (await detail(client, url, user.headers))["outputs"]
        plan, produced = outputs["weekly_meal_plan"], {r["recipe_id"] for r in outputs["recipes"]["recipes"]}
        named = {r for day in DAYS for slot in plan["weekly_template"][day].values() for r in slot["alternatives"]}
        named |= {r for ids in plan["substitution_bank"].values() for r in ids}
        named |= set(plan["solo_week_protocol"]["recipe_ids"])
        assert named and named <= produced, named - produced


async def test_the_intake_and_an_error_travel_as_envelopes(client, db, factory) -> None:
    org = await factory.org()
    user, _ = await member(db, factory, org)
    url = await start(client, org, user.headers, {**samples.INTAKE, "medical_history": {
        "medications": [], "conditions": ["bulimia"], "injuries": []}})
    frames = await follow(client, url, user.headers)
    envelopes = [(d["fromAgent"], d["toAgent"], d["dataType"]) for _, kind, d in frames if kind == "envelope"]
    assert envelopes[0] == ("INTAKE", "SCIENTIST", "intake_data")
    assert envelopes[-1] == ("ORCHESTRATOR", "USER", "pipeline_error")
    assert states(frames)[-1] == "error"


async def test_the_checkin_hint_names_weight_kg(client, db, factory) -> None:
    user, url, _, _ = await _ready_since(client, db, factory, weeks=0)
    sent = await client.post(f"{url}/checkins", headers=user.headers, json={"weight": 56.4, **M})
    assert sent.status_code == 422
    [error] = sent.json()["errors"]
    assert error["field"] == "weight" and "'weight_kg'" in error["message"]
    assert "current_weight_kg" not in sent.text
