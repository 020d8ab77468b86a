"""The offline demo does the front desk's work to the end (issue 42 item 5), in English, Hebrew and Russian: a
booking (and the waitlist when the class is full), a check-in, a freeze, the at-risk members' messages on one card
(approve sends, reject sends nothing), and a cancelled class's booked members offered a message."""

from __future__ import annotations

import uuid

import pytest

from core.i18n import translate
from tests.agent.test_offline_model import Chat

DANI, SAAR = str(uuid.uuid4()), str(uuid.uuid4())
SESSION = str(uuid.uuid4())
LISTING = {"date": "2026-11-24", "count": 2, "sessions": [
    {"id": SESSION, "title": "CrossFit", "classType": "CrossFit", "date": "2026-11-24", "start": "17:30",
     "end": "18:30", "booked": 15, "capacity": 16, "published": True, "cancelled": False},
    {"id": str(uuid.uuid4()), "title": "CrossFit", "classType": "CrossFit", "date": "2026-11-24", "start": "18:30",
     "end": "19:30", "booked": 9, "capacity": 16, "published": True, "cancelled": False}]}
BOOK = {"en": "book Dani into tomorrow's 17:30 CrossFit", "he": "תרשום את Dani לקרוספיט מחר ב-17:30",
        "ru": "запиши Dani на кроссфит завтра в 17:30"}
CHECK_IN = {"en": "check in Saar Levi", "he": "צ'ק-אין לSaar Levi", "ru": "отметь Saar Levi"}
FREEZE = {"en": "freeze Dani's membership for two weeks", "he": "תקפיא את המנוי של Dani לשבועיים",
          "ru": "заморозь абонемент Dani на две недели"}
MESSAGE = {"en": "message the at-risk members", "he": "שלח הודעה למתאמנים בסיכון", "ru": "напиши участникам в зоне риска"}
LOCALES = ("en", "he", "ru")


def _hit(member_id: str, label: str, score: float = 1.0) -> dict:
    return {"id": member_id, "label": label, "sublabel": "active", "score": score}


def t(key: str, locale: str, **params) -> str:
    return translate(f"offline.text.{key}", locale, **params)


@pytest.mark.parametrize("locale", LOCALES)
async def test_book_finds_the_member_and_the_class_then_offers_the_waitlist_when_full(locale) -> None:
    chat = Chat(BOOK[locale], locale=locale, role="front_desk")
    await chat.expect_tool("read__members_search", {"query": "Dani"})
    chat.result({"count": 1, "members": [_hit(DANI, "Dani Mizrahi")]})
    await chat.expect_tool("class_sessions__list_for_date", {"date": "tomorrow", "includeCancelled": False})
    chat.result(LISTING)
    await chat.expect_tool("bookings__book_member", {"memberId": DANI, "sessionId": SESSION})
    chat.result({"id": str(uuid.uuid4()), "memberId": DANI, "member": "Dani Mizrahi", "sessionId": SESSION,
                 "title": "CrossFit", "date": "2026-11-24", "start": "17:30", "booked": 16, "capacity": 16,
                 "spotsLeft": 0})
    reply = await chat.expect_text()
    assert t("booked", locale, member="Dani Mizrahi", title="CrossFit", date="2026-11-24", time="17:30", left=0) in reply
    assert t("undo", locale) in reply  # the desk can cancel a booking it made

    full = Chat(BOOK[locale], locale=locale, role="front_desk")
    await full.expect_tool("read__members_search")
    full.result({"count": 1, "members": [_hit(SAAR, "Saar Levi")]})
    await full.expect_tool("class_sessions__list_for_date")
    full.result(LISTING)
    booking = await full.expect_tool("bookings__book_member")
    step = {"key": "join_waitlist", "label": translate("agent.nextSteps.join_waitlist.label", locale),
            "message": translate("agent.nextSteps.join_waitlist.message", locale)}
    full.result(error={"code": "session_full", "message": translate("agent.errors.session_full", locale, capacity=16),
                       "hint": "Offer the waitlist.", "nextStep": step})
    refused = await full.expect_text()
    assert step["label"] in refused and "Offer the waitlist" not in refused
    full.say(step["message"])
    await full.expect_tool("bookings__join_waitlist", booking)
    full.result({"id": str(uuid.uuid4()), "memberId": SAAR, "member": "Saar Levi", "sessionId": SESSION,
                 "title": "CrossFit", "date": "2026-11-24", "start": "17:30", "position": 1})
    assert t("waitlisted", locale, member="Saar Levi", title="CrossFit", date="2026-11-24", time="17:30", n=1) in \
        await full.expect_text()


