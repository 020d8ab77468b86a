"""The RAG index: one document per program, workout, exercise and member, kept in step through the outbox.

Triggers (migration 0005) append `rag_outbox` rows for every write to an indexed table. `drain_outbox`
claims a batch, renders each entity's document from the live tables, embeds what changed and upserts
it; an entity that is gone or soft-deleted loses its document. Documents whose text is unchanged and
already carry a vector of the active model are left alone, so re-renders cost no embedding call.

When the embedder fails, documents are still written without a vector (lexical search sees the change
at once) and the outbox rows stay, with `attempts`, `last_error` and an exponential `not_before`.

Rows of every org sit in one outbox, so the drain and `reindex_org` run on owner sessions
(`Database.owner()`), which bypass row-level security: the schema owner is a superuser or BYPASSRLS
role, as seeding and migrations already require. Every statement still names the org it touches.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import structlog
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from core.database import Database, rowcount
from rag.embeddings import Embedder, EmbedderError
from rag.vectors import vector_param

log = structlog.get_logger("rag.index")

SCOPES = ("program", "workout", "exercise", "member")
VECTOR_COLUMNS = {512: "embedding_512", 1024: "embedding_1024"}
MAX_BODY_CHARS = 4000
MAX_EMBED_CHARS = 2000
BACKOFF_BASE_S = 5
BACKOFF_MAX_S = 3600

Key = tuple[uuid.UUID, str, uuid.UUID]  # (org_id, scope, entity_id)

# Each renders (org_id, entity_id, title, body) for live entities; {where} filters by ids or by org.
DOCUMENT_SQL = {
    "member": """
SELECT m.org_id, m.id AS entity_id, m.full_name AS title, concat_ws(' · ', m.email, m.status, p.plan) AS body
FROM members m
LEFT JOIN LATERAL (
    SELECT mp.name AS plan FROM member_subscriptions s JOIN membership_plans mp ON mp.id = s.plan_id
    WHERE s.member_id = m.id AND s.org_id = m.org_id AND s.status IN ('active', 'paused')
    ORDER BY s.started_on DESC LIMIT 1) p ON true
WHERE m.deleted_at IS NULL AND {where}""",
    "program": """
SELECT g.org_id, g.id AS entity_id, g.name AS title, concat_ws(' · ', g.kind, g.description) AS body
FROM programs g WHERE g.deleted_at IS NULL AND {where}""",
    "workout": """
SELECT w.org_id, w.id AS entity_id, w.title,
       concat_ws(' · ', p.name, w.description, s.schemes, w.freeform_text, s.movements) AS body
FROM workouts w
LEFT JOIN programs p ON p.id = w.program_id AND p.org_id = w.org_id
LEFT JOIN LATERAL (
    SELECT concat_ws(' · ', string_agg(DISTINCT ws.scheme, ', '), string_agg(DISTINCT ws.notes, ' ')) AS schemes,
           string_agg(DISTINCT CASE WHEN e.name IS NULL OR lower(e.name) = lower(wm.name) THEN wm.name
                                    ELSE wm.name || ' (' || e.name || ')' END, ', ') AS movements
    FROM workout_sections ws
    LEFT JOIN workout_movements wm ON wm.section_id = ws.id
    LEFT JOIN exercises e ON e.id = wm.exercise_id
    WHERE ws.workout_id = w.id) s ON true
WHERE w.deleted_at IS NULL AND {where}""",
    "exercise": """
SELECT x.org_id, x.id AS entity_id, x.name AS title,
       concat_ws(' · ', nullif(array_to_string(x.aliases, ', '), ''), nullif(array_to_string(x.equipment, ', '), ''),
                 nullif(array_to_string(x.muscles, ', '), ''), x.category) AS body
