"""Localized strings from `locales/<code>.json` for each registered language, and locale negotiation.

The languages are written once, in `locales/languages.json` (code, own name, English name, direction); the
server reads them through the registry (core.languages) and the console reads the same file. Messages are ICU
MessageFormat for what varies: `{name}` inserts a parameter, `{n, plural, one {# member} other {# members}}` picks
the CLDR plural category of `n` in the locale (Babel's rules; the console uses `Intl.PluralRules` on the same
messages) and `{kind, select, coaching {…} other {…}}` picks by value.
"""

from __future__ import annotations

import json
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date
from babel.numbers import format_decimal

from core.languages import Language, load

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
REGISTRY = load(LOCALES_DIR)
LANGUAGES: tuple[Language, ...] = REGISTRY.languages
SUPPORTED_LOCALES: tuple[str, ...] = REGISTRY.codes
DEFAULT_LOCALE: str = REGISTRY.default
RTL_LOCALES = frozenset(lang.code for lang in LANGUAGES if lang.dir == "rtl")


def language_name(locale: str) -> str:
    """The language's English name ("Hebrew"), for prompts that tell a model which language to write; an
    unregistered code raises core.languages.UnknownLanguage rather than passing for English."""
    return REGISTRY.language(locale).english


@cache
def catalog(locale: str) -> dict:
    return json.loads((LOCALES_DIR / f"{locale}.json").read_text(encoding="utf-8"))


@cache
def part(name: str, locale: str) -> dict:
    """A catalog kept in its own file, `locales/<name>/<locale>.json` (the exercise library's names and cues),
    so the console's strings do not carry it; {} for a language it does not have."""
    path = LOCALES_DIR / name / f"{locale}.json"
    return json.loads(path.read_text(encoding="utf-8")) if locale in SUPPORTED_LOCALES and path.is_file() else {}


def in_every_language(name: str, *path: str) -> tuple[str, ...]:
    """The words listed at `path` in `locales/<name>/<code>.json`, every registered language's in the registry's
    order (an exercise's aliases, a food concept's words): what a member may write, whatever their language."""
    out: list[str] = []
    for code in SUPPORTED_LOCALES:
        node: Any = part(name, code)
        for key in path:
            node = node[key]
        out += node
    return tuple(out)


def _quality(params: list[str]) -> float:
    """The `q` of one accept-language entry (RFC 9110 §12.4.2): 1 when absent, 0 when malformed or out of range."""
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                weight = float(value.strip())
            except ValueError:
                return 0.0
            return weight if 0.0 <= weight <= 1.0 else 0.0
    return 1.0


def resolve_locale(x_locale: str | None, accept_language: str | None) -> str:
    """`x-locale` first, then the supported `accept-language` entry of highest q (q=0 means "not this one";
    ties keep the header's order), else en."""
    if x_locale:
        tag = x_locale.strip().lower().split("-")[0]
        if tag in SUPPORTED_LOCALES:
            return tag
    if accept_language:
        best: dict[str, float] = {}
        for part in accept_language.split(","):
            lang, *params = part.split(";")
            tag = lang.strip().lower().split("-")[0]
            weight = _quality(params)
            if tag in SUPPORTED_LOCALES and weight > 0.0:
                best[tag] = max(weight, best.get(tag, 0.0))
        if best:
            return max(best, key=lambda tag: best[tag])  # dicts keep insertion order: the first of equals wins
    return DEFAULT_LOCALE


# --- ICU messages ----------------------------------------------------------------------------------------

@cache
def _plural_locale(locale: str) -> Locale:
    return Locale.parse(locale if locale in SUPPORTED_LOCALES else DEFAULT_LOCALE)


def plural_category(n: float, locale: str) -> str:
    """CLDR's plural category of `n` in `locale`: zero, one, two, few, many or other."""
    return str(_plural_locale(locale).plural_form(abs(n)))


def format_number(n: Any, locale: str) -> str:
    try:
        return str(format_decimal(n, locale=_plural_locale(locale)))
    except (TypeError, ValueError, ArithmeticError):
        return str(n)


def format_day(day: date, locale: str) -> str:
    """The member's one day format, as the app's `dayLabel` writes it with Intl ({weekday: 'short', day:
    'numeric', month: 'long'}): "Sun, November 29", "вс, 29 ноября", "יום א׳, 29 בנובמבר". CLDR has no
    weekday-day-long-month skeleton, so, as ICU does, the day-with-short-month pattern's month is widened."""
    loc = _plural_locale(locale)
    pattern = loc.datetime_skeletons["MMMEd"].pattern.replace("MMM", "MMMM").replace("LLL", "LLLL")
    return str(format_date(day, pattern, locale=loc))


def _closing(text: str, start: int) -> int:
    """Index of the `}` that closes the `{` at `start` (nesting counted), or -1."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _cases(body: str) -> dict[str, str]:
    """`one {…} other {…}` → {"one": "…", "other": "…"}."""
    out: dict[str, str] = {}
    i = 0
    while i < len(body):
        brace = body.find("{", i)
        if brace == -1:
            break
        key = body[i:brace].strip()
        end = _closing(body, brace)
        if end == -1 or not key:
            break
        out[key] = body[brace + 1:end]
        i = end + 1
    return out


def _argument(spec: str, locale: str, params: dict[str, Any], number: str | None) -> str | None:
    name, _, rest = spec.partition(",")
    name = name.strip()
    if not rest:
        if name in params:
            return str(params[name])
        return None
    kind, _, body = rest.strip().partition(",")
    kind = kind.strip()
    cases = _cases(body)
    value = params.get(name)
    if kind == "plural" and value is not None:
        try:
            n = float(value)
        except (TypeError, ValueError):
            n = 0.0
        exact = f"={int(n)}" if n == int(n) else ""
        text = cases.get(exact) or cases.get(plural_category(n, locale)) or cases.get("other", "")
        return format_message(text, locale, params, number=format_number(value, locale))
    if kind == "select":
        text = cases.get(str(value), cases.get("other", ""))
        return format_message(text, locale, params, number=number)
    return None


def format_message(template: str, locale: str, params: dict[str, Any] | None = None, *,
                   number: str | None = None) -> str:
    """An ICU message with `params`; an unknown placeholder stays as written."""
    params = params or {}
    out: list[str] = []
    i = 0
    while i < len(template):
        char = template[i]
        if char == "{":
            end = _closing(template, i)
            if end == -1:
                out.append(template[i:])
                break
            value = _argument(template[i + 1:end], locale, params, number)
            out.append(template[i:end + 1] if value is None else value)
            i = end + 1
            continue
        out.append(number if char == "#" and number is not None else char)
        i += 1
    return "".join(out)


def lookup(key: str, locale: str) -> str | None:
    """The raw message at dotted `key` in `locale`, or None."""
    node: object = catalog(locale) if locale in SUPPORTED_LOCALES else {}
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, str) else None


def has_key(key: str, locale: str = DEFAULT_LOCALE) -> bool:
    return lookup(key, locale) is not None


def translate(key: str, locale: str, **params: object) -> str:
    """The message at dotted `key` in `locale` (falling back to en, then the key), formatted with params."""
    for loc in (locale, DEFAULT_LOCALE):
        text = lookup(key, loc)
        if text is not None:
            return format_message(text, loc, params)
    return key


def error_message(code: str, locale: str, **params: object) -> str:
    return translate(f"agent.errors.{code}", locale, **params)
