"""Typed tool failures the model can read: `{code, message, hint}` with is_error on the tool_result."""

from __future__ import annotations

from typing import Any

from core.errors import ServiceError

DEFAULT_HINT = "Fix the request as the message says, or ask the user."


class ToolFailed(ServiceError):
    """A tool could not do what was asked; `hint` tells the model what to try instead."""

    code = "tool_failed"
    status = 422

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(code, detail=message)
        self.message = message
        self.hint = hint


def tool_error(exc: ServiceError) -> dict[str, Any]:
    """Any service error (a tool's own `ToolFailed`, a gym rule, a RAG failure) as the typed tool result."""
    return {"code": exc.code, "message": exc.detail or exc.code.replace("_", " "),
            "hint": getattr(exc, "hint", None) or DEFAULT_HINT}


def not_found(entity: str, entity_id: object, hint: str | None = None) -> ToolFailed:
    return ToolFailed(f"{entity}_not_found", f"No {entity.replace('_', ' ')} with id {entity_id} in this gym.",
                      hint or f"Search for the {entity.replace('_', ' ')} first and use an id from the results.")
