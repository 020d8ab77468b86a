"""Dates a tool accepts: a window around the gym's today, so no class lands on 9999-12-31 and no task is
due on 0001-01-01. Every `format: date` field of a tool input is a `ToolDate`, and its schema says so."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, ValidationInfo

YEARS_BACK = 10
YEARS_AHEAD = 5
WINDOW_NOTE = f"Within {YEARS_BACK} years before and {YEARS_AHEAD} years after the gym's today."


def _years_from(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def window(today: date) -> tuple[date, date]:
    """The first and last day a tool accepts, given the gym's local today."""
    return _years_from(today, -YEARS_BACK), _years_from(today, YEARS_AHEAD)


def check_window(day: date, today: date) -> date:
    first, last = window(today)
    if not first <= day <= last:
        raise ValueError(f"{day.isoformat()} is outside {first.isoformat()}..{last.isoformat()} "
                         f"({YEARS_BACK} years before to {YEARS_AHEAD} years after the gym's today)")
    return day


def _in_window(day: date, info: ValidationInfo) -> date:
    """The runner passes the gym's local today as validation context; without it, the UTC today."""
    today = (info.context or {}).get("today") or datetime.now(UTC).date()
    return check_window(day, today)


ToolDate = Annotated[date, AfterValidator(_in_window)]


def _has_date(schema: dict[str, Any]) -> bool:
    return schema.get("format") == "date" or any(_has_date(s) for s in schema.get("anyOf", ()))


def describe_windows(schema: dict[str, Any]) -> dict[str, Any]:
    """Add the window to the description of every date property (in place; returns `schema`)."""
    for prop in schema.get("properties", {}).values():
        if _has_date(prop) and WINDOW_NOTE not in prop.get("description", ""):
            prop["description"] = f"{prop.get('description', '')} {WINDOW_NOTE}".strip()
        describe_windows(prop)
        if isinstance(prop.get("items"), dict):
            describe_windows(prop["items"])
    for definition in schema.get("$defs", {}).values():
        describe_windows(definition)
    return schema
