"""Issue 24 item 3, console side: the workout card shows, per exercise, its recovering muscles with their recovery
percentage and the progression suggestion (load, reps and why, in words from locales/); a workout summary object
prints as words, never "[object Object]"; a reopened session shows the same card (item 6). The scripted trainer
runs on the fake model; the member trained chest an hour ago and benched 14 kg before."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from gym.training.logs import LoggedExercise, log_exercise
from tests.browser.test_member_console import MemberConsole
from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.trainer.fixtures import chest_workout, trainee
from tests.trainer.scripted import Trainer

pytestmark = pytest.mark.browser


async def test_the_card_shows_recovery_progression_and_a_summary_in_words(page, server, db, factory, fake_model,
                                                                          request) -> None:
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        for at in (now - timedelta(days=8), now - timedelta(hours=1)):
            await log_exercise(session, t.org.id, t.member_id, LoggedExercise(
                exercise_name="Dumbbell Floor Press", exercise_type="strength", sets=3, reps=10, load_kg=14, rpe=8,
                muscles=[{"name": "Chest", "share": 0.7}, {"name": "Triceps", "share": 0.3}], goals=["Strength"],
                performed_at=at), now=now)
    workout = {**chest_workout(), "summary": {"estimated_duration_min": 25, "primary_goals": ["Strength"],
                                              "muscles_targeted": ["Chest", "Triceps"]}}
    Trainer(fake_model, [
        Reply(ToolUse("workout__generate_workout", workout, id="g1")),
        Reply(ToolUse("coach__message_notify_user", {"text": "Here is workout_1: ex_001 first.",
                                                     "attachments": ["workout_1"]}, id="n1")),
        Reply(ToolUse("coach__idle", {}, id="i1")),
    ])
    console = await MemberConsole(page).open(server.url, t.user.token)
    turn = await console.say("chest again")
    card = turn.get_by_test_id("workout-card")
    await expect(card).to_have_count(1)
    await expect(turn.get_by_test_id("assistant-text")).to_have_text("Here is Quick chest: Dumbbell Floor Press first.")
    bench = card.get_by_test_id("exercise").first
    chest = bench.locator('[data-testid="recovery-muscle"][data-muscle="Chest"]')
    await expect(chest).to_have_text(re.compile(r"^Chest [0-5] % recovered$"))
    await expect(bench.get_by_test_id("progression-next")).to_have_text(re.compile(r"^Next time: 15 kg"))
    await expect(bench.get_by_test_id("progression-why")).to_contain_text("14 kg")
    await expect(card.get_by_test_id("exercise").nth(2).get_by_test_id("exercise-recovery")).to_have_count(0)
    summary = card.get_by_test_id("workout-summary-line")
    await expect(summary).to_have_text(re.compile(r"25 min · Strength · Chest, Triceps"))
    assert "[object Object]" not in await card.inner_text()
    await console.shot(request, "live")

    await page.reload()
    await page.get_by_test_id("composer").wait_for(state="visible")
    await page.get_by_test_id("session-item").first.click()
    again = page.get_by_test_id("workout-card")
    await expect(again).to_have_count(1)
    await expect(again.get_by_test_id("recovery-muscle").first).to_be_visible()
    await expect(again.get_by_test_id("progression-next")).to_have_count(1)
    await expect(page.get_by_test_id("assistant-text")).to_have_text("Here is Quick chest: Dumbbell Floor Press first.")
    await console.shot(request, "reopened")
