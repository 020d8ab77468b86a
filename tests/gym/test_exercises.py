"""Exercise library search and batch resolution: typos, abbreviations, Hebrew/Russian names, one round trip."""

from __future__ import annotations

import pytest
from sqlalchemy import event, text

from core.i18n import part
from gym.exercise_library import LIBRARY
from gym.exercises import install_library, resolve_batch, search_exercises


async def _org_with_library(db, factory):
    org = await factory.org()
    async with db.owner() as session:
        await install_library(session, org.id)
    return org


def test_library_is_large_unique_and_multilingual() -> None:
    """≥150 exercises, no name/alias claimed twice, ≥40 with Hebrew and Russian names, no 'WOD'."""
    assert len(LIBRARY) >= 150
    spellings = [s.lower() for e in LIBRARY for s in (e.name, *e.all_aliases)]
    assert len(spellings) == len(set(spellings))
    hebrew, russian = part("exercises", "he")["aliases"], part("exercises", "ru")["aliases"]
    assert sum(1 for e in LIBRARY if hebrew[e.name] and russian[e.name]) >= 40
    assert "wod" not in spellings and "metcon" not in spellings
    by_name = {e.name: e for e in LIBRARY}
    assert "RDL" in by_name["Romanian Deadlift"].aliases
    assert "T2B" in by_name["Toes-to-Bar"].aliases
    assert "C&J" in by_name["Clean and Jerk"].aliases
    assert "דדליפט" in hebrew["Deadlift"] and "становая тяга" in russian["Deadlift"]
    assert {"דדליפט", "становая тяга"} <= set(by_name["Deadlift"].all_aliases)


async def test_search_finds_abbreviation_typo_and_other_languages(db, factory) -> None:
    org = await _org_with_library(db, factory)
    async with db.scope(org_id=org.id) as session:
        tops = {q: (await search_exercises(session, org.id, q, 5))[0].name
                for q in ("RDL", "dedlift", "становая тяга", "דדליפט", "HSPU", "pull ups", "подтягивания",
                          "שכיבות סמיכה", "Double unders")}
    assert tops == {"RDL": "Romanian Deadlift", "dedlift": "Deadlift", "становая тяга": "Deadlift",
                    "דדליפט": "Deadlift", "HSPU": "Handstand Push-up", "pull ups": "Pull-up",
                    "подтягивания": "Pull-up", "שכיבות סמיכה": "Push-up", "Double unders": "Double-Under"}


async def test_search_ranks_contained_names_below_the_exact_one(db, factory) -> None:
    org = await _org_with_library(db, factory)
    async with db.scope(org_id=org.id) as session:
        hits = await search_exercises(session, org.id, "deadlift", 10)
    names = [h.name for h in hits]
    assert names[0] == "Deadlift" and hits[0].score == 1.0
    assert {"Romanian Deadlift", "Sumo Deadlift"} <= set(names)
    assert all(h.score < 1.0 for h in hits[1:])


async def test_search_is_scoped_to_the_org(db, factory) -> None:
    org = await _org_with_library(db, factory)
    other = await factory.org()
    async with db.scope(org_id=other.id) as session:
        assert await search_exercises(session, other.id, "deadlift") == []
    async with db.scope(org_id=org.id) as session:
        assert await search_exercises(session, other.id, "deadlift") == []


async def test_resolve_batch_flags_each_name_in_one_round_trip(db, factory) -> None:
    org = await _org_with_library(db, factory)
    names = ["RDL", "dedlift", "T2B", "C&J", "becnh press", "DB snatches", "дабл андеры", "squat", "WOD",
             "zumba dance", ""]
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    async with db.scope(org_id=org.id) as session:
        engine = session.bind.sync_engine
        event.listen(engine, "before_cursor_execute", count)
        try:
            results = await resolve_batch(session, org.id, names)
        finally:
            event.remove(engine, "before_cursor_execute", count)
    assert len(statements) == 1
    by_name = {r["name"]: r for r in results}
    assert [r["name"] for r in results] == names
    resolved = {n: by_name[n].get("exerciseName") for n in names if by_name[n]["status"] == "resolved"}
    assert resolved == {"RDL": "Romanian Deadlift", "dedlift": "Deadlift", "T2B": "Toes-to-Bar",
                        "C&J": "Clean and Jerk", "becnh press": "Bench Press", "DB snatches": "Dumbbell Snatch",
                        "дабл андеры": "Double-Under"}
    assert by_name["squat"]["status"] == "ambiguous"
    squat = [c["name"] for c in by_name["squat"]["candidates"]]
    assert 2 <= len(squat) <= 3 and "Air Squat" in squat and all("Squat" in n for n in squat)
    assert by_name["WOD"]["status"] == "unknown" and by_name["WOD"]["candidates"] == []
    assert by_name["zumba dance"]["status"] == "unknown"
    assert by_name[""]["status"] == "unknown"


