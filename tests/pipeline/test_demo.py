"""The demo's finished run: Dani's run reaches output_ready with the offline agents, once."""

from __future__ import annotations

from datetime import date

from gym import members
from gym.nutrition import runs
from pipeline.demo import DANI_INTAKE, seed_finished_run
from tests.gym.nutrition import samples


async def test_the_demo_run_is_finished_and_seeding_again_adds_nothing(db, factory) -> None:
    assert DANI_INTAKE == samples.INTAKE  # the intake
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await members.create_member(session, org.id, first_name="Dani", joined_at=date(2026, 1, 5))
    first = await seed_finished_run(db, org.id, member.id)
    assert first["state"] == "output_ready"
    assert await seed_finished_run(db, org.id, member.id) == first
    async with db.scope(org_id=org.id) as session:
        found = await runs.list_runs(session, org.id, member_id=member.id)
        outputs = await runs.latest_outputs(session, found[0], ["recipes", "training_program"])
    assert len(found) == 1 and all(outputs.values())
