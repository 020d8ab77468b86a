"""The offline demo model's rules: given what the person asked, decide the next tool call or the answer.

Pure functions over plain data. An `Episode` is what happened since the person last typed (their words, the
reply locale, and each tool call with its result); `respond` answers with the next tool call(s) or the lines
of a final reply. Lines are message keys with parameters; agent/offline/model.py renders them from the
`offline` strings of locales/. Nothing here calls a model, the database or the clock.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agent.offline.words import classify
from core.i18n import translate

MAX_STEPS = 8           # tool calls per episode before the rules give up and answer
CLOSE_SCORE = 0.25      # member hits within this of the best score are equally plausible
MAX_CANDIDATES = 8      # read__ask_user_to_pick takes 2..8

Line = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Step:
    """One tool call of the episode and what came back (output, or error {code, message, hint})."""

    name: str
    input: dict[str, Any]
    output: Any = None
    error: dict[str, Any] | None = None
    edited: bool = False


@dataclass(frozen=True)
class Episode:
    words: str
    locale: str = "en"
    role: str | None = None
    steps: tuple[Step, ...] = ()
    tools: frozenset[str] = frozenset()

    def last(self, name: str) -> Step | None:
        return next((s for s in reversed(self.steps) if s.name == name), None)


@dataclass(frozen=True)
class Call:
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    lines: tuple[Line, ...] = ()
    calls: tuple[Call, ...] = ()


def say(*lines: Line) -> Reply:
    return Reply(lines=tuple(lines))


def call(name: str, input: dict[str, Any], *lines: Line) -> Reply:
    return Reply(lines=tuple(lines), calls=(Call(name, input),))


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


def _close_hits(hits: list[dict], query: str) -> list[dict]:
    exact = [h for h in hits if h.get("label", "").lower() == query.lower()]
    if len(exact) == 1:
        return exact
    top = hits[0].get("score", 0.0)
    return [h for h in hits if h.get("score", 0.0) >= top - CLOSE_SCORE][:MAX_CANDIDATES]


def _prompt(ep: Episode, kind: str, query: str) -> str:
    return translate(f"offline.pick.{kind}", ep.locale, q=query)[:300]


def _candidate(hit: dict) -> dict[str, Any]:
    return {k: str(hit[k])[:200] for k in ("id", "label", "sublabel", "detail") if hit.get(k)}


def _member(ep: Episode, name: str, focus: str) -> Reply:
    search = ep.last("read__members_search")
    if search is None:
        return call("read__members_search", {"query": name})
    detail = ep.last("read__members_get")
    if detail is not None:
        return say(*member_lines(detail.output or {}, focus))
    hits = (search.output or {}).get("members", [])
    if not hits:
        return say(("member_none", {"query": name}))
    picked = ep.last("read__ask_user_to_pick")
    if picked is not None:
        return call("read__members_get", {"memberId": (picked.output or {}).get("pickedId")})
    close = _close_hits(hits, name)
    if len(close) == 1:
        return call("read__members_get", {"memberId": close[0]["id"]})
    return call("read__ask_user_to_pick", {"kind": "member", "prompt": _prompt(ep, "member", name),
                                           "candidates": [_candidate(h) for h in close]},
                ("member_several", {"n": len(close), "query": name}))


def member_lines(m: dict, focus: str) -> list[Line]:
    lines: list[Line] = [("member_head", {"name": m.get("name", "?"), "status": m.get("status", "?"),
                                          "email": m.get("email") or "—"})]
    plan, sub = m.get("plan"), m.get("subscription") or {}
    if plan:
        lines.append(("member_plan", {"plan": plan.get("name", "?"), "price": plan.get("price", "?"),
                                      "interval": plan.get("interval", "?"), "sub": sub.get("status", "—")}))
    else:
        lines.append(("member_no_plan", {}))
    pay = m.get("payments") or {}
    last = pay.get("lastPayment") or {}
    state = pay.get("state", "none")
    params = {"amount": last.get("amount", "?"), "status": last.get("status", "?"), "due": last.get("dueOn", "?"),
              "paid": pay.get("lastPaidAt") or "—", "count": pay.get("overdueCount", 0),
              "overdue": pay.get("overdueAmount") or "?", "oldest": pay.get("oldestOverdueOn") or "?"}
    lines.append((f"member_pay_{state}" if state in ("ok", "failed", "overdue") else "member_pay_none", params))
    notes = [n for n in m.get("attention") or [] if not n.startswith("Last payment FAILED") and "overdue" not in n]
    if notes:  # the payment line above already says failed/overdue
        lines.append(("member_attention", {"items": " ".join(notes)}))
    if focus == "profile":
        if m.get("coach"):
            lines.append(("member_coach", {"coach": m["coach"].get("name") or "?"}))
        lines.append(("member_visits", {"last": m.get("lastVisit") or "—", "n": m.get("visitsLast30Days", 0)}))
        if m.get("programs"):
            lines.append(("member_programs", {"names": ", ".join(p.get("name", "?") for p in m["programs"])}))
    return lines


def _movement(m: dict) -> str:
    """'10 KB swings @ 24 kg', '200m Run', '5×5 Back Squat @ 75%' from a movement and its prescription."""
    p = m.get("prescription") or {}
    lead = f"{p['sets']}×{p.get('reps', '?')}" if p.get("sets") else str(p.get("reps") or "")
    lead += "".join(f"{p[k]}{unit}" for k, unit in (("distanceM", "m"), ("calories", " cal"), ("durationS", "s"))
                    if p.get(k) and not lead)
    load = f"{p['loadKg']} kg" if p.get("loadKg") else f"{p['loadPct']}%" if p.get("loadPct") else ""
    text = " ".join(part for part in (lead, m.get("exerciseName") or m.get("name", "?")) if part)
    return text + (f" @ {load}" if load else "") + (f" ({p['notes']})" if p.get("notes") else "")


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
        lines.append(("bullet", {"text": f"{head}: " + ", ".join(_movement(m) for m in s.get("movements", []))}))
    if not sections:
        lines.append(("workout_freeform", {}))
    if out.get("unresolved"):
        lines.append(("workout_unresolved", {"names": ", ".join(u.get("name", "?") for u in out["unresolved"])}))
    lines.append(("undo", {}))
    return say(*lines)


def _workout_delete(ep: Episode, name: str) -> Reply:
    search = ep.last("read__search_anything")
    if search is None:
        return call("read__search_anything", {"query": name[:200], "types": ["workout"]})
    hits = ((search.output or {}).get("groups") or {}).get("workout", [])
    done = ep.last("workouts__delete")
    if done is not None:
        if done.error:
            return say(("kept", {}))
        return say(("deleted", {"title": (done.output or {}).get("title", name)}))
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
        return call("read__ask_user_to_pick", {"kind": "workout", "prompt": _prompt(ep, "workout", name),
                                               "candidates": [_candidate(h) for h in hits[:MAX_CANDIDATES]]},
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
               ("undo", {}))


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
                                         "at": c.get("at", "?"), "body": _clip(c.get("body", ""), 160)})
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
    lines: list[Line] = [("at_risk_head", {"n": out.get("count", len(rows)), "shown": len(rows),
                                           "days": out.get("days", 21)})]
    for r in rows:
        key = "at_risk_row" if r.get("lastVisitOn") else "at_risk_row_never"
        lines.append((key, {"name": r.get("name", "?"), "days": r.get("daysSinceLastVisit", "?"),
                            "last": r.get("lastVisitOn", "?"), "joined": r.get("joinedOn", "?"),
                            "extra": "".join(f" · {r[k]}" for k in ("plan", "coach") if r.get(k))}))
    return say(*lines)


def _task(ep: Episode, title: str) -> Reply:
    step = ep.last("tasks__create")
    if step is None:
        return call("tasks__create", {"title": title})
    return say(("task_created", {"title": (step.output or {}).get("title", title)}), ("undo", {}))


def _publish(ep: Episode, period: str) -> Reply:
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
        return say(("published", {"n": result.get("count", 0), "from": result.get("dateFrom", span["from"]),
                                  "to": result.get("dateTo", span["to"])}))
    if not out.get("count"):
        return say(("publish_none", span))
    return call("assignments__bulk_publish", {"period": period, "expectedFingerprint": out.get("fingerprint")},
                ("publish_confirm", {"n": out["count"], **span}))


def _help(ep: Episode) -> Reply:
    return say(("help", {}))


PLANNERS: dict[str, Callable[..., Reply]] = {
    "whoami": _whoami, "programs": _programs, "find": lambda ep, name: _member(ep, name, "profile"),
    "plan": lambda ep, name: _member(ep, name, "billing"), "workout_create": _workout_create,
    "workout_delete": _workout_delete, "schedule": _schedule, "comments": _comments, "revenue": _revenue,
    "at_risk": _at_risk, "task": _task, "publish": _publish, "help": _help,
}
HANDLES_REJECTION = {"workout_delete", "publish"}


def failure(step: Step) -> Reply:
    error = step.error or {}
    lines: list[Line] = [("tool_failed", {"tool": step.name.replace("__", "."),
                                          "message": error.get("message") or error.get("code") or "unknown error",
                                          "code": error.get("code", "error")})]
    if error.get("hint"):
        lines.append(("hint", {"hint": error["hint"]}))
    return say(*lines)


def respond(ep: Episode) -> Reply:
    """The next move: tool call(s) with optional lead-in lines, or the final lines."""
    intent = classify(ep.words)
    if ep.steps:
        last = ep.steps[-1]
        rejected = (last.error or {}).get("code") == "rejected_by_user"
        if last.error and not (rejected and intent.kind in HANDLES_REJECTION):
            return failure(last)
        if len(ep.steps) >= MAX_STEPS:
            return say(("loop", {"tool": last.name.replace("__", ".")}))
    reply = PLANNERS[intent.kind](ep, **intent.args)
    for planned in reply.calls:
        if planned.name not in ep.tools:
            return say(("tool_unavailable", {"tool": planned.name.replace("__", "."), "role": ep.role or "?"}))
        if any(s.name == planned.name and s.input == planned.input for s in ep.steps):
            return say(("loop", {"tool": planned.name.replace("__", ".")}))
    if ep.steps and ep.steps[-1].edited:
        reply = Reply(lines=(("edited", {}), *reply.lines), calls=reply.calls)
    return reply
