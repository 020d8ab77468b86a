"""A task's `setup`: rows a try adds to its copy of the demo gym before the conversation, through the gym's own
services (the demo gym has, for example, no staff tasks to complete). Values are already resolved.

  { task = { title = "...", dueOn = "@today+2", priority = "high", notes = "..." } }
  { member = { first = "Noa", last = "Peretz", email = "...", status = "active" } }
  { workout = { title = "...", text = "...", date = "@today+1" } }
  { class_session = { type = "Olympic Lifting", at = "@at:tomorrow 12:00", minutes = 60, published = true,
                      capacity = 1 } }
  { program = { name = "...", kind = "class" } }
  { booking = { member = "Saar Cohen", type = "Mobility", at = "@at:tomorrow 12:00" } }      (a seat in that session)
  { waitlist = { member = "Dani Mizrahi", type = "Mobility", at = "@at:tomorrow 12:00" } }   (next in its line)
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import text

from core.database import Database
from gym import classes, members, programs, tasks, workouts
from gym.demo.tenancy import HARBOR


class SetupError(ValueError):
    pass


def _day(value: Any) -> date | None:
    return date.fromisoformat(value) if value else None


async def apply(db: Database, steps: list[Mapping[str, Any]]) -> None:
    async with db.scope(org_id=HARBOR.id) as session:
        for step in steps:
            if len(step) != 1:
                raise SetupError(f"a setup step names one thing to add: {dict(step)}")
            ((kind, values),) = step.items()
            if kind == "task":
                await tasks.create_task(session, HARBOR.id, title=values["title"], created_by=None,
                                        notes=values.get("notes"), due_on=_day(values.get("dueOn")),
                                        priority=values.get("priority", "normal"))
            elif kind == "member":
                await members.create_member(session, HARBOR.id, first_name=values["first"],
                                            last_name=values.get("last", ""), email=values.get("email"),
                                            status=values.get("status", "active"))
            elif kind == "workout":
                await workouts.create_workout(session, HARBOR.id, title=values["title"],
                                              freeform_text=values.get("text"), scheduled_on=_day(values.get("date")))
            elif kind == "class_session":
                type_id = await session.scalar(text("SELECT id FROM class_types WHERE org_id = :o AND name = :n"),
                                               {"o": HARBOR.id, "n": values["type"]})
                if type_id is None:
                    raise SetupError(f"no class type {values['type']!r}")
                starts = datetime.fromisoformat(values["at"])
                await classes.create_session(session, HARBOR.id, class_type_id=type_id, starts_at=starts,
                                             ends_at=starts + timedelta(minutes=values.get("minutes", 60)),
                                             published=values.get("published", True), capacity=values.get("capacity"))
            elif kind == "program":
                await programs.create_program(session, HARBOR.id, name=values["name"], kind=values.get("kind", "class"))
            elif kind in ("booking", "waitlist"):
                await _seat(session, kind, values)
            else:
                raise SetupError(f"unknown setup step {kind!r} (task, member, workout, class_session, program, "
                                 "booking, waitlist)")


async def _seat(session, kind: str, values: Mapping[str, Any]) -> None:
    """A member's seat in (or place in the waitlist of) a session added before it, by class type and start."""
    member = await session.scalar(text("SELECT id FROM members WHERE org_id = :o AND full_name = :n AND deleted_at IS "
                                       "NULL"), {"o": HARBOR.id, "n": values["member"]})
    row = await session.scalar(text("SELECT s.id FROM class_sessions s JOIN class_types t ON t.id = s.class_type_id "
                                    "WHERE s.org_id = :o AND t.name = :t AND s.starts_at = :at"),
                               {"o": HARBOR.id, "t": values["type"], "at": datetime.fromisoformat(values["at"])})
    if member is None or row is None:
        raise SetupError(f"no member {values['member']!r} or no {values['type']} session at {values['at']}")
    table = "bookings (id, org_id, session_id, member_id, status)" if kind == "booking" else \
        "waitlist_entries (id, org_id, session_id, member_id)"
    extra = ", 'booked'" if kind == "booking" else ""
    await session.execute(text(f"INSERT INTO {table} VALUES (gen_random_uuid(), :o, :s, :m{extra})"),
                          {"o": HARBOR.id, "s": row, "m": member})
