"""The exercise library: trigram search over names and aliases (any language), batch name resolution.

Two stages in one query's worth of work. SQL picks candidates by pg_trgm: the best similarity of the
query to the name or any single alias, or a damped word-similarity over the whole `search_text`
(name + aliases) so a query contained in a longer name ("deadlift" in "Romanian Deadlift") still
ranks. Only the rows the trigram index offers are scored (`exercise_name_candidates`: word similarity
to the search text just under the floor, which every row that could pass has), so a whole staff message
costs an index probe, not a score per exercise. Python then rescores those few candidates: an exact
name/alias is 1.0, otherwise the better of the trigram score and the closest spelling's edit similarity,
which trigrams under-rate for transposed letters ("becnh press").
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from sqlalchemy import Computed, String, Text, UniqueConstraint, func, select, text
from sqlalchemy.dialects.postgresql import ARRAY, insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from core.database import Base
from core.mixins import CreatedAt, OrgRow
from gym.errors import GymError
from gym.exercise_library import CATEGORIES, LIBRARY, LibraryExercise

RESOLVED_SCORE = 0.5   # a winner must score at least this...
RESOLVED_MARGIN = 0.1  # ...and beat the runner-up by this much
MATCH_FLOOR = 0.3      # below this a candidate is no match at all
WORD_WEIGHT = 0.6      # damping of word similarity over the whole search text
WORD_FLOOR = 0.6       # pg_trgm's own word_similarity_threshold
RECALL = 8             # candidates per name the SQL stage hands to `rescore`
# Index prefilter (`exercise_name_candidates`, migration 0014: word similarity of the query to the search
# text through its trigram index): a score ≥ MATCH_FLOOR needs at least that share of the
# query's trigrams in the search text (a name's or alias's similarity is shared / union ≤ shared / query's),
# so rows under it cannot pass the floor; just below it so float rounding never drops a row at the floor.
PREFILTER = MATCH_FLOOR - 0.01


class Exercise(OrgRow, CreatedAt, Base):
    __tablename__ = "exercises"
    __table_args__ = (UniqueConstraint("org_id", "name", name="uq_exercises_org_name"),)
    __mapper_args__ = {"eager_defaults": True}

    name: Mapped[str] = mapped_column(String(200))
    aliases: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    equipment: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    muscles: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    category: Mapped[str] = mapped_column(String(20))
    search_text: Mapped[str] = mapped_column(Text, Computed("exercise_search_text(name, aliases)"))


@dataclass(frozen=True)
class ExerciseHit:
    id: uuid.UUID
    name: str
    category: str
    aliases: list[str]
    equipment: list[str]
    muscles: list[str]
    score: float


def normalize(name: str) -> str:
    """Lower-case, trim and collapse whitespace: the form every query is compared in."""
    return re.sub(r"\s+", " ", name).strip().lower()


def singular(q: str) -> str:
    """Drop an English plural from the last word ("DB snatches" → "db snatch", "pull-ups" → "pull-up")."""
    if q.endswith(("ches", "shes", "sses", "xes")):
        return q[:-2]
    if q.endswith("s") and not q.endswith(("ss", "us")) and len(q) > 3:
        return q[:-1]
    return q


def rescore(q: str, name: str, aliases: list[str], trigram_score: float) -> float:
    """Final score of one candidate: 1.0 for an exact name/alias (plural or not), else the better of the
    trigram score and the closest spelling's edit similarity (trigrams under-rate transposed letters)."""
    spellings = [name.lower(), *(a.lower() for a in aliases)]
    variants = {q, singular(q)}
    if variants & set(spellings):
        return 1.0
    closest = max(SequenceMatcher(None, v, s, autojunk=False).ratio() for v in variants for s in spellings)
    return round(min(max(trigram_score, closest), 0.999), 3)


# One exercise row `e` scored against the query column `q` (both already in scope). This is the
# recall stage: it decides which rows are candidates at all; `rescore` orders them.
SCORE_SQL = f"""GREATEST(
    similarity(lower(e.name), q),
    COALESCE((SELECT max(similarity(lower(a), q)) FROM unnest(e.aliases) AS a), 0),
    CASE WHEN word_similarity(q, e.search_text) >= {WORD_FLOOR}
         THEN word_similarity(q, e.search_text) * {WORD_WEIGHT} ELSE 0 END)"""

