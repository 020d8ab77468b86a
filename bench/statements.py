"""What a conversation costs the database, counted (never timed) with SQLAlchemy engine events.

`StatementCounter` is attached to the app engine's sync side; `count_per_round_trip` drives the bench's two
conversations (tool, tool, answer; a confirmed delete and its resume) through an in-process copy of the app,
with the same settings as the `spotter serve` processes, over the same HTTP routes, and divides by the round
trips. tests/agent/test_round_trip_statements.py holds the counts to what bench/README.md reports.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sqlalchemy import Engine, event
from sqlalchemy.engine.default import CacheStats


@dataclass
class StatementCounter:
    """Statements, BEGINs and COMMITs an engine sends while attached (`with StatementCounter(engine) as sent`)."""

    engine: Engine
    statements: list[str] = field(default_factory=list)
    begins: int = 0
    commits: int = 0
    uncacheable: list[str] = field(default_factory=list)  # compiled afresh every time (no cache key)

    def _statement(self, conn, cursor, statement, parameters, context, executemany) -> None:
        self.statements.append(" ".join(statement.split()))
        savepoint = statement.startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))  # plain strings, nothing to compile
        if not savepoint and context is not None and context.cache_hit == CacheStats.NO_CACHE_KEY:
            self.uncacheable.append(self.statements[-1][:80])

    def _begin(self, conn) -> None:
        self.begins += 1

    def _commit(self, conn) -> None:
        self.commits += 1

    def __enter__(self) -> StatementCounter:
        event.listen(self.engine, "before_cursor_execute", self._statement)
        event.listen(self.engine, "begin", self._begin)
        event.listen(self.engine, "commit", self._commit)
        return self

    def __exit__(self, *exc) -> None:
        event.remove(self.engine, "before_cursor_execute", self._statement)
        event.remove(self.engine, "begin", self._begin)
        event.remove(self.engine, "commit", self._commit)

    def like(self, start: str) -> int:
        return sum(1 for s in self.statements if s.startswith(start))


async def per_round_trip(engine: Engine, conversation: Callable[[], Awaitable[object]], *, round_trips: int,
                         repeat: int = 5) -> dict[str, float]:
    """Mean statements, BEGINs and COMMITs per model round trip over `repeat` runs of `conversation`."""
    with StatementCounter(engine) as sent:
        for _ in range(repeat):
            await conversation()
    trips = round_trips * repeat
    return {"statements": round(len(sent.statements) / trips, 2), "begins": round(sent.begins / trips, 2),
            "commits": round(sent.commits / trips, 2)}
