"""The offline demo model's one-call answers: a read tool, then its numbers as a line and a table.

Each `Report` names the tool, the input the words give, and how its output reads: a headline (a message key
with the output's own numbers) and, for lists, a markdown table whose column names come from locales/
(`offline.col.<name>`) and whose member names link to the member (`[Name](member:<id>)`, a link the console
opens as "find Name"). The numbers are the tool's; nothing here computes one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.i18n import translate

Line = tuple[str, dict[str, Any]]
MAX_ROWS = 15


@dataclass(frozen=True)
class Report:
    tool: str
    render: Callable[[dict[str, Any], str], list[Line]]


def _cell(value: Any, locale: str = "en") -> str:
    """A table cell as people read it: a yes/no in their language, never Python's True/False."""
    if isinstance(value, dict):
        value = value.get("display", value.get("name", ""))
    if isinstance(value, bool):
        value = translate(f"offline.value.{'yes' if value else 'no'}", locale)
    text = "—" if value is None or value == "" else str(value)
    return text.replace("|", "/").replace("\n", " ")


def session_status(row: dict[str, Any], locale: str) -> str:
    """A class's state in words: cancelled before anything else, then published or draft."""
    word = "cancelled" if row.get("cancelled") else "published" if row.get("published") else "draft"
    return translate(f"offline.value.{word}", locale)


def member_link(name: str, member_id: Any) -> str:
    return f"[{_cell(name)}](member:{member_id})" if member_id else _cell(name)


def table(rows: list[dict[str, Any]], columns: list[str], locale: str, *,
          link: tuple[str, str] | None = None) -> Line:
    """A markdown table of `rows` (at most MAX_ROWS) with localized headers; `link` = (name key, id key)."""
    head = "| " + " | ".join(translate(f"offline.col.{c}", locale) for c in columns) + " |"
    rule = "|" + "---|" * len(columns)
    body = []
    for row in rows[:MAX_ROWS]:
        cells = []
        for c in columns:
            if link and c == link[0]:
                cells.append(member_link(row.get(c, ""), row.get(link[1])))
            else:
                cells.append(_cell(row.get(c), locale))
        body.append("| " + " | ".join(cells) + " |")
    return ("table", {"text": "\n".join([head, rule, *body])})


def _more(rows: list, total: int | None = None) -> list[Line]:
    n = (total if total is not None else len(rows)) - min(len(rows), MAX_ROWS)
    return [("more", {"n": n})] if n > 0 else []


def _period(out: dict[str, Any]) -> dict[str, Any]:
    span = out.get("period") or {}
    return {"from": span.get("from") or span.get("firstDay", "?"), "to": span.get("to") or span.get("lastDay", "?")}


def _attendance(out: dict, locale: str) -> list[Line]:
    return [("attendance", {**_period(out), "visits": out.get("visits", 0), "members": out.get("uniqueMembers", 0),
                            "sessions": out.get("sessions", 0), "no_shows": out.get("noShows", 0),
                            "cancellations": out.get("cancellations", 0)})]


def _members(out: dict, locale: str) -> list[Line]:
    status = out.get("byStatus") or {}
    return [("members_summary", {**_period(out), "total": out.get("total", 0), "active": status.get("active", 0),
                                 "frozen": status.get("frozen", 0), "joined": out.get("joined", 0),
                                 "churned": out.get("churned", 0), "at_risk": out.get("atRisk", 0)})]


def _growth(out: dict, locale: str) -> list[Line]:
    points = out.get("points") or []
    return [("members_growth", {**_period(out), "joined": out.get("joined", 0), "churned": out.get("churned", 0),
                                "net": out.get("net", 0)}),
            table(points, ["start", "joined", "churned", "net"], locale), *_more(points)]


def _popular(out: dict, locale: str) -> list[Line]:
    rows = out.get("classes") or []
    if not rows:
        return [("nothing_in_period", _period(out))]
    return [("popular_head", {**_period(out), "n": len(rows)}),
            table(rows, ["name", "weekday", "time", "sessions", "visits", "avgVisits"], locale)]


def _utilization(out: dict, locale: str) -> list[Line]:
    rows = out.get("classTypes") or []
    return [("utilization_head", {**_period(out), "pct": out.get("utilizationPct", 0),
                                  "filled": out.get("filled", 0), "capacity": out.get("capacity", 0)}),
            table(rows, ["name", "sessions", "filled", "capacity", "utilizationPct"], locale), *_more(rows)]


def _forms(out: dict, locale: str) -> list[Line]:
    rows = out.get("assignments") or []
    if not rows:
        return [("forms_none", {})]
    return [("forms_head", {"n": out.get("count", len(rows)), "overdue": out.get("overdue", 0)}),
            table(rows, ["memberName", "formName", "dueOn", "overdue"], locale, link=("memberName", "memberId")),
            *_more(rows, out.get("count"))]


