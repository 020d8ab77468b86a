"""Agent failures and their stable codes; SDK exceptions are classified in exactly one place."""

from __future__ import annotations

import asyncio

import anthropic
import httpx

from core.errors import ServiceError

_TRANSPORT_MODULES = frozenset({"httpx", "httpx2", "httpcore", "httpcore2", "h11"})


class AgentError(ServiceError):
    """A failure with a stable code that a stream reports as `error{code, message, traceId}`."""

    status = 500


def classify(exc: BaseException) -> str:
    """Map an SDK or internal failure to a stable SSE error code."""
    if isinstance(exc, ServiceError):
        return exc.code
    if isinstance(exc, asyncio.CancelledError):
        return "aborted"
    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        error_type = ""
        body = exc.body
        if isinstance(body, dict):
            error_type = str((body.get("error") or {}).get("type") or "")
        if status == 529 or error_type == "overloaded_error":
            return "provider_overloaded"
        if status == 429:
            return "provider_rate_limited"
        if status in (401, 403):
            return "provider_unauthorized"
        if status >= 500:
            return "provider_unavailable"
        return "provider_invalid_request"
    if isinstance(exc, anthropic.APIConnectionError | httpx.TransportError):
        return "provider_unavailable"
    if type(exc).__module__.split(".")[0] in _TRANSPORT_MODULES:
        return "provider_unavailable"  # the SDK's HTTP stack raised mid-stream (e.g. a dropped connection)
    if isinstance(exc, anthropic.APIError):
        # e.g. an `error` event inside a 200 stream
        body = getattr(exc, "body", None)
        if isinstance(body, dict) and (body.get("error") or {}).get("type") == "overloaded_error":
            return "provider_overloaded"
        return "provider_unavailable"
    return "internal"
