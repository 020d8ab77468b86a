"""The request class: bodies are JSON only, and a body that cannot be decoded or stored is the caller's error.

Litestar would parse any content type as JSON and let `UnicodeDecodeError` (bytes that are not UTF-8)
or `RecursionError` (JSON nested ~1,000 levels) escape as a 500. Here a declared non-JSON type answers
415 `unsupported_media_type` and an undecodable body 400 `validation_failed`. So does, for every endpoint, a
body holding text the database cannot store (a NUL byte, in a string or a key) or nested deeper than any real
page context or tool input: refused before any handler reads it, never found by Postgres halfway through a
turn. /schema says so (api/openapi.py).
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.exceptions import SerializationException, ValidationException

from core.errors import ServiceError

MAX_JSON_DEPTH = 32


class UnsupportedMediaType(ServiceError):
    code = "unsupported_media_type"
    status = 415


def is_json_media_type(media_type: str) -> bool:
    """A missing type is read as JSON (curl and many clients omit it); anything else must say JSON."""
    media_type = media_type.strip().lower()
    return not media_type or media_type == "application/json" or media_type.endswith("+json")


def check_storable(body: Any, name: str) -> None:
    """Raise ValueError when `body` holds a NUL in any string (key or value), or when a value in it (a page
    context, a tool input) nests deeper than MAX_JSON_DEPTH levels: the body's own object does not count."""
    stack: list[tuple[Any, int]] = [(body, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError(f"{name} must not contain NUL characters")
        elif isinstance(item, dict | list):
            if depth > MAX_JSON_DEPTH:
                raise ValueError(f"{name} must not nest deeper than {MAX_JSON_DEPTH} levels")
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)


class JsonRequest(Request):
    async def json(self) -> Any:
        media_type, _ = self.content_type
        if not is_json_media_type(media_type):
            raise UnsupportedMediaType(detail=media_type)
        try:
            body = await super().json()
        except UnicodeDecodeError:
            raise ValidationException("the body is not valid UTF-8") from None
        except RecursionError:
            raise ValidationException("the body nests too deeply") from None
        except SerializationException as exc:
            raise ValidationException(f"the body is not valid JSON: {exc}") from None
        try:
            check_storable(body, "the request body")
        except ValueError as exc:
            raise ValidationException(str(exc)) from None
        return body
