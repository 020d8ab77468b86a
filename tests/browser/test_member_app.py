"""The member's training app in Chromium (issue 26), at a phone (390×844) and a desktop (1366×900) size.

A member with a past bench session and today's workout (a superset of bench press and push-ups, then a plank)
does the whole workout set by set from Today and the timer, sees a PR badge earned, undoes a set, finishes, and
finds it in Progress (history by day, charts, recovery) and the calendar; a set entered while the service is
unreachable arrives once when it returns; Hebrew reads right to left with the exercise names and cues in Hebrew;
the screens work from the keyboard. Every number asserted is checked against the database or the service.
A screenshot per step lands in test-artifacts/screenshots/.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import text

from gym.training import logs
from gym.training.logs import LoggedExercise
from gym.training.trainer_workouts import save_workout
from gym.training.workout import Workout
from tests.browser.conftest import GRANTED, TIMEOUT_MS, _screenshot_path, watched_page
from tests.browser.waits import expect
from tests.trainer.fixtures import hold, reps, trainee

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
    """A member whose bench press baseline (2 × 10 at 14 kg, yesterday: the chest is still recovering) a heavier
    set beats."""
    t = await trainee(db, factory)
    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        await logs.log_exercise(session, t.org.id, t.member_id, LoggedExercise(
            exercise_name="Dumbbell Bench Press", exercise_type="strength", reps_per_set=[10, 10], load_kg=14,
            muscles=["Chest"], goals=["Strength"], performed_at=now - timedelta(days=1)), now=now)
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
    async with watched_page(browser, server, request, locale=locale, viewport=size, permissions=GRANTED,
                            what="in the member app") as (tab, lines):

        async def on_response(response) -> None:  # a refusal's code and message, for a failed test's report
            if response.status >= 400 and "/trainer/" in response.url:
                lines.append(f"[{response.status}] {response.request.method} {response.url}: {await response.text()}")

        tab.on("response", on_response)
        yield tab


async def _shot(page, request, step: str) -> None:
    await page.screenshot(path=str(_screenshot_path(request.config.rootpath, f"{request.node.name}-{step}")),
                          full_page=True)


async def _open(page, server, t, *, clock: bool = False) -> None:
    if clock:
        await page.clock.install()
    await page.goto(f"{server.url}/console/#token={t.user.token}")
    await expect(page.get_by_test_id("user-role")).to_have_attribute("data-role", "member")
    await expect(page.get_by_test_id("today-exercise")).to_have_count(3)


COUNT_CUES = """
window.__cues = {vibrate: [], beep: 0};
if (navigator.vibrate) navigator.vibrate = (pattern) => { window.__cues.vibrate.push(pattern); return true; };
const Ctx = window.AudioContext;
if (Ctx) {
  const make = Ctx.prototype.createOscillator;
  Ctx.prototype.createOscillator = function () { window.__cues.beep += 1; return make.call(this); };
}
"""


async def _check(page, exercise: int, set_number: int) -> None:
    row = page.get_by_test_id("today-exercise").nth(exercise).locator(f'[data-testid="set-row"][data-set="{set_number}"]')
    await row.get_by_test_id("set-check").click()
    await expect(row).to_have_attribute("data-state", "logged")


async def _pause(page) -> None:
    """Stop the page's clock where it is: from here the timer moves only when the test runs time forward."""
    now = await page.evaluate("Date.now()")
    await page.clock.pause_at(datetime.fromtimestamp(now / 1000 + 1, UTC))


