"""The offline demo does a front desk's day (issue 27 item 4): a table of staff requests in English, Hebrew and
Russian, each answered with the right tool (the real tool accepts the input) or an honest "can't" that says it is
the offline demo, what it can do and how to connect Claude. Never something else in its place: "churn rate vs
last quarter" is not the at-risk list."""

from __future__ import annotations

import re
import uuid

import pytest

from core.i18n import translate
from offline_model.model import LABEL
from tests.agent.test_offline_model import Chat

CANT = "cant"
HELP = "help"

# (words, locale, role, the first tool it calls and part of its input | CANT with the reason's key | HELP)
TABLE: list[tuple[str, str, str, object]] = [
    # the README's prompts
    ("find Saar", "en", "owner", ("read__members_search", {"query": "Saar"})),
    ("show Dani Mizrahi's plan and payment status", "en", "owner", ("read__members_search", {"query": "Dani Mizrahi"})),
    ("delete workout Murph", "en", "coach", ("read__search_anything", {"query": "Murph"})),
    ("create a task call the plumber", "en", "front_desk", ("tasks__create", {"title": "call the plumber"})),
    ("schedule open gym tomorrow 13:00-14:00 published", "en", "front_desk",
     ("class_sessions__create", {"classType": "open gym", "date": "tomorrow", "published": True})),
    ("revenue this month", "en", "owner", ("analytics__revenue_summary", {"period": "this_month"})),
    ("who is at risk", "en", "coach", ("analytics__at_risk_members", {})),
    ("publish next week's assignments", "en", "coach", ("assignments__bulk_preview", {"period": "next_week"})),
    # a front desk's day, in English
    ("classes tomorrow", "en", "front_desk", ("class_sessions__list_for_date", {"date": "tomorrow"})),
    ("what's on today?", "en", "front_desk", ("class_sessions__list_for_date", {"date": "today"})),
    ("schedule for friday", "en", "front_desk", ("class_sessions__list_for_date", {"date": "friday"})),
    ("cancel the 18:30 CrossFit tomorrow", "en", "owner", ("class_sessions__list_for_date", {"date": "tomorrow"})),
    ("open tasks", "en", "front_desk", ("tasks__list", {"status": "open"})),
    ("mark task call the plumber done", "en", "front_desk", ("tasks__list", {"status": "open"})),
    ("attendance this week", "en", "front_desk", ("bookings__attendance_summary", {"period": "this_week"})),
    ("how many no-shows last month", "en", "front_desk", ("bookings__attendance_summary", {"period": "last_month"})),
    ("who hasn't paid", "en", "owner", ("analytics__org_insights", {})),
    ("failed payments this month", "en", "admin", ("analytics__org_insights", {"period": "this_month"})),
    ("pending forms", "en", "front_desk", ("forms__list_pending_for_org", {})),
    ("unsigned waivers", "en", "front_desk", ("forms__list_pending_for_org", {})),
    ("most popular classes", "en", "coach", ("analytics__popular_classes", {})),
    ("how full are classes this month", "en", "admin", ("analytics__class_utilization", {"period": "this_month"})),
    ("new members this month", "en", "owner", ("analytics__members_growth", {"period": "this_month"})),
    ("how many members do we have", "en", "coach", ("analytics__members_summary", {})),
    ("churn rate vs last quarter", "en", "owner", ("analytics__members_summary", {"period": "this_quarter"})),
    ("cancellations this month", "en", "owner", ("analytics__members_summary", {"period": "this_month"})),
    ("how are the coaches doing", "en", "owner", ("analytics__coach_overview", {})),
    ("how is the gym doing this week", "en", "owner", ("analytics__org_insights", {"period": "this_week"})),
    ("revenue by month this year", "en", "owner", ("analytics__revenue_trend", {"period": "this_year"})),
    ("refunds last month", "en", "owner", ("analytics__revenue_summary", {"period": "last_month"})),
    ("plan breakdown", "en", "admin", ("analytics__plan_distribution", {})),
    ("list templates", "en", "coach", ("program_templates__list", {})),
    ("who am I", "en", "front_desk", ("read__get_current_context", {})),
    ("what programs do we run", "en", "front_desk", ("read__programs_list", {})),
    # the front desk's work (issue 42 item 5): the member is found first, then the real tool
    ("book Dani into tomorrow's 17:30 CrossFit", "en", "front_desk", ("read__members_search", {"query": "Dani"})),
    ("book Saar into CrossFit tomorrow at 18:30", "en", "front_desk", ("read__members_search", {"query": "Saar"})),
    ("check in Saar Levi", "en", "front_desk", ("read__members_search", {"query": "Saar Levi"})),
    ("Saar Levi is here", "en", "front_desk", ("read__members_search", {"query": "Saar Levi"})),
    ("freeze Dani's membership for two weeks", "en", "front_desk", ("read__members_search", {"query": "Dani"})),
    ("freeze Dani's membership for a month", "en", "admin", ("read__members_search", {"query": "Dani"})),
    ("unfreeze Dani Mizrahi", "en", "front_desk", ("read__members_search", {"query": "Dani Mizrahi"})),
    ("message the at-risk members", "en", "front_desk", ("messages__draft", {"filter": "at_risk"})),
    ("draft a message to every at-risk member", "en", "coach", ("messages__draft", {"filter": "at_risk"})),
    # requests no tool serves: said plainly
    ("refund Saar Cohen's last payment", "en", "owner", (CANT, "cant_refund")),
    ("send a reminder to members who haven't paid", "en", "front_desk", (CANT, "cant_message")),
    ("text everyone that the gym closes early", "en", "front_desk", (CANT, "cant_message")),
    ("write me a poem about kettlebells", "en", "owner", (HELP, None)),
    # Hebrew
    ("מצא את Saar", "he", "front_desk", ("read__members_search", {"query": "Saar"})),
    ("שיעורים מחר", "he", "front_desk", ("class_sessions__list_for_date", {"date": "tomorrow"})),
    ("מה יש היום?", "he", "front_desk", ("class_sessions__list_for_date", {"date": "today"})),
    ("תכתוב לי שיר על קטלבלס", "he", "owner", (HELP, None)),
    ("בטל את הקרוספיט מחר ב-18:30", "he", "owner", ("class_sessions__list_for_date", {"date": "tomorrow"})),
    ("קבע אופן ג'ים מחר 13:00-14:00 מפורסם", "he", "front_desk",
     ("class_sessions__create", {"classType": "open gym", "published": True})),
    ("משימות פתוחות", "he", "front_desk", ("tasks__list", {"status": "open"})),
    ("צור משימה להתקשר לאינסטלטור", "he", "front_desk", ("tasks__create", {"title": "להתקשר לאינסטלטור"})),
    ("נוכחות השבוע", "he", "front_desk", ("bookings__attendance_summary", {"period": "this_week"})),
    ("הכנסות החודש", "he", "owner", ("analytics__revenue_summary", {"period": "this_month"})),
    ("מי בסיכון", "he", "coach", ("analytics__at_risk_members", {})),
    ("נטישה לעומת הרבעון הקודם", "he", "owner", ("analytics__members_summary", {"period": "this_quarter"})),
    ("מי לא שילם", "he", "owner", ("analytics__org_insights", {})),
    ("טפסים ממתינים", "he", "front_desk", ("forms__list_pending_for_org", {})),
    ("מתאמנים חדשים החודש", "he", "owner", ("analytics__members_growth", {"period": "this_month"})),
    ("תרשום את Dani לקרוספיט מחר ב-17:30", "he", "front_desk", ("read__members_search", {"query": "Dani"})),
    ("צ'ק-אין לSaar Levi", "he", "front_desk", ("read__members_search", {"query": "Saar Levi"})),
    ("תקפיא את המנוי של Dani לשבועיים", "he", "front_desk", ("read__members_search", {"query": "Dani"})),
    ("שלח הודעה למתאמנים בסיכון", "he", "front_desk", ("messages__draft", {"filter": "at_risk"})),
    ("שלח הודעה למי שלא שילם", "he", "front_desk", (CANT, "cant_message")),
    # Russian
    ("найди Saar", "ru", "front_desk", ("read__members_search", {"query": "Saar"})),
    ("какие занятия завтра", "ru", "front_desk", ("class_sessions__list_for_date", {"date": "tomorrow"})),
    ("расписание на пятницу", "ru", "front_desk", ("class_sessions__list_for_date", {"date": "friday"})),
    ("отмени кроссфит завтра в 18:30", "ru", "owner", ("class_sessions__list_for_date", {"date": "tomorrow"})),
    ("запланируй open gym завтра 13:00–14:00 опубликовано", "ru", "front_desk",
     ("class_sessions__create", {"classType": "open gym", "published": True})),
    ("открытые задачи", "ru", "front_desk", ("tasks__list", {"status": "open"})),
    ("создай задачу позвонить сантехнику", "ru", "front_desk", ("tasks__create", {"title": "позвонить сантехнику"})),
    ("посещаемость за эту неделю", "ru", "front_desk", ("bookings__attendance_summary", {"period": "this_week"})),
    ("выручка за прошлый месяц", "ru", "owner", ("analytics__revenue_summary", {"period": "last_month"})),
    ("кто в зоне риска", "ru", "coach", ("analytics__at_risk_members", {})),
    ("отток по сравнению с прошлым кварталом", "ru", "owner", ("analytics__members_summary", {"period": "this_quarter"})),
    ("кто не оплатил", "ru", "owner", ("analytics__org_insights", {})),
    ("неподписанные анкеты", "ru", "front_desk", ("forms__list_pending_for_org", {})),
    ("популярные занятия", "ru", "coach", ("analytics__popular_classes", {})),
    ("запиши Dani на кроссфит завтра в 17:30", "ru", "front_desk", ("read__members_search", {"query": "Dani"})),
    ("отметь Saar Levi", "ru", "front_desk", ("read__members_search", {"query": "Saar Levi"})),
    ("заморозь абонемент Dani на две недели", "ru", "front_desk", ("read__members_search", {"query": "Dani"})),
    ("напиши участникам в зоне риска", "ru", "front_desk", ("messages__draft", {"filter": "at_risk"})),
    ("напиши всем, кто не оплатил", "ru", "front_desk", (CANT, "cant_message")),
    ("сделай возврат Saar", "ru", "owner", (CANT, "cant_refund")),
    ("расскажи анекдот про гири", "ru", "owner", (HELP, None)),
]


