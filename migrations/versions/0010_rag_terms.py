"""Lexical search through a vocabulary: `rag_terms` holds every word of the org's document titles (and of
the bodies of programs, workouts and exercises), and `rag_term_candidates()` replaces
`rag_lexical_candidates()`.

Why: at 100k members the old candidates searched titles and bodies of all documents by trigram
(`<<%`, and `<<<->` nearest titles). A short word's trigrams are shared by thousands of names, so each
spelling's bitmap rechecked thousands of rows ("walks" → every Walker, "coen" → every Co…en; 18-32 ms per
spelling at 10k, ten times that at 100k; lexical p95 953 ms per message, bench/rag.py). Now a spelling is
compared by trigram with the vocabulary, a few thousand distinct words, and documents are fetched by
exact words through the tsvector GIN index, which needs no recheck.

Member bodies (email, status, plan) stay out of the vocabulary: every member has a distinct email, and
their words are still found exactly (full text). Words are only added (a trigger on `rag_documents`);
a word no document uses any more matches nothing, so it need not be removed.

Revision ID: 0010_rag_terms
Revises: 0009_job_queue
Create Date: 2026-11-24
"""

import importlib.util
from pathlib import Path

from alembic import op

from core.database import APP_ROLE
from core.rls import drop_tenant_table, run, tenant_table

revision = "0010_rag_terms"
down_revision = "0009_job_queue"
branch_labels = None
depends_on = None

OLD_SIGNATURE = ("rag_lexical_candidates(text[], text[], boolean[], boolean[], text[], text[], integer, integer, "
                 "real)")
SIGNATURE = ("rag_term_candidates(text[], integer[], text[], boolean[], boolean[], integer[], integer[], text[], "
             "integer, real, integer, integer, real)")

# The words a document adds to the vocabulary ('simple' parser: lower-cased words, hyphenated compounds
# and their parts).
TERMS_OF = ("tsvector_to_array(to_tsvector('simple', "
            "CASE WHEN r.scope = 'member' THEN r.title ELSE r.title || ' ' || r.body END))")

COLLECT_FN = f"""
CREATE OR REPLACE FUNCTION rag_terms_collect() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO rag_terms (org_id, term)
  SELECT DISTINCT r.org_id, w.term FROM new_rows r CROSS JOIN LATERAL unnest({TERMS_OF}) AS w(term)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$"""

# Candidates of the current org (app.org_id). SECURITY DEFINER for the reason given in migration 0005:
# under row-level security the trigram and full-text operators cannot be index conditions. Per content
# word, the vocabulary's words within the trigram threshold of any of its spellings ("close"), plus the
# `nearest_terms` closest words of its short spellings as typed down to `nearest_floor` (typos trigrams
# under-rate: "coen" → "cohen" at 0.4); then documents containing a close word (up to `cap`) or a near one
# (up to `knn`), documents matching a spelling's full-text query (prefixes, stems, words under three
# letters; up to `cap`), and per pair of adjacent words, documents whose title has a word of both (up to
# `knn`: "Dany Mizrachi" among ~1,600 Mizrahis at 100k members).
CANDIDATES_FN = r"""
CREATE OR REPLACE FUNCTION rag_term_candidates(
    spellings text[], words integer[], tsqueries text[], fuzzy boolean[], nearest boolean[],
    pair_a integer[], pair_b integer[], scopes text[], nearest_terms integer, nearest_floor real, knn integer,
    cap integer, threshold real)
RETURNS SETOF uuid LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp
SET enable_seqscan = off AS $$
DECLARE
  org uuid := app_current_org();
  any_scope boolean := scopes IS NULL OR cardinality(scopes) = 0;
BEGIN
  IF org IS NULL THEN
    RETURN;
  END IF;
  PERFORM set_config('pg_trgm.strict_word_similarity_threshold', threshold::text, true);
  RETURN QUERY
  WITH s AS (
    SELECT * FROM unnest(spellings, words, tsqueries, fuzzy, nearest) AS s(v, w, tsq, fuzzy, nearest)
  ),
  alike AS (
    SELECT s.w, t.term, true AS close FROM s CROSS JOIN LATERAL (
      SELECT t.term FROM rag_terms t WHERE t.org_id = org AND s.v <<% t.term LIMIT cap) t
    WHERE s.fuzzy
    UNION
    SELECT s.w, t.term, false FROM s CROSS JOIN LATERAL (
      SELECT t.term FROM rag_terms t WHERE t.org_id = org AND s.v <<<-> t.term <= 1 - nearest_floor
      ORDER BY s.v <<<-> t.term LIMIT nearest_terms) t
    WHERE s.fuzzy AND s.nearest
  ),
  word_query AS (
    SELECT l.w, string_agg(l.lexeme, ' | ') FILTER (WHERE l.close) AS close_q,
           string_agg(l.lexeme, ' | ') FILTER (WHERE NOT l.close) AS near_q,
           string_agg(l.lexeme || ':' || 'A', ' | ') AS title_q
    FROM (SELECT DISTINCT ON (alike.w, alike.term) alike.w, alike.close,
                 '''' || replace(replace(alike.term, E'\\', E'\\\\'), '''', '''''') || '''' AS lexeme
          FROM alike ORDER BY alike.w, alike.term, alike.close DESC) l
    GROUP BY l.w
  ),
  queries AS (
    SELECT to_tsquery('simple', q.close_q) AS q, cap AS n FROM word_query q WHERE q.close_q IS NOT NULL
    UNION ALL
    SELECT to_tsquery('simple', q.near_q), knn FROM word_query q WHERE q.near_q IS NOT NULL
    UNION ALL
    SELECT to_tsquery('simple', s.tsq), cap FROM s
    UNION ALL
    SELECT to_tsquery('simple', '(' || a.title_q || ') & (' || b.title_q || ')'), knn
    FROM unnest(pair_a, pair_b) AS p(a, b)
    JOIN word_query a ON a.w = p.a JOIN word_query b ON b.w = p.b
  )
  SELECT DISTINCT d.id FROM queries CROSS JOIN LATERAL (
    SELECT d.id FROM rag_documents d
    WHERE d.org_id = org AND d.tsv @@ queries.q AND (any_scope OR d.scope = ANY(scopes))
    LIMIT queries.n) d;
END $$"""


