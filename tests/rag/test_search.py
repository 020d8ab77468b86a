"""Hybrid search: stopwords in three languages, typos, aliases in Hebrew and Russian, short words by
exact match, modes and scopes, the Hebrew policy for the local model, and one org never seeing another's."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from sqlalchemy import text

from gym.exercises import create_exercise
from gym.members import create_member
from gym.programs import create_program
from rag.embeddings import LocalEmbedder
from rag.search import hybrid_search, plan_query, semantic_ranked
from rag.stopwords import strip_stopwords, terms
from rag.worker import OutboxWorker


class RecordingEmbedder(LocalEmbedder):
    """The local model, recording what it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    async def embed(self, texts: Sequence[str], *, input_type: str) -> list[list[float]]:
        self.texts.extend(texts)
        return await super().embed(texts, input_type=input_type)


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder()


async def _gym(db, factory, local):
    """A small gym: two Saars, a Cohen, two exercises with Hebrew/Russian aliases, a program."""
    org = await factory.org()
    ids = {}
    async with db.scope(org_id=org.id) as session:
        for first, last in (("Saar", "Cohen"), ("Saar", "Levi"), ("Sveta", "Cohen"), ("Dmitri", "Ivanov")):
            ids[f"{first} {last}"] = (await create_member(session, org.id, first_name=first, last_name=last)).id
        ids["Deadlift"] = (await create_exercise(
            session, org.id, name="Deadlift", category="hinge", aliases=["DL", "דדליפט", "становая тяга"],
            muscles=["hamstrings", "glutes"])).id
        ids["Double-Under"] = (await create_exercise(
            session, org.id, name="Double-Under", category="monostructural", aliases=["DU", "DUs", "дабл андеры"],
            equipment=["jump rope"])).id
        ids["Coaching"] = (await create_program(session, org.id, name="Coaching", kind="coaching",
                                                description="1-on-1 personal training with your coach.")).id
    for _ in range(50):
        results = await OutboxWorker(db, local).drain_once()
        if sum(r.claimed for r in results) == 0:
            break
    return org, ids


async def _search(db, org_id, query, local, **kwargs) -> list[dict]:
    async with db.scope(org_id=org_id) as session:
        return await hybrid_search(session, org_id, query, embedder=local, **kwargs)


def test_stopwords_strip_requests_calendar_and_entity_nouns_in_three_languages() -> None:
    assert strip_stopwords("Can you show me the workout for Saar Cohen tomorrow?") == "saar cohen"
    assert strip_stopwords("תראה לי את האימון של סער כהן למחר") == "סער כהן"
    assert strip_stopwords("Покажи тренировку Саара на завтра, пожалуйста") == "саара"
    assert strip_stopwords("Find the members booked in today's class") == ""
    # A Hebrew prefix on a content word yields the bare word as a variant; Russian words a stem.
    (deadlift,) = terms("והדדליפט")
    assert set(deadlift.variants) == {"והדדליפט", "הדדליפט", "דדליפט"}
    (pull,) = terms("подтягиваниями")
    assert "подтягивани" in pull.prefixes


async def test_typos_aliases_and_languages_find_the_entity(db, factory, local) -> None:
    org, ids = await _gym(db, factory, local)
    cases = {
        "Please check on Sar Coen's payments": "Saar Cohen",      # typos, edit distance on short names
        "add dedlifts to the session": "Deadlift",                 # trigram typo
        "something to replace DUs": "Double-Under",                # two-letter alias, exact word
        "תוסיף דדליפט לאימון": "Deadlift",                          # Hebrew alias
        "покажи становую тягу": "Deadlift",                        # Russian alias, inflected
        "who does the personal training program": "Coaching",     # words of the description
    }
    for query, name in cases.items():
        hits = await _search(db, org.id, query, local, limit=3)
        assert hits and hits[0]["entityId"] == ids[name], (query, hits)


async def test_a_full_name_leaves_out_people_who_share_one_part(db, factory, local) -> None:
    org, ids = await _gym(db, factory, local)
    full = [h["entityId"] for h in await _search(db, org.id, "How is Saar Cohen doing?", local)]
    assert full[0] == ids["Saar Cohen"] and ids["Sveta Cohen"] not in full and ids["Saar Levi"] not in full
    first = {h["entityId"] for h in await _search(db, org.id, "How is Saar doing?", local)}
    assert {ids["Saar Cohen"], ids["Saar Levi"]} <= first  # "which Saar?" needs both