@pytest.mark.parametrize("app_page", ["phone", "desktop"], indirect=True)
async def test_a_whole_workout_set_by_set_with_the_timer_through_a_superset(app_page, server, client, db, factory,
                                                                           request) -> None:
    """Item 1 and 2: log every set (one heavier set earns a PR badge, one is undone and logged again), run the
    superset round by round on the timer with a cue at each phase change, finish, and see the summary."""
    t = await _member(db, factory)
    page = app_page
    await page.add_init_script(COUNT_CUES)
    await _open(page, server, t, clock=True)
    await _pause(page)
    bench, pushup, plank = (page.get_by_test_id("today-exercise").nth(i) for i in range(3))
    await expect(page.get_by_test_id("today-group")).to_have_count(1)
    await expect(page.get_by_test_id("today-group")).to_contain_text("Push pair")
    await expect(bench.get_by_test_id("progression-next")).to_contain_text("15 kg")
    await expect(bench.get_by_test_id("exercise-recovery")).to_contain_text("Chest")

    await page.get_by_test_id("start-workout").click()
    await expect(page.get_by_test_id("elapsed")).to_be_visible()
    # set 1 of the bench at 15 kg (the baseline was 14 kg): a PR badge comes back with it
    first = bench.locator('[data-testid="set-row"][data-set="1"]')
    await first.get_by_test_id("set-load").fill("15")
    await first.get_by_test_id("set-rpe").select_option("8")
    await _check(page, 0, 1)
    await expect(first.get_by_test_id("pr-badge").first).to_contain_text("15 kg")
    await expect(first.get_by_test_id("pr-badge").filter(has_text="Epley")).to_have_count(1)
    assert await _sets(db, t.member_id) == [("ex_001", 1, 10, 15.0)]
    await _shot(page, request, "pr")

    # the timer starts at the first set not done: the push-ups of round 1, then the rest between rounds
    await page.get_by_test_id("open-timer").click()
    timer = page.get_by_test_id("timer-panel")
    await expect(timer.get_by_test_id("timer-block")).to_have_text("Push pair · Superset · Round 1 of 2")
    await expect(timer.get_by_test_id("timer-what")).to_contain_text("Push-up")
    await expect(timer.get_by_test_id("timer-countdown")).to_have_text("0:30")
    await timer.get_by_test_id("timer-toggle").click()
    await expect(timer).to_have_attribute("data-running", "true")
    await expect(timer).not_to_have_attribute("data-wake-lock", "off")
    await timer.get_by_test_id("timer-log").click()
    await expect(timer.get_by_test_id("timer-log")).to_have_count(0)
    await page.clock.run_for(10_000)
    await expect(timer.get_by_test_id("timer-countdown")).to_have_text("0:20")
    await expect(timer).not_to_contain_text("null")
    await _shot(page, request, "timer")
    await page.clock.run_for(20_500)
    await expect(timer.get_by_test_id("timer-phase-type")).to_have_attribute("data-phase", "rest")
    await expect(timer.get_by_test_id("timer-what")).to_contain_text("Dumbbell Bench Press")
    await expect(timer.get_by_test_id("timer-countdown")).to_have_text("1:00")
    cues = await page.evaluate("window.__cues")
    assert len(cues["vibrate"]) == 1 and cues["beep"] == 1, cues
    await page.clock.run_for(60_500)
    # round 2: the bench then the push-ups, each logged from the timer
    await expect(timer.get_by_test_id("timer-block")).to_have_text("Push pair · Superset · Round 2 of 2")
    await expect(timer.get_by_test_id("timer-what")).to_have_text("Dumbbell Bench Press — set 2 · 10 reps · 15 kg")
    await timer.get_by_test_id("timer-log").click()
    await timer.get_by_test_id("timer-skip").click()
    await expect(timer.get_by_test_id("timer-what")).to_contain_text("Push-up — set 2")
    await timer.get_by_test_id("timer-log").click()
    await timer.get_by_test_id("timer-toggle").click()
    await expect(timer).to_have_attribute("data-running", "false")
    assert (await page.evaluate("window.__cues"))["beep"] == 3
    await timer.get_by_test_id("timer-close").click()
    await expect(timer).to_have_count(0)
    await expect(bench).to_have_attribute("data-done", "true")
    await expect(pushup).to_have_attribute("data-done", "true")
    assert await _sets(db, t.member_id) == [("ex_001", 1, 10, 15.0), ("ex_001", 2, 10, 15.0),
                                            ("ex_002", 1, 10, None), ("ex_002", 2, 10, None)]

    # a set logged by mistake is undone, then logged again
    await pushup.locator('[data-testid="set-row"][data-set="2"]').get_by_test_id("set-undo").click()
    await expect(pushup.locator('[data-testid="set-row"][data-set="2"]')).to_have_attribute("data-state", "planned")
    assert len(await _sets(db, t.member_id)) == 3
    await _check(page, 1, 2)
    # the plank: two holds of 30 s
    await expect(plank.get_by_test_id("set-seconds").first).to_have_value("30")
    await _check(page, 2, 1)
    await _check(page, 2, 2)
    await expect(page.get_by_test_id("today-progress")).to_have_attribute("data-done", "6")
    await expect(page.get_by_test_id("today-progress")).to_contain_text("300 kg")  # the service's sum, drawn
    await _shot(page, request, "done")

    await page.get_by_test_id("finish-workout").click()
    await page.get_by_test_id("confirm-ok").click()
    summary = page.get_by_test_id("finish-summary")
    await expect(summary.get_by_test_id("summary-sets")).to_have_text("6")
    await expect(summary.get_by_test_id("summary-volume")).to_have_text("300 kg")
    await expect(summary.get_by_test_id("summary-records")).to_contain_text("Dumbbell Bench Press")
    await _shot(page, request, "summary")
    async with db.owner() as session:
        status = await session.scalar(text("SELECT status FROM trainer_workouts WHERE member_id = :m"),
                                      {"m": t.member_id})
    assert status == "completed"
    assert not UUIDISH.search(await page.locator("body").inner_text())

    # Progress after it: the day with its PR badges, the charts drawn from the service's numbers, recovery
    service = {path: (await client.get(f"/organizations/{t.org.id}/trainer/{path}", headers=t.user.headers)).json()
               for path in ("progress/volume?weeks=12", "distribution", "recovery", "calendar")}
    await summary.get_by_test_id("see-progress").click()
    await expect(page.get_by_test_id("progress")).to_be_visible()
    day = page.get_by_test_id("history-day").first
    await expect(day).to_contain_text("Home push")
    bench_day = day.get_by_test_id("history-exercise").filter(has_text="Dumbbell Bench Press")
    await expect(bench_day.get_by_test_id("pr-badge").filter(has_text="heaviest 15 kg")).to_have_count(1)
    await expect(bench_day.get_by_test_id("history-set")).to_have_count(2)
    await _shot(page, request, "history")

    await page.get_by_test_id("progress-tab-charts").click()
    bars = page.get_by_test_id("chart-volume").locator(".chart-bar")
    await expect(bars).to_have_count(12)
    drawn = [float(v) for v in await bars.evaluate_all("(els) => els.map((e) => e.dataset.value)")]
    assert drawn == [p["volume"] for p in service["progress/volume?weeks=12"]["points"]] and drawn[-1] >= 300
    await expect(page.get_by_test_id("chart-exercise-select")).to_have_value("Dumbbell Bench Press")
    await expect(page.get_by_test_id("chart-load").locator("circle")).to_have_count(4)  # 2 sessions × top set, e1RM
    await expect(page.get_by_test_id("chart-bests")).to_contain_text("15 kg")
    rows = page.get_by_test_id("chart-goals").get_by_test_id("goal-row")
    await expect(rows).to_have_count(len(service["distribution"]["categories"]))
    assert [float(d) for d in await rows.evaluate_all("(els) => els.map((e) => e.dataset.debt)")] == [
        c["debtPct"] for c in service["distribution"]["categories"]]
    await _shot(page, request, "charts")

    await page.get_by_test_id("progress-tab-recovery").click()
    muscles = page.get_by_test_id("recovery-muscle")
    await expect(muscles).to_have_count(16)
    chest = next(m for m in service["recovery"]["muscles"] if m["muscle"] == "Chest")
    assert chest["recovering"] and chest["percent"] < 100
    await expect(page.locator('[data-testid="recovery-muscle"][data-muscle="Chest"]')).to_have_attribute(
        "data-percent", str(chest["percent"]))
    await _shot(page, request, "recovery")

    await page.get_by_test_id("nav-calendar").click()
    today = service["calendar"]["today"]
    await expect(page.locator(f'[data-testid="calendar-day"][data-date="{today}"]')).to_have_attribute("data-done", "true")
    await expect(page.get_by_test_id("streak")).to_have_attribute("data-weeks", str(service["calendar"]["streak"]["weeks"]))
    assert service["calendar"]["streak"]["weeks"] >= 1
    await _shot(page, request, "calendar")
    assert not UUIDISH.search(await page.locator("body").inner_text())


