"""The one place errors become HTTP: `{"code", "message" (localized), "traceId"}` with a stable code."""

from __future__ import annotations

import uuid

import structlog
from litestar import Request, Response
from litestar.exceptions import HTTPException, NotFoundException, ValidationException

from core.errors import ServiceError
from core.i18n import error_message, resolve_locale
from core.outages import RETRY_AFTER_SECONDS, down_dependency

log = structlog.get_logger("api.errors")

_HTTP_CODES = {400: "validation_failed", 404: "not_found", 405: "method_not_allowed", 413: "payload_too_large",
               401: "token_missing", 403: "member_forbidden", 415: "unsupported_media_type", 429: "rate_limited"}


def request_locale(request: Request) -> str:
    return resolve_locale(request.headers.get("x-locale"), request.headers.get("accept-language"))


def trace_id_of(request: Request) -> str:
    """The request's trace id; errors the router raises (404, 405) come before the trace middleware runs."""
    state = request.scope.setdefault("state", {})
    if not state.get("trace_id"):
        state["trace_id"] = uuid.uuid4().hex
    return str(state["trace_id"])


def error_body(code: str, locale: str, trace_id: str, **params: object) -> dict:
    return {"code": code, "message": error_message(code, locale, **params), "traceId": trace_id}


def error_response(request: Request, code: str, status: int, *, headers: dict[str, str] | None = None,
                   **params: object) -> Response:
    """The error as JSON. A person reads `message`, in their language; what was invalid, in the developer's terms
    (pydantic's, Litestar's, ours), rides apart in `detail` for the client that sent it."""
    trace_id = trace_id_of(request)
    body = error_body(code, request_locale(request), trace_id, **params)
    if code == "validation_failed" and params.get("detail"):
        body["detail"] = str(params["detail"])
    return Response(body, status_code=status, headers={**(headers or {}), "x-trace-id": trace_id})


def _retry_after(status: int) -> dict[str, str]:
    return {"retry-after": str(RETRY_AFTER_SECONDS)} if status == 503 else {}


def handle_service_error(request: Request, exc: ServiceError) -> Response:
    log.info("request.refused", code=exc.code, status=exc.status, detail=exc.detail)
    params = dict(exc.params)
    params.setdefault("detail", exc.detail or "")
    fields = params.pop("errors", None)
    data = params.pop("data", None)
    response = error_response(request, exc.code, exc.status, headers=_retry_after(exc.status), **params)
    if isinstance(fields, list) and fields:  # per-field errors (422 validation_failed)
        response.content["errors"] = fields
    if isinstance(data, dict):  # structured facts of a refusal ({"nearest": [...]} for an unknown exercise)
        response.content.update({k: v for k, v in data.items() if k not in response.content})
    return response


def handle_validation(request: Request, exc: ValidationException) -> Response:
    detail = exc.detail if isinstance(exc.detail, str) else "invalid request"
    if isinstance(exc.extra, list) and exc.extra:
        first = exc.extra[0]
        if isinstance(first, dict):
            detail = f"{first.get('key') or ''} {first.get('message') or ''}".strip() or detail
    return error_response(request, "validation_failed", 400, detail=detail)


def handle_http(request: Request, exc: HTTPException) -> Response:
    code = _HTTP_CODES.get(exc.status_code, "internal" if exc.status_code >= 500 else "validation_failed")
    return error_response(request, code, exc.status_code, headers={**_retry_after(exc.status_code),
                                                                   **dict(exc.headers or {})}, detail=str(exc.detail))


def handle_unexpected(request: Request, exc: Exception) -> Response:
    dependency = down_dependency(exc)
    if dependency is not None:  # not a crash: a dependency is unreachable, the client may retry (ARCHITECTURE.md)
        log.warning("request.dependency_down", dependency=dependency, error_type=type(exc).__name__)
        return error_response(request, "service_unavailable", 503, headers=_retry_after(503))
    log.exception("request.failed", error_type=type(exc).__name__)
    response = error_response(request, "internal", 500)
    resources = getattr(request.app.state, "resources", None)
    if resources is not None:  # the crash, tagged with the trace id its answer carries (a refusal never comes here)
        resources.agent.observability.capture_exception(
            exc, trace_id=trace_id_of(request), code="internal",
            endpoint=f"{request.method} {request.scope.get('path_template') or '?'}")
    return response


EXCEPTION_HANDLERS = {
    ServiceError: handle_service_error,
    ValidationException: handle_validation,
    NotFoundException: handle_http,
    HTTPException: handle_http,
    Exception: handle_unexpected,
}