def _plans(out: dict, locale: str) -> list[Line]:
    rows = out.get("plans") or []
    return [("plans_head", {"n": out.get("activeSubscriptions", 0)}),
            table(rows, ["name", "price", "activeSubscriptions", "sharePct"], locale), *_more(rows, out.get("count"))]


def _coaches(out: dict, locale: str) -> list[Line]:
    rows = out.get("coaches") or []
    return [("coaches_head", {**_period(out), "n": len(rows)}),
            table(rows, ["name", "members", "sessions", "visits", "noShows", "unreadComments"], locale)]


def _insights(out: dict, locale: str) -> list[Line]:
    members, seen = out.get("members") or {}, out.get("attendance") or {}
    lines: list[Line] = [("insights", {**_period(out), "active": members.get("active", 0),
                                       "joined": members.get("joined", 0), "churned": members.get("churned", 0),
                                       "at_risk": members.get("atRisk", 0), "visits": seen.get("visits", 0),
                                       "no_show_pct": seen.get("noShowRatePct", 0)})]
    revenue, failed = out.get("revenue"), out.get("failedPayments")
    if revenue:
        lines.append(("insights_revenue", {"revenue": _cell(revenue.get("revenue")),
                                           "previous": _cell(revenue.get("previousRevenue")),
                                           "change": revenue.get("changePct", "—")}))
    if failed:
        lines.append(("insights_failed", {"n": failed.get("count", 0), "amount": _cell(failed.get("amount")),
                                          "unrecovered": failed.get("unrecovered", 0)}))
    return lines


def _unpaid(out: dict, locale: str) -> list[Line]:
    failed = out.get("failedPayments")
    if not failed:
        return [("unpaid_hidden", {})]
    return [("unpaid", {**_period(out), "n": failed.get("count", 0), "amount": _cell(failed.get("amount")),
                        "recovered": failed.get("recovered", 0), "unrecovered": failed.get("unrecovered", 0)}),
            ("unpaid_how", {})]


def _revenue_trend(out: dict, locale: str) -> list[Line]:
    points = out.get("points") or []
    return [("revenue_trend", {**_period(out), "total": _cell(out.get("total"))}),
            table(points, ["start", "revenue", "payments"], locale), *_more(points)]


def _workouts(out: dict, locale: str) -> list[Line]:
    totals = out.get("totals") or {}
    rows = out.get("topExercises") or []
    return [("workouts_summary", {**_period(out), "workouts": totals.get("workouts", 0),
                                  "assignments": totals.get("assignments", 0)}),
            *([table(rows, ["name", "workouts", "uses"], locale)] if rows else [])]


def _tasks(out: dict, locale: str) -> list[Line]:
    rows = out.get("tasks") or []
    if not rows:
        return [("tasks_none", {})]
    return [("tasks_head", {"n": out.get("count", len(rows))}),
            table(rows, ["title", "priority", "dueOn", "status"], locale), *_more(rows, out.get("count"))]


def _day(out: dict, locale: str) -> list[Line]:
    rows = out.get("sessions") or []
    if not rows:
        return [("day_none", {"date": out.get("date", "?"), "weekday": out.get("weekday", "")})]
    shown = [{**r, "spots": f"{r.get('booked', 0)}/{r.get('capacity') or '∞'}", "status": session_status(r, locale)}
             for r in rows]
    cancelled = sum(1 for r in rows if r.get("cancelled"))
    return [("day_head", {"date": out.get("date", "?"), "weekday": out.get("weekday", ""), "n": len(rows)}),
            *([("day_cancelled", {"n": cancelled})] if cancelled else []),
            table(shown, ["start", "end", "title", "coach", "spots", "status"], locale), *_more(rows)]


def _templates(out: dict, locale: str) -> list[Line]:
    rows = out.get("templates") or []
    return [("templates_head", {"n": len(rows)}), *([table(rows, ["name", "weeks", "workouts"], locale)]
                                                    if rows else [])]


REPORTS: dict[str, Report] = {
    "attendance": Report("bookings__attendance_summary", _attendance),
    "members_summary": Report("analytics__members_summary", _members),
    "members_growth": Report("analytics__members_growth", _growth),
    "popular": Report("analytics__popular_classes", _popular),
    "utilization": Report("analytics__class_utilization", _utilization),
    "forms": Report("forms__list_pending_for_org", _forms),
    "plans": Report("analytics__plan_distribution", _plans),
    "coaches": Report("analytics__coach_overview", _coaches),
    "insights": Report("analytics__org_insights", _insights),
    "unpaid": Report("analytics__org_insights", _unpaid),
    "revenue_trend": Report("analytics__revenue_trend", _revenue_trend),
    "workouts_summary": Report("analytics__workouts_summary", _workouts),
    "tasks": Report("tasks__list", _tasks),
    "day": Report("class_sessions__list_for_date", _day),
    "templates": Report("program_templates__list", _templates),
}
