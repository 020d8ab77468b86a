"""The titles the offline trainer gives the workouts it builds ("Leg workout", "Quick workout"), made in one place
from locales/ (`offline.trainer.title*` over `offline.trainer.workouts.<group>`), and shown in the member's
language wherever the workout is shown: a workout titled "Workout" in English reads "Тренировка" to the same member
after a switch to Russian. A title of anyone else's (the model's, the member's) is shown as written."""

from __future__ import annotations

from functools import cache

from core.i18n import SUPPORTED_LOCALES, catalog, translate

KINDS = ("title", "title_quick", "title_light")


def workout_title(locale: str, group: str | None, kind: str = "title") -> str:
    """The title of a workout the trainer built for `group` (None: full body), in `locale`, first letter up."""
    key = f"offline.trainer.workouts.{group or 'full'}"
    name = translate(key, locale)
    text = translate(f"offline.trainer.{kind}", locale, name=group if name == key else name)
    return text[:1].upper() + text[1:]


@cache
def _made() -> dict[str, tuple[str, str]]:
    """Every title `workout_title` makes, in every language: its text → (kind, group)."""
    groups = catalog("en").get("offline", {}).get("trainer", {}).get("workouts", {})
    return {workout_title(loc, group, kind): (kind, group)
            for loc in SUPPORTED_LOCALES for kind in KINDS for group in groups}


def shown_title(title: str | None, locale: str) -> str | None:
    """A title the trainer made, in `locale`; any other title as it was written."""
    made = _made().get(title or "")
    return workout_title(locale, made[1], made[0]) if made else title
