"""Issue 44: the staff console as a gym manager reads it, in Chromium at 390×844 and 1366×900, in en, he and ru.

One browser tab per language and size (a module-scoped fixture) on the offline demo over Harbor Strength, signed
in through the URL `spotter demo`'s banner prints; each test is one item of the issue and leaves a screenshot in
test-artifacts/screenshots/round3_<item>_<lang>_<size>.png. axe-core (the axe.min.js axe-playwright-python ships)
checks every screen the tests pass through for serious and critical violations.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from sqlalchemy import text

from api.cli import demo_banner
from core.i18n import format_message, translate
from gym.demo.tenancy import HARBOR
from tests.browser.axe import serious_violations
from tests.browser.conftest import _screenshot_path, harbor_user
from tests.browser.waits import expect

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
COMBOS = [(lang, size) for lang in ("en", "he", "ru") for size in SIZES]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('.md-table td, .md-table th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


@dataclass
class Tab:
    page: object
    lang: str
    size: str
    base_url: str
    token: str
    errors: list[str] = field(default_factory=list)
    axe_seen: dict[str, list] = field(default_factory=dict)

    @property
    def phone(self) -> bool:
        return self.size == "phone"

    def word(self, key: str, **params: object) -> str:
        return format_message(translate(key, self.lang), self.lang, params) if params else translate(key, self.lang)

    async def new_chat(self) -> None:
        await self.page.evaluate("document.getElementById('new-conversation').click()")
        await expect(self.page.get_by_test_id("empty-state")).to_be_visible()

    async def send(self, words: str) -> None:
        await self.page.get_by_test_id("composer").fill(words)
        await self.page.get_by_test_id("send").click()
        await expect(self.page.get_by_test_id("send")).to_be_enabled()
        await expect(self.page.get_by_test_id("typing")).to_have_count(0)

    def last_answer(self):
        return self.page.get_by_test_id("assistant-text").last

    async def axe(self, screen: str) -> None:
        """axe-core over the page as it is: no serious or critical violation."""
        bad = await serious_violations(self.page)
        self.axe_seen[screen] = bad
        assert bad == [], f"axe on {screen} ({self.lang}, {self.size}): {bad}"

    async def shot(self, item: str) -> None:
        await self.page.screenshot(path=str(_screenshot_path(_root(), f"round3_{item}_{self.lang}_{self.size}")))


def _root():
    from pathlib import Path
    return Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", params=COMBOS, ids=[f"{lang}-{size}" for lang, size in COMBOS])
async def tab(request, browser, offline_server, demo_gym, db, dev_keys) -> AsyncIterator[Tab]:
    lang, size = request.param
    owner = await harbor_user(db, dev_keys, "owner@harbor.test", "owner")
    context = await browser.new_context(locale={"en": "en-US", "he": "he-IL", "ru": "ru-RU"}[lang],
                                        viewport=SIZES[size], base_url=offline_server.url)
    await context.grant_permissions(["clipboard-read", "clipboard-write"], origin=offline_server.url)
    page = await context.new_page()
    found = Tab(page, lang, size, offline_server.url, owner.token)
    page.on("pageerror", lambda error: found.errors.append(str(error)))
    yield found
    await context.close()
    assert found.errors == [], found.errors


async def test_item8_the_banner_prints_a_console_url_that_signs_in(tab) -> None:
    banner = demo_banner(tab.base_url, model="offline", token=tab.token, seeded=True, pid=1)
    lines = [line for line in banner.splitlines() if line.startswith("console: ")]
    assert len(lines) == 1, banner
    await tab.page.goto("about:blank")
    await tab.page.goto(lines[0].removeprefix("console: "))
    await expect(tab.page.get_by_test_id("composer")).to_be_visible()
    await expect(tab.page.get_by_test_id("user-role")).to_have_text(tab.word("console.roles.owner"))
    assert await tab.page.evaluate("document.documentElement.lang") == tab.lang
    await tab.axe("empty")
    await tab.shot("item8_banner")


async def test_item7_every_chat_opens_saying_it_is_an_ai_system(tab) -> None:
    await tab.new_chat()
    notice = tab.page.get_by_test_id("ai-notice")
    await expect(notice).to_have_text(tab.word("console.chat.aiNotice"))
    await tab.send("open tasks")
    await expect(notice).to_have_count(1)  # still at the top of the conversation
    await expect(tab.last_answer().locator(".model-label")).to_have_text(translate("offline.label", tab.lang))
    await tab.shot("item7_notice")


@pytest.fixture
async def cancelled_class(db) -> AsyncIterator[str]:
    """Tomorrow's first class of the demo gym, cancelled; live again afterwards."""
    async with db.owner() as session:
        row = (await session.execute(text(
            "SELECT s.id, s.title FROM class_sessions s JOIN organizations o ON o.id = s.org_id WHERE s.org_id = :o "
            "AND (s.starts_at AT TIME ZONE o.timezone)::date = (now() AT TIME ZONE o.timezone)::date + 1 "
            "AND s.cancelled_at IS NULL ORDER BY s.starts_at LIMIT 1"), {"o": HARBOR.id})).one()
        await session.execute(text("UPDATE class_sessions SET cancelled_at = now() WHERE id = :i"), {"i": row.id})
    yield row.title
    async with db.owner() as session:
        await session.execute(text("UPDATE class_sessions SET cancelled_at = NULL WHERE id = :i"), {"i": row.id})


