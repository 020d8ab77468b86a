"""The demo's training records: Dani's numbers as TRAINER.md "Demo" states them, through the member endpoint and
the staff tool; deterministic; thin records scale with the member count."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import text

from core.tenancy import Caller, OrgAccess
from gym.demo.seed import DANI_MEMBER_ID, seed_demo
from gym.demo.tenancy import HARBOR, clerk_id_for
from gym.demo.training_record import dani_logs, seed_trainer_records, seeding_instant
from gym.training import record
from tools.catalog import build_registry
from tools.runner import ToolRunner


@pytest.fixture(scope="module")
async def demo(db):
    """The demo gym seeded into the shared test database at the current instant (as `spotter seed-demo`)."""
    instant = datetime.now(UTC)
    summary = await seed_demo(db, now=instant)
    return instant, summary


async def test_dani_distribution_through_the_member_endpoint(demo, client, dev_keys) -> None:
    token = dev_keys.sign(sub=clerk_id_for("dani@harbor.test"), email="dani@harbor.test")
    response = await client.get(f"/organizations/{HARBOR.id}/trainer/distribution",
                                headers={"authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    rows = {r["name"]: r for r in response.json()["categories"]}
    assert (rows["Strength"]["targetPct"], rows["Strength"]["actualPct"], rows["Strength"]["debtPct"]) == (
        45.0, 38.0, 7.0)
    assert {n: r["actualPct"] for n, r in rows.items()} == {"Strength": 38.0, "Hypertrophy": 28.0,
                                                           "Conditioning": 22.0, "Mobility": 12.0}
    assert rows["Strength"]["primary"] and not rows["Hypertrophy"]["primary"]
    # Dani has muscle goals, so muscle debt has numbers: chest most under-trained, quads over
    muscles = {r["name"]: r["debtPct"] for r in response.json()["muscles"]}
    assert len(muscles) == 11 and max(muscles, key=lambda m: muscles[m]) == "Chest"
    assert muscles["Chest"] == 8.8 and muscles["Shoulders"] == 5.0 and muscles["Quadriceps"] == -5.0


async def test_a_coach_reads_danis_numbers_and_injury_through_the_tool(demo, db) -> None:
    instant, _ = demo
    async with db.owner() as session:
        coach_id = await session.scalar(text("SELECT id FROM users WHERE email = 'coach@harbor.test'"))
    access = OrgAccess(org_id=HARBOR.id, org_name=HARBOR.name, tier="pro", timezone=HARBOR.timezone, locale="en",
                       budget_override_usd_micros=None, role="coach")
    caller = Caller(user_id=coach_id, clerk_id=clerk_id_for("coach@harbor.test"), email="coach@harbor.test",
                    name="Noa Coach")
    spec = build_registry().get("read__member_training")
    outcome = await ToolRunner(db).run(spec, {"membershipId": str(DANI_MEMBER_ID)}, access=access, caller=caller,
                                       now=instant + timedelta(minutes=1))
    assert outcome.ok, outcome.error
    out = outcome.output
    strength = next(r for r in out["goals"]["categories"] if r["name"] == "Strength")
    assert (strength["targetPct"], strength["actualPct"], strength["debtPct"]) == (45.0, 38.0, 7.0)
    assert [i["description"] for i in out["injuries"]] == ["left shoulder: no overhead pressing"]
    assert out["injuries"][0]["exclusions"] == {"patterns": ["overhead_press", "shoulder_flexion_loaded_above_90"],
                                                "region": "shoulder", "side": "left"}
    assert [(p["description"], p["enforced"], p["exclusions"]) for p in out["preferences"]] == [
        ("Dislikes burpees", True, {"exercises": ["Burpee"], "patterns": ["burpee_family"]})]
    assert out["currentLocation"]["name"] == "Home"
    assert out["currentLocation"]["equipment"] == ["dumbbell", "band", "mat"]
    assert {r["muscle"] for r in out["recovering"]} >= {"Quadriceps", "Glutes", "Hamstrings"}
    assert [m["name"] for m in out["milestones"]] == ["First Murph", "Back Squat 100 kg"]
    assert len(out["upcoming"]) >= 3


async def test_danis_legs_were_last_trained_20_hours_before_seeding(demo, db) -> None:
    instant, summary = demo
    async with db.scope(org_id=HARBOR.id) as session:
        rows = {r["muscle"]: r for r in await record.recovery_view(session, HARBOR.id, DANI_MEMBER_ID, instant)}
        progression = {p["exercise"]: p for p in await record.progression_view(session, HARBOR.id, DANI_MEMBER_ID,
                                                                               instant)}
    assert rows["Quadriceps"]["hoursSince"] == 20.0 and rows["Quadriceps"]["recovering"]
    assert "Chest" not in rows  # last trained 116 h ago: outside any recovery window
    assert (progression["Back Squat"]["last"]["load"], progression["Back Squat"]["suggestedLoad"]) == (82.5, 87.5)
    front = progression["Front Squat"]  # the latest front squat missed its last rep: repeat it
    assert (front["suggestedLoad"], front["suggestedReps"], front["why"]["code"]) == (56.25, [5] * 4,
                                                                                      "repeat_after_miss")
    assert summary["trainer"][HARBOR.slug]["dani_logs"] == 6 * 20
    assert summary["trainer"][HARBOR.slug]["thin_members"] == 320 // 20


def test_danis_logs_are_deterministic_and_six_weeks_long() -> None:
    instant = datetime(2026, 11, 23, 9, 30, tzinfo=UTC)
    assert dani_logs(HARBOR.id, DANI_MEMBER_ID, instant) == dani_logs(HARBOR.id, DANI_MEMBER_ID, instant)
    times = [row[13] for row in dani_logs(HARBOR.id, DANI_MEMBER_ID, instant)]
    assert max(times) == instant - timedelta(hours=20)
    assert instant - min(times) < timedelta(days=42)
    assert seeding_instant(date(2026, 6, 15), "Asia/Jerusalem").isoformat() == "2026-06-15T18:00:00+03:00"


async def test_thin_records_scale_with_members_and_reseed_identically(db, factory) -> None:
    org = await factory.org()
    ids = sorted(uuid.uuid4() for _ in range(60))
    async with db.owner() as session:
        await session.execute(text("INSERT INTO members (id, org_id, first_name, full_name) VALUES (:i, :o, 'M', 'M')"),
                              [{"i": i, "o": org.id} for i in ids])
    instant = datetime(2026, 11, 23, 9, 30, tzinfo=UTC)
    sums = []
    for scale in (100, 400, 400):
        async with db.owner() as session:
            counts = await seed_trainer_records(session, org_id=org.id, member_ids=ids, instant=instant, scale=scale)
            sums.append((counts, (await session.execute(text(
                "SELECT count(*), count(DISTINCT member_id), md5(string_agg(id::text || name || performed_at::text, "
                "',' ORDER BY id)) FROM exercise_logs WHERE org_id = :o"), {"o": org.id})).one()))
    assert sums[0][0]["thin_members"] == 5 and sums[1][0]["thin_members"] == 20
    assert sums[0][1][1] == 5 and sums[1][1][1] == 20
    assert sums[1] == sums[2]  # same inputs, same rows
