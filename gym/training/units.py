"""Unit conversion: loads are stored in kg and distances in km; members see their own units."""

from __future__ import annotations

from decimal import Decimal

KG_PER_LB = 0.45359237
KM_PER_MI = 1.609344


def kg_to(value_kg: float, unit: str) -> float:
    return value_kg if unit == "kg" else value_kg / KG_PER_LB


def to_kg(value: float, unit: str) -> float:
    return value if unit == "kg" else value * KG_PER_LB


def km_to(value_km: float, unit: str) -> float:
    return value_km if unit == "km" else value_km / KM_PER_MI


def to_km(value: float, unit: str) -> float:
    return value if unit == "km" else value * KM_PER_MI


def show_load(value_kg: float | Decimal | None, unit: str) -> float | None:
    """A stored kg load in the member's unit, to one decimal (60 kg → 132.3 lbs)."""
    return None if value_kg is None else round(kg_to(float(value_kg), unit), 1)


def show_distance(value_km: float | Decimal | None, unit: str) -> float | None:
    return None if value_km is None else round(km_to(float(value_km), unit), 2)
