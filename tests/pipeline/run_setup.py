"""A run for Dani in a fresh org, started through the service the endpoints use, and reading it back with
its events: the setup the model-backed pipeline tests share."""

from __future__ import annotations

from datetime import date

from gym import members
from gym.nutrition import runs
from tests.gym.nutrition import samples


async def start_dani_run(db, factory, *, budget: int | None = None):
    """(org, owner, run id) of a run on the issue's intake, queued but not driven."""
    org = await factory.org(budget=budget)
    owner = await factory.user(org, "owner", name="Maya Owner")
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
        run = await runs.start_run(session, org.id, member_id=member.id, intake=samples.intake(),
                                   created_by=owner.id)
    return org, owner, run.id


async def signed_in_member(db, factory, org, name: str = "Dani"):
    """(user, member id): a member of `org` signed in as themself (what the member endpoints need)."""
    user = await factory.user(org, role="member", name=name)
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name=name, user_id=user.id,
                                             joined_at=date(2026, 1, 5))
    return user, member.id


def nutrition_base(org) -> str:
    return f"/organizations/{org.id}/nutrition"


async def run_with_events(db, org, run_id):
    async with db.scope(org_id=org.id) as session:
        run = await runs.get_run(session, org.id, run_id)
        return run, list(await runs.events_after(session, run))