async def test_item1_a_cancelled_class_reads_cancelled_in_classes_tomorrow(tab, cancelled_class) -> None:
    await tab.new_chat()
    await tab.send("classes tomorrow")
    answer = tab.last_answer()
    row = answer.locator("tbody tr").filter(has_text=cancelled_class).first
    await expect(row).to_contain_text(tab.word("offline.value.cancelled"))
    await expect(answer).to_contain_text(tab.word("offline.text.day_cancelled", n=1))
    card = tab.page.get_by_test_id("tool-card").last
    await card.locator("summary").first.click()
    await expect(card.get_by_test_id("cancelled-badge")).to_have_count(1)
    await expect(card.locator(".detail-item.cancelled")).to_contain_text(cancelled_class)
    await tab.axe("classes tomorrow")
    await tab.shot("item1_cancelled")


async def test_item4_no_raw_true_false_and_numbers_for_people(tab) -> None:
    for ask in ("classes tomorrow", "pending forms"):
        await tab.new_chat()
        await tab.send(ask)
        cells = await tab.last_answer().locator("td").all_inner_texts()
        assert cells, ask
        assert not {c.strip() for c in cells} & {"True", "False", "true", "false"}, cells
        assert not any(re.fullmatch(r"\d{4}-\d{2}-\d{2}", c.strip()) for c in cells), cells
    await tab.shot("item4_values")


async def test_item3_tables_keep_words_whole_and_become_cards_on_a_phone(tab) -> None:
    await tab.new_chat()
    await tab.send("most popular classes")
    table = tab.last_answer().get_by_test_id("answer-table")
    await expect(table).to_be_visible()
    assert await tab.page.evaluate(BROKEN_WORDS) == []
    overflow = await tab.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    display = await table.locator("tbody tr").first.evaluate("r => getComputedStyle(r).display")
    if tab.phone:
        assert display == "block"  # one card per row
        label = await table.locator("td").first.evaluate("c => getComputedStyle(c, '::before').content")
        assert label.strip('"') == (await table.locator("th").first.inner_text()).strip()
    else:
        assert display == "table-row"
    await tab.shot("item3_table")


@pytest.fixture
async def next_week_assignments(db) -> AsyncIterator[int]:
    """Next week's assignments: the first 20 published, the rest drafts (how many drafts: the value); put back."""
    async with db.owner() as session:
        rows = (await session.execute(text(
            "SELECT a.id, a.published FROM assignments a JOIN organizations o ON o.id = a.org_id WHERE a.org_id = :o "
            "AND a.deleted_at IS NULL AND a.scheduled_on BETWEEN date_trunc('week', now() AT TIME ZONE o.timezone)::date "
            "+ 7 AND date_trunc('week', now() AT TIME ZONE o.timezone)::date + 13 ORDER BY a.scheduled_on, a.id"),
            {"o": HARBOR.id})).all()
        assert len(rows) > 40, "the demo gym should have many assignments next week"
        for n, row in enumerate(rows):
            await session.execute(text("UPDATE assignments SET published = :p WHERE id = :i"),
                                  {"p": n < 20, "i": row.id})
    yield len(rows) - 20
    async with db.owner() as session:
        for row in rows:
            await session.execute(text("UPDATE assignments SET published = :p WHERE id = :i"),
                                  {"p": row.published, "i": row.id})