def test_the_table_covers_the_readme_and_thirty_more_in_three_languages() -> None:
    assert len(TABLE) >= 8 + 30
    assert {locale for _, locale, _, _ in TABLE} == {"en", "he", "ru"}


@pytest.mark.parametrize(("words", "locale", "role", "expected"), TABLE, ids=[row[0][:40] for row in TABLE])
async def test_a_staff_request_gets_the_right_tool_or_an_honest_cant(words, locale, role, expected) -> None:
    chat = Chat(words, locale=locale, role=role)
    kind, detail = expected
    if kind in (CANT, HELP):
        reply = await chat.expect_text()
        assert reply.startswith(LABEL[locale])
        assert "ANTHROPIC_API_KEY" in reply  # how to connect Claude
        if kind == CANT:
            assert translate(f"offline.text.{detail}", locale) in reply
            assert translate("offline.text.offline_can", locale) in reply
        else:
            assert translate("offline.text.not_understood", locale) in reply
        return
    used = await chat.expect_tool(kind)
    assert detail.items() <= used.items(), used


async def test_churn_vs_last_quarter_counts_cancellations_twice_and_never_lists_the_at_risk() -> None:
    chat = Chat("churn rate vs last quarter")
    await chat.expect_tool("analytics__members_summary", {"period": "this_quarter"})
    summary = {"period": {"label": "this quarter", "from": "2026-10-01", "to": "2026-12-31"}, "total": 320,
               "byStatus": {"lead": 5, "active": 290, "frozen": 10, "cancelled": 15}, "joined": 20, "churned": 7,
               "atRisk": 12, "atRiskDays": 21}
    chat.result(summary)
    # the previous calendar quarter, from the gym's today in the turn context (2026-11-23)
    await chat.expect_tool("analytics__members_summary", {"from": "2026-07-01", "to": "2026-09-30"})
    chat.result({**summary, "period": {"from": "2026-07-01", "to": "2026-09-30"}, "churned": 4})
    reply = await chat.expect_text()
    assert "Cancellations: 7 this quarter (2026-10-01 – 2026-12-31) against 4 last quarter" in reply
    assert "don't compute a churn rate" in reply


