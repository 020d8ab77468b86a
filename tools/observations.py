"""Compact observations (001 §4.11): what a model reads back from a tool's output, when that is less than the
output itself. A tool names its own on its declaration (`observe=`); one that names none is read back whole (the
member's trainer reads it as compact JSON, agent/trainer/observe.py). Errors always go back whole."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

OK = "<result>ok</result>"

Observer = Callable[[Mapping[str, Any]], "str | None"]  # None: read the output back whole


def confirmed(output: Mapping[str, Any]) -> str:
    """A confirmation in a few tokens: the model needs to know it happened, nothing more."""
    return OK


def confirmed_with_warnings(output: Mapping[str, Any]) -> str:
    return OK if not output.get("warnings") else f"<result>ok; {'; '.join(output['warnings'])}</result>"


def sources_in_context(output: Mapping[str, Any]) -> str:
    """The data itself arrives once, as the knowledge the thread delivers after this result."""
    return f"<result>ok: {', '.join(output.get('sources', {}))} in context</result>"


def saved_preference(output: Mapping[str, Any]) -> str:
    """With the rule said back in the member's words, for the reply."""
    said = f": {output['shownBack']}" if output.get("shownBack") else ""
    return f"<result>saved preference {output.get('id')}{said}</result>"


def logged(output: Mapping[str, Any]) -> str:
    return f"<result>logged {output.get('logged')} (id {output.get('id')})</result>"


def ok_with_id(output: Mapping[str, Any]) -> str | None:
    return f"<result>ok (id {output['id']})</result>" if "id" in output else None
