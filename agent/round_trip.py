"""One round trip's writes and frames, collected while its transaction runs and sent once.

A model round trip (or a confirm / pick resolving a tool use) writes its rows — the assistant message or
event, every tool's execution row and audit row, the tool results — in one statement at the end of its
transaction (with the call's usage when there was a call: `Meter.write`). Its frames go out in order; a
frame a client may act on or read back (a finished tool's Undo and the rows it wrote, a pending card's
confirm or pick) waits until the transaction commits, and so does every frame after it. Progress before the
first such frame (`message_done`, `tool_started`, status lines) goes out at once. Rolled back, the held
frames are dropped with the rows.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from agent.events import Event
from core import row_inserts
from core.row_inserts import Row

ACTIONABLE = frozenset({"tool_completed", "confirmation_pending", "disambiguation_pending"})


class RoundTrip:
    """The rows and frames of one transaction of a turn (the turn itself goes alongside, never in it: the
    round trip sits below the turn and the persona hooks that take both)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self.rows: list[Row] = []
        self._ready: list[Event] = []  # frames that may go out now
        self._held: list[Event] = []  # frames that wait for the commit

    def add(self, *rows: Row) -> None:
        """Rows to insert with the round trip's last statement, in this order."""
        self.rows.extend(rows)

    def emit(self, *frames: Event) -> list[Event]:
        """Queue frames in order; returns those that may go out now."""
        for frame in frames:
            if not self._held and frame.type not in ACTIONABLE:
                self._ready.append(frame)
            else:
                self._held.append(frame)
        ready, self._ready = self._ready, []
        return ready

    def committed(self) -> list[Event]:
        """The frames held for the commit, once it happened."""
        held, self._held = self._held, []
        return held

    def take_rows(self) -> list[Row]:
        rows, self.rows = self.rows, []
        return rows

    async def write(self) -> None:
        """Send the collected rows without a model call's usage (a confirm or pick that resolved a tool use)."""
        for row in self.take_rows():
            await self.session.execute(*row_inserts.statements.get([row]))
