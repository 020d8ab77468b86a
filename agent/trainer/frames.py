"""The trainer's SSE frames (TRAINER.md "SSE frames"), camelCase data, and its status lines (000 §6.7).

Status lines come from `locales/` (`trainer.status.<router__action>.start|done`, else the generic
`trainer.status.working`; a failure is `trainer.status.failed`): a new trainer tool is its module plus its
locale keys. Coach messages have no status line: they are the message.
"""

from __future__ import annotations

import uuid
from typing import Any

from agent import events
from agent.events import (
    ConfirmationPending,
    ErrorFrame,
    Event,
    ToolCompleted,
    ToolStarted,
    TurnUsage,
)
from agent.persona import Frames, Totals
from agent.trainer.shown import member_text
from core.i18n import translate
from tools.runner import ToolOutcome


class SessionStarted(Event, tag="session_started"):
    """First frame of a new trainer session."""

    session_id: str


class KnowledgeFrame(Event, tag="knowledge"):
    """A data source the knowledge selector loaded into the context this turn."""

    source: str
    display_name: str
    params: dict[str, Any]


class StatusFrame(Event, tag="status"):
    """A localized status line for a tool (000 §6.7); empty for coach messages."""

    tool: str
    phase: str
    message: str


class TrainerMessage(Event, tag="message"):
    """What the trainer tells the member; attachments are resolved workouts / exercises."""

    content: str
    attachments: list[dict[str, Any]]


class QuestionFrame(Event, tag="question"):
    """The trainer asks; the turn ends and the next message answers."""

    content: str
    options: list[str]


class TrainerDone(Event, tag="done"):
    """Exactly one per stream, last, also after an `error`."""

    session_id: str | None
    iterations: int
    usage: TurnUsage


TrainerFrame = (SessionStarted | KnowledgeFrame | StatusFrame | ToolStarted | ToolCompleted | TrainerMessage
                | QuestionFrame | ConfirmationPending | TrainerDone | ErrorFrame)
"""Every frame of a trainer turn."""

SILENT = frozenset({"coach__message_notify_user", "coach__message_ask_user"})


def status_message(tool: str, phase: str, locale: str) -> str:
    if tool in SILENT:
        return ""
    if phase == "error":
        return translate("trainer.status.failed", locale)
    key = f"trainer.status.{tool}.{phase}"
    said = translate(key, locale)
    return said if said != key else translate(f"trainer.status.working.{phase}", locale)


def status_frame(tool: str, phase: str, locale: str) -> StatusFrame:
    return StatusFrame(tool=tool, phase=phase, message=status_message(tool, phase, locale))


def knowledge_frame(source: str, display_name: str, params: dict[str, Any]) -> Event:
    return KnowledgeFrame(source=source, display_name=display_name, params=params)


def message_frame(content: str, attachments: list[dict[str, Any]]) -> TrainerMessage:
    return TrainerMessage(content=content, attachments=attachments)


def question_frame(content: str, options: list[str]) -> QuestionFrame:
    return QuestionFrame(content=content, options=options)


def shown_frame(view: dict[str, Any]) -> TrainerMessage | QuestionFrame:
    """The frame of a member view (agent/trainer/shown.py): a message or a question."""
    if view["kind"] == "question":
        return question_frame(view["content"], view["options"])
    return message_frame(view["content"], view["attachments"])


def session_started(session_id: uuid.UUID) -> SessionStarted:
    return SessionStarted(session_id=str(session_id))


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
        return TrainerDone(session_id=str(turn.conversation_id) if turn.opened else None,
                           iterations=turn.round_trips, usage=events.turn_usage(turn.usage, turn.cost_usd_micros))
