"""The engine's two rules about a tool use, each decided here once for send, resume and the transcript.

`needs_person`: the tool use waits for a person (a pick, or a write whose confirm policy applies).
`can_undo`: a write that succeeded, declares an inverse, whose inverse the caller's role may run, and that
ran less than `UNDO_WINDOW` ago — so nobody is offered an Undo that the runner would refuse. The same rule
tells the model which of its tools this caller can undo (`UNDO_NOTE` on their descriptions), so a reply
promises an Undo only where the card will show one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from tools.registry import ToolRegistry, ToolSpec

UNDO_WINDOW = timedelta(hours=24)
UNDO_NOTE = "Undo: this caller can undo it from its action card for 24 hours."


def needs_person(spec: ToolSpec) -> bool:
    return spec.kind == "user_picker" or spec.confirm != "never"


def can_undo(registry: ToolRegistry, spec: ToolSpec | None, role: str, *, succeeded: bool,
             ran_at: datetime | None = None, now: datetime | None = None) -> bool:
    if spec is None or not succeeded or spec.side_effects != "write" or spec.inverse is None:
        return False
    if ran_at is not None and now is not None and now - ran_at > UNDO_WINDOW:
        return False
    inverse = registry.get(spec.inverse.name)
    return inverse is not None and inverse.allows(role)


def undo_until(ran_at: datetime | None) -> datetime | None:
    return ran_at + UNDO_WINDOW if ran_at is not None else None


def undoable_names(registry: ToolRegistry, specs: list[ToolSpec], role: str) -> frozenset[str]:
    """The tools whose successful run this role could undo (what `UNDO_NOTE` marks)."""
    return frozenset(spec.name for spec in specs if can_undo(registry, spec, role, succeeded=True))
