"""A member with a record to train on: linked to a signed-in member user, a current home location (dumbbells,
bands, mat) and Harbor Strength (barbell, rack, bench…), category goals, and helpers to build §4.9 exercises."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from gym.training import goals
from gym.training.profiles import save_location
from tests.factories import TestOrg, TestUser
from tests.trainer.members import link_member

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


@dataclass
class Trainee:
    org: TestOrg
    user: TestUser
    member_id: uuid.UUID


async def trainee(db, factory, name: str = "Dani Mizrahi") -> Trainee:
    org = await factory.org()
    user = await factory.user(org, "member")
    member_id = await link_member(db, org.id, user.id, name)
    async with db.scope(org_id=org.id) as session:
        await save_location(session, org.id, member_id, "Harbor Strength", ["Barbell", "Rack", "Bench", "Dumbbells", "Cable", "Mat"])
        await save_location(session, org.id, member_id, "Home", ["Dumbbells", "Resistance Band", "Mat"],
                            make_current=True)
        await goals.set_category_goals(session, org.id, member_id, [("Strength", None, 45), ("Hypertrophy", None, 25),
                                                                     ("Conditioning", None, 20), ("Mobility", None, 10)])
    return Trainee(org, user, member_id)


def reps(order: int, name: str, *, muscles: dict[str, float], equipment: list[str] | None = None,
         load: float | None = None, sets: int = 3, rep: int = 10, **extra: Any) -> dict[str, Any]:
    return {"type": "reps", "name": name, "order": order, "sets": sets, "reps": [rep] * sets, "load": load,
            "load_unit": "kg" if load is not None else None, "rest_sec": 60,
            "muscles": [{"name": m, "share": s} for m, s in muscles.items()],
            "goals": [{"name": "Strength", "share": 1.0}], "reasoning": "Chest focus.",
            "equipment": equipment or [], **extra}


def hold(order: int, name: str = "Plank") -> dict[str, Any]:
    return {"type": "hold", "name": name, "order": order, "sets": 2, "hold_sec": [30, 30], "rest_sec": 30,
            "muscles": [{"name": "Abs", "share": 1.0}], "goals": [{"name": "Mobility", "share": 1.0}],
            "reasoning": "Core.", "equipment": ["Mat"]}


def chest_workout() -> dict[str, Any]:
    return {"title": "Quick chest", "exercises": [
        reps(1, "Dumbbell Floor Press", muscles={"Chest": 0.7, "Triceps": 0.3}, equipment=["Dumbbells"], load=14),
        reps(2, "Push-up", muscles={"Chest": 0.8, "Triceps": 0.2}),
        hold(3)]}


CARD_FIELDS = ("recovery", "suggestion", "conflicts", "logged", "displayName")


def schema_part(exercise: dict[str, Any]) -> dict[str, Any]:
    """A card's exercise without what the rules add for the card (recovery, suggestion, conflicts): the §4.9 part."""
    return {k: v for k, v in exercise.items() if k not in CARD_FIELDS}


async def demo_dani(db, factory):
    """Dani's demo record (a left-shoulder injury, never burpees, legs trained 20 hours ago) in a new org, seeded
    five minutes ago: (org, user, member id)."""
    from datetime import timedelta

    from gym.demo.training_record import seed_dani

    org = await factory.org(timezone="UTC")
    user = await factory.user(org, "member")
    member_id = await link_member(db, org.id, user.id)
    async with db.owner() as session:
        await seed_dani(session, org.id, member_id, datetime.now(UTC) - timedelta(minutes=5))
    return org, user, member_id


async def scheduled_legs(db, t: Trainee) -> str:
    """A Legs workout scheduled two days ahead for the trainee; its id."""
    from datetime import timedelta

    from gym.training import schedule

    now = datetime.now(UTC)
    async with db.scope(org_id=t.org.id) as session:
        row = await schedule.schedule_workout(session, t.org.id, t.member_id, now=now,
                                              scheduled_at=now + timedelta(days=2), workout_type="Legs")
        return str(row.id)
