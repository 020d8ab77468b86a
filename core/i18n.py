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


def resolve_locale(x_locale: str | None, accept_language: str | None) -> str:
    """`x-locale` first, then the best supported `accept-language` entry, else en."""
    if x_locale:
        tag = x_locale.strip().lower().split("-")[0]
        if tag in SUPPORTED_LOCALES:
            return tag
    if accept_language:
        weighted: list[tuple[float, str]] = []
        for part in accept_language.split(","):
            lang, _, q = part.strip().partition(";q=")
            try:
                weight = float(q) if q else 1.0
            except ValueError:
                weight = 0.0
            tag = lang.strip().lower().split("-")[0]
            if tag in SUPPORTED_LOCALES:
                weighted.append((weight, tag))
        if weighted:
            return max(weighted, key=lambda item: item[0])[1]
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
