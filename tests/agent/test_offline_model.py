"""The offline demo model: rules that drive the real tools, labelled as not an LLM, deterministic, $0.

Unit tests feed it requests built the way the orchestrator builds them; end-to-end tests run the app with
AGENT_MODEL_PROVIDER=offline over real HTTP against data made with the gym services.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from agent.conversations import STAFF_PERSONA
from agent.model import ModelResponse, TextDelta
from agent.model_facts import FACTS, ModelFacts, local_minute
from agent.model_facts import SUMMARY as SUMMARY_CALL
from agent.model_facts import TITLE as TITLE_CALL
from agent.policy import undoable_names
from agent.request import build_request, tool_definitions, turn_context, user_turn_content
from agent.turns import result_block
from core.tenancy import Caller, OrgAccess
from offline_model.model import LABEL, OfflineModel, chunks
from tools.catalog import build_registry

REGISTRY = build_registry()
NOW = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)  # Monday 10:00 in Jerusalem
SAAR_COHEN, SAAR_LEVI = str(uuid.uuid4()), str(uuid.uuid4())


# --- unit level: requests as the orchestrator builds them ----------------------------------------------------

class Chat:
    """One conversation with the offline model: the person's turn, the model's moves, tool results fed back."""

    def __init__(self, words: str, *, locale: str = "en", role: str = "owner") -> None:
        self.access = OrgAccess(org_id=uuid.uuid4(), org_name="Harbor Strength", tier="pro",
                                timezone="Asia/Jerusalem", locale="en", budget_override_usd_micros=None, role=role)
        self.caller = Caller(user_id=uuid.uuid4(), clerk_id="user_x", email="maya@harbor.test", name="Maya Owner")
        self.locale = locale
        self.messages: list[dict[str, Any]] = []
        self.say(words)

    def say(self, words: str) -> None:
        turn = turn_context(self.access, self.caller, self.locale, NOW)
        self.messages.append({"role": "user", "content": user_turn_content(words, turn=turn, page_context=None,
                                                                           ambient=None)})

    def request(self):
        """As the orchestrator builds it: the role's tools, those it can undo saying so (agent/policy.py), and the
        turn context's facts (agent/model_facts.py)."""
        specs = REGISTRY.for_role(self.access.role)
        undoable = undoable_names(REGISTRY, specs, self.access.role)
        tools = tool_definitions(specs, undoable=undoable)
        facts = ModelFacts(persona=STAFF_PERSONA, locale=self.locale, role=self.access.role,
                           now=local_minute(NOW, self.access.timezone), undoable=undoable)
        return build_request(model="claude-sonnet-4-6", specs=specs, access=self.access, messages=self.messages,
                             max_tokens=1024, tools_cache=tools, facts=facts)

    async def move(self) -> tuple[str, ModelResponse]:
        """One model round trip; the assistant message joins the history."""
        deltas, final = [], None
        async for item in OfflineModel().stream(self.request()):
            if isinstance(item, TextDelta):
                assert final is None, "text after the final response"
                deltas.append(item.text)
            else:
                final = item
        assert isinstance(final, ModelResponse)
        self.messages.append({"role": "assistant", "content": final.content})
        return "".join(deltas), final

    def tool_uses(self) -> list[dict[str, Any]]:
        return [b for b in self.messages[-1]["content"] if b["type"] == "tool_use"]

    def result(self, output: Any = None, *, error: dict | None = None) -> None:
        """Answer the pending tool use the way the orchestrator does."""
        (use,) = self.tool_uses()
        self.messages.append({"role": "user", "content": [result_block(use["id"], output, error)]})

    async def expect_tool(self, name: str, input: dict | None = None) -> dict[str, Any]:
        _, response = await self.move()
        assert response.stop_reason == "tool_use"
        (use,) = self.tool_uses()
        assert use["name"] == name
        if input is not None:
            assert use["input"] == input
        REGISTRY.get(name).input_model.model_validate(use["input"])  # the real tool accepts it
        return use["input"]

    async def expect_text(self) -> str:
        streamed, response = await self.move()
        assert response.stop_reason == "end_turn"
        assert [b["type"] for b in response.content] == ["text"]
        assert streamed == response.content[0]["text"]
        assert streamed.startswith(LABEL[self.locale])
        return streamed


