"""Canonical field names of 004 §3: a payload using a name they replace is rejected naming the right one.

The check walks the whole payload (nested objects and lists), because the spec rejects deviations
wherever they appear, and it runs before the schema so the error says `use target_intake_kcal`
instead of a bare "extra field not permitted".
"""

from __future__ import annotations

from typing import Any

CANONICAL: dict[str, tuple[str, ...]] = {
    "target_intake_kcal": ("daily_calories", "total_calories", "calorie_target"),
    "protein_g": ("daily_protein_g", "protein_target"),
    "fat_g": ("daily_fat_g", "fat_target"),
    "carbs_g": ("daily_carbs_g", "carb_target"),
    "fiber_g_min": ("fiber_minimum", "min_fiber"),
    "fiber_target_g": ("fiber_goal", "daily_fiber"),
    "current_weight_kg": ("weight", "body_weight"),
    "target_weight_kg": ("goal_weight",),
    "protein_g_per_kg": ("protein_ratio",),
    "hydration_L": ("water_target", "daily_water"),
    "weekly_weight_target_kg": ("gain_rate",),
}
REPLACED: dict[str, str] = {old: canonical for canonical, olds in CANONICAL.items() for old in olds}
# Where a payload names the thing differently from 004 §3's table: a check-in's weight is `weight_kg` (004 §7.1).
REPLACED_IN: dict[str, dict[str, str]] = {"weekly_checkin": {"weight": "weight_kg", "body_weight": "weight_kg"}}


def non_canonical_errors(payload: Any, loc: tuple[str | int, ...] = (), *,
                         data_type: str | None = None) -> list[dict[str, Any]]:
    """One error per non-canonical key anywhere in `payload`, in pydantic's error shape, naming the field the
    payload of `data_type` uses instead."""
    replaced = {**REPLACED, **REPLACED_IN.get(data_type or "", {})}
    errors: list[dict[str, Any]] = []
    if isinstance(payload, dict):
        for key, value in payload.items():
            where = (*loc, key)
            if isinstance(key, str) and key in replaced:
                errors.append({"loc": where, "type": "non_canonical_name", "canonical": replaced[key],
                               "msg": f"'{key}' is not a canonical name; use '{replaced[key]}'"})
            errors.extend(non_canonical_errors(value, where, data_type=data_type))
    elif isinstance(payload, list):
        for index, item in enumerate(payload):
            errors.extend(non_canonical_errors(item, (*loc, index), data_type=data_type))
    return errors
