"""Issue 17 item 3: "Edit input" is a small form generated from the tool's input JSON schema (carried as
`inputSchema` on confirmation_pending and on a reopened pending call): enums as selects, booleans as
checkboxes, dates as date inputs; the edit reaches the server as typed JSON (desktop and phone)."""

from __future__ import annotations

import pytest

from gym.programs import create_program
from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text, ToolUse

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


async def _program(db, console) -> str:
    async with db.scope(org_id=console.org.id) as session:
        return str((await create_program(session, console.org.id, name="CrossFit", kind="class")).id)


async def _ask_template(console, fake_model, program_id: str):
    tool_input = {"programId": program_id, "name": "Autumn block", "period": "last_month"}
    fake_model.queue(Reply(Text("Saving needs your OK."), ToolUse("program_templates__from_history", tool_input,
                                                                  id="toolu_tpl")),
                     Reply(Text("Done.")))
    await console.send("save last month of CrossFit as a template")
    card = console.card("toolu_tpl")
    await expect(card).to_have_attribute("data-status", "pending")
    return card


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_edit_form_follows_the_schema_and_sends_the_typed_edit(console, fake_model, db, viewport) -> None:
    if viewport:
        await console.page.set_viewport_size(viewport)
    program_id = await _program(db, console)
    card = await _ask_template(console, fake_model, program_id)
    await expect(card.get_by_test_id("confirm-summary")).to_contain_text("Save the workouts of CrossFit")
    await card.get_by_test_id("edit-input").click()
    form = card.get_by_test_id("input-editor")
    await expect(form).to_be_visible()
    period = form.locator('select[data-key="period"]')  # an enum: a select with the schema's values
    await expect(period).to_have_value("last_month")
    options = await period.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert options[0] == "" and {"this_week", "last_quarter", "last_90_days"} <= set(options)
    for key in ("from", "to"):  # dates: date inputs, empty because the input has none
        await expect(form.locator(f'input[data-key="{key}"]')).to_have_attribute("type", "date")
        await expect(form.locator(f'input[data-key="{key}"]')).to_have_value("")
    await expect(form.get_by_label("Name")).to_have_value("Autumn block")
    await expect(form.get_by_label("Program", exact=True)).to_have_value(program_id)  # words, not "Program id"
    words = await period.locator("option").evaluate_all("os => os.map(o => o.textContent)")
    assert {"last month", "last 90 days"} <= set(words), words
    assert await form.locator("[title]").count() == 0  # the schema's descriptions are written for the model
    await expect(form.get_by_label("Description")).to_have_value("")  # an optional field the input left out
    assert await form.locator("textarea").count() == 0

    await period.select_option("")
    await form.locator('input[data-key="from"]').fill("2026-10-05")
    await form.locator('input[data-key="to"]').fill("2026-10-18")
    async with console.page.expect_request(lambda r: "/confirm/toolu_tpl" in r.url) as sent:
        await card.get_by_test_id("approve").click()
    body = (await sent.value).post_data_json
    assert body["approved"] is True
    edited = {k: v for k, v in body["input"].items() if v is not None}  # cleared optional fields go as null
    assert edited == {"programId": program_id, "name": "Autumn block", "from": "2026-10-05", "to": "2026-10-18"}
    await expect(card).not_to_have_attribute("data-status", "pending")


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_reopened_confirmation_keeps_its_summary_and_schema_form(console, fake_model, db, viewport) -> None:
    if viewport:
        await console.page.set_viewport_size(viewport)
    program_id = await _program(db, console)
    fake_model.queue(Reply(ToolUse("program_templates__apply",
                                   {"templateId": program_id, "programId": program_id, "startDate": "2026-11-30"},
                                   id="toolu_apply")))
    await console.send("apply a template")
    await expect(console.card("toolu_apply")).to_have_attribute("data-status", "pending")
    await console.page.reload()
    card = console.card("toolu_apply")
    await expect(card).to_have_attribute("data-status", "pending")
    await card.get_by_test_id("edit-input").click()
    form = card.get_by_test_id("input-editor")
    await expect(form.locator('input[data-key="startDate"]')).to_have_attribute("type", "date")
    await expect(form.locator('input[data-key="startDate"]')).to_have_value("2026-11-30")
    published = form.locator('input[data-key="published"]')  # a boolean: a checkbox, unchecked by default
    await expect(published).to_have_attribute("type", "checkbox")
    await expect(published).not_to_be_checked()
    await expect(card.get_by_test_id("approve")).to_be_in_viewport()


async def test_reopened_summary_is_the_live_one(console, fake_model, db) -> None:
    program_id = await _program(db, console)
    card = await _ask_template(console, fake_model, program_id)
    live = await card.get_by_test_id("confirm-summary").inner_text()
    assert live.startswith("Save the workouts of CrossFit")
    await console.page.reload()
    await expect(console.card("toolu_tpl").get_by_test_id("confirm-summary")).to_have_text(live)
