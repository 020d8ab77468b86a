"""Tool search: the tools a persona uses most stay loaded; the long tail is deferred behind Anthropic's
server-side BM25 tool search.

A deferred tool is sent with ``defer_loading: true``: the API keeps it out of the prompt (no tokens, no
place in the cached prefix) until the model searches and the server answers with a ``tool_reference`` to
it, in the same response (``server_tool_use`` + ``tool_search_tool_result``, then the model's
``tool_use``). Those blocks are stored and replayed verbatim, so later requests keep the tool loaded, and
the cached prefix (tools → system → messages) never changes when a tool is found.

Order: loaded tools, then the search tool carrying the tools' 1 h breakpoint (a deferred tool cannot carry
one, being outside the prefix), then the deferred tools.
"""

from __future__ import annotations

from typing import Any

SEARCH_TOOL: dict[str, Any] = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
SEARCH_TOOL_NAMES = frozenset({"tool_search_tool_bm25", "tool_search_tool_regex"})

# What staff reach for on most turns (the day's context, members, tasks, today's classes, booking and checking
# members in, quick lookups);
# everything else (analytics, bulk operations, authoring workouts and templates) is found through search.
STAFF_LOADED_TOOLS = frozenset({
    "read__get_current_context", "read__search_anything", "read__lookup_by_id", "read__members_search",
    "read__members_get", "read__member_training", "read__programs_list", "read__exercises_search",
    "read__ask_user_to_pick",
    "tasks__list", "tasks__create", "tasks__update", "tasks__complete", "tasks__delete",
    "class_sessions__list_for_date", "class_sessions__cancel",
    "bookings__book_member", "bookings__check_in",  # the front desk's day (issue 42)
    "bookings__attendance_summary", "analytics__org_insights", "analytics__at_risk_members",
    "forms__list_pending_for_org", "programs__enroll_member", "assignments__assign_personal",
})


def with_deferred(definitions: list[dict[str, Any]], loaded: frozenset[str],
                  cache_control: dict[str, Any]) -> list[dict[str, Any]]:
    """`definitions` (no breakpoint yet) with the ones outside `loaded` deferred behind the search tool.

    When nothing would be deferred, the definitions are returned as they are, with the breakpoint on the
    last one, and no search tool is added.
    """
    kept = [d for d in definitions if d["name"] in loaded]
    deferred = [{**d, "defer_loading": True} for d in definitions if d["name"] not in loaded]
    if not deferred:
        out = list(definitions)
        if out:
            out[-1] = {**out[-1], "cache_control": cache_control}
        return out
    return [*kept, {**SEARCH_TOOL, "cache_control": cache_control}, *deferred]
