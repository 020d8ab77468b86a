"""The front desk's tools through the real runner (issue 42): the rules that refuse in people's words — capacity,
double booking, frozen or cancelled members, sessions already started — the waitlist promoted in order, check-ins
and their undo, freezes, and drafts written from each member's own data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from gym import classes
from tests.tools.desk_gym import desk_gym
from tests.tools.harness import REGISTRY

NOW = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)  # Monday 10:00 in Jerusalem


@pytest.fixture
async def gym(db, factory):
    return await desk_gym(db, factory, now=NOW)


def _in(gym, member: str, session: str = "tomorrow_1730") -> dict:
    return {"memberId": str(gym.members[member]), "sessionId": str(gym.sessions[session])}


async def _book(tools, gym, member: str, session: str = "tomorrow_1730", **kw) -> dict:
    return await tools.ok("bookings__book_member", _in(gym, member, session), org=gym.org, user=gym.desk, now=NOW, **kw)


async def _one(db, sql: str, **params):
    async with db.owner() as session:
        return (await session.execute(text(sql), params)).first()


async def test_book_counts_the_seat_and_refuses_double_booking_full_frozen_cancelled_and_past(tools, db, gym) -> None:
    out = await _book(tools, gym, "dani")
    assert (out["member"], out["title"], out["start"], out["booked"], out["spotsLeft"]) == (
        "Dani Mizrahi", "CrossFit", "17:30", 1, 1)
    again = await tools.fails("bookings__book_member", _in(gym, "dani"), "already_booked", org=gym.org, user=gym.desk,
                              now=NOW)
    assert "Dani Mizrahi" not in again["hint"] and "already booked" in again["message"]
    await _book(tools, gym, "saar")
    full = await tools.fails("bookings__book_member", _in(gym, "noa"), "session_full", org=gym.org, user=gym.desk,
                             now=NOW)
    assert full["message"] == "That class is full (2 places)." and full["nextStep"]["key"] == "join_waitlist"
    frozen = await tools.fails("bookings__book_member", _in(gym, "frozen", "tomorrow_1830"), "member_frozen",
                               org=gym.org, user=gym.desk, now=NOW)
    assert frozen["message"].startswith("Frida Frost's membership is frozen on 2026-11-24")
    await tools.fails("bookings__book_member", _in(gym, "cancelled", "tomorrow_1830"), "member_cancelled",
                      org=gym.org, user=gym.desk, now=NOW)
    past = await tools.fails("bookings__book_member", _in(gym, "noa", "started"), "session_past", org=gym.org,
                             user=gym.desk, now=NOW)
    assert "has already started" in past["message"]
    he = await tools.fails("bookings__book_member", _in(gym, "noa"), "session_full", org=gym.org, user=gym.desk,
                           now=NOW, locale="he")
    assert he["message"] == "השיעור מלא (2 מקומות)."
    row = await _one(db, "SELECT count(*) AS n FROM bookings WHERE org_id = :o", o=gym.org.id)
    assert row.n == 2


async def test_a_member_cannot_be_in_two_classes_at_once_nor_booked_from_another_gym(tools, db, factory, gym) -> None:
    async with db.scope(org_id=gym.org.id) as session:
        other_type = await classes.create_class_type(session, gym.org.id, name="Open Gym")
        clash = await classes.create_session(session, gym.org.id, class_type_id=other_type.id,
                                             starts_at=NOW + timedelta(days=1, hours=7),  # 17:00 local tomorrow
                                             ends_at=NOW + timedelta(days=1, hours=9))
    await _book(tools, gym, "dani")
    refused = await tools.fails("bookings__book_member", {"memberId": str(gym.members["dani"]),
                                                          "sessionId": str(clash.id)}, "booking_overlap",
                                org=gym.org, user=gym.desk, now=NOW)
    assert refused["message"] == "Dani Mizrahi is already booked into CrossFit at 2026-11-24 17:30."
    other = await desk_gym(db, factory, now=NOW)
    await tools.fails("bookings__book_member", _in(other, "dani"), "class_session_not_found", org=gym.org,
                      user=gym.desk, now=NOW)
    await tools.fails("bookings__book_member", {"memberId": str(other.members["dani"]),
                                                "sessionId": str(gym.sessions["tomorrow_1730"])}, "member_not_found",
                      org=gym.org, user=gym.desk, now=NOW)


async def test_a_freed_seat_goes_to_the_waitlist_in_the_order_people_joined(tools, db, gym) -> None:
    first = await _book(tools, gym, "dani")
    await _book(tools, gym, "saar")
    await tools.fails("bookings__join_waitlist", _in(gym, "noa", "tomorrow_1830"), "session_has_room", org=gym.org,
                      user=gym.desk, now=NOW)
    noa = await tools.ok("bookings__join_waitlist", _in(gym, "noa"), org=gym.org, user=gym.desk, now=NOW)
    olga = await tools.ok("bookings__join_waitlist", _in(gym, "optout"), org=gym.org, user=gym.desk,
                          now=NOW + timedelta(minutes=1))
    assert (noa["position"], olga["position"]) == (1, 2)
    await tools.fails("bookings__join_waitlist", _in(gym, "noa"), "already_waiting", org=gym.org, user=gym.desk,
                      now=NOW)
    # Noa leaves and the undo puts her back in front of Olga
    left = await tools.ok("bookings__leave_waitlist", _in(gym, "noa"), org=gym.org, user=gym.desk, now=NOW)
    inverse = REGISTRY.get("bookings__leave_waitlist").inverse
    back = await tools.ok(inverse.name, inverse.build_input(left), org=gym.org, user=gym.desk,
                          now=NOW + timedelta(minutes=5))
    assert back["position"] == 1
    cancelled = await tools.ok("bookings__cancel_booking", {"id": first["id"]}, org=gym.org, user=gym.desk, now=NOW)
    assert [p["member"] for p in cancelled["promoted"]] == ["Noa Peretz"] and cancelled["booked"] == 2
    row = await _one(db, "SELECT b.status FROM bookings b WHERE b.member_id = :m AND b.session_id = :s",
                     m=gym.members["noa"], s=gym.sessions["tomorrow_1730"])
    assert row.status == "booked"
    # undoing the cancellation finds the seat taken: the same seat only if it is still free
    undo = REGISTRY.get("bookings__cancel_booking").inverse
    await tools.fails(undo.name, undo.build_input(cancelled), "session_full", org=gym.org, user=gym.desk, now=NOW)


async def test_check_in_marks_the_booking_and_last_visit_and_undo_puts_both_back(tools, db, gym) -> None:
    await _book(tools, gym, "dani", "soon")
    before = (await _one(db, "SELECT last_visit_at FROM members WHERE id = :m", m=gym.members["dani"])).last_visit_at
    visit = await tools.ok("bookings__check_in", {"memberId": str(gym.members["dani"])}, org=gym.org, user=gym.desk,
                           now=NOW)
    assert visit["sessionId"] == str(gym.sessions["soon"]) and visit["checkedInAt"] == "10:00"
    assert (await _one(db, "SELECT status FROM bookings WHERE member_id = :m", m=gym.members["dani"])).status == \
        "attended"
    assert (await _one(db, "SELECT last_visit_at FROM members WHERE id = :m", m=gym.members["dani"])).last_visit_at \
        == NOW
    await tools.fails("bookings__check_in", {"memberId": str(gym.members["dani"])}, "already_checked_in", org=gym.org,
                      user=gym.desk, now=NOW)
    undo = REGISTRY.get("bookings__check_in").inverse
    await tools.ok(undo.name, undo.build_input(visit), org=gym.org, user=gym.desk, now=NOW)
    assert (await _one(db, "SELECT status FROM bookings WHERE member_id = :m", m=gym.members["dani"])).status == \
        "booked"
    assert (await _one(db, "SELECT last_visit_at FROM members WHERE id = :m", m=gym.members["dani"])).last_visit_at \
        == before
    # a visit with no class; the frozen and the cancelled are refused; a class tomorrow is not open yet
    plain = await tools.ok("bookings__check_in", {"memberId": str(gym.members["noa"])}, org=gym.org, user=gym.desk,
                           now=NOW)
    assert plain.get("sessionId") is None and plain["bookingCreated"] is False
    await tools.fails("bookings__check_in", {"memberId": str(gym.members["frozen"])}, "member_frozen", org=gym.org,
                      user=gym.desk, now=NOW)
    await tools.fails("bookings__check_in", {"memberId": str(gym.members["cancelled"])}, "member_cancelled",
                      org=gym.org, user=gym.desk, now=NOW)
    await tools.fails("bookings__check_in", _in(gym, "saar"), "check_in_closed", org=gym.org, user=gym.desk, now=NOW)


async def test_freeze_blocks_bookings_on_its_days_and_unfreeze_restores_the_status(tools, db, gym) -> None:
    freeze = await tools.ok("memberships__freeze", {"memberId": str(gym.members["dani"]), "days": 14,
                                                    "reason": "travel"}, org=gym.org, user=gym.desk, now=NOW)
    assert (freeze["status"], freeze["from"], freeze["to"], freeze["days"]) == ("frozen", "2026-11-23", "2026-12-06", 14)
    await tools.fails("bookings__book_member", _in(gym, "dani"), "member_frozen", org=gym.org, user=gym.desk, now=NOW)
    await tools.fails("memberships__freeze", {"memberId": str(gym.members["dani"]), "days": 3}, "already_frozen",
                      org=gym.org, user=gym.desk, now=NOW)
    await tools.fails("memberships__freeze", {"memberId": str(gym.members["cancelled"]), "days": 3},
                      "member_cancelled", org=gym.org, user=gym.desk, now=NOW)
    await tools.fails("memberships__freeze", {"memberId": str(gym.members["noa"]), "from": "2026-11-20", "days": 3},
                      "freeze_in_past", org=gym.org, user=gym.desk, now=NOW)
    await tools.fails("memberships__freeze", {"memberId": str(gym.members["noa"])}, "validation_failed", org=gym.org,
                      user=gym.desk, now=NOW)
    lifted = await tools.ok("memberships__unfreeze", {"memberId": str(gym.members["dani"])}, org=gym.org,
                            user=gym.desk, now=NOW)
    assert lifted["status"] == "active" and lifted["unfrozen"] is True
    await _book(tools, gym, "dani")
    await tools.fails("memberships__unfreeze", {"memberId": str(gym.members["noa"])}, "not_frozen", org=gym.org,
                      user=gym.desk, now=NOW)
    # a freeze that starts next week leaves this week's bookings alone but refuses the days it covers
    ahead = await tools.ok("memberships__freeze", {"memberId": str(gym.members["saar"]), "from": "2026-11-30",
                                                   "to": "2026-12-02"}, org=gym.org, user=gym.desk, now=NOW)
    assert ahead["status"] == "active"
    await _book(tools, gym, "saar")
    assert REGISTRY.get("memberships__freeze").roles == {"owner", "admin", "front_desk"}
    await tools.fails("memberships__freeze", {"memberId": str(gym.members["noa"]), "days": 3}, "forbidden_for_role",
                      org=gym.org, user=gym.users["coach"], now=NOW)


async def test_at_risk_drafts_are_written_from_each_members_data_and_skip_the_opted_out(tools, db, gym) -> None:
    async with db.owner() as session:
        await session.execute(text(
            "INSERT INTO bookings (id, org_id, session_id, member_id, status) VALUES (gen_random_uuid(), :o, :s, :m, "
            "'no_show')"), {"o": gym.org.id, "s": gym.sessions["started"], "m": gym.members["saar"]})
    out = await tools.ok("messages__draft", {"filter": "at_risk"}, org=gym.org, user=gym.users["coach"],
                         now=NOW + timedelta(hours=2))
    by_name = {d["member"]: d for d in out["drafts"]}
    assert set(by_name) == {"Dani Mizrahi", "Saar Levi", "Noa Peretz"} and out["count"] == 3
    assert [s["why"] for s in out["skipped"]] == ["opted_out"]
    saar = by_name["Saar Levi"]
    assert saar["text"].startswith("Hi Saar,") and "since Oct 24, 2026 — that's 30 days" in saar["text"]
    assert "missed 1 class you had booked" in saar["text"] and "missed 1 booked class" in saar["reason"]
    assert "missed" not in by_name["Dani Mizrahi"]["text"]
    assert "we haven't seen you in a class yet" in by_name["Noa Peretz"]["text"]
    assert by_name["Noa Peretz"]["reason"].startswith("no visit since joining on")
    sent = await tools.ok("messages__send", {"batchId": out["id"]}, org=gym.org, user=gym.desk,
                          now=NOW + timedelta(hours=2))
    assert {m["status"] for m in sent["messages"]} == {"queued"} and sent["count"] == 3
    await tools.fails("messages__send", {"batchId": out["id"]}, "no_drafts", org=gym.org, user=gym.desk, now=NOW)
    await tools.fails("messages__discard", {"batchId": out["id"]}, "no_drafts", org=gym.org, user=gym.desk, now=NOW)


async def test_a_freeze_wakes_the_worker_for_its_first_and_last_day_and_the_status_follows(tools, db, gym) -> None:
    from datetime import date

    from gym.freezes import sync_status

    saar = gym.members["saar"]
    await tools.ok("memberships__freeze", {"memberId": str(saar), "from": "2026-11-30", "to": "2026-12-02"},
                   org=gym.org, user=gym.desk, now=NOW)
    async with db.owner() as session:
        jobs = (await session.execute(text(
            "SELECT execute_after FROM pgqueuer WHERE entrypoint = 'membership_freezes' AND "
            "convert_from(payload, 'UTF8')::jsonb->>'member_id' = :m ORDER BY execute_after"), {"m": str(saar)})).all()
    assert len(jobs) == 2  # local midnights of Nov 30 and Dec 3 (Jerusalem), relative to when they were queued
    assert (jobs[1].execute_after - jobs[0].execute_after).days == 3
    async with db.scope(org_id=gym.org.id) as session:
        assert await sync_status(session, gym.org.id, saar, date(2026, 11, 29)) == "active"
        assert await sync_status(session, gym.org.id, saar, date(2026, 11, 30)) == "frozen"
        assert await sync_status(session, gym.org.id, saar, date(2026, 12, 3)) == "active"
    # a status left "frozen" after the freeze ended never blocks a booking: the recorded days decide
    async with db.owner() as session:
        await session.execute(text("UPDATE members SET status = 'frozen' WHERE id = :m"), {"m": saar})
    await _book(tools, gym, "saar")
    # a member frozen before freezes were recorded stays frozen until someone unfreezes them
    await tools.fails("bookings__book_member", _in(gym, "frozen"), "member_frozen", org=gym.org, user=gym.desk,
                      now=NOW)
    lifted = await tools.ok("memberships__unfreeze", {"memberId": str(gym.members["frozen"])}, org=gym.org,
                            user=gym.desk, now=NOW)
    assert lifted["status"] == "active"
    await _book(tools, gym, "frozen")


@pytest.mark.parametrize(("name", "bad"), [
    ("bookings__book_member", {"memberId": "not-a-uuid", "sessionId": "x"}),
    ("bookings__cancel_booking", {}),
    ("bookings__cancel_booking", {"id": "00000000-0000-0000-0000-000000000001", "memberId":
                                  "00000000-0000-0000-0000-000000000002"}),
    ("bookings__leave_waitlist", {"memberId": "00000000-0000-0000-0000-000000000002"}),
    ("bookings__check_in", {"memberId": 42}),
    ("memberships__freeze", {"memberId": "00000000-0000-0000-0000-000000000002", "days": 14, "to": "2026-12-01"}),
    ("memberships__freeze", {"memberId": "00000000-0000-0000-0000-000000000002", "days": 181}),
    ("messages__draft", {"filter": "at_risk", "memberIds": ["00000000-0000-0000-0000-000000000002"]}),
    ("messages__draft", {"filter": "session"}),
    ("messages__draft", {"memberIds": ["00000000-0000-0000-0000-000000000002"], "purpose": "note"}),
    ("messages__draft", {"filter": "at_risk", "note": "x" * 1001}),
    ("messages__send", {}),
    ("messages__status", {"batchId": "00000000-0000-0000-0000-000000000002", "memberId":
                          "00000000-0000-0000-0000-000000000002"}),
])
async def test_malformed_input_is_a_validation_error_and_writes_nothing(tools, db, gym, name, bad) -> None:
    await tools.fails(name, bad, "validation_failed", org=gym.org, user=gym.desk, now=NOW)
    async with db.owner() as session:
        written = await session.scalar(text(
            "SELECT (SELECT count(*) FROM bookings WHERE org_id = :o) + (SELECT count(*) FROM member_messages WHERE "
            "org_id = :o) + (SELECT count(*) FROM membership_freezes WHERE org_id = :o) + (SELECT count(*) FROM "
            "check_ins WHERE org_id = :o)"), {"o": gym.org.id})
    assert written == 0


async def test_unknown_and_foreign_ids_and_replays_are_refused_in_words(tools, db, factory, gym) -> None:
    import uuid

    other = await desk_gym(db, factory, now=NOW)
    stranger = str(uuid.uuid4())
    await tools.fails("bookings__cancel_booking", {"id": stranger}, "booking_not_found", org=gym.org, user=gym.desk,
                      now=NOW)
    await tools.fails("bookings__undo_check_in", {"id": stranger}, "check_in_not_found", org=gym.org, user=gym.desk,
                      now=NOW)
    await tools.fails("memberships__freeze", {"memberId": str(other.members["dani"]), "days": 3}, "member_not_found",
                      org=gym.org, user=gym.desk, now=NOW)
    theirs = await tools.ok("messages__draft", {"memberIds": [str(other.members["dani"])], "note": "Hello"},
                            org=other.org, user=other.desk, now=NOW)
    await tools.fails("messages__send", {"batchId": theirs["id"]}, "messages_not_found", org=gym.org, user=gym.desk,
                      now=NOW)
    await tools.fails("messages__draft", {"memberIds": [str(other.members["dani"])], "note": "Hi"},
                      "member_not_found", org=gym.org, user=gym.desk, now=NOW)
    visit = await tools.ok("bookings__check_in", {"memberId": str(gym.members["noa"])}, org=gym.org, user=gym.desk,
                           now=NOW)
    await tools.ok("bookings__undo_check_in", {"id": visit["id"]}, org=gym.org, user=gym.desk, now=NOW)
    await tools.fails("bookings__undo_check_in", {"id": visit["id"]}, "check_in_not_found", org=gym.org,
                      user=gym.desk, now=NOW)
    note = await tools.ok("messages__draft", {"memberIds": [str(gym.members["dani"])], "note": "See you Sunday!"},
                          org=gym.org, user=gym.desk, now=NOW)
    assert note["drafts"][0]["text"].startswith("Hi Dani,") and "See you Sunday!" in note["drafts"][0]["text"]
    await tools.ok("messages__send", {"batchId": note["id"]}, org=gym.org, user=gym.desk, now=NOW)
    replay = await tools.fails("messages__send", {"batchId": note["id"]}, "no_drafts", org=gym.org, user=gym.desk,
                               now=NOW)
    assert "cannot be unsent" in replay["message"] or "can't be unsent" in replay["message"]