async def test_search_text_is_generated_from_name_and_aliases(db, factory) -> None:
    org = await _org_with_library(db, factory)
    async with db.scope(org_id=org.id) as session:
        row = await session.scalar(text("SELECT search_text FROM exercises WHERE org_id = :o AND name = 'Deadlift'"),
                                   {"o": org.id})
        await session.execute(text("UPDATE exercises SET aliases = aliases || '{Deadlyft}' "
                                   "WHERE org_id = :o AND name = 'Deadlift'"), {"o": org.id})
        updated = await session.scalar(
            text("SELECT search_text FROM exercises WHERE org_id = :o AND name = 'Deadlift'"), {"o": org.id})
    assert row.startswith("deadlift ") and "דדליפט" in row
    assert updated.endswith("deadlyft")


async def test_install_and_custom_exercises_work_under_the_app_role(db, factory) -> None:
    """A new gym gets the library once (a second install adds nothing) and can add its own movements."""
    from gym.errors import GymError
    from gym.exercise_library import CATEGORIES
    from gym.exercises import create_exercise

    org = await factory.org()
    async with db.scope(org_id=org.id) as session:
        first, second = await install_library(session, org.id), await install_library(session, org.id)
        mine = await create_exercise(session, org.id, name="Sandbag Clean", category="olympic",
                                     aliases=["SB Clean", "קלין שק חול"], equipment=["sandbag"])
        with pytest.raises(GymError) as duplicate:
            await create_exercise(session, org.id, name="deadlift", category="hinge")
        with pytest.raises(GymError) as category:
            await create_exercise(session, org.id, name="Zumba", category="dance")
        found = await search_exercises(session, org.id, "sb clean", 1)
    assert (first, second) == (len(LIBRARY), 0)
    assert {e.category for e in LIBRARY} <= set(CATEGORIES)
    assert found[0].id == mine.id and found[0].score == 1.0
    assert (duplicate.value.code, category.value.code) == ("duplicate_exercise", "invalid_category")


async def test_index_prefilter_keeps_every_exercise_the_full_scan_scores(db, factory) -> None:
    """Only the rows `exercise_name_candidates` offers are scored: for names, typos, other languages and
    whole staff messages, that finds exactly the exercises (and scores) scoring all of them would."""
    from gym.exercises import MATCH_FLOOR, SCORE_SQL, normalize

    org = await _org_with_library(db, factory)
    queries = [normalize(q) for q in (
        "deadlift", "becnh press", "db snatches", "pull up bar", "jump rope", "RDL", "T2B", "שכיבות סמיכה",
        "становая тяга", "romanian dedlift", "kettlebell swing", "wall balls", "box jump overs",
        "can you swap the back squats for front squats in tomorrow's class",
        "please move Dana's romanian deadlifts to thursday and add some double unders",
        "send a payment reminder to sar coen please")]
    full_scan = text(f"""SELECT e.id, s.score FROM (SELECT CAST(:q AS text) AS q) AS query CROSS JOIN exercises e
        CROSS JOIN LATERAL (SELECT {SCORE_SQL} AS score) AS s WHERE e.org_id = :org AND s.score >= :floor""")
    matched = 0
    async with db.scope(org_id=org.id) as session:
        for q in queries:
            expected = {r.id for r in await session.execute(full_scan, {"q": q, "org": org.id, "floor": MATCH_FLOOR})}
            hits = await search_exercises(session, org.id, q, 200)
            assert {h.id for h in hits} == expected, q
            matched += bool(expected)
        offered = await session.scalars(text("SELECT id FROM exercise_name_candidates(:org, :q, 0.29)"),
                                        {"org": org.id, "q": queries[-1]})
    assert matched >= 12  # the comparison above was made on real matches
    assert offered.all() == []  # a message naming no exercise leaves nothing to score


async def test_name_candidates_answer_only_the_scoped_org(db, factory) -> None:
    """The SECURITY DEFINER candidate functions give nothing to a session scoped to another org, or to none."""
    org = await _org_with_library(db, factory)
    other = await factory.org()
    sql = text("SELECT count(*) FROM exercise_name_candidates(:org, 'deadlift', 0.29)")
    async with db.scope(org_id=org.id) as session:
        own = await session.scalar(sql, {"org": org.id})
    async with db.scope(org_id=other.id) as session:
        foreign = await session.scalar(sql, {"org": org.id})
    async with db.scope() as session:
        unscoped = await session.scalar(sql, {"org": org.id})
    assert own >= 3 and foreign == 0 and unscoped == 0
