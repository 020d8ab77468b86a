"""What may leave the process: `scrub()` drops user text and secrets from any JSON-like value before it reaches a
log line, an event, a span or an error report; `redact()` masks credential- and email-shaped strings."""

from __future__ import annotations

import functools
import json
import re
import uuid
from datetime import date, datetime
from enum import Enum
from typing import Any

# Keys whose values are dropped, compared case-insensitively without "_", "-", "." or spaces. A key is
# dropped when it is one of these or ends with one ("toolInput", "accessToken", "db_password"); counts
# like "inputTokens" end in "tokens" and stay.
SCRUBBED_KEYS = ("content", "text", "prompt", "message", "output", "input", "token", "apikey", "secret",
                 "password", "authorization", "cookie", "email")
REDACTED = "[redacted]"
_SECRET_PATTERNS = (
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]+"),
    re.compile(r"\b(?:sk|pk|rk)[-_](?:live[-_]|test[-_]|ant[-_])?[A-Za-z0-9_-]{8,}"),
    re.compile(r"\b(?:phc|phx|ghp|gho|xox[abp])_[A-Za-z0-9_-]{8,}"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),  # JWTs
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"(?i)\b(api[_-]?key|secret|password|passwd|token)\s*[=:]\s*\S+"),
)
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")


def _normal(key: Any) -> str:
    return re.sub(r"[\s_\-.]", "", str(key)).lower()


def dropped(key: Any) -> bool:
    normal = _normal(key)
    return any(normal == word or normal.endswith(word) for word in SCRUBBED_KEYS)


def redact(text: str) -> str:
    """`text` with anything shaped like a credential or an email address replaced."""
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(REDACTED, text)
    return _EMAIL.sub("[email]", text)


