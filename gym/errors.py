"""The one gym error: a rule the gym's services refuse, with a stable code, a message and a hint.

Every `gym/` service raises it; the tool runner turns it (like any `ServiceError`) into the typed
`{code, message, hint}` tool result in one place, so tool leaves never translate it by hand.
"""

from __future__ import annotations

from typing import Any

from core.errors import ServiceError


class GymError(ServiceError):
    """A request the gym's rules refuse: `code` is stable, `hint` says what to do instead; 422 unless told."""

    code = "gym_rule"
    status = 422

    def __init__(self, code: str, message: str, hint: str | None = None, *, status: int | None = None,
                 **params: Any) -> None:
        super().__init__(code, status=status, detail=message, **params)
        self.message = message
        self.hint = hint