SEARCH_SQL = text(f"""
SELECT e.id, e.name, e.category, e.aliases, e.equipment, e.muscles, s.score
FROM (SELECT CAST(:q AS text) AS q) AS query
CROSS JOIN LATERAL exercise_name_candidates(:org, q, :prefilter) AS c(id, similarity)
JOIN exercises e ON e.id = c.id
CROSS JOIN LATERAL (SELECT {SCORE_SQL} AS score) AS s
WHERE e.org_id = :org AND s.score >= :floor AND (CAST(:category AS text) IS NULL OR e.category = :category)
ORDER BY s.score DESC, length(e.name), e.name
LIMIT :limit""")

RESOLVE_SQL = text(f"""
SELECT n.ord, m.id, m.name, m.aliases, m.score
FROM unnest(CAST(:names AS text[])) WITH ORDINALITY AS n(q, ord)
LEFT JOIN LATERAL (
    SELECT e.id, e.name, e.aliases, s.score
    FROM exercise_name_candidates(:org, n.q, :prefilter) AS c(id, similarity)
    JOIN exercises e ON e.id = c.id
    CROSS JOIN LATERAL (SELECT {SCORE_SQL} AS score) AS s
    WHERE e.org_id = :org AND s.score >= :floor
    ORDER BY s.score DESC, length(e.name), e.name
    LIMIT :recall
) AS m ON true
ORDER BY n.ord""")


async def search_exercises(session: AsyncSession, org_id: uuid.UUID, query: str, limit: int = 10, *,
                           category: str | None = None) -> list[ExerciseHit]:
    """Exercises best matching `query` (typos, abbreviations, Hebrew/Russian names), best first."""
    q = normalize(query)
    if not q:
        return []
    rows = await session.execute(SEARCH_SQL, {"q": q, "org": org_id, "floor": MATCH_FLOOR, "prefilter": PREFILTER,
                                              "category": category, "limit": max(limit * 3, RECALL)})
    hits = [ExerciseHit(r.id, r.name, r.category, list(r.aliases), list(r.equipment), list(r.muscles),
                        rescore(q, r.name, r.aliases, float(r.score))) for r in rows]
    hits.sort(key=lambda h: (-h.score, len(h.name), h.name))
    return hits[:limit]


def verdict(name: str, candidates: list[tuple[uuid.UUID, str, float]]) -> dict[str, Any]:
    if not candidates:
        return {"name": name, "status": "unknown", "candidates": []}
    candidates = sorted(candidates, key=lambda c: (-c[2], len(c[1]), c[1]))[:3]
    top_id, top_name, top = candidates[0]
    runner_up = candidates[1][2] if len(candidates) > 1 else 0.0
    exact_alone = top >= 1.0 and runner_up < 1.0
    if exact_alone or (top >= RESOLVED_SCORE and top - runner_up >= RESOLVED_MARGIN):
        return {"name": name, "status": "resolved", "exerciseId": top_id, "exerciseName": top_name,
                "score": top}
    return {"name": name, "status": "ambiguous",
            "candidates": [{"exerciseId": i, "name": n, "score": s} for i, n, s in candidates]}


async def resolve_batch(session: AsyncSession, org_id: uuid.UUID, names: list[str]) -> list[dict[str, Any]]:
    """Resolve movement names to exercise ids in one round trip, in input order.

    Each result is `{name, status}` plus `exerciseId`/`exerciseName`/`score` when resolved (an exact
    name/alias match, or score ≥ 0.5 with a 0.1 lead over the runner-up) or `candidates` (up to 3)
    when ambiguous; a name with no candidate scoring 0.3 is unknown.
    """
    if not names:
        return []
    normalized = [normalize(name) for name in names]
    rows = await session.execute(RESOLVE_SQL, {"names": normalized, "org": org_id, "floor": MATCH_FLOOR,
                                               "prefilter": PREFILTER, "recall": RECALL})
    found: dict[int, list[tuple[uuid.UUID, str, float]]] = {i: [] for i in range(len(names))}
    for row in rows:
        if row.id is not None:
            q = normalized[row.ord - 1]
            found[row.ord - 1].append((row.id, row.name, rescore(q, row.name, row.aliases, float(row.score))))
    return [verdict(name, found[i]) if normalized[i] else {"name": name, "status": "unknown", "candidates": []}
            for i, name in enumerate(names)]


