"""The engine's two rules about a tool use, each decided here once for send, resume and the transcript.

`needs_person`: the tool use waits for a person (a pick, or a write whose confirm policy applies).
`can_undo`: a write that succeeded, declares an inverse, and whose inverse the caller's role may run —
so nobody is offered an Undo that the runner would refuse.
"""

from __future__ import annotations

from tools.registry import ToolRegistry, ToolSpec


def needs_person(spec: ToolSpec) -> bool:
    return spec.kind == "user_picker" or spec.confirm != "never"


def can_undo(registry: ToolRegistry, spec: ToolSpec | None, role: str, *, succeeded: bool) -> bool:
    if spec is None or not succeeded or spec.side_effects != "write" or spec.inverse is None:
        return False
    inverse = registry.get(spec.inverse.name)
    return inverse is not None and inverse.allows(role)
