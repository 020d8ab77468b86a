"""The offline demo model end to end: the app with AGENT_MODEL_PROVIDER=offline over real HTTP, real tools,
data made with the gym services (find → pick → show, a confirmed delete, create then undo, Hebrew)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import httpx
import pytest
from sqlalchemy import text

from api.app import create_app
from gym import billing, classes, members, workouts
from offline_model.model import LABEL
from tests.servers import ThreadedServer
from tests.sse import sse

# --- end to end: the app with AGENT_MODEL_PROVIDER=offline, real HTTP, real tools ------------------------------

@pytest.fixture(scope="module")
def offline_server(app_settings) -> Iterator[ThreadedServer]:
    server = ThreadedServer(create_app(app_settings.model_copy(update={"agent_model_provider": "offline"}))).start()
    yield server
    server.stop()


@pytest.fixture
async def offline(offline_server) -> httpx.AsyncClient:
    async with httpx.AsyncClient(base_url=offline_server.url, timeout=30) as http:
        yield http


async def _saars(db, org_id: uuid.UUID) -> dict[str, uuid.UUID]:
    async with db.scope(org_id=org_id) as session:
        made = {}
        for first, last in (("Saar", "Cohen"), ("Saar", "Levi"), ("Noa", "Peretz")):
            member = await members.create_member(session, org_id, first_name=first, last_name=last,
                                                 email=f"{first}.{last}@example.test".lower(),
                                                 joined_at=date(2026, 1, 5))
            made[f"{first} {last}"] = member.id
        plan = await billing.create_plan(session, org_id, name="Unlimited Monthly", price_cents=52000,
                                         interval="month")
        sub = await billing.subscribe(session, org_id, member_id=made["Saar Levi"], plan_id=plan.id,
                                      started_on=date(2026, 1, 5))
        today = datetime.now(UTC).date()
        await billing.record_payment(session, org_id, member_id=made["Saar Levi"], subscription_id=sub.id,
                                     amount_cents=52000, due_on=today - timedelta(days=3), status="failed")
    return made


async def test_e2e_find_pick_show(offline, gym, db) -> None:
    made = await _saars(db, gym.org.id)
    first = await sse(offline, f"{gym.base}/messages", json_body={"message": "find Saar"}, headers=gym.owner.headers)
    assert first.status == 200 and first.names[-1] == "done"
    assert [e["action"] for e in first.of("tool_completed")] == ["members_search"]
    pending = first.one("disambiguation_pending")
    assert {c["label"] for c in pending["candidates"]} == {"Saar Cohen", "Saar Levi"}
    assert pending["prompt"] == "Which Saar?" and first.one("done")["usage"]["costUsdMicros"] == 0
    conversation_id = first.one("conversation_started")["conversationId"]

    picked = await sse(offline, gym.pick_url(conversation_id, pending["toolUseId"]),
                       json_body={"id": str(made["Saar Levi"])}, headers=gym.owner.headers)
    assert picked.status == 200 and picked.names[-1] == "done" and "error" not in picked.names
    assert [(e["action"], e["ok"]) for e in picked.of("tool_completed")] == [("ask_user_to_pick", True),
                                                                             ("members_get", True)]
    assert picked.of("tool_started")[-1]["input"] == {"memberId": str(made["Saar Levi"])}
    assert picked.text.startswith(LABEL["en"])
    assert "Saar Levi — active" in picked.text and "Plan: Unlimited Monthly, ₪520.00 per month" in picked.text
    assert "Payments: 1 overdue, ₪520.00 in all" in picked.text and "the last attempt was failed" in picked.text


async def test_e2e_confirmed_delete(offline, gym, db) -> None:
    async with db.scope(org_id=gym.org.id) as session:
        murph = await workouts.create_workout(session, gym.org.id, title="Murph",
                                              freeform_text="1 mile run, 100 pull-ups, 200 push-ups, 1 mile run")
    first = await sse(offline, f"{gym.base}/messages", json_body={"message": "delete workout Murph"},
                      headers=gym.owner.headers)
    pending = first.one("confirmation_pending")
    assert (pending["router"], pending["action"]) == ("workouts", "delete")
    assert pending["input"] == {"id": str(murph.workout.id)}
    assert "Deleting it needs your confirmation" in first.text
    conversation_id = first.one("conversation_started")["conversationId"]

    confirmed = await sse(offline, gym.confirm_url(conversation_id, pending["toolUseId"]),
                          json_body={"approved": True}, headers=gym.owner.headers)
    assert confirmed.status == 200 and "error" not in confirmed.names
    assert confirmed.one("tool_completed")["ok"] is True
    assert "Deleted “Murph”." in confirmed.text and confirmed.text.startswith(LABEL["en"])
    async with db.owner() as session:
        deleted_at = await session.scalar(text("SELECT deleted_at FROM workouts WHERE id = :i"),
                                          {"i": murph.workout.id})
    assert deleted_at is not None


async def test_e2e_task_create_then_undo(offline, gym, db) -> None:
    created = await sse(offline, f"{gym.base}/messages", json_body={"message": "create a task call back Dani"},
                        headers=gym.owner.headers)
    done = created.one("tool_completed")
    assert (done["router"], done["action"], done["ok"], done["inverseAvailable"]) == ("tasks", "create", True, True)
    assert "Created the task “call back Dani”." in created.text and "undo" in created.text
    conversation_id = created.one("conversation_started")["conversationId"]

    undo = await offline.post(gym.undo_url(conversation_id, done["toolUseId"]), headers=gym.owner.headers)
    assert undo.status_code == 200 and undo.json()["ok"] is True
    async with db.owner() as session:
        deleted_at = await session.scalar(text("SELECT deleted_at FROM tasks WHERE id = :i"),
                                          {"i": uuid.UUID(done["output"]["id"])})
    assert deleted_at is not None


async def test_e2e_schedule_in_hebrew(offline, gym, db) -> None:
    async with db.scope(org_id=gym.org.id) as session:
        await classes.create_class_type(session, gym.org.id, name="Open Gym", default_duration_min=120)
    result = await sse(offline, f"{gym.base}/messages", json_body={"message": "תקבע אופן ג'ים מחר 13:00-14:00 מפורסם"},
                       headers={**gym.owner.headers, "x-locale": "he"})
    done = result.one("tool_completed")
    assert done["ok"] is True and done["output"]["published"] is True
    assert done["output"]["startsAt"][11:16] == "13:00" and done["output"]["endsAt"][11:16] == "14:00"
    assert result.text.startswith(LABEL["he"]) and "13:00–14:00" in result.text
