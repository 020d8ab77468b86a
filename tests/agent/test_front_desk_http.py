"""The front desk's tools through the front door (issue 42): the real app over HTTP and SSE, the fake model asking
for each tool as each role. Writes are undone from their card; freezes and sends wait for a person and a reject
changes nothing; refusals reach the card in people's words (and the model as an is_error result); every role gets
exactly the tools TOOLS.md's table gives it."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from tests.fakes.anthropic_server import Reply, Text, ToolUse
from tests.sse import sse
from tests.tools.desk_gym import daytime_zone, desk_gym

DESK_TOOLS = {"bookings__book_member", "bookings__cancel_booking", "bookings__join_waitlist",
              "bookings__leave_waitlist", "bookings__check_in", "bookings__undo_check_in", "messages__draft",
              "messages__discard", "messages__send", "messages__status"}
FREEZES = {"memberships__freeze", "memberships__unfreeze"}
CONFIRMED = {*FREEZES, "messages__send", "class_sessions__cancel"}


@pytest.fixture
async def gym(db, factory):
    now = datetime.now(UTC)
    return await desk_gym(db, factory, now=now, timezone=daytime_zone(now))


def _base(gym) -> str:
    return f"/organizations/{gym.org.id}/agent"


async def _ask(client, fake_model, gym, tool: str, input: dict, *, role: str = "front_desk", tool_use_id: str = "tu_1",
               conversation: str | None = None, after: str = "Done."):
    asks = Reply(Text("On it."), ToolUse(tool, input, id=tool_use_id))
    # a tool that waits for a person ends the stream; the model's next answer comes after the confirm
    fake_model.queue(*((asks,) if tool in CONFIRMED else (asks, Reply(Text(after)))))
    body = {"message": f"please {tool}", **({"conversationId": conversation} if conversation else {})}
    result = await sse(client, f"{_base(gym)}/messages", headers=gym.users[role].headers, json_body=body)
    assert result.status == 200, result.body
    started = result.of("conversation_started")
    return result, (started[0]["conversationId"] if started else conversation)


async def _undo(client, gym, conversation: str, tool_use_id: str, role: str = "front_desk"):
    return await client.post(f"{_base(gym)}/conversations/{conversation}/undo/{tool_use_id}",
                             headers=gym.users[role].headers)


async def _confirm(client, fake_model, gym, conversation: str, tool_use_id: str, approved: bool,
                   role: str = "front_desk"):
    fake_model.queue(Reply(Text("Okay.")))
    result = await sse(client, f"{_base(gym)}/conversations/{conversation}/confirm/{tool_use_id}",
                       headers=gym.users[role].headers, json_body={"approved": approved})
    assert result.status == 200, result.body
    return result


async def _value(db, sql: str, **params):
    async with db.owner() as session:
        return await session.scalar(text(sql), params)


def _in(gym, member: str, session: str = "tomorrow_1730") -> dict:
    return {"memberId": str(gym.members[member]), "sessionId": str(gym.sessions[session])}


async def test_each_role_is_offered_exactly_the_desk_tools_the_table_gives_it(client, fake_model, gym) -> None:
    for role in ("owner", "admin", "coach", "front_desk"):
        fake_model.queue(Reply(Text("Hi.")))
        result = await sse(client, f"{_base(gym)}/messages", headers=gym.users[role].headers,
                           json_body={"message": "hello"})
        assert result.status == 200
        offered = {t["name"] for t in fake_model.requests[-1].body["tools"]}
        assert DESK_TOOLS <= offered, role
        assert (FREEZES <= offered) is (role != "coach") and not (FREEZES & offered and role == "coach"), role
    member = await sse(client, f"{_base(gym)}/messages", headers=gym.users["member"].headers,
                       json_body={"message": "book me"})
    assert member.status == 403 and member.body["code"] == "member_forbidden"


async def test_a_coach_asking_to_freeze_gets_a_refusal_and_nothing_changes(client, fake_model, db, gym) -> None:
    result, _ = await _ask(client, fake_model, gym, "memberships__freeze",
                           {"memberId": str(gym.members["dani"]), "days": 14}, role="coach")
    done = result.one("tool_completed")
    # a tool the staff persona offers to other roles is refused as a role refusal, in words (the runner's one wording)
    assert done["ok"] is False and done["error"]["code"] == "forbidden_for_role"
    assert not result.of("confirmation_pending") and "memberships__freeze" not in done["error"]["message"]
    assert await _value(db, "SELECT status FROM members WHERE id = :m", m=gym.members["dani"]) == "active"


async def test_book_then_undo_cancels_and_a_full_class_offers_the_waitlist_in_words(client, fake_model, db,
                                                                                    gym) -> None:
    result, conversation = await _ask(client, fake_model, gym, "bookings__book_member", _in(gym, "dani"))
    done = result.one("tool_completed")
    assert done["ok"] is True and done["inverseAvailable"] is True and done["output"]["spotsLeft"] == 1
    undo = await _undo(client, gym, conversation, "tu_1")
    assert undo.status_code == 200, undo.text
    assert undo.json()["inverse"]["action"] == "cancel_booking"
    assert await _value(db, "SELECT status FROM bookings WHERE member_id = :m", m=gym.members["dani"]) == "cancelled"
    for member, tu in (("dani", "tu_2"), ("saar", "tu_3")):
        await _ask(client, fake_model, gym, "bookings__book_member", _in(gym, member), tool_use_id=tu,
                   conversation=conversation)
    full, _ = await _ask(client, fake_model, gym, "bookings__book_member", _in(gym, "noa"), tool_use_id="tu_4",
                         conversation=conversation)
    refused = full.one("tool_completed")
    assert refused["ok"] is False and refused["error"]["message"] == "That class is full (2 places)."
    assert refused["error"]["nextStep"]["label"] == "Add to the waitlist"
    fed = fake_model.requests[-1].body["messages"][-1]["content"][0]
    assert fed["is_error"] is True and json.loads(fed["content"])["code"] == "session_full"
    waiting, _ = await _ask(client, fake_model, gym, "bookings__join_waitlist", _in(gym, "noa"), tool_use_id="tu_5",
                            conversation=conversation)
    assert waiting.one("tool_completed")["output"]["position"] == 1
    cancel, _ = await _ask(client, fake_model, gym, "bookings__cancel_booking", _in(gym, "saar"), tool_use_id="tu_6",
                           conversation=conversation)
    assert [p["member"] for p in cancel.one("tool_completed")["output"]["promoted"]] == ["Noa Peretz"]
    again = await _undo(client, gym, conversation, "tu_6")  # Noa has the seat now: the same seat is not free
    assert again.status_code == 422 and again.json()["code"] == "not_undoable"


async def test_refusals_in_hebrew_and_russian_words(client, fake_model, gym) -> None:
    for locale, words in (("he", "מוקפא"), ("ru", "заморожен")):
        fake_model.queue(Reply(ToolUse("bookings__book_member", _in(gym, "frozen"), id=f"tu_{locale}")),
                         Reply(Text("ok")))
        result = await sse(client, f"{_base(gym)}/messages", headers={**gym.desk.headers, "x-locale": locale},
                           json_body={"message": "book Frida"})
        error = result.one("tool_completed")["error"]
        assert error["code"] == "member_frozen" and words in error["message"] and "Frida Frost" in error["message"]
    past, _ = await _ask(client, fake_model, gym, "bookings__book_member", _in(gym, "noa", "started"))
    assert past.one("tool_completed")["error"]["code"] == "session_past"


async def test_check_in_moves_the_last_visit_and_undo_puts_it_back(client, fake_model, db, gym) -> None:
    before = await _value(db, "SELECT last_visit_at FROM members WHERE id = :m", m=gym.members["dani"])
    result, conversation = await _ask(client, fake_model, gym, "bookings__check_in",
                                      {"memberId": str(gym.members["dani"])})
    done = result.one("tool_completed")
    assert done["ok"] is True and done["inverseAvailable"] is True
    assert await _value(db, "SELECT last_visit_at FROM members WHERE id = :m", m=gym.members["dani"]) > before
    undo = await _undo(client, gym, conversation, "tu_1")
    assert undo.status_code == 200 and undo.json()["inverse"]["action"] == "undo_check_in"
    assert await _value(db, "SELECT last_visit_at FROM members WHERE id = :m", m=gym.members["dani"]) == before
    cancelled, _ = await _ask(client, fake_model, gym, "bookings__check_in",
                              {"memberId": str(gym.members["cancelled"])}, tool_use_id="tu_2",
                              conversation=conversation)
    assert cancelled.one("tool_completed")["error"]["message"] == "Carl Gone's membership is cancelled."


async def test_a_freeze_waits_for_approval_then_undo_unfreezes_and_a_reject_changes_nothing(client, fake_model, db,
                                                                                           gym) -> None:
    freeze = {"memberId": str(gym.members["dani"]), "days": 14, "reason": "travel"}
    result, conversation = await _ask(client, fake_model, gym, "memberships__freeze", freeze)
    pending = result.one("confirmation_pending")
    assert pending["confirm"] == "always" and "tool_started" not in result.names
    assert pending["summary"].startswith("Freeze Dani Mizrahi's membership") and "(14 days)" in pending["summary"]
    assert "Reason: travel." in pending["summary"]
    approved = await _confirm(client, fake_model, gym, conversation, "tu_1", True)
    done = approved.one("tool_completed")
    assert done["ok"] is True and done["inverseAvailable"] is True and done["output"]["status"] == "frozen"
    assert await _value(db, "SELECT status FROM members WHERE id = :m", m=gym.members["dani"]) == "frozen"
    undo = await _undo(client, gym, conversation, "tu_1")
    assert undo.status_code == 200 and undo.json()["inverse"]["action"] == "unfreeze"
    assert await _value(db, "SELECT status FROM members WHERE id = :m", m=gym.members["dani"]) == "active"
    result, _ = await _ask(client, fake_model, gym, "memberships__freeze", {**freeze, "memberId": str(
        gym.members["saar"])}, tool_use_id="tu_2", conversation=conversation)
    rejected = await _confirm(client, fake_model, gym, conversation, "tu_2", False)
    assert rejected.one("tool_completed")["error"]["code"] == "rejected_by_user"
    assert await _value(db, "SELECT count(*) FROM membership_freezes WHERE member_id = :m",
                        m=gym.members["saar"]) == 0


async def test_drafts_undo_to_discarded_and_a_send_card_lists_each_message_and_cannot_be_unsent(client, fake_model,
                                                                                               db, gym) -> None:
    result, conversation = await _ask(client, fake_model, gym, "messages__draft", {"filter": "at_risk"})
    drafted = result.one("tool_completed")
    assert drafted["ok"] is True and drafted["inverseAvailable"] is True and drafted["output"]["count"] == 3
    undo = await _undo(client, gym, conversation, "tu_1")
    assert undo.status_code == 200 and undo.json()["inverse"]["action"] == "discard"
    assert await _value(db, "SELECT count(*) FROM member_messages WHERE org_id = :o AND status = 'discarded'",
                        o=gym.org.id) == 3
    again, _ = await _ask(client, fake_model, gym, "messages__draft", {"filter": "at_risk"}, tool_use_id="tu_2",
                          conversation=conversation)
    batch = again.one("tool_completed")["output"]["id"]
    asked, _ = await _ask(client, fake_model, gym, "messages__send", {"batchId": batch}, tool_use_id="tu_3",
                          conversation=conversation)
    card = asked.one("confirmation_pending")
    assert card["summary"] == "Send 3 emails to these members. Once sent, a message cannot be unsent."
    assert len(card["details"]) == 3 and card["details"][0].startswith("Dani Mizrahi (last visit 30 days ago")
    assert any("Noa Peretz (no visit since joining" in line for line in card["details"])
    rejected = await _confirm(client, fake_model, gym, conversation, "tu_3", False)
    assert rejected.one("tool_completed")["error"]["code"] == "rejected_by_user"
    assert await _value(db, "SELECT count(*) FROM member_messages WHERE batch_id = :b AND status = 'draft'",
                        b=batch) == 3
    asked, _ = await _ask(client, fake_model, gym, "messages__send", {"batchId": batch}, tool_use_id="tu_4",
                          conversation=conversation)
    sent = (await _confirm(client, fake_model, gym, conversation, "tu_4", True)).one("tool_completed")
    assert sent["ok"] is True and sent["inverseAvailable"] is False
    assert {m["status"] for m in sent["output"]["messages"]} == {"queued"}
    # the app's in-process worker (the demo's log sender) may already have delivered them
    assert await _value(db, "SELECT count(*) FROM member_messages WHERE batch_id = :b AND status IN ('queued', "
                            "'sent')", b=batch) == 3
    not_undoable = await _undo(client, gym, conversation, "tu_4")
    assert not_undoable.status_code == 422 and not_undoable.json()["code"] == "not_undoable"


async def test_cancelling_a_class_names_its_booked_members_and_offers_to_draft_them_a_message(client, fake_model, db,
                                                                                             gym) -> None:
    for member in ("dani", "saar"):
        await _ask(client, fake_model, gym, "bookings__book_member", _in(gym, member, "tomorrow_1830"), role="owner")
    result, conversation = await _ask(client, fake_model, gym, "class_sessions__cancel",
                                      {"id": str(gym.sessions["tomorrow_1830"])}, role="owner")
    card = result.one("confirmation_pending")
    assert "2 members are booked and won't be told unless you message them" in card["summary"]
    assert card["details"] == ["Dani Mizrahi", "Saar Levi"]
    done = (await _confirm(client, fake_model, gym, conversation, "tu_1", True, role="owner")).one("tool_completed")
    assert done["output"]["bookedMembers"] == ["Dani Mizrahi", "Saar Levi"]
    assert done["output"]["nextStep"]["label"] == "Draft them a message"
    drafted, _ = await _ask(client, fake_model, gym, "messages__draft",
                            {"filter": "session", "sessionId": str(gym.sessions["tomorrow_1830"])}, role="owner",
                            tool_use_id="tu_2", conversation=conversation)
    out = drafted.one("tool_completed")["output"]
    assert out["count"] == 2 and all("is cancelled" in d["text"] and "18:30" in d["text"] for d in out["drafts"])
