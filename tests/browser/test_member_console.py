"""The console's member mode: signed in as a gym member, the console is the personal trainer.

Dani's item-6 flows run in Chromium against the OFFLINE trainer and the seeded demo gym (checked in the
database too); questions, timers, confirmation and undo run against the fake Anthropic server with a
scripted trainer. Desktop and phone sizes; a screenshot per test lands in test-artifacts/screenshots/.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from gym.demo.seed import DANI_MEMBER_ID
from gym.demo.tenancy import clerk_id_for
from gym.training import schedule
from tests.browser.conftest import _screenshot_path
from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, ToolUse
from tests.trainer.fixtures import hold, reps, trainee
from tests.trainer.scripted import Trainer

pytestmark = pytest.mark.browser

DANI_EMAIL = "dani@harbor.test"
PHONE = {"width": 390, "height": 844}


@dataclass
class MemberConsole:
    page: object

    async def open(self, base_url: str, token: str) -> MemberConsole:
        await self.page.goto(f"{base_url}/console/#token={token}&view=trainer")
        await expect(self.page.get_by_test_id("user-role")).to_have_attribute("data-role", "member")
        await self.page.get_by_test_id("composer").wait_for(state="visible")
        return self

    async def say(self, message: str) -> object:
        """Send and wait for the turn to end; the new assistant turn."""
        turns = self.page.get_by_test_id("assistant-turn")
        before = await turns.count()
        await self.page.get_by_test_id("composer").fill(message)
        await self.page.get_by_test_id("send").click()
        return await self.settled(before)

    async def settled(self, before: int) -> object:
        turns = self.page.get_by_test_id("assistant-turn")
        await expect(turns).to_have_count(before + 1)
        turn = turns.nth(before)
        await expect(turn.get_by_test_id("typing")).to_have_count(0, timeout=20_000)
        await expect(self.page.get_by_test_id("send")).to_be_enabled()
        return turn

    async def shot(self, request: pytest.FixtureRequest, suffix: str) -> None:
        await self.page.screenshot(path=str(_screenshot_path(request.config.rootpath, f"{request.node.name}-{suffix}")),
                                   full_page=True)


async def _dani_token(db, dev_keys) -> str:
    clerk_id = clerk_id_for(DANI_EMAIL)
    async with db.owner() as session:
        user_id = await session.scalar(text("SELECT id FROM users WHERE clerk_id = :c"), {"c": clerk_id})
    assert user_id is not None, "seed_demo did not create dani@harbor.test"
    return dev_keys.sign(sub=clerk_id, email=DANI_EMAIL)


@pytest.fixture
async def dani(page, offline_server, demo_gym, db, dev_keys, fake_model) -> AsyncIterator[MemberConsole]:
    console = await MemberConsole(page).open(offline_server.url, await _dani_token(db, dev_keys))
    await page.get_by_test_id("new-session").click()
    await expect(page.get_by_test_id("empty-state")).to_be_visible()
    yield console
    assert fake_model.requests == [], "the offline trainer must not call the Anthropic API"


async def _latest_bench(db) -> tuple[float, bool] | None:
    async with db.owner() as session:
        row = (await session.execute(text(
            "SELECT load_kg, undone_at IS NOT NULL AS undone FROM exercise_logs WHERE member_id = :m "
            "AND name = 'Bench Press' ORDER BY created_at DESC LIMIT 1"), {"m": DANI_MEMBER_ID})).first()
    return None if row is None else (float(row.load_kg), bool(row.undone))


async def test_dani_trains_with_the_offline_trainer(dani, db, request) -> None:
    page = dani.page
    assert "Dani" in (await page.get_by_test_id("user-name").text_content())
    await expect(page.locator(".brand-tag")).to_have_text("Personal trainer")

    first = await dani.say("give me a quick chest workout")
    card = first.get_by_test_id("workout-card")
    await expect(card).to_have_count(1)
    await expect(first.get_by_test_id("assistant-text")).to_contain_text("not an LLM")
    exercises = card.get_by_test_id("exercise")
    assert await exercises.count() >= 2
    await expect(exercises.first).to_have_attribute("data-exercise-id", "ex_001")
    rx = await card.locator('[data-type="reps"] [data-testid="exercise-rx"]').all_text_contents()
    assert rx and all(re.fullmatch(r"\d+ × [\d/]+ × (?:[\d.,]+ kg|bodyweight)", line) for line in rx), rx
    second_before = await exercises.nth(1).locator(".ex-name").text_content()
    await dani.shot(request, "workout")

    swapped = await dani.say("swap the second exercise")
    after = swapped.get_by_test_id("workout-card").get_by_test_id("exercise").nth(1)
    await expect(after).to_have_attribute("data-exercise-id", "ex_002")
    assert await after.locator(".ex-name").text_content() != second_before

    logged = await dani.say("log it: bench 3x8 at 40 kg")
    await expect(logged.get_by_test_id("assistant-text")).to_contain_text("Bench Press")
    assert await _latest_bench(db) == (40.0, False)
    with_undo = logged.get_by_test_id("action-card").filter(has=page.get_by_test_id("undo"))
    await expect(with_undo).to_have_count(1)
    action = page.locator(f'[data-tool-use-id="{await with_undo.get_attribute("data-tool-use-id")}"]')
    await dani.shot(request, "logged")
    await action.get_by_test_id("undo").click()
    await expect(action).to_have_attribute("data-state", "undone")
    await expect(action.get_by_test_id("undo")).to_have_count(0)
    assert await _latest_bench(db) == (40.0, True)

    counted = await dani.say("how many workouts this month?")
    await expect(counted.get_by_test_id("assistant-text")).to_contain_text("Workouts this month:")

    noted = await dani.say("avoid shoulders for two weeks")
    await expect(noted.get_by_test_id("assistant-text")).to_contain_text("Noted")

    # the session list has this session; reopening it shows the conversation again
    items = page.get_by_test_id("session-item")
    await expect(items.first).to_have_attribute("aria-current", "true")
    sid = await items.first.get_attribute("data-session-id")
    await page.reload()
    await page.get_by_test_id("composer").wait_for(state="visible")
    await page.locator(f'[data-testid="session-item"][data-session-id="{sid}"]').click()
    await expect(page.get_by_test_id("user-text")).to_have_count(5)
    await expect(page.get_by_test_id("user-text").first).to_have_text("give me a quick chest workout")
    await expect(page.get_by_test_id("assistant-text").filter(has_text="Noted")).to_have_count(1)
    # the cards it showed, not a text summary, and no internal id anywhere on the page
    await expect(page.get_by_test_id("workout-card")).to_have_count(2)
    await expect(page.get_by_test_id("workout-summary")).to_have_count(0)
    shown = await page.locator("#chat-log").inner_text()
    assert not re.search(r"\bex_\d+|\bworkout_\d+|\b[a-z]+__[a-z_]+\b|[0-9a-f]{8}-[0-9a-f]{4}-", shown), shown


async def test_a_message_sent_while_a_new_session_opens_goes_to_it(dani) -> None:
    """CI caught it: the new session's empty state, landing after the first answer had rendered, wiped it."""
    page = dani.page
    release = asyncio.Event()

    async def slow_create(route) -> None:
        if route.request.method == "POST" and route.request.url.endswith("/sessions"):
            await release.wait()
        await route.continue_()

    await page.route("**/trainer/sessions", slow_create)
    await page.get_by_test_id("new-session").click()
    await page.get_by_test_id("composer").fill("give me a quick chest workout")
    await page.get_by_test_id("send").click()
    release.set()
    turn = await dani.settled(0)
    await expect(turn.get_by_test_id("workout-card")).to_have_count(1)
    await expect(page.get_by_test_id("empty-state")).to_have_count(0)
    await page.unroute("**/trainer/sessions")


