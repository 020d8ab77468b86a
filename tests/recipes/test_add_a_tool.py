"""docs/recipes/add-a-tool.md, followed at runtime: the kiosk module (the recipe's own code: a staff tool and a
member's trainer tool) and their entries in the three locales, laid out as the repository in a temporary folder,
are all a new tool takes. An app built after finds them by itself; over HTTP the staff copilot keeps the staff
tool in its prompt and runs it, the trainer runs the member's tool, shows its status line in the member's
language and ends its turn on it, as the declaration says."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

import tools.leaves
from core import i18n
from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.recipes.recipe import code, named_files, touched
from tests.servers import ThreadedServer
from tests.sse import sse
from tests.trainer.members import link_member
from tests.trainer.scripted import Trainer
from tools.errors import tool_label

RECIPE = "add-a-tool.md"
LABELS = {"en": {"kiosk__opening_hours": "Opening hours", "kiosk__wave": "Wave goodbye"},
          "he": {"kiosk__opening_hours": "שעות פתיחה", "kiosk__wave": "נפנוף לשלום"},
          "ru": {"kiosk__opening_hours": "Часы работы", "kiosk__wave": "Помахать на прощание"}}
STATUS = {"en": {"start": "Waving...", "done": "Waved"}, "he": {"start": "מנפנף...", "done": "נופף"},
          "ru": {"start": "Машу рукой...", "done": "Помахал"}}


def _merge(into: dict, added: dict) -> None:
    for key, value in added.items():
        if isinstance(value, dict):
            _merge(into.setdefault(key, {}), value)
        else:
            into[key] = value


@pytest.fixture
def kiosk_tools(tmp_path: Path) -> Iterator[Path]:
    """The recipe's files in a folder laid out as the repository, registered as the repository's would be: the
    module under tools/leaves/ (the package's path), the locale keys in the catalogs the server reads."""
    leaf = tmp_path / "tools" / "leaves" / "kiosk.py"
    leaf.parent.mkdir(parents=True)
    leaf.write_text(code(RECIPE), encoding="utf-8")
    (tmp_path / "locales").mkdir()
    for locale in LABELS:
        entries = {"console": {"tools": LABELS[locale]}, "trainer": {"status": {"kiosk__wave": STATUS[locale]}}}
        (tmp_path / "locales" / f"{locale}.json").write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    tools.leaves.__path__.append(str(leaf.parent))
    for locale in LABELS:
        _merge(i18n.catalog(locale), json.loads((tmp_path / "locales" / f"{locale}.json").read_text(encoding="utf-8")))
    try:
        yield tmp_path
    finally:
        tools.leaves.__path__.remove(str(leaf.parent))
        sys.modules.pop("tools.leaves.kiosk", None)
        for locale in LABELS:
            for name in LABELS[locale]:
                i18n.catalog(locale)["console"]["tools"].pop(name, None)
            i18n.catalog(locale)["trainer"]["status"].pop("kiosk__wave", None)


@pytest.fixture
async def kiosk_app(kiosk_tools: Path, app_settings) -> AsyncIterator[httpx.AsyncClient]:
    """A fresh app, built after the files exist (the shared test server was built before)."""
    from api.app import create_app

    server = ThreadedServer(create_app(app_settings)).start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            yield client
    finally:
        server.stop()


def test_a_new_tool_is_one_code_file_and_the_three_locales(kiosk_tools: Path) -> None:
    """What the recipe wrote is exactly what it names: one module and en/he/ru."""
    assert touched(kiosk_tools) == named_files(RECIPE, router="kiosk") == {
        "tools/leaves/kiosk.py", "locales/en.json", "locales/he.json", "locales/ru.json"}
    assert {locale: {n: tool_label(n, locale) for n in names} for locale, names in LABELS.items()} == LABELS


async def test_the_staff_copilot_runs_the_new_tool_over_http(kiosk_app, factory, clean_model) -> None:
    org = await factory.org(tier="pro")
    owner = await factory.user(org, "owner")
    clean_model.queue(Reply(ToolUse("kiosk__opening_hours", {}, id="toolu_kiosk")), Reply(Text("We open at 06:00.")))
    result = await sse(kiosk_app, f"/organizations/{org.id}/agent/messages",
                       json_body={"message": "when do we open today?"}, headers=owner.headers)

    first = {t["name"]: t for t in clean_model.requests[0].body["tools"] if "name" in t}
    assert not first["kiosk__opening_hours"].get("defer_loading")  # loaded=True: in the prompt, not behind search
    assert first["kiosk__opening_hours"]["description"] == "The gym's opening hours today."
    assert "kiosk__wave" not in first  # a member's tool
    assert (result.one("tool_started")["router"], result.one("tool_started")["action"]) == ("kiosk", "opening_hours")
    assert result.one("tool_completed")["ok"] is True
    answered = clean_model.requests[1].body["messages"][-1]["content"]
    assert [b["type"] for b in answered] == ["tool_result"] and "22:00" in answered[0]["content"]
    assert result.names[-1] == "done" and "error" not in result.names


@pytest.mark.parametrize("locale", ["he", "ru"])
async def test_the_trainer_runs_the_new_member_tool_and_its_declaration_ends_the_turn(
        kiosk_app, db, factory, clean_model, locale) -> None:
    org = await factory.org(tier="pro")
    member = await factory.user(org, "member")
    await link_member(db, org.id, member.id)
    trainer = Trainer(clean_model, [Reply(ToolUse("kiosk__wave", {}, id="toolu_wave")), Reply(Text("never"))])
    result = await sse(kiosk_app, f"/organizations/{org.id}/trainer/messages", json_body={"message": "bye"},
                       headers={**member.headers, "Accept-Language": locale})

    assert len(trainer.turn_requests()) == 1  # ends_turn=True: no model call after it
    assert "kiosk__wave" in {t["name"] for t in trainer.turn_requests()[0]["tools"]}
    assert [(s["tool"], s["phase"], s["message"]) for s in result.of("status")] == [
        ("kiosk__wave", "start", STATUS[locale]["start"]), ("kiosk__wave", "done", STATUS[locale]["done"])]
    assert result.one("tool_completed")["ok"] is True
    assert result.names[-1] == "done" and "error" not in result.names