FROM exercises x WHERE {where}""",
}
ALIAS = {"member": "m", "program": "g", "workout": "w", "exercise": "x"}

UPSERT_SQL = """
INSERT INTO rag_documents (org_id, scope, entity_id, title, body, model, embedding_512, embedding_1024, updated_at)
VALUES (:org_id, :scope, :entity_id, :title, :body, :model,
        :embedding_512, :embedding_1024, now())
ON CONFLICT (org_id, scope, entity_id) DO UPDATE SET
    title = EXCLUDED.title, body = EXCLUDED.body, updated_at = now(),
    model = CASE WHEN :keep_vector THEN rag_documents.model ELSE EXCLUDED.model END,
    embedding_512 = CASE WHEN :keep_vector THEN rag_documents.embedding_512 ELSE EXCLUDED.embedding_512 END,
    embedding_1024 = CASE WHEN :keep_vector THEN rag_documents.embedding_1024 ELSE EXCLUDED.embedding_1024 END"""


@dataclass(frozen=True)
class Document:
    org_id: uuid.UUID
    scope: str
    entity_id: uuid.UUID
    title: str
    body: str

    @property
    def key(self) -> Key:
        return (self.org_id, self.scope, self.entity_id)


@dataclass
class SyncResult:
    """What one sync pass did; `failed` holds keys whose vector could not be made (`error` says why)."""

    upserted: int = 0
    unchanged: int = 0
    deleted: int = 0
    embedded: int = 0
    failed: set[Key] = field(default_factory=set)
    error: str | None = None


@dataclass
class DrainResult:
    claimed: int = 0  # outbox rows taken
    upserted: int = 0
    deleted: int = 0
    embedded: int = 0
    retrying: int = 0  # outbox rows kept for a later attempt
    error: str | None = None


def vector_column(embedder: Embedder | None) -> str | None:
    """The column holding this embedder's vectors, or None when no column has its width."""
    return VECTOR_COLUMNS.get(embedder.dims) if embedder is not None else None


def document_text(title: str, body: str) -> str:
    """What gets embedded for a document."""
    return f"{title}. {body}"[:MAX_EMBED_CHARS] if body else title[:MAX_EMBED_CHARS]


async def render(session: AsyncSession, scope: str, *, ids: Sequence[uuid.UUID] | None = None,
                 org_id: uuid.UUID | None = None, after: uuid.UUID | None = None,
                 limit: int | None = None) -> list[Document]:
    """Documents of live entities of one scope: by id, or an org's in id order (keyset pages)."""
    alias = ALIAS[scope]
    params: dict = {}
    if ids is not None:
        where = f"{alias}.id = ANY(CAST(:ids AS uuid[]))"
        params["ids"] = list(ids)
    else:
        where = f"{alias}.org_id = :org AND (CAST(:after AS uuid) IS NULL OR {alias}.id > :after)"
        params.update(org=org_id, after=after)
    sql = DOCUMENT_SQL[scope].format(where=where)
    if ids is None:
        sql += f" ORDER BY {alias}.id" + (" LIMIT :limit" if limit else "")
        if limit:
            params["limit"] = limit
    rows = await session.execute(text(sql), params)
    return [Document(r.org_id, scope, r.entity_id, r.title, (r.body or "")[:MAX_BODY_CHARS]) for r in rows]


async def _stored(session: AsyncSession, keys: Iterable[Key], column: str | None) -> dict[Key, tuple]:
    """(title, body, model, has_vector) of the stored documents for `keys`."""
    keys = list(keys)
    if not keys:
        return {}
    has_vector = f"{column} IS NOT NULL" if column else "false"
    rows = await session.execute(text(f"""
        SELECT d.org_id, d.scope, d.entity_id, d.title, d.body, d.model, {has_vector} AS has_vector
        FROM rag_documents d
        JOIN unnest(CAST(:orgs AS uuid[]), CAST(:scopes AS text[]), CAST(:ids AS uuid[])) AS k(org_id, scope, entity_id)
          ON d.org_id = k.org_id AND d.scope = k.scope AND d.entity_id = k.entity_id"""),
        {"orgs": [k[0] for k in keys], "scopes": [k[1] for k in keys], "ids": [k[2] for k in keys]})
    return {(r.org_id, r.scope, r.entity_id): (r.title, r.body, r.model, r.has_vector) for r in rows}