async def test_modes_scopes_and_bad_arguments(db, factory, local) -> None:
    org, ids = await _gym(db, factory, local)
    lexical = await _search(db, org.id, "deadlift for Saar", local, mode="lexical")
    assert {h["scope"] for h in lexical} == {"exercise", "member"}
    assert all(h["semanticRank"] is None for h in lexical) and all(h["lexicalRank"] for h in lexical)
    only_members = await _search(db, org.id, "deadlift for Saar", local, scopes=["member"])
    assert only_members and {h["scope"] for h in only_members} == {"member"}
    semantic = await _search(db, org.id, "personal training with a coach", local, mode="semantic")
    assert semantic[0]["entityId"] == ids["Coaching"] and semantic[0]["lexicalRank"] is None
    assert await _search(db, org.id, "show me today's workouts", local) == []  # nothing left to search for
    with pytest.raises(ValueError):
        await _search(db, org.id, "deadlift", local, mode="fuzzy")
    with pytest.raises(ValueError):
        await _search(db, org.id, "deadlift", local, scopes=["bookings"])


async def test_semantic_fills_in_for_words_lexical_cannot_place(db, factory, local) -> None:
    """Russian words for "personal training" match no document text; their neighbour is Coaching."""
    org, ids = await _gym(db, factory, local)
    hits = await _search(db, org.id, "Нужна программа персональных тренировок с тренером для Dmitri Ivanov", local)
    by_id = {h["entityId"]: h for h in hits}
    assert by_id[ids["Dmitri Ivanov"]]["lexicalRank"] == 1
    assert by_id[ids["Coaching"]]["semanticRank"] is not None and by_id[ids["Coaching"]]["lexicalRank"] is None


async def test_hebrew_words_are_not_embedded_for_the_local_model(db, factory) -> None:
    recorder = RecordingEmbedder()
    org, ids = await _gym(db, factory, recorder)
    recorder.texts.clear()
    assert plan_query("תראה לי את הדדליפט", recorder.model).semantic_text == ""
    assert plan_query("תראה לי את הדדליפט", "voyage-multilingual-2").semantic_text == "הדדליפט"
    hits = await _search(db, org.id, "תראה לי את הדדליפט ואת המנוי של Saar Cohen", recorder, mode="semantic")
    assert recorder.texts == ["saar cohen"]
    hits = await _search(db, org.id, "תראה לי את הדדליפט", recorder)
    assert hits[0]["entityId"] == ids["Deadlift"] and recorder.texts == ["saar cohen"]  # no new embedding


async def test_another_orgs_documents_never_appear(db, factory, local) -> None:
    """Two gyms with a Saar Cohen: each search returns its own, and RLS hides the other even unfiltered."""
    org_a, ids_a = await _gym(db, factory, local)
    org_b, ids_b = await _gym(db, factory, local)
    for mode in ("hybrid", "lexical", "semantic"):
        found = {h["entityId"] for h in await _search(db, org_a.id, "Saar Cohen deadlift", local, mode=mode)}
        assert found and not found & set(ids_b.values()), mode
    async with db.scope(org_id=org_b.id) as session:
        # org A's id with org B's RLS scope: the explicit filter and the policy disagree → nothing
        assert await hybrid_search(session, org_a.id, "Saar Cohen deadlift", embedder=local) == []
        visible = await session.scalar(text("SELECT count(*) FROM rag_documents WHERE org_id = :o"), {"o": org_a.id})
    assert visible == 0


async def test_hnsw_and_exact_search_agree_on_a_small_index(db, factory, local) -> None:
    org, _ = await _gym(db, factory, local)
    (vector,) = await local.embed(["deadlift and double unders"], input_type="query")
    async with db.scope(org_id=org.id) as session:
        approx = await semantic_ranked(session, org.id, vector, model=local.model, limit=5, filtered=False)
        exact = await semantic_ranked(session, org.id, vector, model=local.model, limit=5, exact=True, filtered=False)
    assert [h["entityId"] for h in approx] == [h["entityId"] for h in exact]