def _old_migration():
    path = Path(__file__).with_name("0005_rag.py")
    spec = importlib.util.spec_from_file_location("_migration_0005_rag", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upgrade() -> None:
    op.execute("""
CREATE TABLE rag_terms (
  org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  term text NOT NULL,
  PRIMARY KEY (org_id, term)
)""")
    # GIN for words within the threshold, GiST for the nearest words (a KNN ordering only GiST serves).
    op.execute("CREATE INDEX ix_rag_terms_trgm ON rag_terms USING gin (term gin_trgm_ops)")
    op.execute("CREATE INDEX ix_rag_terms_knn ON rag_terms USING gist (term gist_trgm_ops)")
    run(op, tenant_table("rag_terms"))
    op.execute(COLLECT_FN)
    run(op, [
        "CREATE TRIGGER rag_terms_ins AFTER INSERT ON rag_documents REFERENCING NEW TABLE AS new_rows "
        "FOR EACH STATEMENT EXECUTE FUNCTION rag_terms_collect()",
        "CREATE TRIGGER rag_terms_upd AFTER UPDATE ON rag_documents REFERENCING NEW TABLE AS new_rows "
        "FOR EACH STATEMENT EXECUTE FUNCTION rag_terms_collect()",
    ])
    op.execute(f"INSERT INTO rag_terms (org_id, term) SELECT DISTINCT r.org_id, w.term FROM rag_documents r "
               f"CROSS JOIN LATERAL unnest({TERMS_OF}) AS w(term) ON CONFLICT DO NOTHING")
    op.execute(CANDIDATES_FN)
    run(op, [f"REVOKE ALL ON FUNCTION {SIGNATURE} FROM PUBLIC",
             f"GRANT EXECUTE ON FUNCTION {SIGNATURE} TO {APP_ROLE}",
             f"DROP FUNCTION IF EXISTS {OLD_SIGNATURE}"])


def downgrade() -> None:
    old = _old_migration()
    op.execute(old.CANDIDATES_FN)
    run(op, [f"REVOKE ALL ON FUNCTION {OLD_SIGNATURE} FROM PUBLIC",
             f"GRANT EXECUTE ON FUNCTION {OLD_SIGNATURE} TO {APP_ROLE}",
             f"DROP FUNCTION IF EXISTS {SIGNATURE}",
             "DROP TRIGGER IF EXISTS rag_terms_ins ON rag_documents",
             "DROP TRIGGER IF EXISTS rag_terms_upd ON rag_documents",
             "DROP FUNCTION IF EXISTS rag_terms_collect()"])
    run(op, drop_tenant_table("rag_terms"))
