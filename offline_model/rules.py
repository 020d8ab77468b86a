"""The offline demo model's rules: given what the person asked, decide the next tool call or the answer.

Pure functions over plain data. An `Episode` is what happened since the person last typed (their words, the
reply locale, and each tool call with its result); `respond` answers with the next tool call(s) or the lines
of a final reply. Lines are message keys with parameters; offline_model/model.py renders them from the
`offline` strings of locales/. Nothing here calls a model, the database or the clock.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from core.i18n import translate
from offline_model.desk_rules import DESK_HANDLES_REJECTION, DESK_PLANNERS
from offline_model.episode import MAX_CANDIDATES, MAX_STEPS, Episode, Line, Reply, Step, call, say
from offline_model.member_rules import (
    candidate,
    chosen_session,
    matching_sessions,
    member_reply,
    movement,
    pick_prompt,
    pick_session,
    wall_time,
)
from offline_model.reports import REPORTS, table
from offline_model.words import classify
from tools.errors import tool_label

# --- rules per intent -------------------------------------------------------------------------------------

def _whoami(ep: Episode) -> Reply:
    step = ep.last("read__get_current_context")
    if step is None:
        return call("read__get_current_context", {})
    out, org, who = step.output or {}, (step.output or {}).get("org", {}), (step.output or {}).get("caller", {})
    return say(("whoami", {"name": who.get("name") or who.get("email") or "?", "role": who.get("role", "?"),
                           "org": org.get("name", "?"), "tier": org.get("tier", "?"),
                           "tz": org.get("timezone", "?"), "now": out.get("now", "?")}))


def _programs(ep: Episode) -> Reply:
    step = ep.last("read__programs_list")
    if step is None:
        return call("read__programs_list", {})
    rows = (step.output or {}).get("programs", [])
    if not rows:
        return say(("programs_none", {}))
    return say(("programs_head", {"n": len(rows)}), *[
        ("program_row", {"name": p["name"], "kind": p.get("kind", "?"), "members": p.get("memberCount", 0)})
        for p in rows])


def _workout_create(ep: Episode, text: str, title: str) -> Reply:
    step = ep.last("workouts__create")
    if step is None:
        return call("workouts__create", {"title": title or "Workout", "text": text, "structureFromText": True})
    out = step.output or {}
    sections = out.get("sections") or []
    lines: list[Line] = [("workout_created", {"title": out.get("title", title), "n": len(sections)})]
    for i, s in enumerate(sections, 1):
        head = s.get("title") or s.get("scheme") or f"#{i}"
        if s.get("title") and s.get("scheme"):
            head = f"{s['title']} ({s['scheme']})"
        lines.append(("bullet", {"text": f"{head}: " + ", ".join(movement(m) for m in s.get("movements", []))}))
    if not sections:
        lines.append(("workout_freeform", {}))
    if out.get("unresolved"):
        lines.append(("workout_unresolved", {"names": ", ".join(u.get("name", "?") for u in out["unresolved"])}))
    return say(*lines, *ep.undo("workouts__create"))


def _workout_delete(ep: Episode, name: str) -> Reply:
    search = ep.last("read__search_anything")
    if search is None:
        return call("read__search_anything", {"query": name[:200], "types": ["workout"]})
    hits = ((search.output or {}).get("groups") or {}).get("workout", [])
    done = ep.last("workouts__delete")
    if done is not None:
        if done.error:
            return say(("kept", {}))
        return say(("deleted", {"title": (done.output or {}).get("title", name)}), *ep.undo("workouts__delete"))
    if not hits:
        return say(("workout_none", {"query": name}))
    picked = ep.last("read__ask_user_to_pick")
    chosen: dict | None = None
    if picked is not None:
        picked_id = (picked.output or {}).get("pickedId")
        chosen = next((h for h in hits if h.get("id") == picked_id), {"id": picked_id, "label": name})
    else:
        exact = [h for h in hits if h.get("label", "").lower() == name.lower()]
        chosen = exact[0] if len(exact) == 1 else hits[0] if len(hits) == 1 else None
    if chosen is None:
        return call("read__ask_user_to_pick", {"kind": "workout", "prompt": pick_prompt(ep, "workout", name),
                                               "candidates": [candidate(h) for h in hits[:MAX_CANDIDATES]]},
                    ("workout_several", {"n": len(hits), "query": name}))
    detail = f" ({chosen['sublabel']})" if chosen.get("sublabel") else ""
    return call("workouts__delete", {"id": chosen["id"]},
                ("workout_confirm", {"title": chosen.get("label", name), "detail": detail}))


def _schedule(ep: Episode, **session: Any) -> Reply:
    step = ep.last("class_sessions__create")
    if step is None:
        return call("class_sessions__create", session)
    out = step.output or {}
    starts, ends = str(out.get("startsAt", "")), str(out.get("endsAt", ""))
    return say((("scheduled_published" if out.get("published") else "scheduled_draft"),
                {"type": out.get("classType") or out.get("title") or session["classType"],
                 "weekday": out.get("weekday", ""), "date": out.get("date", session["date"]),
                 "start": starts[11:16] or session["start"], "end": ends[11:16] or session["end"]}),
               *ep.undo("class_sessions__create"))


def _anyway(ep: Episode) -> Reply:
    """"Schedule it anyway": the previous request's refused call again, with what the refusal asked for."""
    if ep.steps:
        first = ep.steps[0]
        if first.name == "class_sessions__create":
            return _schedule(ep, **first.input)
    refused = next((s for s in reversed(ep.before) if s.error and (s.error.get("nextStep") or {}).get("key")
                    == "schedule_anyway"), None)
    if refused is None:
        return _help(ep)
    return call(refused.name, {**refused.input, "allowOverlap": True})


