"""The trainer's SSE frames (TRAINER.md "SSE frames"), camelCase data, and its status lines (000 §6.7).

Status lines come from `locales/` (`trainer.status.<router__action>.start|done`, else the generic
`trainer.status.working`; a failure is `trainer.status.failed`): a new trainer tool is its module plus its
locale keys. A tool that speaks (a coach message or question, its declaration's `speaks`) has no status line:
it is the message.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from agent import events
from agent.events import (
    ConfirmationPending,
    ErrorFrame,
    Event,
    ToolCompleted,
    ToolStarted,
    TurnUsage,
)
from agent.persona import Frames, Totals, Turn
from agent.trainer.shown import member_text, member_view, state_of
from core.errors import NotFound
from core.i18n import translate
from tools.leaves.trainer.sources import load
from tools.registry import ToolSpec
from tools.runner import ToolOutcome

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from agent.round_trip import RoundTrip

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


def status_message(tool: str, phase: str, locale: str, *, speaks: bool = False) -> str:
    if speaks:
        return ""
    if phase == "error":
        return translate("trainer.status.failed", locale)
    key = f"trainer.status.{tool}.{phase}"
    said = translate(key, locale)
    return said if said != key else translate(f"trainer.status.working.{phase}", locale)


def status_frame(tool: str, phase: str, locale: str, *, speaks: bool = False) -> StatusFrame:
    return StatusFrame(tool=tool, phase=phase, message=status_message(tool, phase, locale, speaks=speaks))


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

    def tool_started(self, turn, spec: ToolSpec) -> list[Event]:
        return [status_frame(spec.name, "start", turn.locale, speaks=spec.speaks is not None)]

    def tool_finished(self, turn, name: str, outcome: ToolOutcome, spec: ToolSpec | None = None) -> list[Event]:
        """The status line; a coach message or question is the thread's (agent/trainer/thread.py `after_tool`):
        what the member sees of it needs the member's workout, recovery and progression."""
        speaks = spec is not None and spec.speaks is not None
        return [status_frame(name, "done" if outcome.ok else "error", turn.locale, speaks=speaks)]

    async def after_tool(self, turn: Turn, trip: RoundTrip, spec: ToolSpec, tool_use_id: str,
                         outcome: ToolOutcome) -> list[Event]:
        """A tool that speaks (its declaration's `speaks`): the message or question as the member sees it, kept in
        the turn's state for the result the history stores."""
        if spec.speaks is None:
            return []
        view = await shown_view(turn, trip.session, spec, outcome.output or {})
        state_of(turn).shown[tool_use_id] = view
        return [shown_frame(view)]

    def done(self, turn: Totals) -> Event:
        return TrainerDone(session_id=str(turn.conversation_id) if turn.opened else None,
                           iterations=turn.round_trips, usage=events.turn_usage(turn.usage, turn.cost_usd_micros))


async def shown_view(turn: Turn, session: AsyncSession, spec: ToolSpec, output: dict[str, Any]) -> dict[str, Any]:
    """A coach message or question as the member sees it: no ids, cards with recovery and progression."""
    member = turn.member_id
    if member is None:
        raise NotFound("member_not_found")
    now, org = datetime.now(UTC), turn.access.org_id
    current = await load(session, org, member, "current_workout", {}, now)
    extra: dict[str, Any] = {}
    if any(isinstance(a, dict) and ("workout" in a or "exercise" in a) for a in output.get("attachments") or []):
        extra = {"recovery": await load(session, org, member, "recovery_status", {}, now) or [],
                 "progression": await load(session, org, member, "progression", {}, now) or []}
    view = member_view(spec.speaks, output, turn.locale, current=current if isinstance(current, dict) else None,
                       **extra)
    assert view is not None
    return view
