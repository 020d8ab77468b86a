"""Index sync: triggers queue every write to an indexed table, the drain renders and embeds documents,
a failing embedder never touches the user's write and leaves the outbox retrying, Voyage vectors land
in the 1024 column with their model, and a rebuild restores an org's documents."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from gym.exercises import create_exercise, install_library
from gym.members import create_member, soft_delete_member, update_member
from gym.programs import create_program, update_program
from gym.workouts import MovementIn, SectionIn, create_workout, set_sections
from rag.embeddings import EmbedderError, LocalEmbedder, VoyageEmbedder
from rag.index import document_text, drain_outbox, reindex_org
from rag.search import semantic_ranked
from rag.worker import OutboxWorker
from tests.fakes.voyage_server import FakeVoyage, fake_vector


class FailingEmbedder(LocalEmbedder):
    """The local model's name and width, but every call fails like an unreachable provider."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    async def embed(self, texts: Sequence[str], *, input_type: str) -> list[list[float]]:
        self.calls += 1
        raise EmbedderError("provider unavailable (test)", status=503, retryable=True)


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder()


async def drain(db, embedder) -> None:
    """Drain the whole outbox (this module's database: every test's rows in it) until nothing is ready."""
    for _ in range(100):
        results = await OutboxWorker(db, embedder).drain_once()
        assert not any(r.error for r in results), results
        if sum(r.claimed for r in results) == 0:
            return
    raise AssertionError("outbox never emptied")


async def doc(db, org_id, scope, entity_id) -> dict | None:
    async with db.owner() as session:
        row = (await session.execute(text("""
            SELECT title, body, model, embedding_512 IS NOT NULL AS has_512, embedding_1024 IS NOT NULL AS has_1024
            FROM rag_documents WHERE org_id = :o AND scope = :s AND entity_id = :e"""),
            {"o": org_id, "s": scope, "e": entity_id})).mappings().first()
    return dict(row) if row else None


async def outbox(db, org_id, entity_id) -> list[dict]:
    async with db.owner() as session:
        rows = await session.execute(text("""
            SELECT op, attempts, last_error, not_before > now() AS waiting FROM rag_outbox
            WHERE org_id = :o AND entity_id = :e ORDER BY id"""), {"o": org_id, "e": entity_id})
        return [dict(r) for r in rows.mappings()]


async def test_member_create_update_soft_delete_reach_the_index(db, factory, local) -> None:
    """Writes through the gym services (app role, RLS on) queue outbox rows; the drain follows them."""
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await create_member(session, org.id, first_name="Saar", last_name="Cohen",
                                     email="saar@example.test", status="lead")
    assert [r["op"] for r in await outbox(db, org.id, member.id)] == ["upsert"]
    await drain(db, local)
    stored = await doc(db, org.id, "member", member.id)
    assert stored["title"] == "Saar Cohen" and "saar@example.test" in stored["body"] and "lead" in stored["body"]
    assert stored["model"] == local.model and stored["has_512"] and not stored["has_1024"]
    assert await outbox(db, org.id, member.id) == []

    async with db.scope(org_id=org.id) as session:
        await update_member(session, org.id, member.id, last_name="Cohen-Levi", status="active")
    await drain(db, local)
    stored = await doc(db, org.id, "member", member.id)
    assert stored["title"] == "Saar Cohen-Levi" and "active" in stored["body"]

    async with db.scope(org_id=org.id) as session:
        await soft_delete_member(session, org.id, member.id, datetime.now(UTC))
    assert [r["op"] for r in await outbox(db, org.id, member.id)] == ["delete"]
    await drain(db, local)
    assert await doc(db, org.id, "member", member.id) is None


async def test_updates_that_change_no_indexed_field_queue_nothing(db, factory, local) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await create_member(session, org.id, first_name="Noa", last_name="Levi")
    await drain(db, local)
    async with db.scope(org_id=org.id) as session:
        await session.execute(text("UPDATE members SET last_visit_at = now(), phone = '050' WHERE id = :i"),
                              {"i": member.id})
    assert await outbox(db, org.id, member.id) == []


