"""The read tools on the hybrid search: an indexed gym (packaged local model) finds what name matching
cannot, exact names still lead, fresh and deleted entities are handled before the index catches up, a
failing embedder degrades to lexical, and another gym's rows never appear."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from agent.composition import build_agent
from gym import exercises, members, workouts
from rag.embeddings import EmbedderError, LocalEmbedder
from rag.index import reindex_org
from tests import factories
from tests.tools.harness import ToolHarness
from tests.tools.test_read import NOW, Gym, build_gym
from tools.runner import ToolRunner


class FailingEmbedder(LocalEmbedder):
    """The local model's name and width, but every call fails (a provider outage)."""

    async def embed(self, texts: Sequence[str], *, input_type: str) -> list[list[float]]:
        raise EmbedderError("embedding service unavailable", status=503, retryable=True)


@pytest.fixture(scope="module")
def local() -> LocalEmbedder:
    return LocalEmbedder()


@pytest.fixture(scope="module")
async def indexed(db, dev_keys, local) -> tuple[Gym, Gym]:
    """Two gyms with the exercise library, members and Murph, both indexed with the local model."""
    factory = factories.Factory(db, dev_keys)
    here, there = await build_gym(db, factory), await build_gym(db, factory)
    for gym in (here, there):
        result = await reindex_org(db, local, gym.org.id)
        assert result.failed == 0 and result.documents > 200
    return here, there


@pytest.fixture
def hybrid(db, local) -> ToolHarness:
    return ToolHarness(ToolRunner(db, embedder=local))


async def _names(tools: ToolHarness, gym: Gym, query: str, limit: int = 5) -> list[str]:
    out = await tools.ok("read__exercises_search", {"query": query, "limit": limit}, org=gym.org, user=gym.owner,
                         now=NOW)
    return [e["name"] for e in out["exercises"]]


async def test_index_finds_exercises_by_muscle_and_movement_words_name_matching_misses(db, hybrid, indexed) -> None:
    here, _ = indexed
    async with db.scope(org_id=here.org.id) as session:
        by_name = await exercises.search_exercises(session, here.org.id, "core exercises", 5)
    assert by_name == []  # no exercise is named like that...
    core = await _names(hybrid, here, "core exercises")
    assert "Plank" in core and len(core) >= 3  # ...but several work the core (the documents list muscles)
    hinge = await _names(hybrid, here, "hip hinge with dumbbells")
    assert {"Dumbbell Deadlift", "Hip Thrust"} <= set(hinge)


async def test_exact_names_and_aliases_lead_in_any_language(hybrid, indexed) -> None:
    here, _ = indexed
    assert (await _names(hybrid, here, "jump rope"))[0] == "Single-Under"  # an English alias
    assert (await _names(hybrid, here, "отжимания"))[0] == "Push-up"  # a Russian alias
    assert (await _names(hybrid, here, "מתח"))[0] == "Pull-up"  # a Hebrew alias
    assert (await _names(hybrid, here, "becnh press"))[0] == "Bench Press"  # a typo
    # The document search alone lets "Chest-to-Bar Pull-up" (two words) hide Pull-up; the name search keeps it.
    assert "Pull-up" in await _names(hybrid, here, "pull up bar")


async def test_category_filter_applies_to_the_hybrid_ranking(hybrid, indexed) -> None:
    here, _ = indexed
    out = await hybrid.ok("read__exercises_search", {"query": "hamstrings", "category": "hinge"}, org=here.org,
                          user=here.owner, now=NOW)
    assert out["count"] >= 3 and {e["category"] for e in out["exercises"]} == {"hinge"}


async def test_resolve_batch_gets_hybrid_candidates_for_names_it_could_not_settle(hybrid, indexed) -> None:
    here, _ = indexed
    out = await hybrid.ok("read__exercises_resolve_batch", {"names": ["RDL", "core exercises", "zumba dance"]},
                          org=here.org, user=here.owner, now=NOW)
    rdl, core, zumba = out["results"]
    assert rdl["status"] == "resolved" and rdl["exerciseName"] == "Romanian Deadlift"
    assert core["status"] == "ambiguous" and len(core["candidates"]) == 3  # name matching alone: unknown
    assert zumba == {"name": "zumba dance", "status": "unknown"}  # nothing related: still unknown
    assert (out["resolved"], out["ambiguous"], out["unknown"]) == (1, 1, 1)


