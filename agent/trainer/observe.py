"""Compact observations (001 §4.11): what the model reads back from each trainer tool.

Confirmations in a few tokens, one-line summaries where that is enough, full data only where the model needs it
(statistics, timers, a workout's exercise list with warnings). Errors always go back whole ({code, message, hint}).
"""

from __future__ import annotations

import json
from typing import Any

from core.member_text import Marks, wrap

OK = "<result>ok</result>"
CONFIRMATIONS = frozenset({"coach__message_ask_user", "coach__idle", "prefs__delete_preference",
                           "calendar__delete_scheduled_workout", "logbook__undo_logged_exercise"})


def observation(tool: str, output: dict[str, Any], marks: Marks | None = None) -> str:
    """What the model reads of a tool's output; member-written text the `marks` name is in its envelope."""
    if tool in CONFIRMATIONS:
        return OK
    if tool == "coach__message_notify_user":
        return OK if not output.get("warnings") else f"<result>ok; {'; '.join(output['warnings'])}</result>"
    if tool == "data__fetch_data":  # the data itself arrives once, as the knowledge events after this result
        return f"<result>ok: {', '.join(output.get('sources', {}))} in context</result>"
    if tool == "prefs__set_preference":  # with the rule said back in the member's words, for the reply
        said = f": {output['shownBack']}" if output.get("shownBack") else ""
        return f"<result>saved preference {output.get('id')}{said}</result>"
    if tool == "logbook__log_completed_exercise":
        return f"<result>logged {output.get('logged')} (id {output.get('id')})</result>"
    if tool.startswith("calendar__") and "id" in output:
        return f"<result>ok (id {output['id']})</result>"
    return json.dumps(wrap(output, marks), ensure_ascii=False, default=str, separators=(",", ":"))