@pytest.mark.parametrize("app_page", ["phone", "desktop"], indirect=True)
async def test_a_set_entered_while_the_service_is_unreachable_arrives_once(app_page, server, db, factory,
                                                                           request) -> None:
    """Item 1, offline-tolerant: a set checked while the service cannot be reached is kept (a reload too), a set
    whose answer is lost on the way back is sent again with its key, and each is logged exactly once."""
    t = await _member(db, factory)
    page = app_page
    await _open(page, server, t)
    bench = page.get_by_test_id("today-exercise").nth(0)
    rows = bench.get_by_test_id("set-row")
    sent: list[str] = []

    async def unreachable(route) -> None:
        if route.request.method != "POST":
            return await route.continue_()
        sent.append(route.request.headers["idempotency-key"])
        return await route.abort("connectionrefused")

    await page.route("**/trainer/workout/sets", unreachable)
    await rows.nth(0).get_by_test_id("set-check").click()
    await expect(rows.nth(0)).to_have_attribute("data-state", "queued")
    await expect(page.get_by_test_id("outbox-status")).to_have_attribute("data-waiting", "1")
    await _shot(page, request, "waiting")
    await page.reload()
    await expect(rows.nth(0)).to_have_attribute("data-state", "queued")  # kept across a reload
    assert await _sets(db, t.member_id) == [] and sent

    async def answer_lost(route) -> None:  # the service logs it; the answer never reaches the phone
        if route.request.method != "POST":
            return await route.continue_()
        sent.append(route.request.headers["idempotency-key"])
        await route.fetch()
        await route.abort("connectionreset")
        lost.set()

    lost = asyncio.Event()
    # the new handler first, then the old one off (the last registered runs first): the app retries a kept set every
    # 3 s, and a retry between the two calls would otherwise reach the service with its answer intact
    await page.route("**/trainer/workout/sets", answer_lost)
    await page.unroute("**/trainer/workout/sets", unreachable)
    await rows.nth(1).get_by_test_id("set-load").fill("16")
    await rows.nth(1).get_by_test_id("set-check").click()
    await expect(page.get_by_test_id("outbox-status")).to_have_attribute("data-waiting", "2")
    await asyncio.wait_for(lost.wait(), TIMEOUT_MS / 1000)
    await expect(rows.nth(0)).to_have_attribute("data-state", "queued")
    assert [s[1] for s in await _sets(db, t.member_id)] == [1]  # the first went through, its answer did not

    await page.unroute("**/trainer/workout/sets")
    await page.evaluate("window.dispatchEvent(new Event('online'))")
    await expect(rows.nth(1)).to_have_attribute("data-state", "logged")
    await expect(rows.nth(0)).to_have_attribute("data-state", "logged")
    await expect(page.get_by_test_id("outbox-status")).to_have_attribute("data-waiting", "0")
    assert await _sets(db, t.member_id) == [("ex_001", 1, 10, 14.0), ("ex_001", 2, 10, 16.0)]
    assert len(sent) >= 3 and len(set(sent)) == 1, sent  # each try of set 1 (refused, lost, …) carried its one key
    await page.reload()
    await expect(rows.nth(1)).to_have_attribute("data-state", "logged")
    await expect(page.get_by_test_id("outbox-status")).to_have_attribute("data-waiting", "0")


