"""The offline rules that find a member and describe them: the close hits of a search, a pick card's prompt and
candidates, and the lines of a member's profile, billing or training."""

from __future__ import annotations

from typing import Any

from core.i18n import translate
from offline_model.episode import CLOSE_SCORE, MAX_CANDIDATES, Episode, Line, Reply, call, say


def close_hits(hits: list[dict], query: str) -> list[dict]:
    exact = [h for h in hits if h.get("label", "").lower() == query.lower()]
    if len(exact) == 1:
        return exact
    # "Dani" is Dani Mizrahi when no one else has that name: the search's fuzzy neighbours (Dana, Daniel) are not
    named = [h for h in hits if set(query.lower().split()) <= set(h.get("label", "").lower().split())]
    if len(named) == 1:
        return named
    top = hits[0].get("score", 0.0)
    return [h for h in hits if h.get("score", 0.0) >= top - CLOSE_SCORE][:MAX_CANDIDATES]


def pick_prompt(ep: Episode, kind: str, query: str) -> str:
    return translate(f"offline.pick.{kind}", ep.locale, q=query)[:300]


def candidate(hit: dict) -> dict[str, Any]:
    return {k: str(hit[k])[:200] for k in ("id", "label", "sublabel", "detail") if hit.get(k)}


def member_reply(ep: Episode, name: str, focus: str) -> Reply:
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
    close = close_hits(hits, name)
    if len(close) == 1:
        return call("read__members_get", {"memberId": close[0]["id"]})
    return call("read__ask_user_to_pick", {"kind": "member", "prompt": pick_prompt(ep, "member", name),
                                           "candidates": [candidate(h) for h in close]},
                ("member_several", {"n": len(close), "query": name}))


def picked_as(ep: Episode, kind: str) -> str | None:
    """The id the person picked on the last pick card of this kind ("member", "class_session"), if any."""
    step = next((s for s in reversed(ep.steps) if s.name == "read__ask_user_to_pick" and s.input.get("kind") == kind),
                None)
    return (step.output or {}).get("pickedId") if step is not None else None


def matching_sessions(listing: dict, name: str, time: str | None) -> list[dict]:
    """A day's live sessions (class_sessions__list_for_date) whose title or type holds every word, at `time`."""
    words = [w for w in name.lower().split() if len(w) > 1]
    return [s for s in listing.get("sessions", []) if not s.get("cancelled")
            and (not time or s.get("start") == time)
            and all(w in f"{s.get('title', '')} {s.get('classType', '')}".lower() for w in words)]


def chosen_session(ep: Episode, hits: list[dict]) -> dict | None:
    picked = picked_as(ep, "class_session")
    chosen = next((h for h in hits if picked and h.get("id") == picked), None)
    return chosen if chosen is not None else hits[0] if len(hits) == 1 else None


def pick_session(ep: Episode, hits: list[dict], query: str) -> Reply:
    return call("read__ask_user_to_pick", {"kind": "class_session", "prompt": pick_prompt(ep, "class", query),
                                           "candidates": [{"id": h["id"], "label": f"{h.get('start')} {h.get('title')}",
                                                           "sublabel": h.get("coach") or h.get("date", "")}
                                                          for h in hits[:MAX_CANDIDATES]]})


def wall_time(when: str | None) -> str:
    """A tool's '2026-11-16 18:30 (7 days ago)' without the English parenthesis (the console shows the date in
    the reader's format)."""
    return when.split(" (")[0] if when else "—"


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
              "paid": wall_time(pay.get("lastPaidAt")), "count": pay.get("overdueCount", 0),
              "overdue": pay.get("overdueAmount") or "?", "oldest": pay.get("oldestOverdueOn") or "?"}
    lines.append((f"member_pay_{state}" if state in ("ok", "failed", "overdue") else "member_pay_none", params))
    # the payment line above already says failed/overdue; the rest of the tool's attention notes, in words
    if pay.get("failedLast90Days") and not pay.get("overdueCount") and state == "ok":
        lines.append(("member_recovered", {"n": pay["failedLast90Days"]}))
    if m.get("pendingForms"):
        lines.append(("member_forms", {"n": m["pendingForms"]}))
    if focus == "profile":
        if m.get("coach"):
            lines.append(("member_coach", {"coach": m["coach"].get("name") or "?"}))
        lines.append(("member_visits", {"last": wall_time(m.get("lastVisit")), "n": m.get("visitsLast30Days", 0)}))
        if m.get("programs"):
            lines.append(("member_programs", {"names": ", ".join(p.get("name", "?") for p in m["programs"])}))
    return lines


def movement(m: dict) -> str:
    """'10 KB swings @ 24 kg', '200m Run', '5×5 Back Squat @ 75%' from a movement and its prescription."""
    p = m.get("prescription") or {}
    lead = f"{p['sets']}×{p.get('reps', '?')}" if p.get("sets") else str(p.get("reps") or "")
    lead += "".join(f"{p[k]}{unit}" for k, unit in (("distanceM", "m"), ("calories", " cal"), ("durationS", "s"))
                    if p.get(k) and not lead)
    load = f"{p['loadKg']} kg" if p.get("loadKg") else f"{p['loadPct']}%" if p.get("loadPct") else ""
    text = " ".join(part for part in (lead, m.get("exerciseName") or m.get("name", "?")) if part)
    return text + (f" @ {load}" if load else "") + (f" ({p['notes']})" if p.get("notes") else "")
