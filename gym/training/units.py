"""Unit conversion: loads are stored in kg and distances in km; members see their own units."""

from __future__ import annotations

from decimal import Decimal

from gym.training.workout import DurationExercise, Exercise, RepsExercise

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


def convert_weight(value: float, from_unit: str, to_unit: str) -> float:
    """A load from one weight unit to the other, to one decimal as the member sees it (30 kg → 66.1 lbs)."""
    return value if from_unit == to_unit else round(kg_to(to_kg(value, from_unit), to_unit), 1)


def convert_distance(value: float, from_unit: str, to_unit: str) -> float:
    return value if from_unit == to_unit else round(km_to(to_km(value, from_unit), to_unit), 2)


def in_units(exercises: list[Exercise], weight_unit: str, distance_unit: str) -> list[Exercise]:
    """§4.9 exercises with every load and distance said in these units (a units switch converts the current
    workout: the app's prefilled values and the trainer's card then agree with the member's setting)."""
    out = []
    for ex in exercises:
        if isinstance(ex, RepsExercise) and ex.load is not None and ex.load_unit not in (None, weight_unit):
            ex = ex.model_copy(update={"load": convert_weight(float(ex.load), ex.load_unit, weight_unit),
                                       "load_unit": weight_unit})
        if isinstance(ex, DurationExercise) and ex.distance is not None and ex.distance_unit not in (
                None, distance_unit):
            distance = convert_distance(float(ex.distance), ex.distance_unit, distance_unit)
            ex = ex.model_copy(update={"distance": distance, "distance_unit": distance_unit})
        out.append(ex)
    return out