BROKEN_WORDS = re.compile(r"\b(?:train|member|chat)\.[a-zA-Z]|undefined|\bnull\b|NaN|\[object")


async def _no_broken_words(page) -> None:
    """No untranslated key, no internal id, nothing a bug prints; nothing wider than the screen."""
    shown = await page.locator("body").inner_text()
    assert not BROKEN_WORDS.search(shown), BROKEN_WORDS.search(shown)
    assert not UUIDISH.search(shown), UUIDISH.search(shown)
    wide = await page.evaluate("""() => [...document.querySelectorAll('body *')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width && (r.right > window.innerWidth + 1 || r.left < -1) && !e.closest('.sr-only, [hidden]');
    }).slice(0, 5).map((e) => `${e.tagName}.${e.className} ${e.dataset.testid ?? ''}`)""")
    assert not wide, wide


@pytest.mark.parametrize("app_page", ["phone", "desktop"], indirect=True)
async def test_hebrew_right_to_left_with_cues_swap_add_remove_by_keyboard(app_page, server, client, db, factory,
                                                                           request) -> None:
    """Items 1, 4 and 5 in Hebrew: names and the three cues in Hebrew, right to left; a set logged with Enter moves
    to the next set; swap, add and remove from the library; the timer from the keyboard (Space, the arrow forward
    in right-to-left)."""
    t = await _member(db, factory)
    page = app_page
    await _open(page, server, t)
    assert await page.evaluate("document.documentElement.dir") == "rtl"
    bench, pushup = page.get_by_test_id("today-exercise").nth(0), page.get_by_test_id("today-exercise").nth(1)
    await expect(bench.get_by_test_id("exercise-name")).to_have_text("לחיצת חזה במשקולות")
    await expect(page.get_by_test_id("nav-today")).to_contain_text(HEBREW)

    await bench.get_by_test_id("how-to").click()
    how = page.get_by_test_id("how-dialog")
    for cue in ("setup", "do", "avoid"):
        await expect(how.get_by_test_id(f"how-{cue}")).to_contain_text(HEBREW)
    await expect(how.get_by_test_id("how-avoid")).to_contain_text("הפלת המשקולות")
    await _shot(page, request, "how")
    await page.keyboard.press("Escape")
    await expect(how).to_have_count(0)

    reps_input = bench.locator('[data-set="1"]').get_by_test_id("set-reps")
    await reps_input.focus()
    await page.keyboard.press("Control+A")
    await page.keyboard.type("12")
    await page.keyboard.press("Enter")
    await expect(bench.locator('[data-set="1"]')).to_have_attribute("data-state", "logged")
    focused = await page.evaluate("document.activeElement.closest('[data-testid=set-row]')?.dataset.set")
    assert focused == "2"
    assert await _sets(db, t.member_id) == [("ex_001", 1, 12, 14.0)]

    await pushup.get_by_test_id("swap-exercise").click()
    picker = page.get_by_test_id("library-dialog")
    await picker.get_by_test_id("library-search").fill("גומייה")
    await picker.locator('[data-testid="library-item"][data-name="Band Chest Press"]').click()
    await expect(pushup.get_by_test_id("exercise-name")).to_have_text("לחיצת חזה בגומייה")
    await page.get_by_test_id("add-exercise").click()
    await picker.get_by_test_id("library-search").fill("Band Row")
    await picker.locator('[data-testid="library-item"][data-name="Band Row"]').click()
    await expect(page.get_by_test_id("today-exercise")).to_have_count(4)
    await expect(page.get_by_test_id("today-exercise").nth(3).get_by_test_id("exercise-name")).to_have_text("חתירה בגומייה")
    await _shot(page, request, "changed")
    screen = (await client.get(f"/organizations/{t.org.id}/trainer/workout", headers=t.user.headers)).json()
    assert [e["name"] for e in screen["workout"]["exercises"]] == ["Dumbbell Bench Press", "Band Chest Press", "Plank",
                                                                   "Band Row"]
    await page.get_by_test_id("today-exercise").nth(3).get_by_test_id("remove-exercise").click()
    await page.get_by_test_id("confirm-ok").click()
    await expect(page.get_by_test_id("today-exercise")).to_have_count(3)

    await page.get_by_test_id("open-timer").click()
    timer = page.get_by_test_id("timer-panel")
    await expect(timer.get_by_test_id("timer-what")).to_contain_text("לחיצת חזה בגומייה")
    await page.keyboard.press("Space")
    await expect(timer).to_have_attribute("data-running", "true")
    index = int(await timer.get_attribute("data-index"))
    await page.keyboard.press("ArrowLeft")  # forward, in right-to-left
    await expect(timer).to_have_attribute("data-index", str(index + 1))
    await expect(timer.get_by_test_id("timer-phase-type")).to_have_attribute("data-phase", "rest")
    await _shot(page, request, "timer")
    await page.keyboard.press("Escape")
    await expect(timer).to_have_count(0)
    await _no_broken_words(page)