async def test_dani_on_a_phone(browser, offline_server, demo_gym, db, dev_keys, fake_model, request) -> None:
    context = await browser.new_context(locale="en-US", viewport=PHONE, base_url=offline_server.url)
    try:
        page = await context.new_page()
        dani = await MemberConsole(page).open(offline_server.url, await _dani_token(db, dev_keys))
        await page.get_by_test_id("menu-toggle").click()
        await page.get_by_test_id("new-session").click()
        await expect(page.get_by_test_id("empty-state")).to_be_visible()
        turn = await dani.say("give me a quick chest workout")
        card = turn.get_by_test_id("workout-card")
        await expect(card).to_be_visible()
        box = await card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
        scroll = await page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= PHONE["width"], scroll
        await dani.shot(request, "phone")
    finally:
        await context.close()
    assert fake_model.requests == []


async def test_question_timer_and_confirmation_with_a_scripted_trainer(page, server, db, factory, fake_model,
                                                                        request) -> None:
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        scheduled = str((await schedule.schedule_workout(session, t.org.id, t.member_id, now=now,
                                                         scheduled_at=now + timedelta(days=2), workout_type="Legs")).id)
    Trainer(fake_model, [
        Reply(ToolUse("coach__message_ask_user", {"text": "Where do you train today?", "options": ["Home", "Gym"]},
                      id="ask1")),
        Reply(ToolUse("timers__generate_exercise_timer", {"exercise_name": "Plank", "exercise_type": "flexibility",
                                                          "sets": 2, "work_duration_seconds": 30,
                                                          "rest_seconds": 20}, id="tim1")),
        Reply(ToolUse("calendar__delete_scheduled_workout", {"id": scheduled}, id="del1")),
        Reply(ToolUse("coach__message_notify_user", {"text": "Deleted Thursday."}, id="n1")),
        Reply(ToolUse("coach__idle", {}, id="i1")),
    ])
    console = await MemberConsole(page).open(server.url, t.user.token)
    first = await console.say("plan my day")
    question = first.get_by_test_id("question")
    await expect(question).to_contain_text("Where do you train today?")
    await expect(question.get_by_test_id("question-option")).to_have_text(["Home", "Gym"])
    await console.shot(request, "question")

    await question.get_by_test_id("question-option").filter(has_text="Home").click()
    await expect(page.get_by_test_id("user-text").last).to_have_text("Home")
    second = await console.settled(1)
    timer = second.get_by_test_id("timer-card")
    await expect(timer).to_have_count(1)
    phases = timer.get_by_test_id("timer-phase")
    assert await phases.count() >= 2
    kinds = {await phases.nth(i).get_attribute("data-phase") for i in range(await phases.count())}
    assert "rest" in kinds and kinds & {"work", "hold"}, kinds
    pending = second.get_by_test_id("action-card").filter(has=page.get_by_test_id("approve"))
    await expect(pending).to_have_count(1)
    await console.shot(request, "timer-confirm")
    await pending.get_by_test_id("approve").click()
    third = await console.settled(2)
    await expect(third.get_by_test_id("assistant-text")).to_have_text("Deleted Thursday.")
    async with db.owner() as session:
        assert await session.scalar(text("SELECT count(*) FROM scheduled_workouts WHERE id = :i"), {"i": scheduled}) == 0


