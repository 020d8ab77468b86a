"""What the nutrition page's browser tests share: the two screen sizes, opening the page signed in and in a
language, the sideways-scroll check, screenshots, and filling the intake form field by field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.waits import expect

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
RUN_MS = 90_000  # a whole offline run on a loaded 2-core machine
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"


def strings(locale: str) -> dict[str, Any]:
    """console.nutrition of a locale file."""
    return json.loads((ROOT / "locales" / f"{locale}.json").read_text(encoding="utf-8"))["console"]["nutrition"]


async def open_page(page, server, token: str, locale: str, size: str = "desktop") -> None:
    """The nutrition page signed in with `token`, in `locale`, at `size`, its run list shown."""
    await page.set_viewport_size(SIZES[size])
    # the page loads in the language (the choice it remembers), so nothing is drawn twice while a test reads it
    await page.add_init_script(f"if (location.protocol.startsWith('http')) localStorage.setItem('spotter.locale', "
                               f"{json.dumps(locale)})")
    await page.goto("about:blank")  # a new sign-in loads the page afresh, not just a new #fragment
    await page.goto(f"{server.url}/console/nutrition.html#token={token}")
    await expect(page.get_by_test_id("run-list")).to_be_visible()
    await expect(page.get_by_test_id("locale-select")).to_have_value(locale)
    await expect(page.locator("html")).to_have_attribute("lang", locale)
    await expect(page.locator("html")).to_have_attribute("dir", "rtl" if locale == "he" else "ltr")


async def no_sideways_scroll(page) -> None:
    """The page itself never scrolls sideways (wide tables scroll or stack inside their own box)."""
    widths = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if widths[0] > widths[1]:  # name what sticks out, so a failure says where to look
        outside = await page.evaluate("""() => [...document.querySelectorAll('body *')].filter((el) => {
            const box = el.getBoundingClientRect();
            return box.right > window.innerWidth + 0.5 || box.left < -0.5;
          }).concat([...document.querySelectorAll('body *')].filter((el) => el.scrollWidth > el.clientWidth + 1
            && el.clientWidth && getComputedStyle(el).overflowX === 'visible'))
          .slice(0, 30).map((el) => `${el.tagName.toLowerCase()}.${el.className}[${el.dataset.testid ?? ''}] `
            + `${Math.round(el.getBoundingClientRect().left)}..${Math.round(el.getBoundingClientRect().right)}`
            + ` (${el.clientWidth} showing ${el.scrollWidth})`)""")
        pytest.fail(f"the page scrolls sideways: {widths[0]} px wide at {widths[1]} px; outside: {outside}")


async def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"nutrition_page_{name}.png"), full_page=True)


async def fill_intake(page, values: dict[str, Any]) -> None:
    """Fill the intake form: selects by value, checkboxes by truth, lists comma-separated, numbers as text; the
    PAR-Q+ questions as `screening` gives them, the rest answered "no"."""
    values = dict(values)
    answers = {**dict.fromkeys(SCREENING, False), **values.pop("screening", {})}
    for question, yes in answers.items():
        await page.locator(f'[data-testid="intake-form"] [data-testid="screening-{question}-{str(yes).lower()}"]').check()
    for name, value in values.items():
        field = page.locator(f'[data-testid="intake-form"] [name="{name}"]')
        tag = await field.evaluate("el => el.tagName.toLowerCase() + ':' + (el.type || '')")
        if tag.startswith("select"):
            await field.select_option(str(value))
        elif tag.endswith("checkbox"):
            await field.set_checked(bool(value))
        elif isinstance(value, list):
            await field.fill(", ".join(value))
        else:
            await field.fill(str(value))


SCREENING = ("heart_condition", "chest_pain_in_activity", "chest_pain_at_rest_past_month", "dizziness_or_fainting",
             "bone_or_joint_problem", "heart_or_blood_pressure_medication", "other_reason")

# the intake as the form names its fields (a test types it in; the form never starts from it)
INTAKE_FORM: dict[str, Any] = {
    "sex": "female", "age": 31, "height_cm": 170, "current_weight_kg": 64, "target_weight_kg": 62,
    "avg_daily_steps": 8000, "estimated_daily_intake_kcal": 2000, "training_phase": "active_training",
    "training_experience": "beginner", "menstrual_status": "regular", "appetite_level": "normal",
    "equipment_access": "commercial_gym", "cooking_skill": "basic", "gym_anxiety_level": "low",
}


def form_values(intake: dict[str, Any]) -> dict[str, Any]:
    """An intake payload as the form's fields name it (medical history's lists by their dotted names)."""
    values = {k: v for k, v in intake.items() if k != "medical_history" and v is not None}
    for name, items in (intake.get("medical_history") or {}).items():
        values[f"medical_history.{name}"] = items
    return values
