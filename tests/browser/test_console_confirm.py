"""Issue 17 item 3: confirmation cards say what is about to happen in words; raw JSON only under details;
"Edit input" is a small form (desktop and phone)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


async def _ask_delete(console, fake_model, db):
    fake_model.queue(Reply(ToolUse("tasks__create", {"title": "Clean the rower"}, id="toolu_mk")), Reply(Text("Created.")))
    await console.send("add a task: Clean the rower")
    await expect(console.card("toolu_mk")).to_have_attribute("data-status", "succeeded")
    async with db.owner() as session:
        task_id = str(await session.scalar(text("SELECT id FROM tasks WHERE org_id = :o"), {"o": console.org.id}))
    fake_model.queue(Reply(Text("Deleting needs your OK."), ToolUse("tasks__delete", {"id": task_id}, id="toolu_del")),
                     Reply(Text("Deleted.")))
    await console.send("delete that task")
    card = console.card("toolu_del")
    await expect(card).to_have_attribute("data-status", "pending")
    return card, task_id


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_confirmation_card_names_the_task_in_words_and_hides_json(console, fake_model, db, viewport) -> None:
    if viewport:
        await console.page.set_viewport_size(viewport)
    card, task_id = await _ask_delete(console, fake_model, db)
    await expect(card.get_by_test_id("confirm-summary")).to_have_text("Delete the task “Clean the rower”.")
    await expect(card.locator("pre.json").first).to_be_hidden()  # the JSON sits in closed "Technical details"
    await expect(card.get_by_text(task_id)).to_be_hidden()
    await expect(card.get_by_test_id("approve")).to_be_in_viewport()


async def test_edit_input_is_a_form_and_unchanged_form_is_not_an_edit(console, fake_model, db) -> None:
    card, task_id = await _ask_delete(console, fake_model, db)
    await card.get_by_test_id("edit-input").click()
    form = card.get_by_test_id("input-editor")
    await expect(form).to_be_visible()
    field = form.get_by_label("Item")  # console.fields.id, not the key
    await expect(field).to_have_value(task_id)
    assert await card.locator("textarea").count() == 0  # no JSON textarea for a plain field
    await card.get_by_test_id("approve").click()
    await expect(card).to_have_attribute("data-status", "succeeded")
    await expect(console.assistant_text("Deleted.")).to_be_visible()
    results = [b for b in fake_model.requests[-1].body["messages"][-1]["content"] if b.get("type") == "tool_result"]
    assert "edited" not in str(results[0]).lower()


async def test_summary_follows_the_ui_language(console, fake_model, db) -> None:
    await console.page.get_by_test_id("locale-select").select_option("ru")
    card, _ = await _ask_delete(console, fake_model, db)
    await expect(card.get_by_test_id("confirm-summary")).to_have_text("Удалить задачу «Clean the rower».")