def _match_program(programs: list[dict], name: str) -> dict | None:
    def norm(text: str) -> str:
        return " ".join(text.lower().replace("-", " ").split())

    wanted = norm(name)
    for test in (lambda p: norm(p) == wanted, lambda p: wanted in norm(p) or norm(p) in wanted):
        found = [p for p in programs if test(p.get("name", ""))]
        if len(found) == 1:
            return found[0]
    names = {norm(p.get("name", "")): p for p in programs}
    close = difflib.get_close_matches(wanted, list(names), n=1, cutoff=0.6)
    return names[close[0]] if close else None


def _comments(ep: Episode, name: str) -> Reply:
    listing = ep.last("read__programs_list")
    if listing is None:
        return call("read__programs_list", {})
    programs = (listing.output or {}).get("programs", [])
    program = _match_program(programs, name)
    if program is None:
        return say(("program_missing", {"name": name, "names": ", ".join(p["name"] for p in programs) or "—"}))
    step = ep.last("read__workout_comments_in_program")
    if step is None:
        return call("read__workout_comments_in_program", {"programId": program["id"], "unreadOnly": True})
    comments = (step.output or {}).get("comments", [])
    if not comments:
        return say(("comments_none", {"program": program["name"]}))
    rows: list[Line] = [("comment_row", {"author": c.get("author") or "?", "workout": c.get("workoutTitle", "?"),
                                         "at": wall_time(c.get("at")), "body": _clip(c.get("body", ""), 160)})
                        for c in comments[:10]]
    more = [("more", {"n": len(comments) - 10})] if len(comments) > 10 else []
    return say(("comments_head", {"n": len(comments), "program": program["name"]}), *rows, *more)


