"""The pipeline's expected failures: one ServiceError subclass per kind, mapped to HTTP in api/errors.py."""

from __future__ import annotations

from typing import Any

from core.errors import ServiceError


class PipelineError(ServiceError):
    """A pipeline rule was broken: 422 unless a code says otherwise."""

    code = "pipeline_rule"
    status = 422


class IllegalTransition(PipelineError):
    """A state change 004 §1 does not list: always a bug in the orchestrator, never user input."""

    code = "illegal_transition"
    status = 500

    def __init__(self, current: str, target: str) -> None:
        super().__init__(detail=f"illegal pipeline transition {current} -> {target}", current=current,
                         target=target)
        self.current = current
        self.target = target


class PayloadInvalid(PipelineError):
    """A payload failed its edge schema (004 §4) or used a non-canonical name (004 §3)."""

    code = "validation_failed"
    status = 422

    def __init__(self, data_type: str, errors: list[dict[str, Any]]) -> None:
        summary = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors[:5])
        fields = [{"field": ".".join(str(p) for p in e["loc"]), "code": e["type"], "message": e["msg"]}
                  for e in errors[:50]]
        super().__init__(detail=f"{data_type} invalid: {summary}", data_type=data_type, errors=fields)
        self.data_type = data_type
        self.errors = errors


class UnknownAllergen(PipelineError):
    """An allergy the member wrote maps to no allergen code (NUTRITION.md): refused with the codes nearest to it,
    never stored as text and never ignored."""

    code = "unknown_allergen"
    status = 422

    def __init__(self, refused: list[tuple[int, Any]]) -> None:
        fields = [{"field": f"allergies.{i}", "code": "unknown_allergen", "term": a.term, "nearest": list(a.nearest),
                   "message": f"'{a.term}' maps to no allergen; nearest: {', '.join(a.nearest)}"} for i, a in refused]
        super().__init__(detail="; ".join(f["message"] for f in fields), errors=fields)