def _hit(member_id: str, name: str, score: float, email: str) -> dict[str, Any]:
    return {"id": member_id, "label": name, "sublabel": email, "detail": "Last visit 2026-11-16 18:30",
            "status": "active", "score": score}


SAARS = {"count": 3, "members": [_hit(SAAR_COHEN, "Saar Cohen", 1.75, "saar.cohen@example.test"),
                                 _hit(SAAR_LEVI, "Saar Levi", 1.75, "saar.levi@example.test"),
                                 _hit(str(uuid.uuid4()), "Shira Saar", 1.0, "shira@example.test")]}
SAAR_LEVI_DETAIL = {
    "id": SAAR_LEVI, "name": "Saar Levi", "email": "saar.levi@example.test", "status": "active",
    "joinedOn": "2026-01-05", "plan": {"id": str(uuid.uuid4()), "name": "Unlimited", "interval": "month",
                                       "price": "520.00 ILS"},
    "subscription": {"status": "active", "startedOn": "2026-01-05"},
    "payments": {"state": "failed", "lastPayment": {"amount": "520.00 ILS", "status": "failed", "dueOn": "2026-11-05"},
                 "failedLast90Days": 1, "overdueCount": 0},
    "programs": [{"id": str(uuid.uuid4()), "name": "CrossFit", "kind": "class"}], "lastVisit": "2026-11-16 18:30 (7 days ago)",
    "visitsLast30Days": 7, "upcomingBookings": 1, "pendingForms": 1,
    "attention": ["Last payment FAILED: 520.00 ILS due 2026-11-05.", "1 form waiting to be signed."]}


async def test_who_am_i_reads_the_context_then_names_org_and_role() -> None:
    chat = Chat("Who am I?")
    assert await chat.expect_tool("read__get_current_context", {}) == {}
    chat.result({"org": {"name": "Harbor Strength", "tier": "pro", "timezone": "Asia/Jerusalem"},
                 "caller": {"name": "Maya Owner", "role": "owner"}, "now": "2026-11-23T10:00+02:00"})
    reply = await chat.expect_text()
    assert "Maya Owner (owner) at Harbor Strength" in reply and "Asia/Jerusalem" in reply


async def test_programs_are_listed_with_kind_and_enrolment() -> None:
    chat = Chat("what programs do we run")
    await chat.expect_tool("read__programs_list", {})
    chat.result({"count": 2, "programs": [{"id": str(uuid.uuid4()), "name": "Coaching", "kind": "coaching",
                                           "memberCount": 12},
                                          {"id": str(uuid.uuid4()), "name": "Open Gym", "kind": "class",
                                           "memberCount": 0}]})
    reply = await chat.expect_text()
    assert "2 active programs:" in reply and "• Coaching (coaching) — 12 enrolled" in reply
    assert "• Open Gym (class)" in reply


async def test_find_with_two_close_matches_asks_to_pick_then_shows_the_picked_member() -> None:
    chat = Chat("find Saar")
    await chat.expect_tool("read__members_search", {"query": "Saar"})
    chat.result(SAARS)
    pick = await chat.expect_tool("read__ask_user_to_pick")
    assert pick["kind"] == "member" and pick["prompt"] == "Which Saar?"
    assert [c["id"] for c in pick["candidates"]] == [SAAR_COHEN, SAAR_LEVI]  # Shira Saar is not a close match
    assert pick["candidates"][0] == {"id": SAAR_COHEN, "label": "Saar Cohen", "sublabel": "saar.cohen@example.test",
                                     "detail": "Last visit 2026-11-16 18:30"}
    chat.result({"pickedId": SAAR_LEVI, "pickedLabel": "Saar Levi", "kind": "member"})
    await chat.expect_tool("read__members_get", {"memberId": SAAR_LEVI})
    chat.result(SAAR_LEVI_DETAIL)
    reply = await chat.expect_text()
    assert "Saar Levi — active" in reply and "Plan: Unlimited, 520.00 ILS per month" in reply
    assert "FAILED" in reply and "Coach" not in reply and "Programs: CrossFit" in reply
    assert "Last visit: 2026-11-16 18:30;" in reply and "days ago" not in reply  # one date format (item 6)