async def test_search_anything_uses_the_index_and_never_shows_another_gym(hybrid, indexed) -> None:
    here, there = indexed
    out = await hybrid.ok("read__search_anything", {"query": "Saar"}, org=here.org, user=here.owner, now=NOW)
    assert {h["label"] for h in out["groups"]["member"][:2]} == {"Saar Cohen", "Saar Levi"}
    pulls = await hybrid.ok("read__search_anything", {"query": "pull-ups"}, org=here.org, user=here.owner, now=NOW)
    assert pulls["groups"]["workout"][0]["label"] == "Murph"  # found by a movement in its body
    assert pulls["groups"]["exercise"][0]["label"] == "Pull-up"
    theirs = {str(i) for i in there.ids.values()}
    for query in ("Saar Cohen", "Murph", "pull-ups", "Coaching"):
        found = await hybrid.ok("read__search_anything", {"query": query}, org=here.org, user=here.owner, now=NOW)
        assert found["total"] > 0
        assert not theirs & {h["id"] for hits in found["groups"].values() for h in hits}


async def test_entities_newer_or_deleted_than_the_index_are_handled(db, hybrid, indexed, dev_keys) -> None:
    """A write the outbox has not brought to the index yet: created → found, deleted → gone."""
    here, _ = indexed
    async with db.scope(org_id=here.org.id) as session:
        carry = await exercises.create_exercise(session, here.org.id, name="Sandbag Bear Hug Carry",
                                                category="carry", equipment=["sandbag"])
        fran = await workouts.create_workout(session, here.org.id, title="Fran Benchmark",
                                             freeform_text="21-15-9: thrusters, pull-ups", structure_from_text=True)
    assert "Sandbag Bear Hug Carry" in await _names(hybrid, here, "bear hug carry")
    async with db.scope(org_id=here.org.id) as session:
        zelda = await members.create_member(session, here.org.id, first_name="Zelda", last_name="Quartermaine")
    who = await hybrid.ok("read__search_anything", {"query": "Zelda Quartermaine", "types": ["member"]},
                          org=here.org, user=here.owner, now=NOW)
    assert [h["id"] for h in who["groups"]["member"]][:1] == [str(zelda.id)]  # the member index is behind
    await reindex_org(db, LocalEmbedder(), here.org.id, scopes=("workout",))
    found = await hybrid.ok("read__search_anything", {"query": "Fran Benchmark", "types": ["workout"]},
                            org=here.org, user=here.owner, now=NOW)
    assert found["groups"]["workout"][0]["id"] == str(fran.workout.id)
    async with db.scope(org_id=here.org.id) as session:
        await workouts.soft_delete_workout(session, here.org.id, fran.workout.id, now=datetime.now(UTC))
    gone = await hybrid.ok("read__search_anything", {"query": "Fran Benchmark", "types": ["workout"]},
                           org=here.org, user=here.owner, now=NOW)
    assert str(fran.workout.id) not in {h["id"] for h in gone["groups"]["workout"]}
    assert carry.id is not None


async def test_a_failing_embedder_degrades_the_tools_to_lexical(db, indexed) -> None:
    here, _ = indexed
    tools = ToolHarness(ToolRunner(db, embedder=FailingEmbedder()))
    assert "Plank" in await _names(tools, here, "core exercises")
    assert (await _names(tools, here, "jump rope"))[0] == "Single-Under"


async def test_the_agent_gives_its_tools_the_embedder_of_its_index(base_settings, db) -> None:
    services = build_agent(base_settings, db, redis=None, rag_worker=False)
    assert services.embedder is not None
    assert services.orchestrator.runner.embedder is services.embedder