async def exercise_hits(session: AsyncSession, org_id: uuid.UUID, ids: Sequence[uuid.UUID], *, query: str,
                        category: str | None = None) -> list[ExerciseHit]:
    """Exercises as search hits in the order of `ids` (ranked elsewhere), optionally of one category;
    each scored by how closely its name or an alias matches `query` (1.0: exactly)."""
    if not ids:
        return []
    sql = select(Exercise).where(Exercise.org_id == org_id, Exercise.id.in_(ids))
    if category is not None:
        sql = sql.where(Exercise.category == category)
    found = {e.id: e for e in await session.scalars(sql)}
    q = normalize(query)
    return [ExerciseHit(e.id, e.name, e.category, list(e.aliases), list(e.equipment), list(e.muscles),
                        rescore(q, e.name, list(e.aliases), 0.0)) for e in (found.get(i) for i in ids) if e is not None]


def reconsider(result: dict[str, Any], hits: Sequence[ExerciseHit]) -> dict[str, Any]:
    """A `resolve_batch` result that did not resolve, judged again with more candidates (`hits`, e.g. from
    hybrid search) under the same rule: resolved on an exact or clearly leading name match, else
    ambiguous with the best three, unknown only when nobody offers a candidate."""
    candidates = {c["exerciseId"]: (c["exerciseId"], c["name"], c["score"]) for c in result.get("candidates", [])}
    for hit in hits:
        if hit.id not in candidates or candidates[hit.id][2] < hit.score:
            candidates[hit.id] = (hit.id, hit.name, hit.score)
    return verdict(result["name"], list(candidates.values()))


async def get_exercise(session: AsyncSession, org_id: uuid.UUID, exercise_id: uuid.UUID) -> Exercise | None:
    return await session.scalar(select(Exercise).where(Exercise.org_id == org_id, Exercise.id == exercise_id))


async def exercise_names(session: AsyncSession, org_id: uuid.UUID, ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    """Each exercise's name by id (none read for no ids)."""
    if not ids:
        return {}
    rows = await session.execute(select(Exercise.id, Exercise.name)
                                 .where(Exercise.org_id == org_id, Exercise.id.in_(ids)))
    return {row.id: row.name for row in rows}


async def existing_exercise_ids(session: AsyncSession, org_id: uuid.UUID,
                                ids: set[uuid.UUID]) -> set[uuid.UUID]:
    """Which of `ids` are exercises of this org."""
    if not ids:
        return set()
    rows = await session.scalars(select(Exercise.id).where(Exercise.org_id == org_id, Exercise.id.in_(ids)))
    return set(rows.all())


async def create_exercise(session: AsyncSession, org_id: uuid.UUID, *, name: str, category: str,
                          aliases: list[str] | None = None, equipment: list[str] | None = None,
                          muscles: list[str] | None = None) -> Exercise:
    """A gym's own exercise; GymError for an unknown category or a name the library already has."""
    if category not in CATEGORIES:
        raise GymError("invalid_category", f"Unknown exercise category {category!r}.",
                       f"Use one of: {', '.join(CATEGORIES)}.")
    taken = await session.scalar(select(Exercise.id).where(Exercise.org_id == org_id,
                                                           func.lower(Exercise.name) == name.strip().lower()))
    if taken is not None:
        raise GymError("duplicate_exercise", f"The library already has {name!r}.",
                       "Use the existing exercise, or add an alias.")
    exercise = Exercise(id=uuid.uuid4(), org_id=org_id, name=name, category=category, aliases=aliases or [],
                        equipment=equipment or [], muscles=muscles or [])
    session.add(exercise)
    await session.flush()
    return exercise


def library_rows(org_id: uuid.UUID, id_for: Callable[[LibraryExercise], uuid.UUID] | None = None,
                 ) -> list[dict[str, Any]]:
    """Insert rows for the built-in library; `id_for(exercise)` gives deterministic ids (demo seeding)."""
    def row(entry: LibraryExercise) -> dict[str, Any]:
        return {"id": id_for(entry) if id_for else uuid.uuid4(), "org_id": org_id, "name": entry.name,
                "category": entry.category, "aliases": entry.all_aliases, "equipment": list(entry.equipment),
                "muscles": list(entry.muscles)}
    return [row(entry) for entry in LIBRARY]


async def install_library(session: AsyncSession, org_id: uuid.UUID,
                          id_for: Callable[[LibraryExercise], uuid.UUID] | None = None) -> int:
    """Add the built-in library to an org (one statement; names it already has are skipped)."""
    rows = library_rows(org_id, id_for)
    result = await session.execute(
        insert(Exercise).values(rows).on_conflict_do_nothing().returning(Exercise.id))
    return len(result.all())