async def test_find_with_one_clear_match_skips_the_picker_and_none_says_so() -> None:
    chat = Chat("find Saar Cohen")
    await chat.expect_tool("read__members_search", {"query": "Saar Cohen"})
    chat.result({"count": 2, "members": [_hit(SAAR_COHEN, "Saar Cohen", 1.75, "c@x.test"),
                                         _hit(SAAR_LEVI, "Saar Levi", 0.9, "l@x.test")]})
    await chat.expect_tool("read__members_get", {"memberId": SAAR_COHEN})

    nobody = Chat("find Zebulon")
    await nobody.expect_tool("read__members_search", {"query": "Zebulon"})
    nobody.result({"count": 0, "members": []})
    assert "No member matches “Zebulon”." in await nobody.expect_text()


@pytest.mark.parametrize(("words", "locale", "prompt"), [
    ("מצא את Saar", "he", "לאיזה Saar התכוונת?"),
    ("найди Saar", "ru", "Кого именно: Saar?"),
])
async def test_find_in_hebrew_and_russian(words, locale, prompt) -> None:
    chat = Chat(words, locale=locale)
    await chat.expect_tool("read__members_search", {"query": "Saar"})
    chat.result(SAARS)
    assert (await chat.expect_tool("read__ask_user_to_pick"))["prompt"] == prompt
    chat.result({"pickedId": SAAR_LEVI, "pickedLabel": "Saar Levi", "kind": "member"})
    await chat.expect_tool("read__members_get", {"memberId": SAAR_LEVI})
    chat.result(SAAR_LEVI_DETAIL)
    reply = await chat.expect_text()
    assert reply.startswith(LABEL[locale]) and "Saar Levi" in reply
    assert ("מנוי: Unlimited" if locale == "he" else "План: Unlimited") in reply
    assert ("פעיל" if locale == "he" else "активен") in reply and "active" not in reply  # the status in words


async def test_plan_and_payment_status_focuses_on_billing() -> None:
    chat = Chat("show Saar's plan and payment status")
    await chat.expect_tool("read__members_search", {"query": "Saar"})
    chat.result(SAARS)
    await chat.expect_tool("read__ask_user_to_pick")
    chat.result({"pickedId": SAAR_LEVI, "pickedLabel": "Saar Levi", "kind": "member"})
    await chat.expect_tool("read__members_get", {"memberId": SAAR_LEVI})
    chat.result(SAAR_LEVI_DETAIL)
    reply = await chat.expect_text()
    assert "Plan: Unlimited" in reply and "the last payment FAILED — 520.00 ILS due 2026-11-05" in reply
    assert reply.count("FAILED") == 1  # the attention notes do not repeat the payment line
    assert "One form is waiting to be signed." in reply and "Last visit" not in reply


async def test_build_a_workout_structures_the_text_and_mentions_undo() -> None:
    chat = Chat("build a workout: 3 rounds — 200m run, 30 double-unders")
    sent = await chat.expect_tool("workouts__create")
    assert sent == {"title": "3 rounds — 200m run, 30 double-unders",
                    "text": "3 rounds — 200m run, 30 double-unders", "structureFromText": True}
    chat.result({"id": str(uuid.uuid4()), "title": sent["title"], "format": "structured", "sections": [
        {"scheme": "3 rounds", "rounds": 3, "movements": [
            {"name": "run", "exerciseName": "Run", "prescription": {"distanceM": 200}},
            {"name": "double-unders", "exerciseName": "Double-Under", "prescription": {"reps": 30}}]}],
        "unresolved": []})
    reply = await chat.expect_text()
    assert "with 1 section:" in reply and "• 3 rounds: 200m Run, 30 Double-Under" in reply
    assert "undo" in reply.lower()