async def test_workout_document_names_program_movements_and_follows_their_changes(db, factory, local) -> None:
    org = await factory.org()
    async with db.owner() as session:
        await install_library(session, org.id)
    async with db.scope(org_id=org.id) as session:
        program = await create_program(session, org.id, name="Barbell Club", kind="class")
        workout = await create_workout(session, org.id, title="Heavy Day", program_id=program.id, sections=[
            SectionIn(scheme="5x5", movements=[MovementIn("RDL"), MovementIn("pull-ups")])])
    await drain(db, local)
    body = (await doc(db, org.id, "workout", workout.workout.id))["body"]
    assert "Barbell Club" in body and "5x5" in body
    assert "RDL (Romanian Deadlift)" in body and "pull-ups (Pull-up)" in body

    async with db.scope(org_id=org.id) as session:
        await set_sections(session, org.id, workout.workout.id, [SectionIn(movements=[MovementIn("thrusters")])])
        await update_program(session, org.id, program.id, {"name": "Strength Club"})
    await drain(db, local)
    body = (await doc(db, org.id, "workout", workout.workout.id))["body"]
    assert "Strength Club" in body and "thrusters" in body and "RDL" not in body
    assert (await doc(db, org.id, "program", program.id))["title"] == "Strength Club"


async def test_exercise_document_carries_aliases_equipment_muscles(db, factory, local) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        exercise = await create_exercise(session, org.id, name="Sandbag Clean", category="olympic",
                                         aliases=["SB Clean", "שק חול"], equipment=["sandbag"],
                                         muscles=["glutes", "upper back"])
    await drain(db, local)
    stored = await doc(db, org.id, "exercise", exercise.id)
    assert stored["title"] == "Sandbag Clean"
    for part in ("SB Clean", "שק חול", "sandbag", "upper back", "olympic"):
        assert part in stored["body"]


async def test_failing_embedder_keeps_the_write_and_the_outbox_retrying(db, factory, local) -> None:
    """The member is saved, its document is searchable by text at once, and the row waits to retry."""
    org = await factory.org()
    failing = FailingEmbedder()
    async with db.scope(org_id=org.id) as session:
        member = await create_member(session, org.id, first_name="Dana", last_name="Ashkenazi")
    result = await drain_outbox(db, failing, batch=500)
    assert failing.calls == 1 and result.retrying >= 1 and "provider unavailable" in result.error
    async with db.scope(org_id=org.id) as session:
        assert await session.scalar(text("SELECT full_name FROM members WHERE id = :i"), {"i": member.id}) \
            == "Dana Ashkenazi"
    (row,) = await outbox(db, org.id, member.id)
    assert row["attempts"] == 1 and "provider unavailable" in row["last_error"] and row["waiting"]
    stored = await doc(db, org.id, "member", member.id)
    assert stored["title"] == "Dana Ashkenazi" and stored["model"] is None and not stored["has_512"]

    await drain_outbox(db, failing, batch=500)  # still backing off: the row is not taken again
    assert (await outbox(db, org.id, member.id))[0]["attempts"] == 1

    async with db.owner() as session:  # the back-off has passed
        await session.execute(text("UPDATE rag_outbox SET not_before = now() WHERE entity_id = :e"), {"e": member.id})
    await drain(db, local)
    assert await outbox(db, org.id, member.id) == []
    stored = await doc(db, org.id, "member", member.id)
    assert stored["model"] == local.model and stored["has_512"]


async def test_voyage_vectors_go_to_the_1024_column_with_their_model(db, factory) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        program = await create_program(session, org.id, name="Hyrox Prep", kind="coaching",
                                       description="Running and sled work for Hyrox racers.")
    with FakeVoyage() as fake:
        voyage = VoyageEmbedder(api_key="test-key", base_url=fake.url)
        fake.fail_next(500)
        failed = await drain_outbox(db, voyage, batch=500)
        assert failed.retrying >= 1 and "500" in failed.error
        assert (await outbox(db, org.id, program.id))[0]["attempts"] == 1
        async with db.owner() as session:
            await session.execute(text("UPDATE rag_outbox SET not_before = now() WHERE entity_id = :e"),
                                  {"e": program.id})
        await drain(db, voyage)
        stored = await doc(db, org.id, "program", program.id)
        assert stored["model"] == "voyage-multilingual-2" and stored["has_1024"] and not stored["has_512"]
        assert {r.input_type for r in fake.requests} == {"document"}
        assert document_text(stored["title"], stored["body"]) in {t for r in fake.requests for t in r.texts}

        # The stored vector is the one Voyage returned for the document: searching with it finds the document.
        own = fake_vector(document_text(stored["title"], stored["body"]), model="voyage-multilingual-2")
        async with db.scope(org_id=org.id) as session:
            hits = await semantic_ranked(session, org.id, own, model="voyage-multilingual-2")
            other_model = await semantic_ranked(session, org.id, own, model="voyage-3-large")
        assert hits[0]["entityId"] == program.id and hits[0]["score"] == pytest.approx(1.0, abs=1e-4)
        assert other_model == []  # vectors of another model (same width) are never compared


