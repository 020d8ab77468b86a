"""Ambient context: the rendered block, its caps, the 30-character gate, the 800 ms budget under a slow
embedder, degradation when embedding or the database fails, and another org's rows never showing."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence

import pytest
from sqlalchemy import text
from structlog.testing import capture_logs

from core.database import Database
from gym.exercises import create_exercise
from gym.members import create_member
from rag.ambient import AmbientFinder, render, select
from rag.embeddings import EmbedderError, LocalEmbedder
from rag.worker import OutboxWorker


class HeldEmbedder(LocalEmbedder):
    """A provider that never answers in time: `embed` waits until cancelled (or `limit` seconds, after which it
    answers, so a missing timeout fails the test instead of hanging it). Its model name is not the local one,
    so search embeds the whole query concurrently with the lexical list (classic fusion)."""

    model = "held-test-512"

    def __init__(self, limit: float = 30.0) -> None:
        super().__init__()
        self.limit = limit
        self.calls = 0
        self.cancelled = 0

    async def embed(self, texts: Sequence[str], *, input_type: str) -> list[list[float]]:
        self.calls += 1
        try:
            await asyncio.sleep(self.limit)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        return await super().embed(texts, input_type=input_type)


class BrokenEmbedder(LocalEmbedder):
    model = "broken-test-512"

    async def embed(self, texts: Sequence[str], *, input_type: str) -> list[list[float]]:
        raise EmbedderError("quota exceeded (test)", status=429)


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder()


async def _gym(db, factory, embedder, *, members: Sequence[tuple[str, str]] = (), exercises: Sequence[str] = ()):
    org = await factory.org()
    ids: dict[str, uuid.UUID] = {}
    async with db.scope(org_id=org.id) as session:
        for first, last in members:
            ids[f"{first} {last}"] = (await create_member(session, org.id, first_name=first, last_name=last)).id
        for name in exercises:
            ids[name] = (await create_exercise(session, org.id, name=name, category="accessory")).id
    for _ in range(50):
        if sum(r.claimed for r in await OutboxWorker(db, embedder).drain_once()) == 0:
            break
    return org, ids


def test_select_takes_each_scopes_best_then_caps_three_per_scope_five_in_all() -> None:
    hits = [{"scope": "member", "entityId": i} for i in range(6)] + [{"scope": "exercise", "entityId": 9}]
    chosen = select(hits)
    assert [h["entityId"] for h in chosen] == [0, 1, 2, 9]  # 3 members, and the exercise despite rank 7
    many = [{"scope": s, "entityId": f"{s}{i}"} for s in ("member", "exercise", "workout") for i in range(3)]
    assert len(select(many)) == 5


def test_render_lists_scope_title_id_and_an_excerpt() -> None:
    block = render([{"scope": "member", "title": "Saar Cohen", "entityId": "m-1", "body": "saar@x.test · active"}])
    assert block.startswith("<ambient_context>\n") and block.endswith("\n</ambient_context>")
    assert ('- member: <member_text source="member_name">Saar Cohen</member_text> (id m-1) — '
            '<member_text source="member_record">saar@x.test · active</member_text>') in block


async def test_finds_and_renders_the_records_a_message_names(db, factory, local) -> None:
    org, ids = await _gym(db, factory, local, members=[("Saar", "Cohen"), ("Saar", "Levi")],
                          exercises=["Romanian Deadlift"])
    block = await AmbientFinder(db, local)(org.id, "Can you add Romanian deadlifts to Saar Cohen's plan?")
    assert block is not None and block.startswith("<ambient_context>")
    assert f'member: <member_text source="member_name">Saar Cohen</member_text> (id {ids["Saar Cohen"]})' in block
    assert f"exercise: Romanian Deadlift (id {ids['Romanian Deadlift']})" in block
    assert str(ids["Saar Levi"]) not in block


async def test_short_messages_and_messages_naming_nothing_get_no_block(db, factory, local) -> None:
    org, _ = await _gym(db, factory, local, members=[("Saar", "Cohen")])
    finder = AmbientFinder(db, local)
    assert await finder(org.id, "Saar Cohen?") is None  # under 30 characters: no lookup at all
    assert await finder(org.id, "What should we focus on for the rest of today?") is None


async def test_a_slow_embedder_is_abandoned_and_lexical_hits_still_come_back(db, factory, local) -> None:
    """The query embedding is cancelled at its share of the budget and the block is built from the lexical
    list; without that cut the whole lookup would run out of budget and return nothing."""
    held = HeldEmbedder()
    org, ids = await _gym(db, factory, local, members=[("Dmitri", "Ivanov")])
    with capture_logs() as logs:
        block = await AmbientFinder(db, held, budget_s=2.0)(org.id, "Please check whether Dmitri Ivanov paid this month")
    assert (held.calls, held.cancelled) == (1, 1)
    assert [e["reason"] for e in logs if e["event"] == "rag.search.degraded"] == ["embedding_failed"]
    assert block is not None and str(ids["Dmitri Ivanov"]) in block


@pytest.mark.timeout(60)  # without the budget the lookup waits on the lock for good
async def test_the_whole_lookup_is_bounded_even_when_nothing_can_finish(db, factory, local) -> None:
    """The search index is locked and the embedder never answers: the budget cancels the lookup, which
    returns None and says why."""
    org, _ = await _gym(db, factory, local, members=[("Dmitri", "Ivanov")])
    ambient_db = Database(db.url, pool_size=1)  # a connection cancelled mid-query is not shared
    held = HeldEmbedder()
    try:
        async with db.owner() as locker:
            await locker.execute(text("LOCK TABLE rag_documents IN ACCESS EXCLUSIVE MODE"))
            with capture_logs() as logs:
                result = await AmbientFinder(ambient_db, held, budget_s=0.5)(
                    org.id, "Please check whether Dmitri Ivanov paid this month")
    finally:
        await ambient_db.dispose()
    assert result is None
    assert [e.get("reason") for e in logs if e["event"].startswith("rag.ambient")] == ["budget_exceeded"]
    assert held.calls == held.cancelled  # an embedding that was started did not outlive the lookup


async def test_embedder_errors_degrade_to_lexical(db, factory, local) -> None:
    org, ids = await _gym(db, factory, local, members=[("Yael", "Brown")])
    block = await AmbientFinder(db, BrokenEmbedder())(org.id, "Has Yael Brown renewed her membership yet?")
    assert block is not None and str(ids["Yael Brown"]) in block


async def test_a_database_failure_returns_none_and_never_raises(embedded_pg, local) -> None:
    broken = Database(embedded_pg.url("no_such_database_for_ambient"))
    try:
        assert await AmbientFinder(broken, local)(uuid.uuid4(), "Has Yael Brown renewed her membership yet?") is None
    finally:
        await broken.dispose()


async def test_another_org_with_the_same_member_never_shows(db, factory, local) -> None:
    org_a, ids_a = await _gym(db, factory, local, members=[("Saar", "Cohen")])
    org_b, ids_b = await _gym(db, factory, local, members=[("Saar", "Cohen")])
    finder = AmbientFinder(db, local)
    block_a = await finder(org_a.id, "How many classes did Saar Cohen attend lately?")
    block_b = await finder(org_b.id, "How many classes did Saar Cohen attend lately?")
    assert str(ids_a["Saar Cohen"]) in block_a and str(ids_b["Saar Cohen"]) not in block_a
    assert str(ids_b["Saar Cohen"]) in block_b and str(ids_a["Saar Cohen"]) not in block_b


async def test_whether_an_org_has_an_index_is_remembered_and_an_empty_one_is_asked_again(db, factory, local) -> None:
    """An indexed org's lookups skip the existence check; an org with nothing indexed is not asked again for
    EMPTY_RECHECK_S, then its first documents are found."""
    from sqlalchemy import event

    import rag.ambient as ambient

    empty = await factory.org()
    indexed, ids = await _gym(db, factory, local, members=[("Yael", "Brown")])
    clock = [1000.0]
    finder = AmbientFinder(db, local, clock=lambda: clock[0])
    sent: list[str] = []

    def record(conn, cursor, statement, *_) -> None:
        sent.append(statement)

    question = "Has Yael Brown renewed her membership yet?"
    event.listen(db.app_engine.sync_engine, "before_cursor_execute", record)
    try:
        assert str(ids["Yael Brown"]) in await finder(indexed.id, question)
        first = len(sent)
        assert str(ids["Yael Brown"]) in await finder(indexed.id, question)
        assert sum("EXISTS (SELECT 1 FROM rag_documents" in s for s in sent) == 1  # the second skipped it
        assert len(sent) - first == first - 1
        sent.clear()
        assert await finder(empty.id, question) is None and len(sent) == 1  # the check alone
        async with db.scope(org_id=empty.id) as session:
            yael = (await create_member(session, empty.id, first_name="Yael", last_name="Brown")).id
        for _ in range(50):
            if sum(r.claimed for r in await OutboxWorker(db, local).drain_once()) == 0:
                break
        sent.clear()
        clock[0] += ambient.EMPTY_RECHECK_S - 0.1
        assert await finder(empty.id, question) is None and sent == []  # still remembered as empty
        clock[0] += 0.2
        assert str(yael) in await finder(empty.id, question)  # asked again: found
    finally:
        event.remove(db.app_engine.sync_engine, "before_cursor_execute", record)