async def sync_documents(session: AsyncSession, embedder: Embedder | None, docs: Sequence[Document],
                         gone: Iterable[Key] = (), *, force: bool = False) -> SyncResult:
    """Upsert `docs` (embedding those whose text changed or lack a vector of the active model) and
    delete the documents of `gone`. An embedder failure is reported in the result, never raised."""
    result = SyncResult()
    column = vector_column(embedder)
    stored = await _stored(session, [d.key for d in docs], column)
    model = embedder.model if embedder is not None else None
    to_embed: list[Document] = []
    text_only: list[Document] = []
    for doc in docs:
        old = stored.get(doc.key)
        same_text = old is not None and old[0] == doc.title and old[1] == doc.body
        fresh_vector = old is not None and old[2] == model and old[3]
        if same_text and (fresh_vector or column is None) and not force:
            result.unchanged += 1
        elif column is None:
            text_only.append(doc)
        else:
            to_embed.append(doc)
    vectors: list[list[float]] = []
    if to_embed:
        try:
            assert embedder is not None
            vectors = await embedder.embed([document_text(d.title, d.body) for d in to_embed],
                                           input_type="document")
            if len(vectors) != len(to_embed):
                raise EmbedderError(f"embedder returned {len(vectors)} vectors for {len(to_embed)} texts")
            result.embedded = len(vectors)
        except EmbedderError as exc:
            result.error = str(exc)[:500]
            result.failed = {d.key for d in to_embed}
            log.warning("rag.index.embed_failed", model=model, count=len(to_embed), error=result.error)
            vectors = []
    rows = []
    for i, doc in enumerate(to_embed):
        old = stored.get(doc.key)
        same_text = old is not None and old[0] == doc.title and old[1] == doc.body
        vector = list(vectors[i]) if vectors else None
        rows.append({**_row(doc), "model": model if vector else None,
                     "embedding_512": vector if column == "embedding_512" else None,
                     "embedding_1024": vector if column == "embedding_1024" else None,
                     # embedding failed but the text is unchanged: the old vector still describes it
                     "keep_vector": vector is None and same_text})
    for doc in text_only:
        old = stored.get(doc.key)
        rows.append({**_row(doc), "model": None, "embedding_512": None, "embedding_1024": None,
                     "keep_vector": old is not None and old[0] == doc.title and old[1] == doc.body})
    if rows:
        await session.execute(text(UPSERT_SQL).bindparams(
            *(vector_param(column_name, dims) for dims, column_name in VECTOR_COLUMNS.items())), rows)
        result.upserted = len(rows)
    result.deleted = await _delete(session, list(gone))
    return result


def _row(doc: Document) -> dict:
    return {"org_id": doc.org_id, "scope": doc.scope, "entity_id": doc.entity_id, "title": doc.title,
            "body": doc.body}


async def _delete(session: AsyncSession, keys: list[Key]) -> int:
    if not keys:
        return 0
    deleted = await session.execute(text("""
        DELETE FROM rag_documents d
        USING unnest(CAST(:orgs AS uuid[]), CAST(:scopes AS text[]), CAST(:ids AS uuid[])) AS k(org_id, scope, entity_id)
        WHERE d.org_id = k.org_id AND d.scope = k.scope AND d.entity_id = k.entity_id"""),
        {"orgs": [k[0] for k in keys], "scopes": [k[1] for k in keys], "ids": [k[2] for k in keys]})
    return rowcount(deleted)


