"""The offline demo model's rules for the front desk's work (issue 42): find the member (asking the person to pick
when several match), find the class, then book, check in, freeze or unfreeze with the real tools; draft the at-risk
members' messages (or those of a cancelled class) and ask to send them on one card. Pure, like rules.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from offline_model.episode import MAX_CANDIDATES, Episode, Line, Reply, call, say
from offline_model.member_rules import (
    candidate,
    chosen_session,
    close_hits,
    matching_sessions,
    pick_prompt,
    pick_session,
    picked_as,
)
from offline_model.words import class_words


def find_member(ep: Episode, name: str) -> Reply | dict[str, Any]:
    """The one member the name means (a hit {id, label}), or the move that gets there: a search, a pick card, or
    "no member matches"."""
    search = ep.last("read__members_search")
    if search is None:
        return call("read__members_search", {"query": name})
    hits = (search.output or {}).get("members", [])
    if not hits:
        return say(("member_none", {"query": name}))
    picked = picked_as(ep, "member")
    if picked is not None:
        return next((h for h in hits if h.get("id") == picked), {"id": picked, "label": name})
    close = close_hits(hits, name)
    if len(close) == 1:
        return close[0]
    return call("read__ask_user_to_pick", {"kind": "member", "prompt": pick_prompt(ep, "member", name),
                                           "candidates": [candidate(h) for h in close[:MAX_CANDIDATES]]},
                ("member_several", {"n": len(close), "query": name}))


def book(ep: Episode, who: str, what: str) -> Reply:
    done = ep.last("bookings__book_member")
    if done is not None:
        out = done.output or {}
        return say(("booked", {"member": out.get("member", who), "title": out.get("title", ""),
                               "date": out.get("date", ""), "time": out.get("start", ""),
                               "left": out.get("spotsLeft", 0)}), *ep.undo("bookings__book_member"))
    wanted = class_words(what)
    if wanted is None:
        return say(("book_which", {"member": who}))
    member = find_member(ep, who)
    if isinstance(member, Reply):
        return member
    listing = ep.last("class_sessions__list_for_date")
    if listing is None:
        return call("class_sessions__list_for_date", {"date": wanted["date"], "includeCancelled": False})
    hits = matching_sessions(listing.output or {}, wanted["name"], wanted["time"])
    if not hits:
        return say(("class_none", {"name": wanted["name"] or "—", "date": (listing.output or {}).get("date", ""),
                                   "time": wanted["time"] or ""}))
    session = chosen_session(ep, hits)
    if session is None:
        return pick_session(ep, hits, what)
    return call("bookings__book_member", {"memberId": member["id"], "sessionId": session["id"]})


def waitlist(ep: Episode) -> Reply:
    """"Put them on the waitlist": the booking the previous request was refused as full, onto the waitlist."""
    done = ep.last("bookings__join_waitlist")
    if done is not None:
        out = done.output or {}
        return say(("waitlisted", {"member": out.get("member", ""), "title": out.get("title", ""),
                                   "date": out.get("date", ""), "time": out.get("start", ""),
                                   "n": out.get("position", 1)}), *ep.undo("bookings__join_waitlist"))
    refused = next((s for s in reversed(ep.before) if s.name == "bookings__book_member" and s.error
                    and s.error.get("code") == "session_full"), None)
    if refused is None:
        return say(("waitlist_which", {}))
    return call("bookings__join_waitlist", {k: refused.input[k] for k in ("memberId", "sessionId")})


def check_in(ep: Episode, who: str) -> Reply:
    done = ep.last("bookings__check_in")
    if done is not None:
        out = done.output or {}
        key = "checked_in_class" if out.get("title") else "checked_in"
        return say((key, {"member": out.get("member", who), "time": out.get("checkedInAt", ""),
                          "title": out.get("title", ""), "start": out.get("start", "")}),
                   *ep.undo("bookings__check_in"))
    member = find_member(ep, who)
    if isinstance(member, Reply):
        return member
    return call("bookings__check_in", {"memberId": member["id"]})


def freeze(ep: Episode, who: str, days: int | None) -> Reply:
    done = ep.last("memberships__freeze")
    if done is not None:
        if done.error:
            return say(("kept", {}))
        out = done.output or {}
        return say(("frozen", {"member": out.get("member", who), "from": out.get("from", ""), "to": out.get("to", ""),
                               "n": out.get("days", days or 0)}), *ep.undo("memberships__freeze"))
    if days is None:
        return say(("freeze_how_long", {"member": who}))
    member = find_member(ep, who)
    if isinstance(member, Reply):
        return member
    return call("memberships__freeze", {"memberId": member["id"], "days": days},
                ("freeze_confirm", {"member": member.get("label", who), "n": days}))


def unfreeze(ep: Episode, who: str) -> Reply:
    done = ep.last("memberships__unfreeze")
    if done is not None:
        if done.error:
            return say(("kept", {}))
        out = done.output or {}
        return say(("unfrozen", {"member": out.get("member", who), "status": out.get("status", "")}),
                   *ep.undo("memberships__unfreeze"))
    member = find_member(ep, who)
    if isinstance(member, Reply):
        return member
    return call("memberships__unfreeze", {"memberId": member["id"]})


def _messages(ep: Episode, draft_input: dict[str, Any]) -> Reply:
    """Draft, then ask to send the whole batch on one card; after it, say what happened to each."""
    drafted = ep.last("messages__draft")
    if drafted is None:
        return call("messages__draft", draft_input)
    batch = drafted.output or {}
    sent = ep.last("messages__send")
    if sent is None:
        skipped: list[Line] = [("messages_skipped", {"n": len(batch["skipped"]),
                                                     "names": ", ".join(s["member"] for s in batch["skipped"])})] \
            if batch.get("skipped") else []
        return call("messages__send", {"batchId": batch["id"]},
                    ("messages_drafted", {"n": batch.get("count", 0)}), *skipped)
    if sent.error:
        return say(("messages_kept", {"n": batch.get("count", 0)}))
    rows = (sent.output or {}).get("messages", [])
    queued = [m for m in rows if m.get("status") == "queued"]
    waiting = [m for m in queued if m.get("deferredUntil")]
    lines: list[Line] = [("messages_queued", {"n": len(queued)})]
    if waiting:
        lines.append(("messages_deferred", {"n": len(waiting)}))
    failed = [m for m in rows if m.get("status") == "failed"]
    if failed:
        lines.append(("messages_not_sent", {"n": len(failed), "names": ", ".join(m["member"] for m in failed)}))
    return say(*lines)


def message_at_risk(ep: Episode) -> Reply:
    return _messages(ep, {"filter": "at_risk"})


def message_booked(ep: Episode) -> Reply:
    """"Draft a message to the members booked into the cancelled class": the class the previous request cancelled."""
    cancelled = next((s for s in reversed((*ep.before, *ep.steps)) if s.name == "class_sessions__cancel" and s.output),
                     None)
    if cancelled is None:
        return say(("message_which", {}))
    return _messages(ep, {"filter": "session", "sessionId": cancelled.output["id"]})


DESK_PLANNERS: dict[str, Callable[..., Reply]] = {"book": book, "waitlist": waitlist, "check_in": check_in, "freeze": freeze, "unfreeze": unfreeze,
                 "message_at_risk": message_at_risk, "message_booked": message_booked}
DESK_HANDLES_REJECTION = {"freeze", "unfreeze", "message_at_risk", "message_booked"}
