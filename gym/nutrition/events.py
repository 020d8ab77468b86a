"""Following a run's stored events (the run's SSE stream, NUTRITION.md): everything after a given event id,
then what the worker appends, until the run rests and its last word was said.

Each poll is its own short transaction, so a stream that stays open for minutes holds no connection.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

from core.database import Database
from gym.nutrition import runs
from gym.nutrition.models import NutritionEvent, NutritionRun
from gym.nutrition.plan import awaiting_user
from gym.nutrition.states import RESTING, State

FOLLOW_POLL_S = 0.3


def working(run: NutritionRun) -> bool:
    """A paused run is still working while the physician has not answered."""
    return run.state == State.PAUSED_PHYSICIAN.value and not awaiting_user(run)


class RunEvents:
    def __init__(self, db: Database, *, poll_s: float = FOLLOW_POLL_S) -> None:
        self.db = db
        self.poll_s = poll_s

    async def follow(self, org_id: uuid.UUID, run_id: uuid.UUID, *, after: int = 0) -> AsyncIterator[NutritionEvent]:
        """The run's events after `after`, then new ones as they are stored; ends once the run rests (and, when
        new events came, the last of them is its `done`). The caller checked the run may be read."""
        seq = after
        while True:
            async with self.db.scope(org_id=org_id) as session:
                run = await runs.get_run(session, org_id, run_id)
                batch = await runs.events_after(session, run, seq)
            for event in batch:
                seq = event.seq
                yield event
            resting = run.state in RESTING and not working(run)
            if resting and (not batch or batch[-1].kind == "done"):
                return
            await asyncio.sleep(self.poll_s)