async def test_delete_workout_searches_then_asks_for_confirmation_then_reports() -> None:
    murph = str(uuid.uuid4())
    for outcome, expected in ((None, "Deleted “Murph”."), ("rejected_by_user", "Okay, kept it.")):
        chat = Chat("delete workout Murph")
        await chat.expect_tool("read__search_anything", {"query": "Murph", "types": ["workout"]})
        chat.result({"query": "Murph", "total": 2, "groups": {"workout": [
            {"type": "workout", "id": murph, "label": "Murph", "sublabel": "2026-11-20 · CrossFit"},
            {"type": "workout", "id": str(uuid.uuid4()), "label": "Murph (scaled)"}]}})
        streamed, response = await chat.move()
        assert response.stop_reason == "tool_use" and chat.tool_uses()[0]["input"] == {"id": murph}
        assert "Deleting it needs your confirmation" in streamed and streamed.startswith(LABEL["en"])
        if outcome is None:
            chat.result({"id": murph, "title": "Murph", "deleted": True})
        else:
            chat.result(error={"code": outcome, "message": "The user rejected this action; it did not run.",
                               "hint": "Do not retry unless the user asks again."})
        assert expected in await chat.expect_text()


@pytest.mark.parametrize(("words", "locale", "published", "confirmation"), [
    ("schedule open gym tomorrow 13:00–14:00 published", "en", True,
     "Scheduled Open Gym on Tuesday 2026-11-24, 13:00–14:00 (gym time), published"),
    ("schedule Open Gym tomorrow 13:00 to 14:00", "en", False, "not published yet"),
    ("תקבע אופן ג'ים מחר 13:00-14:00 מפורסם", "he", True, "נקבע Open Gym ביום שלישי 2026-11-24, 13:00–14:00"),
    ("קבע שיעור אופן ג'ים מחר 13:00-14:00 מפורסם", "he", True, "מפורסם"),
    ("запланируй open gym завтра 13:00–14:00 опубликовано", "ru", True,
     "Запланировано: Open Gym, вторник 2026-11-24, 13:00–14:00"),
])
async def test_schedule_in_three_languages(words, locale, published, confirmation) -> None:
    chat = Chat(words, locale=locale)
    sent = await chat.expect_tool("class_sessions__create")
    assert sent == {"classType": "open gym" if words != "schedule Open Gym tomorrow 13:00 to 14:00" else "Open Gym",
                    "date": "tomorrow", "start": "13:00", "end": "14:00", "published": published}
    chat.result({"id": str(uuid.uuid4()), "title": "Open Gym", "classType": "Open Gym", "date": "2026-11-24",
                 "weekday": "Tuesday", "startsAt": "2026-11-24T13:00:00+02:00", "endsAt": "2026-11-24T14:00:00+02:00",
                 "startsAtUtc": "2026-11-24T11:00:00Z", "endsAtUtc": "2026-11-24T12:00:00Z", "capacity": 25,
                 "booked": 0, "published": published, "cancelled": False})
    reply = await chat.expect_text()
    assert confirmation in reply
    assert {"en": "undo", "he": "לבטל", "ru": "отменить"}[locale] in reply.lower()


@pytest.mark.parametrize(("words", "expected"), [
    ("schedule open gym 2026-11-24 13:00-14:00 published",
     {"classType": "open gym", "date": "2026-11-24", "start": "13:00", "end": "14:00", "published": True}),
    ("add CrossFit on friday at 7:00 to 8:00 unpublished",
     {"classType": "CrossFit", "date": "friday", "start": "07:00", "end": "08:00", "published": False}),
    ("קבע שיעור קרוספיט ביום שישי מ-07:00 עד 08:00",
     {"classType": "crossfit", "date": "friday", "start": "07:00", "end": "08:00", "published": False}),
    ("запланируй кроссфит в пятницу с 18:00 до 19:00 опубликовано",
     {"classType": "crossfit", "date": "friday", "start": "18:00", "end": "19:00", "published": True}),
])
async def test_schedule_reads_dates_weekdays_and_range_forms(words, expected) -> None:
    assert await Chat(words).expect_tool("class_sessions__create") == expected