@pytest.mark.parametrize("app_page", ["phone", "desktop"], indirect=True)
@pytest.mark.parametrize("language", ["en", "he", "ru"])
async def test_every_screen_in_three_languages(app_page, server, db, factory, request, language) -> None:
    """Item 5: Today, Progress (history, charts, recovery) and the calendar in each language, at each size: the
    language's words and direction, no key or internal id shown, nothing wider than the screen."""
    t = await _member(db, factory)
    page = app_page
    await _open(page, server, t)
    await page.get_by_test_id("locale-select").select_option(language)
    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if language == "he" else "ltr")
    name = {"en": "Dumbbell Bench Press", "he": "לחיצת חזה במשקולות", "ru": "Жим гантелей лёжа"}[language]
    await expect(page.get_by_test_id("today-exercise").first.get_by_test_id("exercise-name")).to_have_text(name)
    await _no_broken_words(page)
    await _shot(page, request, "today")
    await page.get_by_test_id("nav-progress").click()
    for tab in ("history", "charts", "recovery"):
        await page.get_by_test_id(f"progress-tab-{tab}").click()
        await expect(page.get_by_test_id(f"progress-{tab}").locator(
            {"history": "[data-testid=history-day]", "charts": "[data-testid=chart-volume]",
             "recovery": "[data-testid=recovery-muscle]"}[tab]).first).to_be_visible()
        await _no_broken_words(page)
        await _shot(page, request, tab)
    await page.get_by_test_id("nav-calendar").click()
    await expect(page.get_by_test_id("streak")).to_be_visible()
    await _no_broken_words(page)
    await _shot(page, request, "calendar")


