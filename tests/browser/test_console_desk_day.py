"""Issue 27 in Chromium, desktop and phone, English, Hebrew and Russian: Harbor's owner on the offline demo.

One walk per language and size, a screenshot per item in test-artifacts/screenshots/issue27_<locale>_<size>_*.png:
a refused overlap says so in the person's words and offers "Schedule anyway" (1); an Undo is promised where the
card has one, a decided confirmation says who approved it and when, and a cancelled class comes back with Undo
(2, 3); what no tool can do is said plainly and churn is never the at-risk list (4); every word in the UI's
language with real plurals (5), dates in the gym's day (6); copy, regenerate, edit, analytics as a table with
member links and a CSV export (7); the phone keeps the gym, user and role and isolates "$0.00 / 5.00 $" (8); the
dev-auth role switcher (9). The Hebrew and Russian nutrition pages do not scroll sideways at 390 px.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from core.i18n import translate
from gym.demo.tenancy import HARBOR
from tests.browser.test_offline_demo import owner_console  # noqa: F401 (a fixture)
from tests.browser.waits import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
RUNS = [(locale, size) for locale in ("en", "he", "ru") for size in ("desktop", "phone")]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"issue27_{name}.png"), full_page=False)


@pytest.fixture
async def cleanup_sessions(db) -> AsyncIterator[datetime]:
    """The classes a walk schedules are removed afterwards (the demo gym stays as seeded)."""
    started = datetime.now(UTC)
    yield started
    async with db.owner() as session:
        await session.execute(text("DELETE FROM class_sessions WHERE org_id = :o AND created_at >= :t"),
                              {"o": HARBOR.id, "t": started})


def t(key: str, locale: str, **params: object) -> str:
    return translate(key, locale, **params)


async def last_reply(page):
    reply = page.get_by_test_id("assistant-text").last
    await expect(reply).to_be_visible()
    return reply


@pytest.mark.parametrize(("locale", "size"), RUNS, ids=[f"{loc}-{size}" for loc, size in RUNS])
async def test_a_front_desk_day_in_the_console(owner_console, cleanup_sessions, locale, size) -> None:  # noqa: F811
    console, page = owner_console, owner_console.page
    name = f"{locale}_{size}"
    hour = 15 + RUNS.index((locale, size))
    await page.set_viewport_size(PHONE if size == "phone" else DESKTOP)
    await page.get_by_test_id("locale-select").select_option(locale)
    await expect(page.locator("html")).to_have_attribute("lang", locale)
    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if locale == "he" else "ltr")

    # 8. the phone's top bar keeps the gym, the user and the role; the spend is isolated from the text around it
    for testid in ("org-name", "user-name", "user-role"):
        await expect(page.get_by_test_id(testid)).to_be_visible()
    await expect(page.get_by_test_id("user-role")).to_have_text(t("console.roles.owner", locale))
    amount = page.get_by_test_id("usage-amount")
    assert await amount.evaluate("node => node.tagName") == "BDI"
    fits = await page.get_by_test_id("composer").evaluate("""area => {
        const style = getComputedStyle(area);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${style.fontSize} ${style.fontFamily}`;
        return ctx.measureText(area.placeholder).width <= area.clientWidth;
    }""")
    assert fits, "the composer's placeholder is clipped"
    assert await page.get_by_test_id("composer").get_attribute("placeholder") == t("console.composer.placeholder", locale)
    await shot(page, f"{name}_1_topbar")

    # 2. an Undo is promised where the card shows one (the owner can cancel the class she scheduled)
    schedule = f"schedule open gym tomorrow {hour}:00-{hour}:30 published"
    await console.send(schedule)
    created = page.get_by_test_id("tool-card").last
    await expect(created).to_have_attribute("data-status", "succeeded")
    await expect(created.get_by_test_id("tool-label")).to_have_text(t("console.tools.class_sessions__create", locale))
    await expect(created.get_by_test_id("undo")).to_be_visible()
    await expect(await last_reply(page)).to_contain_text(t("offline.text.undo", locale))

    # 1. the same hour again: refused in words, the next step a button; no hint, tool id or code on the card
    await console.send(schedule)
    refused = page.locator('[data-testid="tool-card"][data-status="failed"]').last
    overlap = t("agent.errors.session_overlap", locale, count=1, type="Open Gym")
    await expect(refused.get_by_test_id("tool-error")).to_have_text(overlap)
    visible = await refused.locator(".card-summary").inner_text()
    assert not re.search(r"allowOverlap|class_sessions|Hint|session_overlap", visible), visible
    step = refused.get_by_test_id("next-step")
    await expect(step).to_have_text(t("console.nextSteps.schedule_anyway", locale))
    await shot(page, f"{name}_2_overlap_refused")
    await step.click()
    await expect(page.get_by_test_id("user-text").last).to_have_text(t("agent.nextSteps.schedule_anyway.message",
                                                                       locale))
    await expect(page.get_by_test_id("tool-card").last).to_have_attribute("data-status", "succeeded")

    # 2, 3. a cancelled class: pick which, approve, the card says who approved and when; Undo restores it
    await console.send(f"cancel the {hour}:00 open gym tomorrow")
    await page.get_by_test_id("pick-option").first.click()
    confirm = page.get_by_test_id("confirm-card").last
    await expect(confirm).to_be_visible()
    await confirm.get_by_test_id("approve").click()
    cancelled = page.locator('[data-testid="tool-card"][data-tool="class_sessions__cancel"]').last
    await expect(cancelled).to_have_attribute("data-status", "succeeded")
    resolution = cancelled.get_by_test_id("confirm-resolution")
    await expect(resolution).to_contain_text("Maya Harbor")
    assert re.search(r"\d{1,2}:\d{2}", await resolution.inner_text())
    await expect(cancelled.get_by_test_id("confirm-resolution")).not_to_contain_text(
        t("console.confirm.destructive", locale))
    await shot(page, f"{name}_3_approved_by")
    await cancelled.get_by_test_id("undo").click()
    await expect(cancelled).to_have_attribute("data-status", "undone")

    # 4. what no tool can do is said plainly; churn is cancellations, never the at-risk list
    await console.send("refund Saar Cohen's last payment")
    reply = await last_reply(page)
    await expect(reply).to_contain_text(t("offline.text.cant_refund", locale))
    await expect(reply).to_contain_text("ANTHROPIC_API_KEY")
    # 7. the turn wrote nothing: its message can be edited and resent
    await expect(page.locator(".turn-user").last.get_by_test_id("edit-message")).to_be_visible()
    await console.send("churn rate vs last quarter")
    reply = await last_reply(page)
    await expect(reply).to_contain_text(t("offline.text.churn_no_rate", locale))
    await expect(reply.get_by_test_id("answer-table")).to_have_count(0)
    await shot(page, f"{name}_4_honest")

    # 7. analytics as a table: members linked, a CSV export, copy and regenerate
    await console.send("who is at risk")
    reply = await last_reply(page)
    table = reply.get_by_test_id("answer-table")
    await expect(table).to_be_visible()
    await expect(table.locator("th").first).to_have_text(t("offline.col.name", locale))
    await expect(reply.get_by_test_id("csv-export")).to_be_visible()
    links = reply.get_by_test_id("member-link")
    assert await links.count() > 0
    turn = page.get_by_test_id("assistant-turn").last
    await turn.get_by_test_id("copy-answer").click()
    await expect(turn.get_by_test_id("copy-answer")).to_have_text(t("console.chat.copied", locale))
    await expect(turn.get_by_test_id("regenerate")).to_be_visible()
    log_text = await page.get_by_test_id("chat-log").inner_text() if await page.get_by_test_id("chat-log").count() \
        else await page.locator("#chat-log").inner_text()
    assert not re.search(r"\w\((?:s|ов|а)\)", log_text), "a parenthesized plural"
    await shot(page, f"{name}_5_table")
    member = (await links.first.inner_text()).strip()
    await links.first.click()
    await expect(page.get_by_test_id("user-text").last).to_have_text(t("console.chat.memberAsk", locale, name=member))
    await expect(page.get_by_test_id("tool-card").last).to_have_attribute("data-status", re.compile("succeeded|pending"))

    # 6, 7. the conversation is listed under the gym's today
    if size == "phone":
        await page.get_by_test_id("menu-toggle").click()
    await expect(page.get_by_test_id("conversation-day").first).to_have_text(t("console.sidebar.today", locale))
    await shot(page, f"{name}_6_sidebar")
    if size == "phone":
        await page.keyboard.press("Escape")

    # 9. dev auth: the demo's logins one click away
    switch = page.get_by_test_id("role-switch")
    await expect(switch).to_be_visible()
    await switch.select_option("coach@harbor.test")
    await expect(page.get_by_test_id("user-role")).to_have_text(t("console.roles.coach", locale))
    await expect(page.get_by_test_id("user-name")).to_have_text("Noa Coach")
    await shot(page, f"{name}_7_role_switch")


@pytest.mark.parametrize("locale", ["he", "ru"])
async def test_the_nutrition_page_does_not_scroll_sideways_on_a_phone(owner_console, locale) -> None:  # noqa: F811
    page = owner_console.page
    await page.set_viewport_size(PHONE)
    await page.get_by_test_id("locale-select").select_option(locale)
    await expect(page.locator("html")).to_have_attribute("lang", locale)  # the choice is stored
    await page.goto(f"{owner_console.base_url}/console/nutrition.html")
    await page.wait_for_load_state("networkidle")
    await expect(page.locator("html")).to_have_attribute("lang", locale)
    wide = await page.evaluate("() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert wide[0] <= wide[1], f"{wide[0]} px of content at {wide[1]} px"
    await shot(page, f"nutrition_{locale}_phone")
