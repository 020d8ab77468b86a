"""The console knows no tool by name (issue 45 item 1: a tool's behaviour is its declaration's). What a tool shows a
person — a coach's message or question, a card's words — is decided by the service from the tool's declaration;
a name written in the console would decide it a second time, in the browser."""

from __future__ import annotations

from api.app import CONSOLE_DIR
from tools.catalog import build_registry


def test_no_tool_name_of_the_registry_is_written_in_the_console() -> None:
    names = sorted(spec.name for spec in build_registry().specs.values())
    files = sorted(p for p in CONSOLE_DIR.rglob("*") if p.suffix in {".js", ".html"})
    assert "coach__message_ask_user" in names and any(p.name == "member.js" for p in files)
    found = {str(p.relative_to(CONSOLE_DIR)): hits for p in files
             if (hits := [n for n in names if n in p.read_text(encoding="utf-8")])}
    assert found == {}