def _clip(text: str, size: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= size else text[:size - 1] + "…"


def _revenue(ep: Episode, period: str) -> Reply:
    step = ep.last("analytics__revenue_summary")
    if step is None:
        return call("analytics__revenue_summary", {"period": period})
    out = step.output or {}
    span = out.get("period") or {}

    def shown(key: str) -> str:
        return (out.get(key) or {}).get("display", "?")

    lines: list[Line] = [("revenue", {
        "period": span.get("label", period), "from": span.get("from", "?"), "to": span.get("to", "?"),
        "total": shown("revenue"), "payments": out.get("payments", 0), "members": out.get("payingMembers", 0),
        "average": shown("averagePerMember"), "refunded": shown("refunded"), "failed": out.get("failedAttempts", 0),
        "failed_amount": shown("failedAmount")})]
    for other in out.get("otherCurrencies") or []:
        lines.append(("bullet", {"text": f"{(other.get('revenue') or {}).get('display', '?')} "
                                         f"({other.get('payments', 0)} × {other.get('currency', '?')})"}))
    return say(*lines)


def _at_risk(ep: Episode) -> Reply:
    step = ep.last("analytics__at_risk_members")
    if step is None:
        return call("analytics__at_risk_members", {})
    out = step.output or {}
    rows = out.get("members") or []
    if not rows:
        return say(("at_risk_none", {"days": out.get("days", 21)}))
    shown = [{**r, "daysSinceLastVisit": r.get("daysSinceLastVisit") if r.get("lastVisitOn") else
              translate("offline.text.never_visited", ep.locale)} for r in rows]
    return say(("at_risk_head", {"n": out.get("count", len(rows)), "shown": len(rows), "days": out.get("days", 21)}),
               table(shown, ["name", "daysSinceLastVisit", "lastVisitOn", "joinedOn", "plan", "coach"], ep.locale,
                     link=("name", "id")))


def _report(ep: Episode, name: str, period: str | None = None, date: str | None = None) -> Reply:
    """One read tool and its numbers (offline_model/reports.py)."""
    report = REPORTS["members_summary" if name == "churn" else name]
    step = ep.last(report.tool)
    if step is None:
        args: dict[str, Any] = {"date": date} if date else {"period": period} if period else {}
        if name == "tasks":
            args = {"status": "open"}
        return call(report.tool, args)
    out = step.output or {}
    if name == "churn":
        span = out.get("period") or {}
        return say(("churn", {"from": span.get("from", "?"), "to": span.get("to", "?"),
                              "churned": out.get("churned", 0), "active": (out.get("byStatus") or {}).get("active", 0)}),
                   ("churn_no_rate", {}))
    return say(*report.render(out, ep.locale))


def _quarter(day: date, back: int = 0) -> tuple[date, date]:
    """The calendar quarter `back` quarters before the one holding `day`: its first and last day."""
    index = (day.year * 4 + (day.month - 1) // 3) - back
    year, quarter = divmod(index, 4)
    first = date(year, quarter * 3 + 1, 1)
    nxt = date(year + (quarter == 3), (quarter * 3 + 3) % 12 + 1, 1)
    return first, nxt - timedelta(days=1)


def _churn_compare(ep: Episode) -> Reply:
    """Cancellations this quarter and last: two calls of the same tool; the tools give no churn rate."""
    calls = [s for s in ep.steps if s.name == "analytics__members_summary"]
    today = ep.today or date.today()
    first, last = _quarter(today, 1)
    if not calls:
        return call("analytics__members_summary", {"period": "this_quarter"})
    if len(calls) == 1:
        return call("analytics__members_summary", {"from": first.isoformat(), "to": last.isoformat()})
    now, before = calls[0].output or {}, calls[1].output or {}
    span = now.get("period") or {}
    return say(("churn_compare", {"now_from": span.get("from", "?"), "now_to": span.get("to", "?"),
                                  "now": now.get("churned", 0), "before_from": first.isoformat(),
                                  "before_to": last.isoformat(), "before": before.get("churned", 0)}),
               ("churn_no_rate", {}))


def _cancel_class(ep: Episode, name: str, date: str, time: str | None) -> Reply:
    listing = ep.last("class_sessions__list_for_date")
    if listing is None:
        return call("class_sessions__list_for_date", {"date": date})
    done = ep.last("class_sessions__cancel")
    if done is not None:
        if done.error:
            return say(("kept", {}))
        out = done.output or {}
        booked = out.get("bookedMembers") or []
        told = [("class_cancelled_booked", {"n": len(booked), "names": ", ".join(booked)}),
                ("next_step", {"label": (out.get("nextStep") or {}).get("label", "")})] if booked else []
        return say(("class_cancelled", {"title": out.get("title") or out.get("classType") or name,
                                        "date": out.get("date", date), "time": str(out.get("startsAt", ""))[11:16]}),
                   *told, *ep.undo("class_sessions__cancel"))
    hits = matching_sessions(listing.output or {}, name, time)
    if not hits:
        return say(("class_none", {"name": name or "—", "date": (listing.output or {}).get("date", date),
                                   "time": time or ""}))
    chosen = chosen_session(ep, hits)
    if chosen is None:
        return pick_session(ep, hits, name or time or date)
    return call("class_sessions__cancel", {"id": chosen["id"]},
                ("class_confirm", {"title": chosen.get("title", name), "date": chosen.get("date", date),
                                   "time": chosen.get("start", "")}))


def _task_done(ep: Episode, title: str) -> Reply:
    listing = ep.last("tasks__list")
    if listing is None:
        return call("tasks__list", {"status": "open"})
    done = ep.last("tasks__complete")
    if done is not None:
        return say(("task_done", {"title": (done.output or {}).get("title", title)}))
    tasks = (listing.output or {}).get("tasks", [])
    titles = {t.get("title", "").lower(): t for t in tasks}
    match = [t for t in tasks if title.lower() in t.get("title", "").lower()]
    close = difflib.get_close_matches(title.lower(), list(titles), n=1, cutoff=0.5)
    task = match[0] if len(match) == 1 else titles[close[0]] if close else None
    if task is None:
        return say(("task_none", {"title": title}))
    return call("tasks__complete", {"id": task["id"]})


def _cant(ep: Episode, what: str) -> Reply:
    """A request no tool serves: said plainly, with what the demo can do and how to connect Claude."""
    return say((what, {}), ("offline_can", {}), ("connect_claude", {}))


def _task(ep: Episode, title: str) -> Reply:
    step = ep.last("tasks__create")
    if step is None:
        return call("tasks__create", {"title": title})
    return say(("task_created", {"title": (step.output or {}).get("title", title)}), *ep.undo("tasks__create"))


def _publish(ep: Episode, period: str) -> Reply:
    """Preview, approval and result count the same rows: the drafts a publish changes; those already published
    are said apart (the tools' draftCount / publishedCount, changedCount / unchangedCount)."""
    preview = ep.last("assignments__bulk_preview")
    if preview is None:
        return call("assignments__bulk_preview", {"period": period})
    out = preview.output or {}
    span = {"from": out.get("dateFrom", "?"), "to": out.get("dateTo", "?")}
    done = ep.last("assignments__bulk_publish")
    if done is not None:
        if done.error:
            return say(("publish_kept", {}))
        result = done.output or {}
        already = result.get("unchangedCount") or 0
        return say(("published", {"n": result.get("changedCount", result.get("count", 0)),
                                  "from": result.get("dateFrom", span["from"]), "to": result.get("dateTo", span["to"])}),
                   *([("already_published", {"n": already})] if already else []),
                   *ep.undo("assignments__bulk_publish"))
    if not out.get("count"):
        return say(("publish_none", span))
    drafts, already = out.get("draftCount", out["count"]), out.get("publishedCount") or 0
    if not drafts:
        return say(("publish_all_done", {"n": already, **span}))
    return call("assignments__bulk_publish", {"period": period, "expectedFingerprint": out.get("fingerprint")},
                ("publish_confirm", {"n": drafts, **span}),
                *([("already_published", {"n": already})] if already else []))


def _help(ep: Episode) -> Reply:
    """Words no rule reads: say it is the offline demo, what it can do, and how to connect Claude."""
    return say(("not_understood", {}), ("help", {}), ("connect_claude", {}))


PLANNERS: dict[str, Callable[..., Reply]] = {
    "whoami": _whoami, "programs": _programs, "find": lambda ep, name: member_reply(ep, name, "profile"),
    "plan": lambda ep, name: member_reply(ep, name, "billing"), "workout_create": _workout_create,
    "workout_delete": _workout_delete, "schedule": _schedule, "comments": _comments, "revenue": _revenue,
    "at_risk": _at_risk, "task": _task, "publish": _publish, "help": _help, "report": _report,
    "churn_compare": _churn_compare, "cancel_class": _cancel_class, "task_done": _task_done, "cant": _cant,
    "anyway": _anyway, **DESK_PLANNERS,
}
HANDLES_REJECTION = {"workout_delete", "publish", "cancel_class", *DESK_HANDLES_REJECTION}


def failure(ep: Episode, step: Step) -> Reply:
    """A refused call in the person's words (the tool's message is already theirs); never the hint or code."""
    error = step.error or {}
    lines: list[Line] = [("tool_failed", {"tool": tool_label(step.name, ep.locale),
                                          "message": error.get("message") or translate(
                                              "agent.errors.tool_refused", ep.locale,
                                              tool=tool_label(step.name, ep.locale))})]
    if (error.get("nextStep") or {}).get("label"):
        lines.append(("next_step", {"label": error["nextStep"]["label"]}))
    return say(*lines)


def respond(ep: Episode) -> Reply:
    """The next move: tool call(s) with optional lead-in lines, or the final lines."""
    intent = classify(ep.words)
    if ep.steps:
        last = ep.steps[-1]
        rejected = (last.error or {}).get("code") == "rejected_by_user"
        if last.error and not (rejected and intent.kind in HANDLES_REJECTION):
            return failure(ep, last)
        if len(ep.steps) >= MAX_STEPS:
            return say(("loop", {"tool": tool_label(last.name, ep.locale)}))
    reply = PLANNERS[intent.kind](ep, **intent.args)
    for planned in reply.calls:
        if planned.name not in ep.tools:
            return say(("tool_unavailable", {"tool": tool_label(planned.name, ep.locale),
                                             "role": translate(f"console.roles.{ep.role}", ep.locale)
                                             if ep.role else "?"}))
        if any(s.name == planned.name and s.input == planned.input for s in ep.steps):
            return say(("loop", {"tool": tool_label(planned.name, ep.locale)}))
    if ep.steps and ep.steps[-1].edited:
        reply = Reply(lines=(("edited", {}), *reply.lines), calls=reply.calls)
    return reply