@pytest.mark.parametrize("app_page", ["phone"], indirect=True)
@pytest.mark.parametrize("language", ["en", "he"])
async def test_with_no_workout_today_asks_the_trainer_for_one(app_page, offline_server, db, factory, fake_model,
                                                              request, language) -> None:
    """Item 1: a member with no workout is offered one; the (offline) trainer builds it and Today shows it to log."""
    t = await trainee(db, factory)
    page = app_page
    await page.goto(f"{offline_server.url}/console/#token={t.user.token}")
    await page.get_by_test_id("locale-select").select_option(language)
    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if language == "he" else "ltr")
    await expect(page.get_by_test_id("ask-workout")).to_have_text(
        {"en": "Get today's workout", "he": re.compile(HEBREW.pattern)}[language])
    await _no_broken_words(page)
    await page.get_by_test_id("ask-workout").click()
    exercises = page.get_by_test_id("today-exercise")
    await expect(exercises.first).to_be_visible(timeout=20_000)
    async with db.owner() as session:
        saved = await session.scalar(text("SELECT jsonb_array_length(exercises) FROM trainer_workouts "
                                          "WHERE member_id = :m AND status = 'current'"), {"m": t.member_id})
    await expect(exercises).to_have_count(saved)
    if language == "he":
        await expect(exercises.first.get_by_test_id("exercise-name")).to_contain_text(HEBREW)
    await _shot(page, request, "asked")
    assert fake_model.requests == [], "the offline trainer must not call the Anthropic API"



