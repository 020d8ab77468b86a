"""The base error type: a stable code, an HTTP status and parameters for the localized message.

Each package subclasses it (AgentError, ToolFailed, RagError, ...); `api/errors.py` maps them to HTTP
in exactly one place.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """An expected failure with a stable `code` (a key under `agent.errors.` in every locale)."""

    code: str = "internal"
    status: int = 500

    def __init__(self, code: str | None = None, *, status: int | None = None, detail: str | None = None,
                 **params: Any) -> None:
        self.code = code or self.code
        self.status = status or self.status
        self.detail = detail
        self.params = params
        super().__init__(detail or self.code)


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class Unauthorized(ServiceError):
    status = 401


class InvalidInput(ServiceError):
    """Bad input from a caller: 422 unless a code says otherwise."""

    code = "validation_failed"
    status = 422


class ServiceUnavailable(ServiceError):
    """A dependency (Redis, Postgres) is unreachable: 503 with Retry-After; the request may simply be sent again."""

    code = "service_unavailable"
    status = 503