async def test_typing_instead_of_clicking_starts_a_fresh_request() -> None:
    """A superseded confirmation's result rides in the same user message as the new words."""
    chat = Chat("delete workout Murph")
    await chat.expect_tool("read__search_anything")
    chat.result({"query": "Murph", "total": 1, "groups": {"workout": [{"type": "workout", "id": str(uuid.uuid4()),
                                                                       "label": "Murph"}]}})
    await chat.expect_tool("workouts__delete")
    (use,) = chat.tool_uses()
    chat.say("who am I")
    superseded = result_block(use["id"], None, {"code": "superseded", "message": "The user moved on.", "hint": None})
    chat.messages[-1]["content"].insert(0, superseded)
    await chat.expect_tool("read__get_current_context", {})


async def test_an_approval_with_edited_input_is_mentioned() -> None:
    chat = Chat("create a task call Dani")
    await chat.expect_tool("tasks__create", {"title": "call Dani"})
    chat.result({"note": "The user edited the input before approving; the tool ran with the edited input shown here.",
                 "input": {"title": "call Dani today"},
                 "result": {"id": str(uuid.uuid4()), "title": "call Dani today"}})
    reply = await chat.expect_text()
    assert "edited" in reply and "Created the task “call Dani today”." in reply


async def test_new_comments_find_the_program_then_read_unread_comments() -> None:
    crossfit = str(uuid.uuid4())
    chat = Chat("any new comments in CrossFit?")
    await chat.expect_tool("read__programs_list", {})
    chat.result({"count": 2, "programs": [{"id": str(uuid.uuid4()), "name": "Coaching", "kind": "coaching"},
                                          {"id": crossfit, "name": "CrossFit", "kind": "class"}]})
    await chat.expect_tool("read__workout_comments_in_program", {"programId": crossfit, "unreadOnly": True})
    chat.result({"program": {"id": crossfit, "name": "CrossFit"}, "count": 1, "unread": 1, "comments": [
        {"author": "Dani Mizrahi", "workoutTitle": "Murph", "at": "2026-11-22 19:00 (yesterday)",
         "body": "Knees hurt on the lunges", "unread": True}]})
    reply = await chat.expect_text()
    assert "1 unread comment in CrossFit" in reply and "Dani Mizrahi on “Murph”, 2026-11-22 19:00:" in reply
    assert "yesterday" not in reply  # the date alone: the console writes it in the reader's format

    busy = Chat("any unread comments on crossfit")
    await busy.expect_tool("read__programs_list", {})
    busy.result({"count": 1, "programs": [{"id": crossfit, "name": "CrossFit", "kind": "class"}]})
    await busy.expect_tool("read__workout_comments_in_program", {"programId": crossfit, "unreadOnly": True})
    busy.result({"program": {"id": crossfit, "name": "CrossFit"}, "count": 12, "unread": 12, "comments": [
        {"author": f"Member {i}", "workoutTitle": "WOD", "at": "today", "body": "Rx"} for i in range(12)]})
    reply = await busy.expect_text()
    assert "12 unread comments" in reply and "Member 9" in reply and "Member 10" not in reply
    assert "…and 2 more." in reply

    missing = Chat("any new comments in Pilates")
    await missing.expect_tool("read__programs_list", {})
    missing.result({"count": 1, "programs": [{"id": crossfit, "name": "CrossFit", "kind": "class"}]})
    assert "couldn't find a program called “Pilates”" in await missing.expect_text()


async def test_revenue_this_month_reports_the_numbers_as_returned() -> None:
    chat = Chat("revenue this month")
    await chat.expect_tool("analytics__revenue_summary", {"period": "this_month"})
    chat.result({"period": {"label": "this_month", "from": "2026-11-01", "to": "2026-11-30",
                            "timezone": "Asia/Jerusalem"},
                 "currency": "ILS", "revenue": {"cents": 1234500, "display": "₪12,345.00"}, "payments": 31,
                 "payingMembers": 29, "averagePerMember": {"cents": 42569, "display": "₪425.69"},
                 "refunded": {"cents": 0, "display": "₪0.00"}, "failedAttempts": 2,
                 "failedAmount": {"cents": 90000, "display": "₪900.00"}})
    reply = await chat.expect_text()
    assert "₪12,345.00 from 31 payments by 29 paying members, average ₪425.69" in reply
    assert "Failed attempts: 2 (₪900.00)" in reply