@pytest.mark.parametrize("locale", LOCALES)
async def test_check_in_saar_levi_picks_the_exact_name_among_the_saars(locale) -> None:
    chat = Chat(CHECK_IN[locale], locale=locale, role="front_desk")
    await chat.expect_tool("read__members_search", {"query": "Saar Levi"})
    chat.result({"count": 2, "members": [_hit(SAAR, "Saar Levi"), _hit(str(uuid.uuid4()), "Saar Cohen", 0.9)]})
    await chat.expect_tool("bookings__check_in", {"memberId": SAAR})
    chat.result({"id": str(uuid.uuid4()), "memberId": SAAR, "member": "Saar Levi", "checkedInAt": "10:02",
                 "bookingCreated": False})
    assert t("checked_in", locale, member="Saar Levi", time="10:02") in await chat.expect_text()


@pytest.mark.parametrize("locale", LOCALES)
async def test_freeze_for_two_weeks_asks_for_fourteen_days_on_a_confirmation(locale) -> None:
    chat = Chat(FREEZE[locale], locale=locale, role="front_desk")
    await chat.expect_tool("read__members_search", {"query": "Dani"})
    chat.result({"count": 1, "members": [_hit(DANI, "Dani Mizrahi")]})
    await chat.expect_tool("memberships__freeze", {"memberId": DANI, "days": 14})
    chat.result({"id": str(uuid.uuid4()), "memberId": DANI, "member": "Dani Mizrahi", "status": "frozen",
                 "from": "2026-11-23", "to": "2026-12-06", "days": 14})
    assert t("frozen", locale, member="Dani Mizrahi", **{"from": "2026-11-23"}, to="2026-12-06", n=14) in \
        await chat.expect_text()
    coach = Chat(FREEZE[locale], locale=locale, role="coach")  # not a coach's tool: said so, nothing asked
    await coach.expect_tool("read__members_search")
    coach.result({"count": 1, "members": [_hit(DANI, "Dani Mizrahi")]})
    said = await coach.expect_text()
    assert translate("console.roles.coach", locale) in said


def _drafts(n: int = 3) -> dict:
    names = ["Dani Mizrahi", "Saar Levi", "Noa Peretz"][:n]
    return {"id": str(uuid.uuid4()), "count": n, "notDrafted": 0, "skipped": [
        {"memberId": str(uuid.uuid4()), "member": "Olga Quiet", "why": "opted_out"}], "drafts": [
        {"id": str(uuid.uuid4()), "memberId": str(uuid.uuid4()), "member": name, "reason": "last visit 30 days ago",
         "subject": "We miss you", "text": f"Hi {name.split()[0]}, ..."} for name in names]}


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_at_risk_members_get_one_draft_each_on_one_card_approve_sends(locale) -> None:
    chat = Chat(MESSAGE[locale], locale=locale, role="front_desk")
    await chat.expect_tool("messages__draft", {"filter": "at_risk"})
    batch = _drafts()
    chat.result(batch)
    text, _ = await chat.move()
    (use,) = chat.tool_uses()
    assert use["name"] == "messages__send" and use["input"] == {"batchId": batch["id"]}
    assert t("messages_drafted", locale, n=3) in text and "Olga Quiet" in text
    chat.result({"id": batch["id"], "count": 3, "messages": [
        {"id": d["id"], "memberId": d["memberId"], "member": d["member"], "status": "queued"}
        for d in batch["drafts"]]})
    assert t("messages_queued", locale, n=3) in await chat.expect_text()


async def test_a_rejected_send_sends_nothing_and_says_the_drafts_stay() -> None:
    chat = Chat("message the at-risk members", role="front_desk")
    await chat.expect_tool("messages__draft")
    batch = _drafts(2)
    chat.result(batch)
    await chat.expect_tool("messages__send")
    chat.result(error={"code": "rejected_by_user", "message": "The user rejected this action.", "hint": None})
    assert t("messages_kept", "en", n=2) in await chat.expect_text()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_cancelled_class_names_its_booked_members_and_drafts_them_a_message(locale) -> None:
    words = {"en": "cancel the 18:30 CrossFit tomorrow", "he": "בטל את הקרוספיט מחר ב-18:30",
             "ru": "отмени кроссфит завтра в 18:30"}[locale]
    chat = Chat(words, locale=locale, role="owner")
    await chat.expect_tool("class_sessions__list_for_date", {"date": "tomorrow"})
    chat.result(LISTING)
    cancel = await chat.expect_tool("class_sessions__cancel")
    step = {"key": "message_booked", "label": translate("agent.nextSteps.message_booked.label", locale),
            "message": translate("agent.nextSteps.message_booked.message", locale)}
    chat.result({"id": cancel["id"], "title": "CrossFit", "date": "2026-11-24", "startsAt": "2026-11-24T18:30:00+02:00",
                 "cancelled": True, "bookedMembers": ["Dani Mizrahi", "Saar Levi"], "nextStep": step})
    reply = await chat.expect_text()
    assert "Dani Mizrahi, Saar Levi" in reply and step["label"] in reply
    chat.say(step["message"])
    await chat.expect_tool("messages__draft", {"filter": "session", "sessionId": cancel["id"]})
    chat.result(_drafts(2))
    await chat.expect_tool("messages__send")
