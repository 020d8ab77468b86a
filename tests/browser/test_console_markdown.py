"""Issue 17 item 5: replies render sanitized markdown (lists, bold, tables); injected HTML stays text."""

from __future__ import annotations

import pytest

from tests.browser.waits import expect
from tests.fakes.anthropic_server import Reply, Text

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
REPLY = """Here is **this month**:

- Revenue up *12%*
- `3` new members

| Plan | Members |
|---|---|
| Unlimited | 42 |
| Class pack | 17 |

<img src=x onerror="window.pwned=1"> [site](javascript:alert(1)) [docs](https://example.com)"""


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
async def test_reply_renders_markdown_and_keeps_html_as_text(console, fake_model, viewport) -> None:
    page = console.page
    if viewport:
        await page.set_viewport_size(viewport)
    fake_model.chunk_delay = 0.02
    fake_model.queue(Reply(Text(REPLY, chunks=8)))
    await console.send("how was this month?")
    bubble = console.assistant_text("this month")
    await expect(bubble.locator("strong")).to_have_text("this month")
    await expect(bubble.locator("ul > li")).to_have_count(2)
    await expect(bubble.locator("em")).to_have_text("12%")
    await expect(bubble.locator("table th")).to_have_text(["Plan", "Members"])
    await expect(bubble.locator("table tbody tr")).to_have_count(2)
    await expect(bubble.locator("td").nth(1)).to_have_text("42")
    assert "**" not in await bubble.inner_text() and "|---" not in await bubble.inner_text()
    assert await bubble.locator("img").count() == 0
    await expect(bubble).to_contain_text('<img src=x onerror="window.pwned=1">')
    assert await bubble.locator("a").count() == 1
    await expect(bubble.locator("a")).to_have_attribute("href", "https://example.com")
    assert await page.evaluate("() => window.pwned") is None

    await page.reload()  # the stored reply renders the same way on reopen
    await expect(console.assistant_text("this month").locator("table tbody tr")).to_have_count(2)
