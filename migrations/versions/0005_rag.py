"""Ambient RAG: `rag_documents` (lexical + vector index per entity) and `rag_outbox` (pending index work),
filled by statement-level triggers on the indexed tables so no service has to remember index sync.

One vector column per width (512: the packaged local model; 1024: Voyage), each with HNSW cosine
indexes (one per scope), because HNSW needs a fixed width; `model` names what made the stored vector,
and search compares only vectors of the active model. The triggers only append to the outbox
(SECURITY DEFINER, no foreign key to a parent that a cascade may be deleting), so they cannot fail the
user's write; `rag.worker` drains the outbox. `rag_lexical_candidates()` serves lexical search (below).

Revision ID: 0005_rag
Revises: 0004_training
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

from core.database import APP_ROLE
from core.rls import drop_tenant_table, run, tenant_table

revision = "0005_rag"
down_revision = "0004_training"
branch_labels = None
depends_on = None

SCOPES = ("program", "workout", "exercise", "member")
VECTOR_COLUMNS = {512: "embedding_512", 1024: "embedding_1024"}


def _enqueue(source: str, scope: str, entity: str, op_sql: str, where: str = "true", join: str = "") -> str:
    return (f"INSERT INTO rag_outbox (org_id, scope, entity_id, op) "
            f"SELECT DISTINCT r.org_id, '{scope}', {entity}, {op_sql} FROM {source} r {join} "
            f"WHERE {entity} IS NOT NULL AND {where};")


def _changed(columns: tuple[str, ...]) -> str:
    return "(" + " OR ".join(f"r.{c} IS DISTINCT FROM o.{c}" for c in columns) + ")"


# (table, scope, columns whose change re-renders the document, soft-deletable)
ENTITY_TABLES = (
    ("members", "member", ("first_name", "last_name", "full_name", "email", "status", "deleted_at"), True),
    ("programs", "program", ("name", "kind", "description", "deleted_at"), True),
    ("workouts", "workout", ("title", "description", "freeform_text", "program_id", "deleted_at"), True),
    ("exercises", "exercise", ("name", "aliases", "equipment", "muscles", "category"), False),
)


def _entity_function(table: str, scope: str, columns: tuple[str, ...], soft: bool) -> str:
    live = "CASE WHEN r.deleted_at IS NULL THEN 'upsert' ELSE 'delete' END" if soft else "'upsert'"
    on_update = _enqueue("new_rows", scope, "r.id", live, _changed(columns), "JOIN old_rows o ON o.id = r.id")
    if table == "programs":  # a workout's document names its program
        on_update += (" INSERT INTO rag_outbox (org_id, scope, entity_id, op) "
                      "SELECT w.org_id, 'workout', w.id, 'upsert' FROM new_rows r JOIN old_rows o ON o.id = r.id "
                      "JOIN workouts w ON w.program_id = r.id AND w.org_id = r.org_id "
                      "WHERE r.name IS DISTINCT FROM o.name AND w.deleted_at IS NULL;")
    return _function(f"rag_outbox_{table}", _enqueue("new_rows", scope, "r.id", live), on_update,
                     _enqueue("old_rows", scope, "r.id", "'delete'"))


# Child tables whose change re-renders a parent's document: (table, scope, parent id, join, watched columns)
CHILD_TABLES = (
    ("member_subscriptions", "member", "r.member_id", "", ("plan_id", "status", "member_id")),
    ("workout_sections", "workout", "r.workout_id", "", ("workout_id",)),
    ("workout_movements", "workout", "s.workout_id", "JOIN workout_sections s ON s.id = r.section_id",
     ("name", "exercise_id", "section_id")),
)


def _child_function(table: str, scope: str, entity: str, join: str, columns: tuple[str, ...]) -> str:
    return _function(
        f"rag_outbox_{table}", _enqueue("new_rows", scope, entity, "'upsert'", join=join),
        _enqueue("new_rows", scope, entity, "'upsert'", _changed(columns), f"JOIN old_rows o ON o.id = r.id {join}"),
        _enqueue("old_rows", scope, entity, "'upsert'", join=join))


def _function(name: str, on_insert: str, on_update: str, on_delete: str) -> str:
    return f"""CREATE OR REPLACE FUNCTION {name}() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN {on_insert}
  ELSIF TG_OP = 'UPDATE' THEN {on_update}
  ELSE {on_delete}
  END IF;
  RETURN NULL;
