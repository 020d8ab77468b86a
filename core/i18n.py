"""Localized strings from `locales/{en,he,ru}.json` and locale negotiation."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

SUPPORTED_LOCALES = ("en", "he", "ru")
DEFAULT_LOCALE = "en"
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"


@cache
def catalog(locale: str) -> dict:
    return json.loads((LOCALES_DIR / f"{locale}.json").read_text(encoding="utf-8"))


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


def translate(key: str, locale: str, **params: object) -> str:
    """The string at dotted `key` in `locale` (falling back to en, then the key), formatted with params."""
    for loc in (locale, DEFAULT_LOCALE):
        node: object = catalog(loc) if loc in SUPPORTED_LOCALES else {}
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, str):
            try:
                return node.format(**params)
            except (KeyError, IndexError):
                return node
    return key


def error_message(code: str, locale: str, **params: object) -> str:
    return translate(f"agent.errors.{code}", locale, **params)
