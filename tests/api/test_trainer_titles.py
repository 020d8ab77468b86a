"""Issue 43 item 5, "Workout" translated, over HTTP: a workout the trainer titled in one language ("Workout", "Leg
workout", made from locales/) is shown in the member's language now on Today, in the history and on the calendar;
a title of anyone else's stays as written. Before, a member who switched to Russian read "Workout"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from gym.training.workout_titles import shown_title, workout_title
from tests.browser.member_tab import bench_and_plank
from tests.trainer.fixtures import trainee

SHOWN = {"en": "Workout", "he": "אימון", "ru": "Тренировка"}


@pytest.mark.parametrize("locale", ["en", "he", "ru"])
async def test_the_trainers_english_title_reads_in_the_members_language(client, db, factory, locale) -> None:
    t = await trainee(db, factory)
    async with db.scope(org_id=t.org.id) as session:
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(
            {**bench_and_plank(), "title": workout_title("en", None)}), now=datetime.now(UTC) - timedelta(minutes=5))
    url, h = f"/organizations/{t.org.id}/trainer", {**t.user.headers, "x-locale": locale}
    assert (await client.get(f"{url}/workout", headers=h)).json()["workout"]["title"] == SHOWN[locale]
    logged = await client.post(f"{url}/workout/sets", headers={**h, "Idempotency-Key": f"t-{locale}"},
                               json={"exerciseId": "ex_001", "reps": 10, "load": 14, "loadUnit": "kg"})
    assert logged.status_code == 201, logged.text
    history = (await client.get(f"{url}/progress/history", params={"days": 1}, headers=h)).json()
    assert history["items"][0]["workouts"][0]["title"] == SHOWN[locale]
    calendar = (await client.get(f"{url}/calendar", headers=h)).json()
    assert [d["done"]["titles"] for d in calendar["days"] if d["done"]] == [[SHOWN[locale]]]


def test_every_title_the_trainer_makes_reads_back_in_each_language_and_others_stay() -> None:
    assert shown_title("Leg workout", "he") == "אימון רגליים"
    assert shown_title("Быстрая тренировка ног", "en") == "Quick leg workout"
    assert shown_title("Home push", "ru") == "Home push" and shown_title(None, "ru") is None
