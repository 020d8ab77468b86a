"""Shared pieces of the member app's second-round browser tests (issue 43): a tab per language and size, a member
with a past bench session and today's workout, axe-core, a screenshot per step, and the overflow measure."""

from __future__ import annotations

import importlib.resources
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from gym.training import logs
from gym.training.logs import LoggedExercise
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.browser.conftest import GRANTED, _screenshot_path, watched_page
from tests.browser.waits import expect
from tests.trainer.fixtures import Trainee, hold, reps, trainee

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
LOCALES = {"en": "en-US", "he": "he-IL", "ru": "ru-RU"}
COMBOS = [(lang, size) for lang in LOCALES for size in SIZES]
COMBO_IDS = [f"{lang}-{size}" for lang, size in COMBOS]
AXE_JS = (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text()


@dataclass
class Tab:
    page: object
    lang: str
    size: str
    request: pytest.FixtureRequest

    async def shot(self, step: str) -> None:
        name = f"{self.request.node.name}-{step}"
        await self.page.screenshot(path=str(_screenshot_path(self.request.config.rootpath, name)), full_page=True)

    async def axe(self, screen: str) -> None:
        """axe-core over the page as it is: no serious or critical violation."""
        if not await self.page.evaluate("typeof window.axe !== 'undefined'"):
            await self.page.evaluate(AXE_JS)
        result = await self.page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
               if v["impact"] in ("serious", "critical")]
        assert bad == [], f"axe on {screen} ({self.lang}, {self.size}): {bad}"

    async def sideways(self) -> int:
        """How far the page (or the member view, which scrolls) can scroll sideways, in CSS pixels."""
        return await self.page.evaluate("""() => Math.max(...[document.scrollingElement,
            document.getElementById('member-view')].filter(Boolean).map((e) => e.scrollWidth - e.clientWidth))""")


@pytest.fixture(name="tab")
async def tab_fixture(browser, server, request) -> AsyncIterator[Tab]:
    """A fresh context in the language and at the size the test is parametrized with (`combo`)."""
    lang, size = request.node.callspec.params["combo"]
    async with watched_page(browser, server, request, locale=LOCALES[lang], viewport=SIZES[size],
                            permissions=GRANTED, what="in the member app") as (page, _):
        yield Tab(page, lang, size, request)


def bench_and_plank() -> dict:
    return {"title": "Bench day", "exercises": [
        reps(1, "Dumbbell Bench Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=14,
             sets=2),
        hold(2)]}


async def member_with_history(db, factory, workout: dict | None = None) -> Trainee:
    """A member whose bench press went 14 kg × 10, then 14 kg × 8 three days ago, with today's workout saved."""
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Dumbbell Bench Press", exercise_type="strength", reps_per_set=[10, 8], load_kg=14, muscles=["Chest"], goals=["Strength"], performed_at=now - timedelta(days=3)),
            now=now)
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(workout or bench_and_plank()),
                           now=now - timedelta(minutes=20))
    return t


async def open_today(tab: Tab, server, t: Trainee, exercises: int = 2) -> None:
    await tab.page.goto(f"{server.url}/console/#token={t.user.token}")
    await expect(tab.page.get_by_test_id("user-role")).to_have_attribute("data-role", "member")
    await expect(tab.page.locator("html")).to_have_attribute("lang", tab.lang)
    await expect(tab.page.get_by_test_id("today-exercise")).to_have_count(exercises)


def set_row(page, exercise: int, n: int):
    return page.get_by_test_id("today-exercise").nth(exercise).locator(f'[data-testid="set-row"][data-set="{n}"]')


async def focused_set(page) -> tuple[str | None, str | None]:
    """(exercise id, set number) of the row holding the keyboard focus; (None, None) off every row."""
    return tuple(await page.evaluate("""() => {
        const row = document.activeElement?.closest('[data-testid=set-row]');
        return [row?.closest('[data-exercise-id]')?.dataset.exerciseId ?? null, row?.dataset.set ?? null];
    }"""))
