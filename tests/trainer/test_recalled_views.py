"""A session stored before the service kept what the member saw, reopened over HTTP (issue 45 item 1: a tool's
presentation is its declaration's). Each coach message and question comes with its view, derived by the service
from the tool's `speaks` — words without ids, in the member's language — so the member app reads views and knows no
tool by name; a call that failed shows nothing (the member never saw it); what was stored is returned as it was."""

from __future__ import annotations

import pytest

from core.i18n import translate
from tests.trainer.fixtures import trainee
from tests.trainer.old_sessions import ASKED, OLD_EVENTS, call, result, store_old_session
from tools.catalog import build_registry


async def detail(client, t, sid, **headers) -> list[dict]:
    response = await client.get(f"/organizations/{t.org.id}/trainer/sessions/{sid}",
                                headers={**t.user.headers, **headers})
    assert response.status_code == 200, response.text
    return response.json()["events"]


async def test_an_old_session_replays_the_coachs_message_and_question(client, db, factory) -> None:
    t = await trainee(db, factory)
    sid = await store_old_session(db, t.org.id, t.member_id, t.user.id)
    events = await detail(client, t, sid)
    views = {e["payload"]["callId"]: e["payload"]["shown"] for e in events if "shown" in e["payload"]}
    assert views == {
        "n1": {"kind": "message", "content": "Here is your workout: swap if you like.", "attachments": []},
        "a1": {"kind": "question", "content": "Keep in your workout?", "options": ["Keep", "No"]},
    }
    assert all(e["type"] == "tool_call" for e in events if "shown" in e["payload"])
    # the stored events themselves, in order and as they were
    assert [(e["type"], {k: v for k, v in e["payload"].items() if k != "shown"}) for e in events] == OLD_EVENTS


@pytest.mark.parametrize("locale", ["he", "ru"])
async def test_the_words_are_in_the_members_language(client, db, factory, locale) -> None:
    t = await trainee(db, factory)
    sid = await store_old_session(db, t.org.id, t.member_id, t.user.id)
    events = await detail(client, t, sid, **{"Accept-Language": locale})
    asked = next(e["payload"]["shown"] for e in events if e["payload"].get("callId") == "a1" and "shown" in e["payload"])
    assert asked["content"] == f"Keep in {translate('trainer.words.your_workout', locale)}?"
    assert ASKED not in str(asked)


async def test_a_kept_view_is_the_one_shown(client, db, factory) -> None:
    """A result that kept its view keeps it, and its call gets none; a tool that does not speak gets none."""
    kept = {"kind": "message", "content": "What the member saw.", "attachments": []}
    stored = [("user_message", {"message": "hi"}),
              call("d1", "data__fetch_data", {"sources": {}}), result("d1"),
              call("n1", "coach__message_notify_user", {"text": "What the model wrote (ex_001)."}),
              ("tool_result", {**result("n1")[1], "shown": kept})]
    t = await trainee(db, factory)
    sid = await store_old_session(db, t.org.id, t.member_id, t.user.id, stored)
    events = await detail(client, t, sid)
    assert [(e["type"], e["payload"]) for e in events] == stored


def test_every_tool_that_speaks_takes_its_words_as_text() -> None:
    """What `recalled` reads of a call (docs/recipes/add-a-tool.md): a speaking tool's words are its input's `text`,
    a question's options its `options`."""
    speaking = [s for s in build_registry().specs.values() if s.speaks is not None]
    assert {s.speaks for s in speaking} == {"message", "question"}
    for spec in speaking:
        fields = spec.input_model.model_fields
        assert fields["text"].annotation is str, spec.name
        if spec.speaks == "question":
            assert fields["options"].annotation == list[str], spec.name