async def _documents_for(session: AsyncSession, keys: set[Key]) -> tuple[list[Document], set[Key]]:
    """Render the live documents among `keys`; the rest are gone (deleted, soft-deleted, other org)."""
    by_scope: dict[str, list[uuid.UUID]] = defaultdict(list)
    for _org, scope, entity in keys:
        by_scope[scope].append(entity)
    docs: list[Document] = []
    for scope, ids in by_scope.items():
        docs.extend(d for d in await render(session, scope, ids=ids) if d.key in keys)
    return docs, keys - {d.key for d in docs}


CLAIM_SQL = """
SELECT id, org_id, scope, entity_id, attempts FROM rag_outbox
WHERE not_before <= now() ORDER BY id LIMIT :batch FOR UPDATE SKIP LOCKED"""
# Every other row of the claimed entities (also those waiting out a back-off): one render covers them all.
SIBLINGS_SQL = """
SELECT o.id, o.org_id, o.scope, o.entity_id, o.attempts FROM rag_outbox o
JOIN unnest(CAST(:orgs AS uuid[]), CAST(:scopes AS text[]), CAST(:ids AS uuid[])) AS k(org_id, scope, entity_id)
  ON o.org_id = k.org_id AND o.scope = k.scope AND o.entity_id = k.entity_id
WHERE o.id <> ALL(CAST(:claimed AS bigint[]))
FOR UPDATE OF o SKIP LOCKED"""
# Two drainers holding rows of one entity must not interleave read-render-write: serialize per entity.
LOCK_SQL = """
SELECT count(pg_advisory_xact_lock(h)) FROM (
    SELECT DISTINCT hashtextextended(k, 5005) AS h FROM unnest(CAST(:keys AS text[])) AS k ORDER BY h) s"""


def backoff_seconds(attempts: int) -> int:
    return min(BACKOFF_BASE_S * 2 ** max(attempts - 1, 0), BACKOFF_MAX_S)


async def drain_outbox(db: Database, embedder: Embedder | None, batch: int = 64) -> DrainResult:
    """Process up to `batch` ready outbox rows (plus other rows of the same entities) in one owner
    transaction. Never raises: failures come back in `DrainResult.error` and leave the rows to retry."""
    result = DrainResult()
    claimed_ids: list[int] = []
    try:
        async with db.owner() as session:
            rows = list(await session.execute(text(CLAIM_SQL), {"batch": batch}))
            if not rows:
                return result
            keys = {(r.org_id, r.scope, r.entity_id) for r in rows}
            claimed_ids = [r.id for r in rows]
            siblings = list(await session.execute(text(SIBLINGS_SQL), {
                "orgs": [k[0] for k in keys], "scopes": [k[1] for k in keys], "ids": [k[2] for k in keys],
                "claimed": claimed_ids}))
            rows += siblings
            claimed_ids += [r.id for r in siblings]
            result.claimed = len(rows)
            await session.execute(text(LOCK_SQL), {"keys": sorted(f"{o}/{s}/{e}" for o, s, e in keys)})
            docs, gone = await _documents_for(session, keys)
            synced = await sync_documents(session, embedder, docs, gone)
            result.upserted, result.deleted, result.embedded = synced.upserted, synced.deleted, synced.embedded
            done = [r.id for r in rows if (r.org_id, r.scope, r.entity_id) not in synced.failed]
            retry = [r for r in rows if (r.org_id, r.scope, r.entity_id) in synced.failed]
            if done:
                await session.execute(text("DELETE FROM rag_outbox WHERE id = ANY(CAST(:ids AS bigint[]))"),
                                      {"ids": done})
            if retry:
                await _reschedule(session, [r.id for r in retry], max(r.attempts for r in retry) + 1,
                                  synced.error or "embedding failed")
                result.retrying, result.error = len(retry), synced.error
            return result
    except Exception as exc:  # a drain must never take its caller down; the rows stay for the next run
        result.error = f"{type(exc).__name__}: {exc}"[:500]
        log.exception("rag.index.drain_failed", error=result.error)
        if claimed_ids:
            await _defer(db, claimed_ids, result.error)
        return result