def scrub(value: Any) -> Any:
    """A JSON-safe copy of `value` without user text or secrets: named keys dropped at any depth (lists
    included), secret- and email-shaped strings redacted everywhere, unknown objects reduced to their type."""
    if isinstance(value, dict):
        return {str(k): scrub(v) for k, v in value.items() if not dropped(k)}
    if isinstance(value, list | tuple | set | frozenset):
        return [scrub(v) for v in value]
    if isinstance(value, str):
        return redact(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, Enum):
        return scrub(value.value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    return f"<{type(value).__name__}>"


# ---- captured content (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT) ------------------------------------
#
# With content capture on, messages, tool arguments and results ride on spans (and so reach the trace endpoint,
# Sentry and PostHog). Unless CAPTURE_CONTENT_HEALTH_AND_NAMES also allows them, `scrub_captured` takes out of that
# content what identifies a member or says something about their health:
# - every <member_text> envelope's text (names, injury and preference notes, comments: core/member_text.py);
# - the values of keys that hold a person's name, contact or body data, or health text, in any JSON (a tool's
#   arguments or result, a tool_result's JSON string);
# - in free text (what the staff, the member and the model wrote): each name the content carries under those keys
#   or in a name envelope, the health conditions of the safety floor's vocabulary (gym/nutrition/safety_words.py,
#   English, Hebrew, Russian: pregnancy, diabetes, insulin, heart, kidney, eating disorders, chest pain, fainting,
#   ...), and body weights ("82 kg", "180 lb").
# Secrets and e-mails are redacted as everywhere else. What stays: the rest of the words, numbers that are not
# weights, ids, tool names, the structure.

_PERSON_KEYS = ("name", "fullname", "firstname", "lastname", "membername", "label", "author", "phone", "email",
                "weightkg", "heightcm", "birthyear", "sex", "weight", "height", "waist", "hips", "bodyfat")
_HEALTH_KEYS = ("description", "guidance", "notes", "note", "injuries", "conditions", "medications", "medical",
                "medicalhistory", "intake", "question", "questions", "checkin", "symptoms", "allergies", "cycle")
_ENVELOPE = re.compile(r'(<member_text source="([a-z_]+)">)(.*?)(</member_text>)', re.DOTALL)
_WEIGHT = re.compile(r"\b\d{2,3}(?:[.,]\d+)?\s?(?:kg|kgs|kilos?|kilograms?|lb|lbs|pounds?|кг|ק\"ג|קילו)(?!\w)",
                     re.IGNORECASE)
MEMBER_TEXT = "[member text]"
NAME = "[name]"
HEALTH = "[health]"


# The safety floor's concepts that name a condition, a medication or a state of health (gym.nutrition.safety_words):
# a captured word naming one of them (its Hebrew prefixes, Russian inflections and one-edit typos included, as the
# floor reads it) leaves as [health].
HEALTH_CONCEPTS = ("HEART", "KIDNEY", "ANGINA", "FAINT", "BLACKOUT", "BREATH_SYM", "PALP", "PREG", "BF", "AMEN", "MENO", "HEART_COND",
                   "KIDNEY_COND", "DIAB", "ED", "PURGE", "LAXATIVE", "INSULIN", "BRAND")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


@functools.cache
def _health_atoms() -> frozenset[str]:
    """The one-word entries of those concepts that are not also another concept's one-word entry ("insulin", not
    "high"; a capture errs towards saying less)."""
    from gym.nutrition import safety_words
    from gym.nutrition.safety_text import normalise

    def words(concepts: Any) -> set[str]:
        return {w for c in concepts for e in safety_words.LEXICON[c] if " " not in (w := normalise(e))}

    return frozenset(words(HEALTH_CONCEPTS) - words(set(safety_words.LEXICON) - set(HEALTH_CONCEPTS)))


def _health_words(text: str) -> str:
    from gym.nutrition.safety_text import atoms_of, normalise

    health = _health_atoms()
    return _WORD.sub(lambda m: HEALTH if atoms_of(normalise(m.group(0))) & health else m.group(0), text)


_NAME_KEYS = _PERSON_KEYS[:7]
_TOOL_BLOCKS = ("tool_use", "server_tool_use")  # their "name" is a tool's, not a person's


def _words(text: str) -> list[str]:
    return [part for part in _ENVELOPE.sub(r"\3", text).split() if len(part) > 1]


def _known_in(value: Any, found: set[str]) -> None:
    """Collect what the content says of a member in a structured way, to take it out of free text too: each word of
    a name (under a person-name key, or in a name envelope) and each whole member text or health value."""
    if isinstance(value, dict):
        for key, item in value.items():
            if value.get("type") in _TOOL_BLOCKS and key in ("name", "id", "type"):
                continue
            normal = _normal(key)
            if normal in _NAME_KEYS and isinstance(item, str):
                found.update(_words(item))
            elif normal in _HEALTH_KEYS and isinstance(item, str) and len(item.strip()) > 3:
                found.add(_ENVELOPE.sub(r"\3", item).strip())
            _known_in(item, found)
    elif isinstance(value, list):
        for item in value:
            _known_in(item, found)
    elif isinstance(value, str):
        for match in _ENVELOPE.finditer(value):
            if match.group(2) in ("member_name", "comment_author"):
                found.update(_words(match.group(3)))
            elif len(match.group(3).strip()) > 3:
                found.add(match.group(3).strip())
        parsed = _json(value)
        if parsed is not None:
            _known_in(parsed, found)


def _json(text: str) -> Any:
    stripped = text.lstrip()
    if stripped[:1] not in ("{", "["):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _text(text: str, names: re.Pattern[str] | None) -> str:
    parsed = _json(text)
    if parsed is not None:
        return json.dumps(_captured(parsed, names), ensure_ascii=False)
    text = _ENVELOPE.sub(lambda m: f"{m.group(1)}{MEMBER_TEXT}{m.group(4)}", text)
    if names is not None:
        text = names.sub(NAME, text)
    return _WEIGHT.sub(HEALTH, _health_words(text))


def _captured(value: Any, names: re.Pattern[str] | None) -> Any:
    if isinstance(value, dict):
        tool_block = value.get("type") in _TOOL_BLOCKS
        return {key: (item if tool_block and key in ("name", "id", "type") else
                      REDACTED if _normal(key) in _PERSON_KEYS + _HEALTH_KEYS and item not in (None, "", [], {})
                      else _captured(item, names)) for key, item in value.items()}
    if isinstance(value, list):
        return [_captured(item, names) for item in value]
    if isinstance(value, str):
        return _text(value, names)
    return value


def _without_secrets(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_secrets(v) for k, v in value.items()
                if _normal(k) not in ("apikey", "token", "password", "secret", "authorization")}
    if isinstance(value, list):
        return [_without_secrets(v) for v in value]
    return value


def scrub_captured(value: Any, *, health_and_names: bool = False, known: set[str] | None = None) -> Any:
    """Captured message content as it may leave the process: secrets dropped by key (any depth); without
    `health_and_names`, a member's identity and health taken out as the comment above says. `known` carries what
    earlier content of the same turn said of a member (a model's answer names whom the tool result before it named),
    and gains what this content says."""
    value = _without_secrets(value)
    if health_and_names:
        return value
    found = known if known is not None else set()
    _known_in(value, found)
    names = None
    if found:
        alternatives = "|".join(re.escape(n) for n in sorted(found, key=len, reverse=True))
        names = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return _captured(value, names)
