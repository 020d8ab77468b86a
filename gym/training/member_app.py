"""The member's training app as one service over a request's session: the caller's own member record, their
language and their gym's timezone. Each method is one screen's read or one action (gym.training.today for the
workout, gym.training.progress for the numbers), so the HTTP handlers only parse, call and shape."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from gym.training import exercise_notes, library_plan, plates, progress, today
from gym.training.exercise_order import fitting_position
from gym.training.preferences import active_preferences
from gym.training.profiles import current_location, get_units
from gym.training.progression import PROGRESSION_DAYS
from gym.training.record import distribution_view, recovery_overview
from gym.training.stored_exercises import exercises_of
from gym.training.trainer_workouts import current_workout
from gym.training.workout_sets import SetInput


@dataclass
class MemberApp:
    session: AsyncSession
    org_id: uuid.UUID
    member_id: uuid.UUID
    locale: str
    tz: tzinfo

    @staticmethod
    def now() -> datetime:
        return datetime.now(UTC)

    @property
    def _who(self) -> tuple[AsyncSession, uuid.UUID, uuid.UUID]:
        return self.session, self.org_id, self.member_id

    # --- Today ---------------------------------------------------------------------------------------------------

    async def workout(self) -> dict[str, Any]:
        return await today.today(*self._who, self.now(), self.locale)

    async def start(self) -> dict[str, Any]:
        return await today.start(*self._who, self.now(), self.locale)

    async def log_set(self, entry: SetInput) -> dict[str, Any]:
        return await today.record_set(*self._who, entry, self.now())

    async def undo_set(self, set_id: uuid.UUID) -> dict[str, Any]:
        return await today.take_back_set(*self._who, set_id, self.now())

    async def add_exercise(self, name: str, *, position: int | None = None,
                           chosen: library_plan.Prescription | None = None) -> dict[str, Any]:
        return await today.add_from_library(*self._who, self.now(), self.locale, name=name, position=position,
                                            chosen=chosen)

    async def save_note(self, name: str, note: str) -> dict[str, Any]:
        return await exercise_notes.save_note(*self._who, name, note, self.now())

    async def plates(self, load: float) -> dict[str, Any]:
        return await plates.plates_for(*self._who, load)

    async def swap_exercise(self, exercise_id: str, name: str, load: float | None) -> dict[str, Any]:
        return await today.swap_from_library(*self._who, self.now(), self.locale, exercise_id=exercise_id, name=name,
                                             load=load)

    async def remove_exercise(self, exercise_id: str) -> dict[str, Any]:
        return await today.remove(*self._who, self.now(), self.locale, exercise_id=exercise_id)

    async def finish(self, *, discard: bool) -> dict[str, Any]:
        return await today.finish(*self._who, self.now(), self.locale, discard=discard)

    async def timers(self) -> dict[str, Any]:
        return await today.timers(*self._who, self.locale)

    async def library(self, query: str | None) -> dict[str, Any]:
        now = self.now()
        location = await current_location(*self._who)
        units = await get_units(*self._who)
        prefs = [p for p in await active_preferences(*self._who, now) if p.enforced]
        history = await progress.entries_since(*self._who, now - timedelta(days=PROGRESSION_DAYS), now)
        items = library_plan.library_items(locale=self.locale, available=list(location.equipment) if location else None,
                                           prefs=prefs, unit=units.weight_unit, history=history, query=query)
        workout = await current_workout(*self._who)
        for item in items:  # where "Add" puts it in today's workout (compound lifts before isolation work)
            item["position"] = fitting_position(exercises_of(workout), item["name"], item["kind"]) if workout \
                else None
        return {"location": location.name if location else None, "items": items}

    # --- Progress ------------------------------------------------------------------------------------------------

    async def history(self, days: int) -> dict[str, Any]:
        return await progress.history(*self._who, self.now(), self.tz, self.locale, days=days)

    async def volume(self, weeks: int) -> dict[str, Any]:
        return await progress.weekly_volume(*self._who, self.now(), self.tz, weeks=weeks)

    async def exercise(self, name: str | None, days: int) -> dict[str, Any]:
        return await progress.exercise_progress(*self._who, self.now(), self.tz, self.locale, name=name, days=days)

    async def recovery(self) -> dict[str, Any]:
        return {"muscles": await recovery_overview(*self._who, self.now())}

    async def distribution(self) -> dict[str, Any]:
        return await distribution_view(*self._who, self.now())

    async def calendar(self, start: date | None, end: date | None) -> dict[str, Any]:
        return await progress.calendar(*self._who, self.now(), self.tz, self.locale, start=start, end=end)

