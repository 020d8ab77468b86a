"""docs/recipes/add-a-tool.md, followed at runtime: the kiosk tool's module (the recipe's own code) and its three
locale entries, laid out as the repository in a temporary folder, are all a new tool takes; the app built after
finds it by itself, the staff copilot offers it loaded in the prompt, runs it over HTTP and people read its name
in each language."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tools.leaves
from core import i18n
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.recipes.recipe import code, named_files, touched
from tests.servers import ThreadedServer
from tests.sse import sse
from tools.errors import tool_label

RECIPE = "add-a-tool.md"
LABELS = {"en": "Opening hours", "he": "שעות פתיחה", "ru": "Часы работы"}


@pytest.fixture
def kiosk_tool(tmp_path: Path) -> Iterator[Path]:
    """The recipe's files in a folder laid out as the repository, registered as the repository's would be: the
    module under tools/leaves/ (the package's path), the locale keys in the catalogs the server reads."""
    leaf = tmp_path / "tools" / "leaves" / "kiosk.py"
    leaf.parent.mkdir(parents=True)
    leaf.write_text(code(RECIPE), encoding="utf-8")
    for locale, label in LABELS.items():
        (tmp_path / "locales").mkdir(exist_ok=True)
        (tmp_path / "locales" / f"{locale}.json").write_text(
            json.dumps({"console": {"tools": {"kiosk__opening_hours": label}}}, ensure_ascii=False), encoding="utf-8")
    tools.leaves.__path__.append(str(leaf.parent))
    for locale in LABELS:
        added = json.loads((tmp_path / "locales" / f"{locale}.json").read_text(encoding="utf-8"))
        i18n.catalog(locale)["console"]["tools"].update(added["console"]["tools"])
    try:
        yield tmp_path
    finally:
        tools.leaves.__path__.remove(str(leaf.parent))
        sys.modules.pop("tools.leaves.kiosk", None)
        for locale in LABELS:
            i18n.catalog(locale)["console"]["tools"].pop("kiosk__opening_hours", None)


def test_a_new_tool_is_one_code_file_and_the_three_locales(kiosk_tool: Path) -> None:
    """What the recipe wrote is exactly what it names: one module and en/he/ru."""
    assert touched(kiosk_tool) == named_files(RECIPE, router="kiosk") == {
        "tools/leaves/kiosk.py", "locales/en.json", "locales/he.json", "locales/ru.json"}


async def test_the_staff_copilot_runs_the_new_tool_over_http(kiosk_tool: Path, app_settings, factory,
                                                              clean_model) -> None:
    from api.app import create_app

    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner")
    clean_model.queue(Reply(ToolUse("kiosk__opening_hours", {}, id="toolu_kiosk")), Reply(Text("We open at 06:00.")))
    server = ThreadedServer(create_app(app_settings)).start()  # an app built after the file exists
    try:
        import httpx

        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            result = await sse(client, f"/organizations/{org.id}/agent/messages",
                               json_body={"message": "when do we open today?"}, headers=owner.headers)
    finally:
        server.stop()

    first = {t["name"]: t for t in clean_model.requests[0].body["tools"] if "name" in t}
    assert "kiosk__opening_hours" in first and not first["kiosk__opening_hours"].get("defer_loading")  # loaded=True
    assert first["kiosk__opening_hours"]["description"] == "The gym's opening hours today."
    assert result.one("tool_started")["router"] == "kiosk" and result.one("tool_started")["action"] == "opening_hours"
    assert result.one("tool_completed")["ok"] is True
    answered = clean_model.requests[1].body["messages"][-1]["content"]
    assert [b["type"] for b in answered] == ["tool_result"] and "22:00" in answered[0]["content"]
    assert result.names[-1] == "done" and "error" not in result.names
    assert {locale: tool_label("kiosk__opening_hours", locale) for locale in LABELS} == LABELS
