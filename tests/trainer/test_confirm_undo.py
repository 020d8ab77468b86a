"""Trainer confirm and undo: deleting a scheduled workout waits for the member; approving runs it and the loop
goes on, rejecting keeps it; a logged exercise and a preference are undone through the trainer's undo."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, ToolUse
from tests.sse import sse
from tests.trainer.fixtures import scheduled_legs, trainee
from tests.trainer.scripted import Trainer


@pytest.fixture(autouse=True)
def clean_fake_model(fake_model):
    fake_model.reset()
    yield fake_model
    fake_model.reset()




async def _count(db, sid: str) -> int:
    async with db.owner() as session:
        return await session.scalar(text("SELECT count(*) FROM scheduled_workouts WHERE id = :i"), {"i": sid})


@pytest.mark.parametrize("approved", [True, False])
async def test_delete_waits_for_the_members_confirmation(client, db, factory, fake_model, approved) -> None:
    t = await trainee(db, factory)
    scheduled = await scheduled_legs(db, t)
    Trainer(fake_model, [Reply(ToolUse("calendar__delete_scheduled_workout", {"id": scheduled}, id="del1")),
                         Reply(ToolUse("coach__idle", {}, id="i1"))])
    base = f"/organizations/{t.org.id}/trainer"
    first = await sse(client, f"{base}/messages", json_body={"message": "cancel Thursday"}, headers=t.user.headers)
    pending = first.one("confirmation_pending")
    assert pending["toolUseId"] == "del1" and pending["confirm"] == "destructive"
    assert first.names[-1] == "done" and await _count(db, scheduled) == 1
    sid = first.one("done")["sessionId"]
    second = await sse(client, f"{base}/sessions/{sid}/confirm/del1", json_body={"approved": approved},
                       headers=t.user.headers)
    assert second.status == 200 and second.names[-1] == "done"
    assert await _count(db, scheduled) == (0 if approved else 1)
    assert second.of("tool_completed")[-1]["action"] == "idle"
    again = await client.post(f"{base}/sessions/{sid}/confirm/del1", json={"approved": True}, headers=t.user.headers)
    assert again.status_code == 409


async def test_a_log_is_undone_through_the_trainers_undo(client, db, factory, fake_model) -> None:
    t = await trainee(db, factory)
    Trainer(fake_model, [Reply(ToolUse("logbook__log_completed_exercise", {
        "exercise_name": "Bench Press", "exercise_type": "strength", "sets": 3, "reps": 8, "load": 40,
        "muscles": ["Chest"], "goals": ["Strength"]}, id="log1")), Reply(ToolUse("coach__idle", {}, id="i1"))])
    base = f"/organizations/{t.org.id}/trainer"
    result = await sse(client, f"{base}/messages", json_body={"message": "log it: bench 3x8 at 40 kg"},
                       headers=t.user.headers)
    logged = result.of("tool_completed")[0]
    assert logged["ok"] and logged["inverseAvailable"] is True
    sid = result.one("done")["sessionId"]
    other = await factory.user(t.org, "member")
    from tests.trainer.members import link_member
    await link_member(db, t.org.id, other.id, "Other Member")
    assert (await client.post(f"{base}/sessions/{sid}/undo/log1", headers=other.headers)).status_code == 404
    undone = await client.post(f"{base}/sessions/{sid}/undo/log1", headers=t.user.headers)
    assert undone.status_code == 200, undone.text
    assert undone.json()["inverse"]["action"] == "undo_logged_exercise"
    async with db.owner() as session:
        assert await session.scalar(text("SELECT undone_at IS NOT NULL FROM exercise_logs WHERE id = :i"),
                                    {"i": logged["output"]["id"]})
    assert (await client.post(f"{base}/sessions/{sid}/undo/log1", headers=t.user.headers)).status_code == 409