async def test_at_risk_members_are_listed() -> None:
    chat = Chat("who is at risk?")
    await chat.expect_tool("analytics__at_risk_members", {})
    chat.result({"asOf": "2026-11-23", "days": 21, "count": 2, "members": [
        {"id": str(uuid.uuid4()), "name": "Noa Peretz", "lastVisitOn": "2026-10-01", "daysSinceLastVisit": 53,
         "joinedOn": "2026-01-05", "plan": "Unlimited"},
        {"id": str(uuid.uuid4()), "name": "Lior Ben", "joinedOn": "2026-09-01"}]})
    reply = await chat.expect_text()
    assert "2 active members have not visited in 21+ days" in reply
    # a table, each member's name a link to them (the console opens it as "find <name>")
    assert "| Name | Days away | Last visit | Joined on | Plan | Coach |" in reply
    assert "(member:" in reply and "| 53 | 2026-10-01 |" in reply and "| never | — | 2026-09-01 |" in reply


async def test_create_a_task_confirms_and_mentions_undo() -> None:
    chat = Chat("create a task: call back Dani about the freeze")
    await chat.expect_tool("tasks__create", {"title": "call back Dani about the freeze"})
    chat.result({"id": str(uuid.uuid4()), "title": "call back Dani about the freeze", "status": "open",
                 "priority": "normal"})
    reply = await chat.expect_text()
    assert "Created the task “call back Dani about the freeze”." in reply and "undo" in reply


async def test_publish_next_weeks_assignments_previews_then_publishes_the_same_set() -> None:
    for approved in (True, False):
        chat = Chat("publish next week's assignments")
        await chat.expect_tool("assignments__bulk_preview", {"period": "next_week"})
        chat.result({"count": 4, "dateFrom": "2026-11-30", "dateTo": "2026-12-06", "fingerprint": "abcdef0123456789",
                     "ids": [str(uuid.uuid4()) for _ in range(4)], "idsComplete": True, "sample": [], "next": "..."})
        streamed, _ = await chat.move()
        assert chat.tool_uses()[0]["name"] == "assignments__bulk_publish"
        assert chat.tool_uses()[0]["input"] == {"period": "next_week", "expectedFingerprint": "abcdef0123456789"}
        assert "4 assignments between 2026-11-30 and 2026-12-06" in streamed
        if approved:
            chat.result({"count": 4, "dateFrom": "2026-11-30", "dateTo": "2026-12-06", "ids": [],
                         "idsComplete": True, "published": True})
            assert "Published 4 assignments for 2026-11-30 – 2026-12-06." in await chat.expect_text()
        else:
            chat.result(error={"code": "rejected_by_user", "message": "The user rejected this action.", "hint": None})
            assert "nothing was published" in await chat.expect_text()

    empty = Chat("publish next week's assignments")
    await empty.expect_tool("assignments__bulk_preview")
    empty.result({"count": 0, "dateFrom": "2026-11-30", "dateTo": "2026-12-06", "fingerprint": "0" * 16, "ids": [],
                  "idsComplete": True, "sample": [], "next": "Nothing matches"})
    assert "no assignments to publish" in await empty.expect_text()


@pytest.mark.parametrize("locale", ["en", "he", "ru"])
async def test_anything_else_gets_an_honest_labelled_list_of_what_works(locale) -> None:
    reply = await Chat("write me a poem about kettlebells", locale=locale).expect_text()
    assert reply.startswith(LABEL[locale])
    assert "Saar" in reply
    assert "ANTHROPIC_API_KEY" in reply  # says how to connect Claude


