"""The member's training app in Chromium (issue 26), at a phone (390×844) and a desktop (1366×900) size.

A member with a past bench session and today's workout (a superset of bench press and push-ups, then a plank)
does the whole workout set by set from Today and the timer, sees a PR badge earned, undoes a set, finishes, and
finds it in Progress (history by day, charts, recovery) and the calendar; a set entered while the service is
unreachable arrives once when it returns; Hebrew reads right to left with the exercise names and cues in Hebrew;
the screens work from the keyboard. Every number asserted is checked against the database or the service.
A screenshot per step lands in test-artifacts/screenshots/.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from gym.training import logs
from gym.training.logs import LoggedExercise
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.browser.conftest import TIMEOUT_MS, _screenshot_path
from tests.trainer.fixtures import hold, reps, trainee

expect = pytest.importorskip("playwright.async_api", reason="browser tests need the `playwright` package").expect

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
SUPERSET = {"id": "s1", "type": "superset", "position": 1, "name": "Push pair", "rounds": 2,
            "rest_between_rounds_sec": 60}
HEBREW = re.compile(r"[\u0590-\u05FF]")
UUIDISH = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-|ex_\d{3}")


def superset_workout() -> dict:
    return {"title": "Home push", "exercises": [
        reps(1, "Dumbbell Bench Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=14,
             sets=2, group=SUPERSET),
        reps(2, "Push-up", muscles={"Chest": 0.8, "Triceps": 0.2}, sets=2,
             group={**SUPERSET, "position": 2, "name": None, "rounds": None, "rest_between_rounds_sec": None}),
        hold(3)]}


async def _member(db, factory):
    """A member whose bench press baseline (2 × 10 at 14 kg, three days ago) a heavier set beats."""
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Dumbbell Bench Press", exercise_type="strength", reps_per_set=[10, 10], load_kg=14,
            muscles=["Chest"], goals=["Strength"], performed_at=now - timedelta(days=3)), now=now)
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(superset_workout()),
                           now=now - timedelta(minutes=20))
    return t


async def _sets(db, member_id) -> list[tuple[str, int, int | None, float | None]]:
    """The live sets of the member's workout: (exercise id, set number, reps, load)."""
    async with db.owner() as session:
        rows = (await session.execute(text(
            "SELECT exercise_key, set_number, reps, load_kg FROM exercise_sets WHERE member_id = :m AND undone_at IS NULL "
            "ORDER BY exercise_key, set_number"), {"m": member_id})).all()
    return [(r.exercise_key, r.set_number, r.reps, None if r.load_kg is None else float(r.load_kg)) for r in rows]


@pytest.fixture
async def app_page(browser, server, request) -> AsyncIterator[object]:
    """A fresh context at the size the test is parametrized with; uncaught page errors fail the test."""
    size = SIZES[getattr(request, "param", "phone")]
    locale = "he-IL" if "hebrew" in request.node.name else "en-US"
    context = await browser.new_context(locale=locale, viewport=size, base_url=server.url,
                                        has_touch=size["width"] < 600)
    context.set_default_timeout(TIMEOUT_MS)
    tab = await context.new_page()
    errors: list[str] = []
    lines: list[str] = []
    request.node.browser_console = lines
    tab.on("console", lambda msg: lines.append(f"[{msg.type}] {msg.text}"))
    tab.on("pageerror", lambda err: (errors.append(str(err)), lines.append(f"[pageerror] {err}")))
    yield tab
    try:
        await tab.screenshot(path=str(_screenshot_path(request.config.rootpath, request.node.name)), full_page=True)
    finally:
        await context.close()
    if errors:
        pytest.fail("uncaught errors in the member app:\n" + "\n".join(errors))


async def _shot(page, request, step: str) -> None:
    await page.screenshot(path=str(_screenshot_path(request.config.rootpath, f"{request.node.name}-{step}")),
                          full_page=True)


async def _open(page, server, t, *, clock: bool = False) -> None:
    if clock:
        await page.clock.install()
    await page.goto(f"{server.url}/console/#token={t.user.token}")
    await expect(page.get_by_test_id("user-role")).to_have_attribute("data-role", "member")
    await expect(page.get_by_test_id("today-exercise")).to_have_count(3)


@pytest.mark.parametrize("app_page", ["phone", "desktop"], indirect=True)
async def test_today_opens_on_the_workout(app_page, server, db, factory, request) -> None:
    """First screen of a member: Today, the workout's three exercises with their sets prefilled."""
    t = await _member(db, factory)
    page = app_page
    await _open(page, server, t)
    bench = page.get_by_test_id("today-exercise").nth(0)
    await expect(bench.get_by_test_id("exercise-name")).to_have_text("Dumbbell Bench Press")
    await expect(bench.get_by_test_id("set-row")).to_have_count(2)
    await expect(bench.get_by_test_id("set-load").first).to_have_value("14")
    await expect(bench.get_by_test_id("set-reps").first).to_have_value("10")
    await _shot(page, request, "today")