END $$"""


def _triggers(table: str) -> list[str]:
    """Statement-level with transition tables: one outbox INSERT per statement, also for COPY."""
    fn = f"rag_outbox_{table}"
    return [
        f"CREATE TRIGGER {fn}_ins AFTER INSERT ON {table} REFERENCING NEW TABLE AS new_rows "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {fn}()",
        f"CREATE TRIGGER {fn}_upd AFTER UPDATE ON {table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {fn}()",
        f"CREATE TRIGGER {fn}_del AFTER DELETE ON {table} REFERENCING OLD TABLE AS old_rows "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {fn}()",
    ]


# Lexical candidates of the current org (app.org_id), index scans per spelling (similar words by GIN
# trigram; nearest titles by GiST KNN; full-text by GIN) and nearest titles per two-word phrase. Row-level security
# lets only LEAKPROOF operators into index conditions, and the trigram and full-text operators are not,
# so under the policy every such search reads all of the org's rows (3.4 s instead of 0.15 s for 100k
# members). This function runs as its owner (the schema owner, which bypasses RLS as seeding already
# requires) and takes the org from app_current_org() itself, so it can only return ids RLS would show.
# EXECUTE plans each scan with the spelling's actual value; sequential scans are off because the planner
# prices the trigram operators like `=`, and on a 10k-member gym it chose scans that evaluated them on
# every row (find_ambient p95 591 ms instead of 196 ms, bench/rag.py).
CANDIDATES_SIGNATURE = ("rag_lexical_candidates(text[], text[], boolean[], boolean[], text[], text[], integer, integer, "
                        "real)")
CANDIDATES_FN = """
CREATE OR REPLACE FUNCTION rag_lexical_candidates(
    spellings text[], tsqueries text[], fuzzy boolean[], nearest boolean[], phrases text[], scopes text[],
    knn integer, cap integer, threshold real)
RETURNS SETOF uuid LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
SET enable_seqscan = off AS $$
DECLARE
  org uuid := app_current_org();
  i integer;
  scoped text := CASE WHEN scopes IS NULL OR cardinality(scopes) = 0 THEN '' ELSE ' AND d.scope = ANY($2)' END;
BEGIN
  IF org IS NULL THEN
    RETURN;
  END IF;
  PERFORM set_config('pg_trgm.strict_word_similarity_threshold', threshold::text, true);
  FOR i IN 1 .. coalesce(cardinality(spellings), 0) LOOP
    IF fuzzy[i] THEN
      RETURN QUERY EXECUTE 'SELECT d.id FROM rag_documents d WHERE d.org_id = $1' || scoped
        || ' AND ($3 <<% d.title OR $3 <<% d.body) LIMIT $4' USING org, scopes, spellings[i], cap;
    END IF;
    IF fuzzy[i] AND nearest[i] THEN
      RETURN QUERY EXECUTE 'SELECT d.id FROM rag_documents d WHERE d.org_id = $1' || scoped
        || ' ORDER BY $3 <<<-> d.title LIMIT $4' USING org, scopes, spellings[i], knn;
    END IF;
    RETURN QUERY EXECUTE 'SELECT d.id FROM rag_documents d WHERE d.org_id = $1' || scoped
      || ' AND d.tsv @@ to_tsquery(''simple'', $3) LIMIT $4' USING org, scopes, tsqueries[i], cap;
  END LOOP;
  FOR i IN 1 .. coalesce(cardinality(phrases), 0) LOOP
    RETURN QUERY EXECUTE 'SELECT d.id FROM rag_documents d WHERE d.org_id = $1' || scoped
      || ' ORDER BY $3 <<<-> d.title LIMIT $4' USING org, scopes, phrases[i], knn;
  END LOOP;
END $$"""


def _all_tables() -> list[str]:
    return [t[0] for t in ENTITY_TABLES] + [t[0] for t in CHILD_TABLES]


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    scopes = ",".join(f"'{s}'" for s in SCOPES)

    op.execute(f"""
