"""Imperial units at the edges (NUTRITION.md, SCIENTIST): an intake may give `height_in`, `current_weight_lb` and
`target_weight_lb` as the member's units setting shows them; everything is stored and computed metric (the
canonical names of 004 §3) and shown back in the member's units.

The conversion happens before the intake's schema sees the payload, so the stored `intake_data` is metric only;
a bad imperial value is reported under the name the member used, with its bounds in their unit.
"""

from __future__ import annotations

from typing import Any

from annotated_types import Ge, Le

from gym.nutrition.payloads.intake import IntakeData

KG_PER_LB = 0.45359237
CM_PER_INCH = 2.54
# imperial name -> (metric name, metric units per imperial unit, metric decimals kept)
IMPERIAL: dict[str, tuple[str, float, int]] = {
    "height_in": ("height_cm", CM_PER_INCH, 1),
    "current_weight_lb": ("current_weight_kg", KG_PER_LB, 2),
    "target_weight_lb": ("target_weight_kg", KG_PER_LB, 2),
}


def _bounds(metric: str) -> tuple[float, float]:
    low = high = None
    for item in IntakeData.model_fields[metric].metadata:
        if isinstance(item, Ge):
            low = float(item.ge)  # type: ignore[arg-type]
        elif isinstance(item, Le):
            high = float(item.le)  # type: ignore[arg-type]
    assert low is not None and high is not None, metric
    return low, high


def _error(field: str, kind: str, msg: str) -> dict[str, Any]:
    return {"loc": (field,), "type": kind, "msg": msg}


def metric_intake(payload: Any) -> tuple[Any, list[dict[str, Any]]]:
    """(the payload with imperial fields replaced by their metric ones, errors naming the imperial fields)."""
    if not isinstance(payload, dict) or not any(name in payload for name in IMPERIAL):
        return payload, []
    out, errors = dict(payload), []
    for name, (metric, factor, digits) in IMPERIAL.items():
        if name not in out:
            continue
        value = out.pop(name)
        if metric in out:
            errors.append(_error(name, "units_conflict", f"give {metric} or {name}, not both"))
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            errors.append(_error(name, "float_type", "Input should be a valid number"))
            continue
        low, high = (round(bound / factor, 1) for bound in _bounds(metric))
        if value < low:
            errors.append(_error(name, "greater_than_equal", f"Input should be greater than or equal to {low:g}"))
        elif value > high:
            errors.append(_error(name, "less_than_equal", f"Input should be less than or equal to {high:g}"))
        else:
            out[metric] = min(max(round(value * factor, digits), _bounds(metric)[0]), _bounds(metric)[1])
    return out, errors


def uses_imperial(weight_unit: str) -> bool:
    """The member's trainer setting (`kg` | `lbs`) decides how nutrition numbers are shown."""
    return weight_unit == "lbs"


def lb(kg: float) -> float:
    return round(kg / KG_PER_LB, 1)


def in_unit(kg: float, weight_unit: str, digits: int = 2) -> float:
    """A body weight (or a change of it) in the member's unit: kg as stored, or pounds."""
    return round(kg / KG_PER_LB if uses_imperial(weight_unit) else kg, digits)


def to_kg(value: float, weight_unit: str) -> float:
    """What the member typed in their unit, in kg."""
    return value * KG_PER_LB if uses_imperial(weight_unit) else value


def display(intake: dict[str, Any], targets: dict[str, Any] | None, *, weight_unit: str) -> dict[str, Any]:
    """The run's body numbers in the member's units: metric as stored, or pounds and inches (one decimal)."""
    source = {"height_cm": intake.get("height_cm"), "current_weight_kg": (targets or intake).get("current_weight_kg"),
              "target_weight_kg": intake.get("target_weight_kg"),
              "weekly_weight_target_kg": (targets or {}).get("weekly_weight_target_kg")}
    if not uses_imperial(weight_unit):
        return {"units": "metric", **source}
    def convert(kg: float | None) -> float | None:
        return None if kg is None else lb(kg)
    height = source["height_cm"]
    return {"units": "imperial", "height_in": None if height is None else round(height / CM_PER_INCH, 1),
            "current_weight_lb": convert(source["current_weight_kg"]),
            "target_weight_lb": convert(source["target_weight_kg"]),
            "weekly_weight_target_lb": convert(source["weekly_weight_target_kg"])}
