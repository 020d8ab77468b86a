"""What may leave the process: `scrub()` drops user text and secrets from any JSON-like value before it reaches a
log line, an event, a span or an error report; `redact()` masks credential- and email-shaped strings."""

from __future__ import annotations

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
