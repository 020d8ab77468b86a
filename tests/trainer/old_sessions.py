"""A trainer session as the service stored it before it kept what the member saw (before the `shown` view on a
tool result): the coach's words only in its tool calls' arguments, with exercise, workout and row ids in them, and
its workout as a `workout` event's summary."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from agent.trainer import store
from tests.trainer.fixtures import chest_workout

ROW_ID = "0b6f2c1e-5d3a-4c55-9a51-0e8b3f1f2a77"
NOTIFIED = f"Here is workout_1: swap ex_002 (id {ROW_ID}) if you like."
ASKED = "Keep ex_003 in workout_1?"
FAILED = "Words of a message that failed"
OK = "<result>ok</result>"


def call(call_id: str, tool: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return "tool_call", {"callId": call_id, "toolName": tool, "arguments": arguments}


def result(call_id: str, output: Any = OK, *, error: bool = False) -> tuple[str, dict[str, Any]]:
    return "tool_result", {"callId": call_id, "result": output, "isError": error}


OLD_EVENTS = [
    ("user_message", {"message": "chest please"}),
    call("g1", "workout__generate_workout", chest_workout()),
    result("g1", "<result>ok: workout_1</result>"),
    ("workout", {"workoutId": "workout_1", "title": "Quick chest",
                 "summary": "1. ex_001 Dumbbell Floor Press (reps)\n2. ex_002 Push-up (reps)\n3. ex_003 Plank (hold)"}),
    call("n0", "coach__message_notify_user", {"text": FAILED, "attachments": []}),
    result("n0", {"code": "invalid_input", "message": "text: too long"}, error=True),
    call("n1", "coach__message_notify_user", {"text": NOTIFIED, "attachments": ["workout_1"]}),
    result("n1"),
    call("a1", "coach__message_ask_user", {"text": ASKED, "options": ["Keep ex_003", "No"]}),
    result("a1"),
]


async def store_old_session(db, org_id: uuid.UUID, member_id: uuid.UUID, user_id: uuid.UUID,
                            events: list[tuple[str, dict[str, Any]]] = OLD_EVENTS) -> uuid.UUID:
    """The session, a day old, with `events` stored as they are (the store's own insert)."""
    async with db.scope(org_id=org_id) as session:
        row = await store.create_session(session, org_id=org_id, member_id=member_id, user_id=user_id,
                                         now=datetime.now(UTC) - timedelta(hours=2))
        for type_, payload in events:
            await store.append(session, org_id=org_id, session_id=row.id, type=type_, payload=payload)
        return row.id