async def test_a_tool_error_is_explained_and_the_turn_stops() -> None:
    chat = Chat("schedule zumba tomorrow 18:00-19:00")
    await chat.expect_tool("class_sessions__create")
    chat.result(error={"code": "class_type_not_found", "message": "No class type named 'zumba' in this gym.",
                       "hint": "The gym's class types are: CrossFit, Open Gym."})
    reply = await chat.expect_text()
    # the message for people, never the code or the hint (written for the model)
    assert "No class type named 'zumba' in this gym." in reply and "class_type_not_found" not in reply
    assert "CrossFit, Open Gym" not in reply


async def test_a_tool_the_role_does_not_have_is_not_called() -> None:
    reply = await Chat("revenue this month", role="front_desk").expect_text()
    assert "“Revenue summary” isn't available to your role (Front desk)" in reply
    assert "analytics" not in reply and "front_desk" not in reply


async def test_a_long_episode_ends_in_text_instead_of_looping() -> None:
    chat = Chat("who am I")
    for _ in range(8):  # e.g. a history where the context was read again and again
        chat.messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{len(chat.messages)}", "name": "tasks__list", "input": {}}]})
        chat.result({"count": 0, "tasks": []})
    reply = await chat.expect_text()
    assert "stopping here instead of repeating" in reply


async def test_same_request_same_output_and_ids_differ_by_position() -> None:
    first, second = Chat("find Saar"), Chat("find Saar")
    second.access, second.caller = first.access, first.caller
    second.messages = [dict(m) for m in first.messages]
    a = await OfflineModel().complete(first.request())
    b = await OfflineModel().complete(first.request())
    assert a == b and a.content[0]["id"].startswith("toolu_off_")
    _, r1 = await first.move()
    first.result(SAARS)
    _, r2 = await first.move()
    assert r1.content[-1]["id"] != r2.content[-1]["id"]
    assert r1.usage.input_tokens == r1.usage.output_tokens == r1.usage.cache_read_tokens == 0
    assert r1.usage.cache_creation_tokens == 0 and r1.model == r2.model


async def test_text_streams_in_a_few_chunks_that_join_exactly() -> None:
    pieces = chunks("one two three four five six seven eight nine ten eleven twelve")
    assert 2 <= len(pieces) <= 4 and "".join(pieces) == "one two three four five six seven eight nine ten eleven twelve"
    chat = Chat("hello")
    deltas = [item async for item in OfflineModel().stream(chat.request()) if isinstance(item, TextDelta)]
    assert len(deltas) >= 2


async def test_titles_and_summaries_are_extracts_not_inventions() -> None:
    from agent.compaction import INSTRUCTIONS as SUMMARY
    from agent.model import ModelRequest
    from agent.titles import INSTRUCTIONS as TITLE

    def req(system: str, body: str) -> ModelRequest:
        facts = ModelFacts(purpose=TITLE_CALL if system == TITLE else SUMMARY_CALL)
        return ModelRequest(model="claude-haiku-4-5", system=[{"type": "text", "text": system}], tools=[],
                            messages=[{"role": "user", "content": [{"type": "text", "text": body}]}],
                            metadata={FACTS: facts})

    title = await OfflineModel().complete(req(TITLE, "Staff: find Saar and show his plan please\nAssistant: ..."))
    assert title.content[0]["text"] == "Find Saar and show his plan"
    for message, expected in [("Hey, can you please delete workout Murph?", "Delete workout Murph"),
                              ("пожалуйста, найди Саар", "Найди Саар"), ("מצא את סער בבקשה", "מצא את סער"),
                              ("Can you publish next week's assignments and then tell me who has not checked in "
                               "since October", "Publish next week's assignments"),
                              ("schedule open gym tomorrow at 18:00, 60 minutes", "Schedule open gym tomorrow at 18:00"),
                              ("?!", "Conversation")]:
        named = await OfflineModel().complete(req(TITLE, f"Staff: {message}\nAssistant: ..."))
        assert named.content[0]["text"] == expected
    summary = await OfflineModel().complete(req(SUMMARY, "Staff: find Saar\n[Assistant called read__members_search]"
                                                         "\nAssistant: Saar Levi — active"))
    assert summary.content[0]["text"].startswith(LABEL["en"]) and "Staff: find Saar" in summary.content[0]["text"]
