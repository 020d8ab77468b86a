"""A newcomer's first minutes: the console in Chromium, the OFFLINE demo model, the seeded demo gym.

The app runs with AGENT_MODEL_PROVIDER=offline (fixed rules, labelled as not an LLM, $0) against Harbor
Strength as `seed_demo` writes it, signed in as owner@harbor.test. Each test is one flow from the demo
script, clicked through in the browser and checked in the database: find → pick → show, a confirmed
delete, and an undo. Nothing may reach the (fake) Anthropic API.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import datetime

import pytest
from sqlalchemy import text

from core.i18n import translate
from gym.demo.seed import SAAR_COHEN_ID, SAAR_LEVI_ID
from gym.demo.tenancy import HARBOR, clerk_id_for, demo_id
from offline_model.model import LABEL
from tests import factories
from tests.browser.conftest import Console
from tests.browser.waits import expect

pytestmark = pytest.mark.browser

OWNER_EMAIL = "owner@harbor.test"
OFFLINE_LABEL = LABEL["en"]
MURPH_ID = demo_id(str(HARBOR.id), "workout", "murph")
PLUMBER = "call the plumber"


@pytest.fixture
async def owner_console(page, offline_server, demo_gym, dev_keys, db, fake_model) -> AsyncIterator[Console]:
    """The console on the offline app, signed in as Harbor's owner; afterwards, no model request was made."""
    clerk_id = clerk_id_for(OWNER_EMAIL)
    async with db.owner() as session:
        user_id = await session.scalar(text("SELECT id FROM users WHERE clerk_id = :c"), {"c": clerk_id})
    assert user_id is not None, "seed_demo did not create owner@harbor.test"
    owner = factories.TestUser(user_id, OWNER_EMAIL, clerk_id, dev_keys.sign(sub=clerk_id, email=OWNER_EMAIL), "owner")
    yield await Console(page, offline_server.url, demo_gym, owner).open()
    assert fake_model.requests == [], "the offline model must not call the Anthropic API"


@pytest.fixture
async def murph(demo_gym, db) -> AsyncIterator[uuid.UUID]:
    """The demo's Murph workout, live; brought back afterwards, so the delete test can run in any order."""
    assert await _workout_deleted_at(db, MURPH_ID) is None, "Murph should be live in the seeded demo gym"
    yield MURPH_ID
    async with db.owner() as session:
        await session.execute(text("UPDATE workouts SET deleted_at = NULL WHERE org_id = :o AND id = :i"),
                              {"o": HARBOR.id, "i": MURPH_ID})


async def _card_id(card) -> str:
    """The tool-use id of a card found by its content, so it can be followed after that content changes."""
    await expect(card).to_have_count(1)
    tool_use_id = await card.get_attribute("data-tool-use-id")
    assert tool_use_id
    return tool_use_id


async def _workout_deleted_at(db, workout_id: uuid.UUID) -> datetime | None:
    async with db.owner() as session:
        return (await session.execute(text("SELECT deleted_at FROM workouts WHERE org_id = :o AND id = :i"),
                                      {"o": HARBOR.id, "i": workout_id})).one().deleted_at


async def _tasks(db, title: str) -> dict[str, datetime | None]:
    async with db.owner() as session:
        rows = (await session.execute(text("SELECT id, deleted_at FROM tasks WHERE org_id = :o AND title = :t"),
                                      {"o": HARBOR.id, "t": title})).all()
    return {str(row.id): row.deleted_at for row in rows}


async def test_find_pick_and_show_saar_levi(owner_console) -> None:
    console, page = owner_console, owner_console.page
    await console.send("find Saar")

    picker = page.get_by_test_id("picker-card")
    await expect(picker).to_be_visible()
    options = picker.get_by_test_id("pick-option")
    await expect(options).to_have_count(2)
    await expect(picker.locator(f'[data-testid="pick-option"][data-id="{SAAR_COHEN_ID}"]')).to_contain_text(
        "Saar Cohen")
    levi = picker.locator(f'[data-testid="pick-option"][data-id="{SAAR_LEVI_ID}"]')
    await expect(levi).to_contain_text("Saar Levi")
    await expect(console.assistant_text("2 members match “Saar” — please pick one.")).to_be_visible()
    pick_card = console.card(await _card_id(page.get_by_test_id("tool-card").filter(has=picker)))

    await levi.click()
    await expect(pick_card).to_have_attribute("data-status", "succeeded")
    await expect(pick_card.locator(".card-picked")).to_contain_text("Saar Levi")
    shown = console.assistant_text("Saar Levi — active")
    await expect(shown).to_be_visible()
    await expect(shown).to_contain_text(OFFLINE_LABEL)
    await expect(shown).to_contain_text("Plan: Unlimited Monthly")
    await expect(shown).to_contain_text("per month; subscription active")
    await expect(shown).to_contain_text("overdue")
    await expect(shown).to_contain_text("Payments:")
    await expect(page.get_by_text(OFFLINE_LABEL).first).to_be_visible()
    get_card = page.locator('[data-testid="tool-card"][data-tool="read__members_get"]')
    await expect(get_card).to_have_attribute("data-status", "succeeded")
    await expect(page.get_by_test_id("usage-amount")).to_contain_text("$0.00")


async def test_confirmed_delete_of_murph(owner_console, murph, db) -> None:
    console, page = owner_console, owner_console.page
    await console.send("delete workout Murph")

    confirm = page.get_by_test_id("confirm-card")
    await expect(confirm).to_be_visible()
    card = console.card(await _card_id(page.get_by_test_id("tool-card").filter(has=confirm)))
    await expect(card).to_have_attribute("data-status", "pending")
    await expect(card).to_have_attribute("data-tool", "workouts__delete")
    await expect(confirm.get_by_test_id("confirm-summary")).to_contain_text("Murph")
    asked = console.assistant_text("Found “Murph”")
    await expect(asked).to_contain_text("Deleting it needs your confirmation.")
    await expect(asked).to_contain_text(OFFLINE_LABEL)
    assert await _workout_deleted_at(db, murph) is None, "nothing may be deleted before the approval"

    await card.get_by_test_id("approve").click()
    await expect(card).to_have_attribute("data-status", "succeeded")
    await expect(card.get_by_test_id("approve")).to_be_disabled()
    done = console.assistant_text("Deleted “Murph”.")
    await expect(done).to_be_visible()
    await expect(done).to_contain_text(OFFLINE_LABEL)
    assert await _workout_deleted_at(db, murph) is not None


async def test_undo_a_created_task(owner_console, db) -> None:
    console, page = owner_console, owner_console.page
    before = await _tasks(db, PLUMBER)
    await console.send(f"create a task {PLUMBER}")

    undo = page.get_by_test_id("undo")
    await expect(undo).to_be_visible()
    card = console.card(await _card_id(page.get_by_test_id("tool-card").filter(has=undo)))
    await expect(card).to_have_attribute("data-status", "succeeded")
    await expect(card).to_have_attribute("data-tool", "tasks__create")
    created = console.assistant_text(f"Created the task “{PLUMBER}”.")
    await expect(created).to_contain_text(OFFLINE_LABEL)
    await expect(created).to_contain_text(translate("offline.text.undo", "en"))
    new = {k: v for k, v in (await _tasks(db, PLUMBER)).items() if k not in before}
    assert list(new.values()) == [None], f"expected one new live task, got {new}"

    await card.get_by_test_id("undo").click()
    await expect(card).to_have_attribute("data-status", "undone")
    await expect(card.get_by_test_id("undo")).to_have_count(0)
    (task_id,) = new
    assert (await _tasks(db, PLUMBER))[task_id] is not None