async def _reschedule(session: AsyncSession, ids: list[int], attempts: int, error: str) -> None:
    await session.execute(text("""
        UPDATE rag_outbox SET attempts = :attempts, last_error = :error,
               not_before = now() + make_interval(secs => :delay)
        WHERE id = ANY(CAST(:ids AS bigint[]))"""),
        {"attempts": attempts, "error": error[:500], "delay": backoff_seconds(attempts), "ids": ids})


async def _defer(db: Database, ids: list[int], error: str) -> None:
    """After an unexpected failure, push the claimed rows back so one bad row cannot stall the queue."""
    try:
        async with db.owner() as session:
            await session.execute(text("""
                UPDATE rag_outbox SET attempts = attempts + 1, last_error = :error,
                       not_before = now() + make_interval(secs => least(:base * power(2, attempts), :cap))
                WHERE id = ANY(CAST(:ids AS bigint[]))"""),
                {"error": error, "ids": ids, "base": BACKOFF_BASE_S, "cap": BACKOFF_MAX_S})
    except Exception:
        log.exception("rag.index.defer_failed")


@dataclass
class ReindexResult:
    documents: int = 0
    upserted: int = 0
    unchanged: int = 0
    embedded: int = 0
    deleted: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


async def reindex_org(db: Database, embedder: Embedder | None, org_id: uuid.UUID, *, chunk: int = 256,
                      force: bool = False, scopes: Sequence[str] = SCOPES) -> ReindexResult:
    """Rebuild an org's documents from its live entities, one committed chunk at a time.

    Unchanged documents with a vector of the active model are skipped unless `force`. Documents of
    entities that no longer exist are removed, and outbox rows queued before the rebuild started are
    dropped when every document got its vector (the rebuild covered them).
    """
    result = ReindexResult()
    async with db.owner() as session:
        high_water = await session.scalar(text("SELECT max(id) FROM rag_outbox WHERE org_id = :org"),
                                          {"org": org_id})
    for scope in scopes:
        seen: list[uuid.UUID] = []
        after: uuid.UUID | None = None
        while True:
            async with db.owner() as session:
                docs = await render(session, scope, org_id=org_id, after=after, limit=chunk)
                if not docs:
                    break
                synced = await sync_documents(session, embedder, docs, force=force)
            seen.extend(d.entity_id for d in docs)
            after = docs[-1].entity_id
            result.documents += len(docs)
            result.upserted += synced.upserted
            result.unchanged += synced.unchanged
            result.embedded += synced.embedded
            result.failed += len(synced.failed)
            if synced.error and synced.error not in result.errors:
                result.errors.append(synced.error)
        async with db.owner() as session:
            deleted = await session.execute(text("""
                DELETE FROM rag_documents WHERE org_id = :org AND scope = :scope
                  AND entity_id <> ALL(CAST(:seen AS uuid[]))"""), {"org": org_id, "scope": scope, "seen": seen})
            result.deleted += rowcount(deleted)
    if high_water is not None and not result.failed:
        async with db.owner() as session:
            await session.execute(text("DELETE FROM rag_outbox WHERE org_id = :org AND id <= :hw"),
                                  {"org": org_id, "hw": high_water})
    await refresh_statistics(db)
    log.info("rag.index.reindexed", org_id=str(org_id), documents=result.documents, embedded=result.embedded,
             deleted=result.deleted, failed=result.failed)
    return result


async def refresh_statistics(db: Database) -> None:
    """ANALYZE the search tables after a bulk change (a reindex, a large drain): right after thousands of rows
    arrive the planner still holds the empty tables' statistics and plans the lexical and semantic statements
    as if they were tiny, until autovacuum gets round to them (issue 29: search twice as slow right after
    seeding). Postgres recomputes them from a sample in a few hundred milliseconds at 100k documents."""
    async with db.owner() as session:
        await session.execute(text("ANALYZE rag_documents, rag_terms"))
