"""The offline trainer's words for people, from locales/ (`offline.trainer.*` in en, he, ru): what it did, said
in the member's language, with numbers, dates and muscle names formatted for them. No ids, no tool names."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from core.i18n import catalog, format_day, translate
from gym.training.workout_titles import workout_title


def label(locale: str) -> str:
    """The line every offline reply starts with: it says this is the offline demo, not an LLM."""
    return catalog(locale).get("offline", {}).get("label") or catalog("en")["offline"]["label"]


def say(locale: str, key: str, **params: Any) -> str:
    return translate(f"offline.trainer.{key}", locale, **params)


def word(locale: str, table: str, value: str) -> str:
    """A name from one of the trainer's tables (muscles, groups, periods, ...); the value itself when none."""
    key = f"offline.trainer.{table}.{value}"
    found = translate(key, locale)
    return value if found == key else found


def number(value: Any) -> str:
    try:
        return f"{float(value):g}"
    except (TypeError, ValueError):
        return str(value)


def muscles(locale: str, names: Any) -> str:
    return ", ".join(word(locale, "muscles", n) for n in names)


def percents(locale: str, recovering: dict[str, int]) -> str:
    """"Chest 40 %, Triceps 60 %" in the member's words."""
    return ", ".join(say(locale, "percent", muscle=word(locale, "muscles", m), percent=p)
                     for m, p in sorted(recovering.items(), key=lambda kv: kv[1]))


def day(locale: str, when: date) -> str:
    """"Fri, November 27" / "пт, 27 ноября": the day as the member's app writes it (core.i18n.format_day)."""
    return format_day(when, locale)


def moment(locale: str, when: datetime | str) -> str:
    """"Fri, November 27, 07:00" in the member's words (their zone is the datetime's)."""
    at = datetime.fromisoformat(when) if isinstance(when, str) else when
    return say(locale, "moment", date=day(locale, at.date()), time=at.strftime("%H:%M"))


def inline(text: str) -> str:
    """A title or a name inside a sentence: its first letter in lower case ("your leg workout")."""
    return text[:1].lower() + text[1:]


def bullets(lines: list[str]) -> str:
    return "\n".join(f"• {line}" for line in lines)


def workout_name(locale: str, group: str | None) -> str:
    return word(locale, "workouts", group or "full")


def title(locale: str, group: str | None, *, quick: bool = False, light: bool = False) -> str:
    return workout_title(locale, group, "title_light" if light else "title_quick" if quick else "title")


def error(locale: str, failure: Any) -> str:
    """A failed tool in the member's words: its code's line when the trainer has one, else a plain sorry."""
    code = failure.get("code", "") if isinstance(failure, dict) else ""
    said = translate(f"offline.trainer.errors.{code}", locale)
    return said if not said.startswith("offline.trainer.errors.") else say(locale, "errors.generic")


OVERVIEW = ("total_workouts", "total_exercises", "total_volume_kg", "total_duration_hours", "average_rpe",
            "workout_frequency_per_week")


def overview(locale: str, numbers: dict[str, Any]) -> str:
    return "\n".join(say(locale, f"overview.{k}", value=number(numbers[k])) for k in OVERVIEW
                     if numbers.get(k) is not None)
