"""Agent failures and their stable codes; SDK exceptions are classified in exactly one place."""

from __future__ import annotations

import asyncio
import sys
from types import ModuleType

import httpx

from core.errors import ServiceError
from core.outages import down_dependency

_TRANSPORT_MODULES = frozenset({"httpx", "httpx2", "httpcore", "httpcore2", "h11"})
# The error envelope's type decides where it has one: an `error` event inside a 200 stream has no status to go by.
_BY_TYPE = {"rate_limit_error": "provider_rate_limited", "authentication_error": "provider_unauthorized",
            "permission_error": "provider_unauthorized", "api_error": "provider_unavailable",
            "invalid_request_error": "provider_invalid_request", "not_found_error": "provider_invalid_request",
            "request_too_large": "provider_invalid_request"}


def _sdk() -> ModuleType | None:
    """The Anthropic SDK when this process has loaded it (an `AnthropicModel` imports it): no exception can be one of
    its classes before then. Its import costs ~0.7 s of CPU, a third of the app's, which a process that never calls
    the provider (the offline demo and worker, `spotter migrate`) does not pay."""
    return sys.modules.get("anthropic")


def provider_errors() -> tuple[type[Exception], ...]:
    """The SDK's base error class, for an `except` clause; nothing before the SDK is loaded."""
    sdk = _sdk()
    return (sdk.APIError,) if sdk is not None else ()


class AgentError(ServiceError):
    """A failure with a stable code that a stream reports as `error{code, message, traceId}`."""

    status = 500


def classify(exc: BaseException) -> str:
    """Map an SDK or internal failure to a stable SSE error code."""
    if isinstance(exc, ServiceError):
        return exc.code
    if isinstance(exc, asyncio.CancelledError):
        return "aborted"
    sdk = _sdk()
    if sdk is not None and isinstance(exc, sdk.APIStatusError):
        status = exc.status_code
        error_type = ""
        body = exc.body
        if isinstance(body, dict):
            error_type = str((body.get("error") or {}).get("type") or "")
        if status == 529 or error_type == "overloaded_error":
            return "provider_overloaded"
        if error_type in _BY_TYPE:
            return _BY_TYPE[error_type]
        if status == 429:
            return "provider_rate_limited"
        if status in (401, 403):
            return "provider_unauthorized"
        if status >= 500 or status < 400:  # < 400: an `error` event inside a 200 stream, of no known type
            return "provider_unavailable"
        return "provider_invalid_request"
    if isinstance(exc, httpx.TransportError) or (sdk is not None and isinstance(exc, sdk.APIConnectionError)):
        return "provider_unavailable"
    if type(exc).__module__.split(".")[0] in _TRANSPORT_MODULES:
        return "provider_unavailable"  # the SDK's HTTP stack raised mid-stream (e.g. a dropped connection)
    if sdk is not None and isinstance(exc, sdk.APIError):
        # e.g. an `error` event inside a 200 stream
        body = getattr(exc, "body", None)
        if isinstance(body, dict) and (body.get("error") or {}).get("type") == "overloaded_error":
            return "provider_overloaded"
        return "provider_unavailable"
    if down_dependency(exc) is not None:  # Redis or Postgres unreachable mid-turn: not a crash
        return "service_unavailable"
    return "internal"