async def test_schedule_anyway_reruns_the_refused_call_with_the_overlap_allowed() -> None:
    chat = Chat("schedule open gym tomorrow 13:00-14:00 published", role="front_desk")
    first = await chat.expect_tool("class_sessions__create")
    chat.result(error={"code": "session_overlap", "message": "A open gym class already takes that time.",
                       "detail": "1 Open Gym session(s) already overlap that time.", "hint": "Ask first.",
                       "nextStep": {"key": "schedule_anyway", "label": "Schedule anyway",
                                    "message": "Schedule it anyway, even though it overlaps."}})
    refused = await chat.expect_text()
    assert "Press “Schedule anyway” on its card" in refused and "Ask first" not in refused
    chat.say("Schedule it anyway, even though it overlaps.")
    again = await chat.expect_tool("class_sessions__create")
    assert again == {**first, "allowOverlap": True}
    chat.result({"id": str(uuid.uuid4()), "classType": "Open Gym", "date": "2026-11-24", "weekday": "Tuesday",
                 "startsAt": "2026-11-24T13:00:00+02:00", "endsAt": "2026-11-24T14:00:00+02:00", "published": True})
    done = await chat.expect_text()
    assert "Scheduled Open Gym" in done
    # a front desk cannot cancel a class, so it cannot undo one it scheduled: no Undo is promised
    assert "undo" not in done.lower()


