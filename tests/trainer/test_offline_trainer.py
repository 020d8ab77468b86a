"""The offline trainer (no API key) plays Dani's item-6 flows with the rules in code: a quick chest workout at
home (dumbbell, band, mat; no overhead pressing), swap the second exercise, log bench 3x8 at 40 kg, count this
month's workouts, avoid shoulders for two weeks, undo the log — each labelled as not an LLM."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import redis.asyncio as aioredis
from sqlalchemy import text

from agent.composition import build_agent
from agent.threads import Opening
from agent.trainer.persona import TRAINER
from core.tenancy import find_caller_in_org
from gym.demo.training_record import seed_dani
from gym.training.equipment import missing_equipment
from gym.training.record import statistics_view
from gym.training.workout import Workout
from tests.trainer.fixtures import schema_part
from tests.trainer.members import link_member


async def test_dani_offline_flows(app_settings, db, factory) -> None:
    org = await factory.org(timezone="UTC")
    user = await factory.user(org, "member")
    member_id = await link_member(db, org.id, user.id)
    now = datetime.now(UTC)
    async with db.owner() as session:
        await seed_dani(session, org.id, member_id, now - timedelta(minutes=5))
    settings = app_settings.model_copy(update={"agent_model_provider": "offline"})
    redis = aioredis.from_url(settings.redis_url, decode_responses=True)
    services = build_agent(settings, db, redis, titles=False, rag_worker=False)
    async with db.scope(org_id=org.id) as session:
        caller, access = await find_caller_in_org(session, user.clerk_id, org.id)
    sid = None

    async def say(message: str) -> list[tuple[str, dict]]:
        nonlocal sid
        turn = await services.orchestrator.open_send(access=access, caller=caller, member_id=member_id, locale="en",
                                                trace_id=uuid.uuid4().hex, opening=Opening(message), thread_id=sid, persona=TRAINER)
        frames = [(e.type, e.data) async for e in turn.events()]
        assert frames[-1][0] == "done" and not [f for f in frames if f[0] == "error"], frames
        sid = uuid.UUID(frames[-1][1]["sessionId"])
        return frames

    def messages(frames):
        return [d for t, d in frames if t == "message"]

    try:
        first = messages(await say("give me a quick chest workout"))
        assert len(first) == 1 and first[0]["content"].startswith("[Offline demo model — not an LLM]")
        workout = first[0]["attachments"][0]["workout"]
        Workout.model_validate({"exercises": [schema_part(e) for e in workout["exercises"]]})
        for ex in workout["exercises"]:
            assert not missing_equipment(ex["equipment"], ["dumbbell", "band", "mat"]), ex
            assert "Shoulder Press" not in ex["name"]  # the injury preference: no overhead pressing
            assert ex.get("load_unit") in (None, "kg")
        assert any(m["name"] == "Chest" for m in workout["exercises"][0]["muscles"])
        second_before = workout["exercises"][1]["name"]

        swapped = messages(await say("swap the second exercise"))
        after = swapped[0]["attachments"][0]["workout"]["exercises"][1]
        assert after["id"] == "ex_002" and after["name"] != second_before

        logged = messages(await say("log it: bench 3x8 at 40 kg"))
        assert "Bench Press" in logged[0]["content"]
        async with db.owner() as session:
            load = await session.scalar(text("SELECT load_kg FROM exercise_logs WHERE member_id = :m AND "
                                             "name = 'Bench Press' ORDER BY created_at DESC LIMIT 1"), {"m": member_id})
        assert float(load) == 40.0

        counted = messages(await say("how many workouts this month?"))
        async with db.scope(org_id=org.id) as session:
            expected = (await statistics_view(session, org.id, member_id, datetime.now(UTC), "month"))
        assert f"Workouts this month: {expected['overview']['total_workouts']} " in counted[0]["content"]

        noted = messages(await say("avoid shoulders for two weeks"))
        assert "Noted" in noted[0]["content"]
        async with db.owner() as session:
            expires = await session.scalar(text("SELECT expires_at FROM member_preferences WHERE member_id = :m AND "
                                                "type = 'muscle_group'"), {"m": member_id})
        assert timedelta(days=13) < expires - now < timedelta(days=15)

        # the log three turns back is undone by the id its tool returned (the engine's facts, not the words of its
        # compact observation)
        undone = messages(await say("undo that"))
        assert undone[0]["content"].startswith("[Offline demo model — not an LLM]")
        async with db.owner() as session:
            bench = (await session.execute(text("SELECT undone_at FROM exercise_logs WHERE member_id = :m AND "
                                                "name = 'Bench Press' ORDER BY created_at DESC LIMIT 1"),
                                           {"m": member_id})).scalar_one()
        assert bench is not None
    finally:
        await services.close()
        await redis.aclose()
