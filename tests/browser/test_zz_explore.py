from datetime import UTC, datetime, timedelta
import pytest
from gym.training import logs
from gym.training.logs import LoggedExercise
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.api.test_trainer_app_endpoints import superset_workout
from tests.trainer.fixtures import trainee

expect = pytest.importorskip("playwright.async_api").expect

async def test_explore(browser, server, db, factory):
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Dumbbell Bench Press", exercise_type="strength", reps_per_set=[10, 10], load_kg=14,
            muscles=["Chest"], goals=["Strength"], performed_at=now - timedelta(days=3)), now=now)
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate(superset_workout()), now=now - timedelta(minutes=20))
    for lang, size in (("en", {"width": 390, "height": 844}), ("he", {"width": 1366, "height": 900})):
        ctx = await browser.new_context(locale=lang, viewport=size, base_url=server.url)
        page = await ctx.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        await page.goto(f"{server.url}/console/#token={t.user.token}")
        await page.get_by_test_id("today-exercise").first.wait_for()
        await page.screenshot(path=f"/tmp/explore/today-{lang}.png", full_page=True)
        await page.get_by_test_id("set-check").first.click()
        await expect(page.get_by_test_id("set-row").first).to_have_attribute("data-state", "logged")
        await page.screenshot(path=f"/tmp/explore/today2-{lang}.png", full_page=True)
        await page.get_by_test_id("open-timer").click()
        await page.get_by_test_id("timer-panel").wait_for()
        await page.screenshot(path=f"/tmp/explore/timer-{lang}.png")
        await page.get_by_test_id("timer-close").click()
        for v in ("progress", "calendar"):
            await page.get_by_test_id(f"nav-{v}").click()
            await page.wait_for_timeout(800)
            await page.screenshot(path=f"/tmp/explore/{v}-{lang}.png", full_page=True)
        await page.get_by_test_id("progress-tab-charts").click() if False else None
        print(lang, errors)
        await ctx.close()
