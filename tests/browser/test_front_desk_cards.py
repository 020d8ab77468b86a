"""Issue 42 in Chromium: the send card lists every message with who and why and says a sent message cannot be
unsent, and after approval shows each message's status; a cancelled class's card names its booked members and
offers "Draft them a message"; the member's app lists the member's own classes (English and Hebrew)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from gym import bookings
from tests.browser.conftest import Console
from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.tools.desk_gym import dani_booked_and_waiting, daytime_zone, desk_gym

pytestmark = pytest.mark.browser


@pytest.fixture
async def desk(page, server, db, factory):
    now = datetime.now(UTC)
    gym = await desk_gym(db, factory, now=now, timezone=daytime_zone(now))
    return gym, await Console(page, server.url, gym.org, gym.owner).open()


async def test_the_send_card_lists_each_message_and_shows_their_status(desk, fake_model, db) -> None:
    gym, console = desk
    fake_model.queue(Reply(ToolUse("messages__draft", {"filter": "at_risk"}, id="toolu_draft")),
                     Reply(Text("Drafted.")))
    await console.send("draft a message to every at-risk member")
    await expect(console.card("toolu_draft")).to_have_attribute("data-status", "succeeded")
    async with db.owner() as session:
        batch = str(await session.scalar(text("SELECT batch_id FROM member_messages WHERE org_id = :o LIMIT 1"),
                                         {"o": gym.org.id}))
    fake_model.queue(Reply(ToolUse("messages__send", {"batchId": batch}, id="toolu_send")), Reply(Text("Queued.")))
    await console.send("send them")
    card = console.card("toolu_send")
    await expect(card).to_have_attribute("data-status", "pending")
    await expect(card.get_by_test_id("confirm-summary")).to_contain_text("Once sent, a message cannot be unsent.")
    lines = card.get_by_test_id("confirm-details").locator("li")
    await expect(lines).to_have_count(3)
    await expect(lines.first).to_contain_text("Dani Mizrahi (last visit 30 days ago")
    await card.get_by_test_id("approve").click()
    await expect(card).to_have_attribute("data-status", "succeeded")
    statuses = card.get_by_test_id("message-statuses")
    await expect(statuses.locator("li[data-status=queued]")).to_have_count(3)
    await expect(statuses).to_contain_text("Sent messages cannot be unsent.")
    await expect(card.get_by_test_id("undo")).to_have_count(0)


async def test_a_cancelled_class_names_who_is_booked_and_offers_to_draft_them_a_message(desk, fake_model, db) -> None:
    gym, console = desk
    async with db.scope(org_id=gym.org.id) as session:
        for who in ("dani", "saar"):
            await bookings.book(session, gym.org.id, session_id=gym.sessions["tomorrow_1830"],
                                member_id=gym.members[who], tz=gym.org.timezone, now=gym.now)
    fake_model.queue(Reply(ToolUse("class_sessions__cancel", {"id": str(gym.sessions["tomorrow_1830"])},
                                   id="toolu_cancel")), Reply(Text("Cancelled.")))
    await console.send("cancel tomorrow's 18:30 CrossFit")
    card = console.card("toolu_cancel")
    await expect(card.get_by_test_id("confirm-details").locator("li")).to_have_text(["Dani Mizrahi", "Saar Levi"])
    await card.get_by_test_id("approve").click()
    await expect(card).to_have_attribute("data-status", "succeeded")
    offer = card.get_by_test_id("next-step")
    await expect(offer).to_have_text("Draft them a message")
    fake_model.queue(Reply(Text("Drafting.")))
    await offer.click()
    await expect(console.page.get_by_test_id("user-text").last).to_have_text(
        "Draft a message to the members who were booked into the cancelled class.")


@pytest.mark.parametrize("locale", ["en", "he"])
async def test_the_members_app_lists_their_own_classes(page, server, db, factory, locale) -> None:
    now = datetime.now(UTC)
    gym = await desk_gym(db, factory, now=now, timezone=daytime_zone(now), capacity=1)
    member = gym.users["member"]
    await dani_booked_and_waiting(db, gym, now)
    await page.goto(f"{server.url}/console/#token={member.token}")
    if locale != "en":
        await page.get_by_test_id("locale-select").select_option(locale)
    await page.get_by_test_id("nav-calendar").click()
    rows = page.get_by_test_id("bookings-upcoming").get_by_test_id("member-booking")
    await expect(rows).to_have_count(2)
    await expect(rows.first).to_contain_text("17:30")
    words = {"en": ("booked", "waitlist, number 1 in line"), "he": ("רשום/ה", "רשימת המתנה, מקום 1 בתור")}[locale]
    await expect(rows.first).to_contain_text(words[0])
    await expect(rows.nth(1)).to_contain_text(words[1])
