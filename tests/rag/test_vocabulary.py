"""Lexical search through the org's vocabulary (rag_terms, migrations 0010-0011): words reach it from
titles and from the bodies of programs, workouts and exercises as documents are written, and a common
name shared by more members than one word may bring (MEMBER_CAP) still finds the member both names name."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from gym.exercises import create_exercise
from gym.members import create_member, update_member
from rag.embeddings import LocalEmbedder
from rag.lexical import MEMBER_CAP
from rag.search import hybrid_search
from rag.worker import OutboxWorker


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder()


async def _drain(db, local) -> None:
    for _ in range(100):
        results = await OutboxWorker(db, local).drain_once()
        if sum(r.claimed for r in results) == 0:
            return
    raise AssertionError("the outbox did not drain")


async def _search(db, org_id, query, local, **kwargs) -> list[dict]:
    async with db.scope(org_id=org_id) as session:
        return await hybrid_search(session, org_id, query, embedder=local, mode="lexical", **kwargs)


async def test_words_written_later_are_found_by_their_typos(db, factory, local) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        member = await create_member(session, org.id, first_name="Dmitri", last_name="Ivanov",
                                     email="dmitri.ivanov@example.com")
        swing = (await create_exercise(session, org.id, name="Swing", category="hinge",
                                       equipment=["kettlebell"])).id
    await _drain(db, local)
    assert not await _search(db, org.id, "How is Kuznetzov doing?", local)
    async with db.scope(org_id=org.id) as session:
        await update_member(session, org.id, member.id, last_name="Kuznetsov")
        vocabulary = set((await session.scalars(text("SELECT term FROM rag_terms WHERE org_id = :o"),
                                                {"o": org.id})).all())
    await _drain(db, local)
    hits = await _search(db, org.id, "How is Kuznetzov doing?", local)
    assert [h["title"] for h in hits] == ["Dmitri Kuznetsov"]  # the renamed surname, by a typo
    body = await _search(db, org.id, "something with a kettlebel", local)  # an exercise's body word, by a typo
    assert body and body[0]["entityId"] == swing
    # Titles and non-member bodies give words; a member's body (email, status) does not.
    assert {"dmitri", "ivanov", "swing", "kettlebell"} <= vocabulary
    assert not any("@" in term or "example" in term for term in vocabulary)


async def test_a_name_more_members_share_than_the_cap_still_finds_the_one_named(db, factory, local) -> None:
    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        for i in range(MEMBER_CAP + 5):
            await create_member(session, org.id, first_name=f"Noa{chr(97 + i % 26)}{chr(97 + i // 26)}",
                                last_name="Cohen")
            await create_member(session, org.id, first_name="Saar", last_name=f"Levi{chr(97 + i % 26)}{chr(97 + i // 26)}")
        saar_cohen = (await create_member(session, org.id, first_name="Saar", last_name="Cohen")).id
    await _drain(db, local)
    hits = await _search(db, org.id, "Can you check how Saar Cohen is doing this month?", local)
    assert hits[0]["entityId"] == saar_cohen
    typo = await _search(db, org.id, "Send a payment reminder to Sar Coen please", local)
    assert typo[0]["entityId"] == saar_cohen
    async with db.scope(org_id=org.id) as session:  # one word brings at most MEMBER_CAP members
        found = await session.scalar(text(
            "SELECT count(*) FROM rag_term_candidates(ARRAY['cohen'], ARRAY[0], ARRAY['cohen'], ARRAY[true], "
            "ARRAY[false], '{}', '{}', '{}', 8, 0.35, 30, 300, :cap, 0.5)"), {"cap": MEMBER_CAP})
    assert found == MEMBER_CAP