async def test_reindex_restores_missing_and_drops_stale_documents(db, factory, local) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await create_member(session, org.id, first_name="Yael", last_name="Brown")
    await drain(db, local)
    ghost = uuid.uuid4()
    async with db.owner() as session:
        await session.execute(text("DELETE FROM rag_documents WHERE entity_id = :e"), {"e": member.id})
        await session.execute(text("INSERT INTO rag_documents (org_id, scope, entity_id, title) "
                                   "VALUES (:o, 'member', :e, 'Ghost')"), {"o": org.id, "e": ghost})
        await session.execute(text("INSERT INTO rag_outbox (org_id, scope, entity_id, op) "
                                   "VALUES (:o, 'member', :e, 'upsert')"), {"o": org.id, "e": member.id})
    result = await reindex_org(db, local, org.id)
    assert result.documents == 1 and result.embedded == 1 and result.deleted == 1 and result.failed == 0
    assert (await doc(db, org.id, "member", member.id))["title"] == "Yael Brown"
    assert await doc(db, org.id, "member", ghost) is None
    assert await outbox(db, org.id, member.id) == []  # the rebuild covered the queued change
    again = await reindex_org(db, local, org.id)
    assert again.unchanged == 1 and again.embedded == 0  # nothing changed: no embedding call


async def test_deleting_an_org_is_not_blocked_by_its_queued_index_work(db, factory, local) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        await create_member(session, org.id, first_name="Gone", last_name="Soon")
    await drain(db, local)
    async with db.owner() as session:
        await session.execute(text("DELETE FROM organizations WHERE id = :o"), {"o": org.id})
        left = await session.scalar(text("SELECT count(*) FROM rag_documents WHERE org_id = :o"), {"o": org.id})
    assert left == 0
    await drain(db, local)  # the cascade's outbox rows are processed as deletes, without error


async def test_the_worker_drains_on_its_own_and_stops_cleanly(db, factory, local) -> None:
    org = await factory.org()
    worker = OutboxWorker(db, local, interval_s=60)  # only a kick can wake it within this test
    worker.start()
    try:
        async with db.scope(org_id=org.id) as session:
            member = await create_member(session, org.id, first_name="Kick", last_name="Me")
        worker.kick()
        for _ in range(600):  # the worker indexes in the background: wait (up to 30 s) for its document
            if await doc(db, org.id, "member", member.id):
                break
            await asyncio.sleep(0.05)
        assert (await doc(db, org.id, "member", member.id))["title"] == "Kick Me"
    finally:
        await worker.stop()
    assert not worker.running and worker.drains >= 1


async def test_cli_reindex_rebuilds_one_org(db, factory, local, base_settings) -> None:
    from api.cli import _reindex

    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await create_member(session, org.id, first_name="Cli", last_name="Rebuilt")
    summary = await _reindex(base_settings.model_copy(update={"database_url": db.url}), str(org.id), force=False)
    assert summary["model"] == local.model and summary["orgs"][str(org.id)]["documents"] == 1
    assert (await doc(db, org.id, "member", member.id))["title"] == "Cli Rebuilt"


async def test_a_reindex_leaves_the_search_tables_analyzed(db, factory) -> None:
    """Issue 29: right after a bulk load the planner must not be left with empty-table statistics; a reindex
    refreshes them itself (the bench no longer does it for the product)."""
    sql = text("SELECT relname, analyze_count FROM pg_stat_user_tables WHERE relname IN ('rag_documents', 'rag_terms')")

    async def counts() -> dict[str, int]:
        async with db.owner() as session:
            await session.execute(text("SELECT pg_stat_clear_snapshot()"))
            return {r.relname: r.analyze_count for r in (await session.execute(sql)).all()}

    org = await factory.org()
    before = await counts()
    await reindex_org(db, None, org.id)
    after = await counts()
    assert set(after) == {"rag_documents", "rag_terms"}
    assert all(after[name] > before.get(name, 0) for name in after), (before, after)
