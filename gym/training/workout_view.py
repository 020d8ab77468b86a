"""A trainer workout as the member's card shows it and the model reads it (the `current_workout` source, a
`message` attachment): the stored §4.9 exercises, each with what the rules in code say about it now —

- `recovery`: the recovering muscles it loads, each with its recovery percentage and when it is ready;
- `suggestion`: for loaded set-and-rep work, the progression suggestion (load, reps, why: a reason code and its
  numbers; the words are `console.member.progression.<code>` in locales/);
- `conflicts`: the active injuries and hard preferences it breaks (a rule saved after the workout was built), each
  with `text`, the rule in the member's language ("no overhead pressing — left shoulder");
- `logged`: the sets logged of it so far (the member's app or the trainer's mark), each as set number, reps or
  seconds, load in the member's unit, RPE and `warmup` for a warm-up set — present once a set is in, so the trainer's next turn knows.

`summary` is a printable line ("35 min · Strength · Chest, Triceps", never an object); `summaryDetail` keeps the
structured summary of 001 §4.9. `leftOut` names each exercise the rules refused while the workout was built, with
the rule, in the member's language ("Dumbbell Shoulder Press left out: no overhead pressing — left shoulder").
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from core.i18n import has_key, translate
from gym.training import constraints
from gym.training.exercise_words import display_name
from gym.training.logs import as_entry, logs_since
from gym.training.models import ExerciseSet, TrainerWorkout
from gym.training.preferences import active_preferences
from gym.training.profiles import get_units
from gym.training.progression import PROGRESSION_DAYS
from gym.training.recovery import recovering_muscles
from gym.training.restrictions import refusal_text
from gym.training.stored_exercises import exercises_of
from gym.training.units import show_load
from gym.training.validation import exercise_notes
from gym.training.workout_titles import shown_title


def summary_text(summary: dict[str, Any] | None, locale: str = "en") -> str | None:
    """The 001 §4.9 summary as one printable line, in the member's language where it has words."""
    if not summary:
        return None
    parts = []
    minutes = summary.get("estimated_duration_min")
    if minutes:
        parts.append(translate("console.member.min", locale, n=f"{float(minutes):g}"))
    for key, words in (("primary_goals", "console.member.goal"), ("muscles_targeted", "console.member.muscle")):
        names = [_word(f"{words}.{n}", str(n), locale) for n in summary.get(key) or [] if str(n).strip()]
        if names:
            parts.append(", ".join(names))
    return " · ".join(parts) or None


def _word(key: str, name: str, locale: str) -> str:
    """A goal or muscle in the member's language (the library's 16 muscles and the usual goals have words); a
    name of the member's own stays as they wrote it."""
    return translate(key, locale) if has_key(key, locale) else name


async def workout_view(session: AsyncSession, org_id: uuid.UUID, member_id: uuid.UUID, row: TrainerWorkout | None,
                       now: datetime, locale: str = "en") -> dict[str, Any] | None:
    if row is None:
        return None
    units = await get_units(session, org_id, member_id)
    entries = [as_entry(r) for r in await logs_since(session, org_id, member_id,
                                                     now - timedelta(days=PROGRESSION_DAYS), until=now)]
    recovering = recovering_muscles(entries, now)
    prefs = [p for p in await active_preferences(session, org_id, member_id, now) if p.enforced]
    logged: dict[str, list[dict[str, Any]]] = {}
    for s in (await session.scalars(select(ExerciseSet).where(
            ExerciseSet.workout_id == row.id, ExerciseSet.undone_at.is_(None)).order_by(ExerciseSet.set_number))).all():
        logged.setdefault(s.exercise_key, []).append({k: v for k, v in {
            "set": s.set_number, "reps": s.reps, "seconds": s.duration_sec,
            "load": show_load(s.load_kg, units.weight_unit), "rpe": float(s.rpe) if s.rpe is not None else None,
            "warmup": True if s.warmup else None,
        }.items() if v is not None})
    exercises = []
    # the stored JSON is what the card shows (its shape is the contract); the typed exercise is what rules read
    for stored, ex in sorted(zip(row.exercises, exercises_of(row), strict=True), key=lambda pair: pair[1].order):
        recovery, suggestion = exercise_notes(ex, recovering=recovering, history=entries,
                                              weight_unit=units.weight_unit)
        if suggestion is not None and suggestion["why"].get("variant"):  # a harder variant, in the member's words
            suggestion["why"]["variantName"] = display_name(suggestion["why"]["variant"], locale)
        item = {**stored, "recovery": recovery, "suggestion": suggestion}
        broken = constraints.conflicts(constraints.facts(ex), prefs)
        if broken:
            item["conflicts"] = [{**c.as_dict(), "text": refusal_text(c, locale)} for c in broken]
        if ex.id in logged:
            item["logged"] = logged[ex.id]
        exercises.append(item)
    return {"id": row.workout_key, "title": shown_title(row.title, locale), "exercises": exercises,
            "summary": summary_text(row.summary, locale), "summaryDetail": row.summary,
            "completed": row.completed, "status": row.status, "leftOut": left_out_view(row.left_out or [], locale)}


def left_out_view(items: list[dict[str, Any]], locale: str) -> list[dict[str, Any]]:
    """What the rules left out, as the card says it: the exercise in the member's language and the rule."""
    out = []
    for item in items:
        shown = display_name(str(item.get("exercise", "")), locale)
        out.append({"exercise": item.get("exercise"), "displayName": shown, "injury": bool(item.get("injury")),
                    "rule": refusal_text(item, locale),
                    "text": translate("trainer.rules.leftOut", locale, exercise=shown,
                                      rule=refusal_text(item, locale))})
    return out