async def test_item2_preview_approval_and_result_count_the_same_rows(tab, next_week_assignments, db) -> None:
    drafts = next_week_assignments
    await tab.new_chat()
    await tab.send("publish next week's assignments")
    asked = tab.last_answer()
    await expect(asked).to_contain_text(tab.word("offline.text.already_published", n=20))
    confirm = tab.page.get_by_test_id("confirm-card")
    await expect(confirm.get_by_test_id("confirm-rows").locator("li")).to_have_count(20)
    summary = confirm.get_by_test_id("confirm-summary")
    await expect(summary).to_contain_text(tab.word("agent.confirm.alreadyPublished", n=20))
    await expect(summary).to_contain_text(tab.word("agent.confirm.andMore", n=drafts - 20))
    lead = await summary.locator("p").first.inner_text()
    assert re.search(rf"\b{drafts}\b", lead), lead
    await tab.axe("approval")
    await confirm.get_by_test_id("approve").click()
    card = tab.page.get_by_test_id("tool-card").filter(has=confirm)
    assert await tab.page.evaluate("document.activeElement.closest('[data-testid=tool-card]') !== null")
    await expect(card).to_have_attribute("data-status", "succeeded")
    done = tab.last_answer()
    await expect(done).to_contain_text(tab.word("offline.text.already_published", n=20))
    assert re.search(rf"\b{drafts}\b", await done.inner_text())
    await tab.shot("item2_publish")


async def test_item5_regenerate_edit_copy_and_details_in_words(tab) -> None:
    page = tab.page
    await tab.new_chat()
    await tab.send("open tasks")
    first = await tab.last_answer().inner_text()
    await page.get_by_test_id("regenerate").click()
    switch = page.get_by_test_id("alt-switch")
    await expect(switch).to_have_count(1)
    await expect(switch.get_by_test_id("alt-count")).to_have_text(tab.word("console.chat.altCount", n=2, count=2))
    await expect(page.get_by_test_id("assistant-turn")).to_have_count(1)  # replaced, not appended
    await switch.get_by_test_id("alt-prev").click()
    await expect(page.get_by_test_id("alt-count")).to_have_text(tab.word("console.chat.altCount", n=1, count=2))
    assert await tab.last_answer().inner_text() == first

    await page.get_by_test_id("edit-message").last.click()
    await page.get_by_test_id("edit-input").fill("who is at risk")
    await page.get_by_test_id("edit-send").click()
    await expect(page.get_by_test_id("user-text")).to_have_text(["who is at risk"])
    # the same place now holds three versions: the two "open tasks" and the edited message, shown on the message
    switch = page.locator('.turn-user [data-testid="alt-count"]')
    await expect(switch).to_have_text(tab.word("console.chat.altCount", n=3, count=3))

    await tab.send("classes tomorrow")
    answer = tab.last_answer()
    await page.get_by_test_id("copy-answer").last.click()
    copied = await page.evaluate("navigator.clipboard.readText()")
    assert translate("offline.label", tab.lang) not in copied
    assert not re.search(r"\d{4}-\d{2}-\d{2}", copied), copied
    shown = await answer.locator("p:not(.model-label)").first.inner_text()
    assert shown.strip() in copied

    card = page.get_by_test_id("tool-card").last
    await card.locator("summary").first.click()
    details = await card.locator(".card-details").inner_text()
    assert not UUID.search(details) and "{" not in details and "class_sessions" not in details, details
    await expect(card.locator(".card-details dt").first).to_be_visible()
    await tab.shot("item5_chat")


async def test_item6_focus_one_h1_valid_list_and_axe(tab) -> None:
    page = tab.page
    await tab.new_chat()
    await page.get_by_test_id("composer").fill("create a task round3 focus check")
    await page.get_by_test_id("send").click()
    assert await page.evaluate("document.activeElement.dataset.testid") == "composer"
    undo = page.get_by_test_id("undo").last
    await expect(undo).to_be_visible()
    await undo.click()
    card = page.get_by_test_id("tool-card").last
    await expect(card).to_have_attribute("data-status", "undone")
    assert await page.evaluate("document.activeElement.closest('[data-testid=tool-card]') !== null")
    assert await page.evaluate("[...document.querySelectorAll('h1')].filter(h => h.getClientRects().length).length") == 1
    assert await page.evaluate(
        "[...document.querySelectorAll('#conversation-list > *')].every(n => n.tagName === 'LI' && !n.getAttribute('role'))")
    await tab.axe("conversation")
    if tab.phone:
        await page.get_by_test_id("menu-toggle").click()
        await tab.axe("conversation list")
        await page.keyboard.press("Escape")
    await tab.shot("item6_a11y")


async def test_item7_the_members_trainer_chat_opens_with_the_notice(tab, db, dev_keys) -> None:
    dani = await harbor_user(db, dev_keys, "dani@harbor.test", "member")
    await tab.page.goto("about:blank")  # a new page load: the token is read from the address when it loads
    await tab.page.goto(f"{tab.base_url}/console/#view=trainer&token={dani.token}")
    notice = tab.page.get_by_test_id("ai-notice")
    await expect(notice).to_have_text(tab.word("console.member.aiNotice"))
    await tab.shot("item7_member_notice")