async def test_a_workout_card_shows_every_exercise_type_and_groups(page, server, db, factory, fake_model,
                                                                   request) -> None:
    t = await trainee(db, factory)
    superset = {"id": "s1", "type": "superset", "position": 1, "name": "Push pair", "rounds": 3}
    workout = {"title": "Mixed session", "exercises": [
        reps(1, "Dumbbell Floor Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=14,
             group=superset),
        reps(2, "Push-up", muscles={"Chest": 0.8, "Triceps": 0.2}, group={**superset, "position": 2,
                                                                          "name": None, "rounds": None}),
        hold(3),
        {"type": "intervals", "name": "Burpees", "order": 4, "rounds": 6, "work_sec": 40, "rest_sec": 20,
         "muscles": [{"name": "Quadriceps", "share": 1.0}], "goals": [{"name": "Conditioning", "share": 1.0}],
         "reasoning": "Finisher.", "equipment": []},
        {"type": "duration", "name": "Easy walk", "order": 5, "duration_min": 10, "distance": 2.5, "distance_unit": "km",
         "muscles": [{"name": "Calves", "share": 1.0}], "goals": [{"name": "Conditioning", "share": 1.0}],
         "reasoning": "Cool down.", "equipment": []},
    ]}
    Trainer(fake_model, [
        Reply(ToolUse("workout__generate_workout", workout, id="gen1")),
        Reply(ToolUse("coach__message_notify_user", {"text": "Here you go.", "attachments": ["workout_1"]}, id="n1")),
        Reply(ToolUse("coach__idle", {}, id="i1")),
    ])
    console = await MemberConsole(page).open(server.url, t.user.token)
    turn = await console.say("something mixed")
    card = turn.get_by_test_id("workout-card")
    await expect(card).to_have_count(1)
    group = card.get_by_test_id("exercise-group")
    await expect(group).to_have_attribute("data-group-type", "superset")
    await expect(group).to_contain_text("Push pair · Superset · 3 rounds")
    await expect(group.get_by_test_id("exercise")).to_have_count(2)
    rx = card.get_by_test_id("exercise-rx")
    await expect(rx).to_have_text(["3 × 10 × 14 kg", "3 × 10 × bodyweight", "2 × hold 30 s",
                                   "6 rounds · 40 s work / 20 s rest", "10 min · 2.5 km"])
    await expect(card.get_by_test_id("exercise").first.get_by_test_id("exercise-rest")).to_have_text("rest 1 min")
    await console.shot(request, "mixed")


async def test_a_member_with_no_member_record_is_told_so(page, server, factory) -> None:
    org = await factory.org()
    user = await factory.user(org, "member")
    await MemberConsole(page).open(server.url, user.token)
    await expect(page.get_by_test_id("no-member-profile")).to_contain_text("No member profile")
    await expect(page.get_by_test_id("session-list").get_by_test_id("session-item")).to_have_count(0)