async def test_a_units_switch_converts_today_and_a_set_queued_in_kg_stays_kg(app_page, server, db, factory,
                                                                             request) -> None:
    """Issue 38 item 4: the workout holds 30 kg; a set is checked in kg while the service is unreachable; the member
    switches to lbs. Today then prefills ≈66 lb (not 30 in an lb field), the queued set arrives as 30 kg, and a set
    logged as 66 lb is stored as ≈30 kg (before: 30 lb = 13.6 kg, and the queued kg set was read as lbs)."""
    t = await trainee(db, factory)
    async with db.scope(org_id=t.org.id) as session:
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate({"title": "Bench day", "exercises": [
            reps(1, "Dumbbell Bench Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=30),
            hold(2)]}), now=datetime.now(UTC) - timedelta(minutes=5))
    page = app_page
    await page.goto(f"{server.url}/console/#token={t.user.token}")
    bench = page.get_by_test_id("today-exercise").nth(0)
    rows = bench.get_by_test_id("set-row")
    await expect(rows.nth(0).get_by_test_id("set-load")).to_have_value("30")

    async def unreachable(route) -> None:
        if route.request.method != "POST":
            return await route.continue_()
        return await route.abort("connectionrefused")

    await page.route("**/trainer/workout/sets", unreachable)
    await rows.nth(0).get_by_test_id("set-check").click()
    await expect(rows.nth(0)).to_have_attribute("data-state", "queued")
    async with httpx.AsyncClient(base_url=server.url, headers=t.user.headers) as http:
        switched = await http.put(f"/organizations/{t.org.id}/trainer/settings", json={"weightUnit": "lbs"})
    assert switched.status_code == 200, switched.text

    await page.reload()
    await expect(rows.nth(0)).to_have_attribute("data-state", "queued")
    await expect(rows.nth(0).get_by_test_id("set-load")).to_have_value("66.1")  # the queued 30 kg, said in lb
    await expect(rows.nth(1).get_by_test_id("set-load")).to_have_value("66.1")  # the prescription, converted
    await expect(bench.get_by_test_id("exercise-rx")).to_contain_text("66.1")
    await _shot(page, request, "in-lbs")

    await page.unroute("**/trainer/workout/sets")
    await page.evaluate("window.dispatchEvent(new Event('online'))")
    await expect(rows.nth(0)).to_have_attribute("data-state", "logged")
    await rows.nth(1).get_by_test_id("set-load").fill("66")
    await rows.nth(1).get_by_test_id("set-check").click()
    await expect(rows.nth(1)).to_have_attribute("data-state", "logged")
    assert await _sets(db, t.member_id) == [("ex_001", 1, 10, 30.0), ("ex_001", 2, 10, round(66 * 0.45359237, 2))]


async def test_add_puts_a_compound_lift_before_the_isolation_work(app_page, server, client, db, factory,
                                                                 request) -> None:
    """Issue 38 item 8: after bench press and curls, "Add an exercise" → goblet squat sends the position the
    library gives (2) and the squat lands before the curls (before: no position, and the service refused it)."""
    t = await trainee(db, factory)
    async with db.scope(org_id=t.org.id) as session:
        await save_workout(session, t.org.id, t.member_id, Workout.model_validate({"title": "Push and curls",
                                                                                    "exercises": [
            reps(1, "Dumbbell Bench Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=14),
            reps(2, "Dumbbell Curl", muscles={"Biceps": 1.0}, equipment=["Dumbbells"], load=8)]}),
            now=datetime.now(UTC) - timedelta(minutes=5))
    page = app_page
    sent: list[dict] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.method == "POST"
            and r.url.endswith("/trainer/workout/exercises") else None)
    await page.goto(f"{server.url}/console/#token={t.user.token}")
    await expect(page.get_by_test_id("today-exercise")).to_have_count(2)
    await page.get_by_test_id("add-exercise").click()
    picker = page.get_by_test_id("library-dialog")
    await picker.get_by_test_id("library-search").fill("goblet")
    await picker.locator('[data-testid="library-item"][data-name="Goblet Squat"]').click()
    await expect(page.get_by_test_id("today-exercise")).to_have_count(3)
    await expect(page.get_by_test_id("today-exercise").nth(1).get_by_test_id("exercise-name")).to_have_text(
        "Goblet Squat")
    await _shot(page, request, "added")
    assert sent and sent[0]["position"] == 2 and sent[0]["name"] == "Goblet Squat"
    screen = (await client.get(f"/organizations/{t.org.id}/trainer/workout", headers=t.user.headers)).json()
    assert [e["name"] for e in screen["workout"]["exercises"]] == ["Dumbbell Bench Press", "Goblet Squat",
                                                                   "Dumbbell Curl"]
