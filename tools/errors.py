"""Typed tool failures the model can read: `{code, message, hint}` with is_error on the tool_result."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

from core.errors import ServiceError
from gym.members import GymError
from gym.programs import GymRuleError

T = TypeVar("T")


class ToolFailed(ServiceError):
    """A tool could not do what was asked; `hint` tells the model what to try instead."""

    code = "tool_failed"
    status = 422

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(code, detail=message)
        self.message = message
        self.hint = hint

    def as_result(self) -> dict:
        return {"code": self.code, "message": self.message, "hint": self.hint}


def not_found(entity: str, entity_id: object, hint: str | None = None) -> ToolFailed:
    return ToolFailed(f"{entity}_not_found", f"No {entity.replace('_', ' ')} with id {entity_id} in this gym.",
                      hint or f"Search for the {entity.replace('_', ' ')} first and use an id from the results.")


def from_gym_error(exc: GymRuleError | GymError) -> ToolFailed:
    """A gym service's rule error as a typed tool failure that keeps the service's stable code."""
    if isinstance(exc, GymRuleError):
        return ToolFailed(exc.code, exc.message, exc.hint)
    return ToolFailed(exc.code, exc.detail or exc.code.replace("_", " "),
                      "Fix the request as the message says, or ask the user.")


async def gym_call(call: Awaitable[T]) -> T:
    """Await a gym service call, turning its rule errors into typed tool failures."""
    try:
        return await call
    except (GymRuleError, GymError) as exc:
        raise from_gym_error(exc) from exc
