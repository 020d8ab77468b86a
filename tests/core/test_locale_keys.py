"""Every string people read lives in locales/, in every language (issue 27 item 5).

The walk reads the code: each key the console uses (data-i18n attributes, `i18n:` props, `t('…')`), each key the
server translates (`translate("…")`, the offline model's message keys and table columns, every code a tool or a
gym service can refuse with) — and finds it in en, he and ru. The three files hold the same keys, every message
parses as ICU with the same placeholders, and no "(s)" plural is left.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.i18n import LANGUAGES, LOCALES_DIR, SUPPORTED_LOCALES, _cases, _closing, format_message

ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ROOT / "api" / "console"
CATALOGS = {code: json.loads((LOCALES_DIR / f"{code}.json").read_text(encoding="utf-8")) for code in SUPPORTED_LOCALES}


def _flat(node: object, prefix: str = "") -> dict[str, object]:
    if isinstance(node, dict):
        out: dict[str, object] = {}
        for key, value in node.items():
            out.update(_flat(value, f"{prefix}{key}."))
        return out
    return {prefix[:-1]: node}


FLAT = {code: _flat(tree) for code, tree in CATALOGS.items()}


def _has(code: str, key: str) -> bool:
    return key in FLAT[code] or any(k.startswith(key + ".") for k in FLAT[code])


# --- what the code uses --------------------------------------------------------------------------------------

_JS_KEY = re.compile(r"""(?:data-i18n(?:-[a-z-]+)?=|\bi18n:\s*|\bt\(\s*|['"]data-i18n(?:-[a-z-]+)?['"]:\s*|"""
                     r"""dataset\.i18n\s*=\s*)['"]([a-zA-Z][\w.]*[\w])['"]""")
_STAFF_CONSOLE = ("app.js", "chat.js", "cards.js", "sidebar.js", "suspensions.js", "usage.js", "notices.js",
                  "composer.js", "markdown.js", "follow.js", "api.js", "sse.js", "schema_form.js", "index.html",
                  "drawer.js", "localize.js", "i18n.js")


def console_keys() -> set[str]:
    """Keys in i18n positions, and any quoted `namespace.key` whose namespace is one of the console's."""
    namespaces = "|".join(sorted(CATALOGS["en"]["console"]))
    literal = re.compile(rf"""['"]((?:{namespaces})\.[a-zA-Z][\w.]*[\w])(?<!\.js)(?<!\.html)(?<!\.css)['"]""")
    keys: set[str] = set()
    for name in _STAFF_CONSOLE:
        text = (CONSOLE / name).read_text(encoding="utf-8")
        keys.update(f"console.{key}" for key in _JS_KEY.findall(text) if "." in key)
        keys.update(f"console.{key}" for key in literal.findall(text))
    return keys


_PY_TRANSLATE = re.compile(r"""\btranslate\(\s*f?["']([a-z][\w.]*[\w])["']""")
_CODES = re.compile(r"""(?:ToolFailed|GymError)\(\s*["']([a-z_]+)["']""")
_NOT_FOUND = re.compile(r"""not_found\(\s*["']([a-z_]+)["']""")
_LINE = re.compile(r"""(?<![\w.])\(\(?"([a-z_]+)",\s*\{""")
_COLUMNS = re.compile(r"""table\([^\[]*\[([^\]]+)\]""")


def server_keys() -> set[str]:
    keys: set[str] = set()
    staff_python = [*(ROOT / "tools").glob("*.py"), *(ROOT / "tools" / "leaves").glob("*.py"),
                    *(ROOT / "gym").glob("*.py"), *(ROOT / "agent").glob("*.py")]
    for path in staff_python:
        text = path.read_text(encoding="utf-8")
        keys.update(key for key in _PY_TRANSLATE.findall(text) if not key.endswith("."))
        if path.parent.name in ("tools", "leaves", "gym"):
            keys.update(f"agent.errors.{code}" for code in _CODES.findall(text))
            keys.update(f"agent.errors.{entity}_not_found" for entity in _NOT_FOUND.findall(text))
    for name in ("rules.py", "reports.py", "desk_rules.py"):
        text = (ROOT / "offline_model" / name).read_text(encoding="utf-8")
        keys.update(f"offline.text.{key}" for key in _LINE.findall(text))
        for columns in _COLUMNS.findall(text):
            keys.update(f"offline.col.{c}" for c in re.findall(r"""["'](\w+)["']""", columns))
    words_py = (ROOT / "offline_model" / "words.py").read_text(encoding="utf-8")
    keys.update(f"offline.text.{key}" for key in re.findall(r'"(cant_[a-z]+)"', words_py))
    for words in ("tool_refused", "tool_internal", "tool_invalid_input", "forbidden_for_role"):
        keys.add(f"agent.errors.{words}")
    keys.add("agent.nextSteps.schedule_anyway.label")
    keys.add("agent.nextSteps.schedule_anyway.message")
    keys.discard("offline.text.report")  # an intent name, not a message
    return keys


def test_the_walk_finds_what_it_should() -> None:
    """The walk is not vacuous: it sees the console's and the server's keys, the new ones included."""
    console, server = console_keys(), server_keys()
    assert {"console.chat.copy", "console.confirm.approvedBy", "console.sidebar.today"} <= console
    assert {"agent.errors.session_overlap", "offline.text.cant_refund", "offline.col.memberName"} <= server
    assert len(console) > 90 and len(server) > 100


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_key_used_in_code_and_console_is_in_every_locale(locale: str) -> None:
    missing = sorted(key for key in console_keys() | server_keys() if not _has(locale, key))
    assert not missing, f"{locale}.json lacks {missing}"


def _owned(key: str) -> bool:
    """The staff console's and the offline staff model's strings, and every error (what this walk answers for)."""
    return key.startswith(("console.", "offline.", "agent.")) and not key.startswith(
        ("console.nutrition.", "console.member.", "offline.trainer."))


@pytest.mark.parametrize("locale", [code for code in SUPPORTED_LOCALES if code != "en"])
def test_the_locale_files_hold_the_same_keys(locale: str) -> None:
    en = {k for k in FLAT["en"] if _owned(k)}
    other = {k for k in FLAT[locale] if _owned(k)}
    assert sorted(en - other) == [] and sorted(other - en) == []


def placeholders(message: str) -> set[str]:
    """The arguments an ICU message reads ({name}, {n, plural, …}, {kind, select, …}), its cases' included;
    a case's own words ("active {active}") are not arguments."""
    names: set[str] = set()
    i = 0
    while i < len(message):
        if message[i] != "{":
            i += 1
            continue
        end = _closing(message, i)
        if end == -1:
            break
        name, _, rest = message[i + 1:end].partition(",")
        names.add(name.strip())
        if rest:
            for case in _cases(rest.partition(",")[2]).values():
                names |= placeholders(case)
        i = end + 1
    return names


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_messages_are_icu_with_the_same_placeholders_and_no_parenthesized_plurals(locale: str) -> None:
    for key, value in FLAT[locale].items():
        if not (_owned(key) and isinstance(value, str)):
            continue
        assert value.count("{") == value.count("}"), key
        assert placeholders(value) == placeholders(str(FLAT["en"].get(key, value))), key
        assert not re.search(r"\w\((?:s|es|ов|а|ы)\)", value), f"{locale} {key}: {value}"
        format_message(value, locale, {name: 2 for name in placeholders(value)})


def test_plural_messages_use_each_language_s_categories() -> None:
    """1, 2, 5 and 22 in Russian: одно / два / пять / двадцать два — not "назначений(я)"."""
    text = FLAT["ru"]["offline.text.published"]
    assert isinstance(text, str)
    shown = [format_message(text, "ru", {"n": n, "from": "a", "to": "b"}) for n in (1, 2, 5, 22)]
    assert shown == ["Опубликовано 1 назначение (a – b).", "Опубликованы 2 назначения (a – b).",
                     "Опубликовано 5 назначений (a – b).", "Опубликованы 22 назначения (a – b)."]
    english = FLAT["en"]["offline.text.published"]
    assert isinstance(english, str)
    assert format_message(english, "en", {"n": 1, "from": "a", "to": "b"}) == "Published 1 assignment for a – b."


def test_placeholders_are_the_arguments_not_the_cases() -> None:
    assert placeholders("{n, plural, one {# day} other {# days}} at {time}") == {"n", "time"}
    assert placeholders("{sub, select, active {active} other {{sub}}}") == {"sub"}
    assert placeholders("Hi {name}") == {"name"}


def test_one_language_registry() -> None:
    """The languages are written once (locales/languages.json); the console builds its picker from it."""
    assert [lang.code for lang in LANGUAGES] == list(SUPPORTED_LOCALES) == ["en", "he", "ru"]
    html = (CONSOLE / "index.html").read_text(encoding="utf-8")
    assert "<option" not in html.split('id="locale-select"')[1].split("</select>")[0]
    assert "SUPPORTED = ['en'" not in (CONSOLE / "i18n.js").read_text(encoding="utf-8")


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_tool_a_card_can_show_has_a_label_in_every_locale(locale: str) -> None:
    """Action cards title a tool by console.tools.<name> (api/console/i18n.js `toolLabel`); without one, a Hebrew or
    Russian reader saw English words made from the tool's name ("Log completed exercise"). Staff and trainer tools."""
    from tools.catalog import build_registry

    labels = json.loads((LOCALES_DIR / f"{locale}.json").read_text(encoding="utf-8"))["console"]["tools"]
    assert sorted(set(build_registry().specs) - set(labels)) == []


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_weekly_trigger_has_a_label_in_every_locale(locale: str) -> None:
    """The adjustment table words each fired trigger by console.nutrition.enum.trigger.<code>
    (api/console/nutrition-tables.js): `phase_transition` had none and showed as English words in he and ru."""
    from gym.nutrition.triggers import ORDER

    labels = json.loads((LOCALES_DIR / f"{locale}.json").read_text(encoding="utf-8"))["console"]["nutrition"]["enum"]
    assert sorted(set(ORDER) - set(labels["trigger"])) == []


@pytest.mark.parametrize("locale", SUPPORTED_LOCALES)
def test_every_field_an_approver_can_edit_has_a_label_in_every_locale(locale: str) -> None:
    """A confirmation's edit form (api/console/schema_form.js) labels each field by console.fields.<key> and each
    period by console.fields.values.<name>; without them a Hebrew or Russian approver read "Class type id"."""
    from tools.catalog import build_registry

    def enums(node: object) -> set[str]:
        if isinstance(node, dict):
            return {str(v) for v in node.get("enum", [])}.union(*(enums(v) for v in node.values()))
        return set().union(*(enums(v) for v in node)) if isinstance(node, list) else set()

    fields = json.loads((LOCALES_DIR / f"{locale}.json").read_text(encoding="utf-8"))["console"]["fields"]
    keys: set[str] = set()
    values: set[str] = set()
    for spec in build_registry().specs.values():
        if spec.confirm != "never":
            shown = {k: v for k, v in spec.input_schema().get("properties", {}).items() if not k.startswith("expected")}
            keys |= set(shown)
            values |= enums(list(shown.values()))
    assert keys and values
    assert sorted(keys - set(fields)) == [] and sorted(values - set(fields["values"])) == []
