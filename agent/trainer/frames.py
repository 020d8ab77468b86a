"""The trainer's SSE frames (TRAINER.md "SSE frames"), camelCase data, and its status lines (000 §6.7).

Status lines come from `locales/` (`trainer.status.<router__action>.start|done`, else the generic
`trainer.status.working`; a failure is `trainer.status.failed`): a new trainer tool is its module plus its
locale keys. Coach messages have no status line: they are the message.
"""

from __future__ import annotations

import uuid
from typing import Any

from agent import events
from agent.events import Event
from agent.persona import Frames, Totals
from agent.trainer.shown import member_text
from core.i18n import translate
from tools.runner import ToolOutcome

SILENT = frozenset({"coach__message_notify_user", "coach__message_ask_user"})


def status_message(tool: str, phase: str, locale: str) -> str:
    if tool in SILENT:
        return ""
    if phase == "error":
        return translate("trainer.status.failed", locale)
    key = f"trainer.status.{tool}.{phase}"
    said = translate(key, locale)
    return said if said != key else translate(f"trainer.status.working.{phase}", locale)


def status_frame(tool: str, phase: str, locale: str) -> Event:
    return Event("status", {"tool": tool, "phase": phase, "message": status_message(tool, phase, locale)})


def knowledge_frame(source: str, display_name: str, params: dict[str, Any]) -> Event:
    return Event("knowledge", {"source": source, "displayName": display_name, "params": params})


def message_frame(content: str, attachments: list[dict[str, Any]]) -> Event:
    return Event("message", {"content": content, "attachments": attachments})


def question_frame(content: str, options: list[str]) -> Event:
    return Event("question", {"content": content, "options": options})


def shown_frame(view: dict[str, Any]) -> Event:
    """The frame of a member view (agent/trainer/shown.py): a message or a question."""
    if view["kind"] == "question":
        return question_frame(view["content"], view["options"])
    return message_frame(view["content"], view["attachments"])


def session_started(session_id: uuid.UUID) -> Event:
    return Event("session_started", {"sessionId": str(session_id)})


class TrainerFrames(Frames):
    """No streamed text and no message_done: the member reads status lines, `message` and `question`."""

    streams_text = False

    def answered(self, message_id: object, stop_reason: str | None) -> list[Event]:
        return []

    def reply_without_tools(self, turn, text: str) -> list[Event]:
        shown = member_text(text, [], turn.locale) if text else ""
        return [message_frame(shown, [])] if shown else []

    def tool_started(self, turn, name: str) -> list[Event]:
        return [status_frame(name, "start", turn.locale)]

    def tool_finished(self, turn, name: str, outcome: ToolOutcome) -> list[Event]:
        """The status line; a coach message or question is the thread's (agent/trainer/thread.py `after_tool`):
        what the member sees of it needs the member's workout, recovery and progression."""
        return [status_frame(name, "done" if outcome.ok else "error", turn.locale)]

    def done(self, turn: Totals) -> Event:
        return Event("done", {"sessionId": str(turn.conversation_id) if turn.opened else None,
                              "iterations": turn.round_trips,
                              "usage": events.usage_payload(turn.usage, turn.cost_usd_micros)})