async def test_an_undo_is_promised_only_to_a_role_whose_card_shows_one() -> None:
    for role, promised in (("owner", True), ("coach", False)):
        chat = Chat("schedule open gym tomorrow 13:00-14:00", role=role)
        await chat.expect_tool("class_sessions__create")
        chat.result({"id": str(uuid.uuid4()), "classType": "Open Gym", "date": "2026-11-24", "weekday": "Tuesday",
                     "startsAt": "2026-11-24T13:00:00+02:00", "endsAt": "2026-11-24T14:00:00+02:00",
                     "published": False})
        assert ("You can undo this" in await chat.expect_text()) is promised, role


async def test_an_analytics_answer_is_a_table_with_the_members_linked() -> None:
    chat = Chat("pending forms", role="front_desk")
    await chat.expect_tool("forms__list_pending_for_org", {})
    member = str(uuid.uuid4())
    chat.result({"count": 1, "overdue": 1, "assignments": [
        {"id": str(uuid.uuid4()), "formName": "Waiver", "typeKey": "waiver", "memberId": member,
         "memberName": "Saar Cohen", "assignedOn": "2026-11-01", "dueOn": "2026-11-10", "overdue": True}]})
    reply = await chat.expect_text()
    assert "| Member | Form | Due | Overdue |" in reply
    assert f"[Saar Cohen](member:{member})" in reply


def _readme_desk_day() -> list[str]:
    """The requests the README's "front desk's day" says the desk can make (before the owner's and coach's extras)."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("**A front desk's day"):readme.index("An owner or admin also gets")]
    return re.findall(r'"([^"]+)"', " ".join(part.split()))


def test_the_readme_desk_day_is_in_the_table_for_the_desk_in_three_languages() -> None:
    said = _readme_desk_day()
    assert len(said) >= 12 and "book Dani into tomorrow's 17:30 CrossFit" in said
    desk_rows = {words for words, _, role, (kind, _) in TABLE if role == "front_desk" and kind not in (CANT, HELP)}
    item_5 = {row[0] for row in TABLE if row[3][0] in ("read__members_search", "messages__draft") and
              row[2] == "front_desk"}
    assert {locale for words, locale, _, _ in TABLE if words in item_5} == {"en", "he", "ru"}
    assert len(item_5) >= 12  # book, check in, freeze and message in each language
    assert set(said) - desk_rows <= {"find Saar", "show Dani Mizrahi's plan and payment status"}  # rows as owner


@pytest.mark.parametrize("words", _readme_desk_day())
async def test_each_readme_desk_day_request_is_a_tool_the_desk_has(words) -> None:
    """Signed in as the front desk, every request of the README's list is answered with a tool it may use (never "your
    role can't"): the list promises only what the desk can do."""
    from tests.agent.test_offline_model import REGISTRY

    chat = Chat(words, role="front_desk")
    _, response = await chat.move()
    assert response.stop_reason == "tool_use", words
    (use,) = chat.tool_uses()
    assert REGISTRY.get(use["name"]).allows("front_desk"), (words, use["name"])