CREATE TABLE rag_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  scope varchar(10) NOT NULL CONSTRAINT ck_rag_documents_scope CHECK (scope IN ({scopes})),
  entity_id uuid NOT NULL,
  title text NOT NULL,
  body text NOT NULL DEFAULT '',
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', body), 'B')) STORED,
  model text,
  embedding_512 vector(512),
  embedding_1024 vector(1024),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT uq_rag_documents_entity UNIQUE (org_id, scope, entity_id)
)""")
    # Titles get GIN (similarity above a threshold) and GiST (nearest titles by word similarity, a KNN
    # ordering only GiST serves: "Cohen" for "Coen" sits below any useful threshold).
    op.create_index("ix_rag_documents_title_trgm", "rag_documents", [sa.text("title gin_trgm_ops")],
                    postgresql_using="gin")
    op.create_index("ix_rag_documents_title_knn", "rag_documents", [sa.text("title gist_trgm_ops")],
                    postgresql_using="gist")
    op.create_index("ix_rag_documents_body_trgm", "rag_documents", [sa.text("body gin_trgm_ops")],
                    postgresql_using="gin")
    op.create_index("ix_rag_documents_tsv", "rag_documents", ["tsv"], postgresql_using="gin")
    # One HNSW graph per scope and width: in a single graph of a 100k-member gym, searches for an
    # exercise or a program got stuck among member vectors (recall@10 against exact search 0.36; per
    # scope 0.95, bench/rag.py). Search names the scope literally, so the planner picks the partial index.
    for column in VECTOR_COLUMNS.values():
        for scope in SCOPES:
            op.execute(f"CREATE INDEX ix_rag_documents_{column}_{scope} ON rag_documents "
                       f"USING hnsw ({column} vector_cosine_ops) WHERE scope = '{scope}'")
        op.execute(f"ALTER TABLE rag_documents ADD CONSTRAINT ck_rag_documents_{column}_model "
                   f"CHECK ({column} IS NULL OR model IS NOT NULL)")

    # No foreign key to organizations: an org's cascade delete fires the triggers below, and their
    # outbox rows must not fail that delete. The drain treats rows of a vanished org as deletes.
    op.create_table(
        "rag_outbox",
        sa.Column("id", sa.BigInteger, sa.Identity(always=False), primary_key=True),
        sa.Column("org_id", UUID(as_uuid=True), nullable=False),
        sa.Column("scope", sa.String(10), nullable=False),
        sa.Column("entity_id", UUID(as_uuid=True), nullable=False),
        sa.Column("op", sa.String(6), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("not_before", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.CheckConstraint(f"scope IN ({scopes})", name="scope"),
        sa.CheckConstraint("op IN ('upsert','delete')", name="op"),
    )
    op.create_index("ix_rag_outbox_ready", "rag_outbox", ["not_before", "id"])
    op.create_index("ix_rag_outbox_entity", "rag_outbox", ["org_id", "scope", "entity_id"])

    for table in ("rag_documents", "rag_outbox"):
        run(op, tenant_table(table))

    op.execute(CANDIDATES_FN)
    run(op, [f"REVOKE ALL ON FUNCTION {CANDIDATES_SIGNATURE} FROM PUBLIC",
             f"GRANT EXECUTE ON FUNCTION {CANDIDATES_SIGNATURE} TO {APP_ROLE}"])

    for spec in ENTITY_TABLES:
        op.execute(_entity_function(*spec))
        run(op, _triggers(spec[0]))
    for spec in CHILD_TABLES:
        op.execute(_child_function(*spec))
        run(op, _triggers(spec[0]))


def downgrade() -> None:
    op.execute(f"DROP FUNCTION IF EXISTS {CANDIDATES_SIGNATURE}")
    for table in _all_tables():
        for suffix in ("ins", "upd", "del"):
            op.execute(f"DROP TRIGGER IF EXISTS rag_outbox_{table}_{suffix} ON {table}")
        op.execute(f"DROP FUNCTION IF EXISTS rag_outbox_{table}()")
    for table in ("rag_outbox", "rag_documents"):
        run(op, drop_tenant_table(table))
