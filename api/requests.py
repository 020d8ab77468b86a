"""The request class: bodies are JSON only, and a body that cannot be decoded is the caller's error.

Litestar would parse any content type as JSON and let `UnicodeDecodeError` (bytes that are not UTF-8)
or `RecursionError` (JSON nested ~1,000 levels) escape as a 500. Here a declared non-JSON type answers
415 `unsupported_media_type` and an undecodable body 400 `validation_failed`.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.exceptions import SerializationException, ValidationException

from core.errors import ServiceError


class UnsupportedMediaType(ServiceError):
    code = "unsupported_media_type"
    status = 415


def is_json_media_type(media_type: str) -> bool:
    """A missing type is read as JSON (curl and many clients omit it); anything else must say JSON."""
    media_type = media_type.strip().lower()
    return not media_type or media_type == "application/json" or media_type.endswith("+json")


class JsonRequest(Request):
    async def json(self) -> Any:
        media_type, _ = self.content_type
        if not is_json_media_type(media_type):
            raise UnsupportedMediaType(detail=media_type)
        try:
            return await super().json()
        except UnicodeDecodeError:
            raise ValidationException("the body is not valid UTF-8") from None
        except RecursionError:
            raise ValidationException("the body nests too deeply") from None
        except SerializationException as exc:
            raise ValidationException(f"the body is not valid JSON: {exc}") from None
