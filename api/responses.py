"""Typed HTTP response bodies (camelCase on the wire) and the error statuses each operation documents.

Some services return plain camelCase dicts; `shape()` checks them against these structs, so `/schema`
describes exactly what goes out and a drifting service fails loudly instead of silently. A body the engine
assembles itself is declared where it is assembled (agent/transcripts.py, agent/budget.py) and answered as is.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

import msgspec
from litestar.openapi.datastructures import ResponseSpec
from msgspec import Struct

T = TypeVar("T")


class ErrorBody(Struct, rename="camel"):
    """Every refusal: a stable code, a localized message and the request's trace id."""

    code: str
    message: str
    trace_id: str


class Membership(Struct, rename="camel"):
    org_id: str
    org_name: str
    role: str


class MeBody(Struct, rename="camel"):
    id: str
    email: str
    name: str | None
    memberships: list[Membership]


class OrgInfo(Struct, rename="camel"):
    id: str
    name: str
    tier: str
    timezone: str
    locale: str


class UserInfo(Struct, rename="camel"):
    id: str
    email: str
    name: str | None


class Permissions(Struct, rename="camel"):
    """What the caller's role may open, decided by the service's policies (the console asks, never guesses)."""

    health_data: bool  # members' training and nutrition records (a member: their own; core/health_data.py)


class OrgMeBody(Struct, rename="camel"):
    org: OrgInfo
    user: UserInfo
    role: str
    permissions: Permissions


class ConversationDeleted(Struct, rename="camel"):
    ok: bool
    deleted_conversation_id: str


class TurnStopBody(Struct, rename="camel"):
    """`stopping`: the turn is being cancelled where it runs (its stream ends with `done`); `finished`: it had
    already ended."""

    turn_id: str
    state: Literal["stopping", "finished"]


class InverseRun(Struct, rename="camel"):
    router: str
    action: str
    output: dict[str, Any] | None


class UndoBody(Struct, rename="camel"):
    ok: bool
    undone_tool_use_id: str
    inverse: InverseRun


class LiveBody(Struct):
    """Liveness: always "ok" with 200 while the process serves; no I/O behind it."""

    status: str


class UnitsBody(Struct, rename="camel"):
    """The member's units (trainer settings)."""

    weight_unit: str
    distance_unit: str


class TrainerHistory(Struct, rename="camel"):
    days: int
    units: UnitsBody
    count: int
    items: list[dict[str, Any]]


class TrainerDistribution(Struct, rename="camel"):
    """Category and muscle goals with target, actual and debt over the window."""

    window_days: int
    exercises_counted: int
    categories: list[dict[str, Any]]
    muscles: list[dict[str, Any]]
    untracked_categories: list[dict[str, Any]]
    untracked_muscles: list[dict[str, Any]]


class HealthBody(Struct):
    """Readiness: "ok" with 200 when both are up, "degraded" with 503 when either is down; `down` names which."""

    status: str
    postgres: str
    redis: str
    down: list[str]


class JwksBody(Struct):
    keys: list[dict[str, Any]]


class DevLogin(Struct, rename="camel"):
    email: str
    name: str
    role: str
    org_name: str
    token: str


class DevLogins(Struct):
    """Dev auth only: the demo's logins, each with a fresh token (the console's role switcher)."""

    items: list[DevLogin]


def shape(value: Any, body_type: type[T]) -> T:
    """A service's camelCase dict as its typed response body."""
    return msgspec.convert(value, body_type)


_STATUS_TEXT = {
    400: "The request is not valid (validation_failed).",
    401: "No valid session token (token_missing, token_invalid, token_expired).",
    403: "Not for your role (member_forbidden: staff only; member_profile_required: members only).",
    404: "Not found, or not yours (org_not_found, conversation_not_found, tool_execution_not_found, turn_not_found).",
    409: ("Conflicts with the current state (conversation_busy, session_closed, tool_already_resolved, "
          "already_undone, mcp_conversation_read_only)."),
    413: "The body is over the size limit (payload_too_large).",
    415: "The body is not JSON (unsupported_media_type).",
    422: ("Understood but refused (invalid_pick, not_undoable, validation_failed for an edited input). Nutrition, "
          "for rules a schema cannot carry: validation_failed with per-field errors (membershipId is required when "
          "staff start a run and refused when a member does; a check-in's date and biweekly measurements depend on "
          "the run's history), implausible_change (a weight too far from the last one, unless confirmed), "
          "idempotency_key_reused (the Idempotency-Key came before with another request). The member's training "
          "app: unknown_exercise (not a library name), equipment_unavailable (the current location lacks it), "
          "invalid_set (values the exercise's kind does not take), log_too_old (a set more than a year ago), "
          "last_exercise, invalid_range (calendar days), idempotency_key_reused."),
    429: "Too many requests (rate_limited).",
    503: ("A dependency could not answer: Redis or Postgres is unreachable (service_unavailable, with Retry-After), "
          "or the PHYSICIAN's model call failed (physician_unavailable)."),
}


def error_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """The shared error body documented under each status an operation can answer."""
    return {status: ResponseSpec(data_container=ErrorBody, description=_STATUS_TEXT[status],
                                 generate_examples=False) for status in statuses}


BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
"""The security requirement of every authenticated operation (the scheme is declared in `api/app/`)."""
