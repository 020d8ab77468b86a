"""Tool search: the tools a persona uses most stay loaded; the long tail is deferred behind Anthropic's
server-side BM25 tool search. Which tools stay loaded is on their declarations (`loaded=True`, tools/registry.py).

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
