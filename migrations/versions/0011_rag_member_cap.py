"""Lexical candidates capped per kind of document (members apart from programs, workouts and exercises),
and `rag_alike_terms()`: the vocabulary words close to each spelling, for scoring bodies.

At 100k members a first name or surname is shared by hundreds of members (300 Saars, 300 Levis: 602
candidates for "Move Saar Levi to the evening CrossFit class"), and scoring every candidate cost more than
finding them (bench/rag.py). Each word now brings at most `member_cap` members, besides up to `cap`
programs, workouts and exercises (a few hundred in a gym, whatever its size); a named member is still
found by the pair of his names (title holding a word of both). Partial full-text indexes serve each half.

Scoring compared every spelling with every candidate's title and body by strict word similarity (body:
55 ms of 95 for 342 candidates of a ten-word message at 100k members). A title or body now scores a
spelling by the closest of the spelling's vocabulary words it contains (a lexeme of its tsvector with
weight A or B), with the same similarity: one hash join of the candidates' lexemes with these words.

Revision ID: 0011_rag_member_cap
Revises: 0010_rag_terms
Create Date: 2026-11-24
"""

import importlib.util
from pathlib import Path

from alembic import op

from core.database import APP_ROLE
from core.rls import run

revision = "0011_rag_member_cap"
down_revision = "0010_rag_terms"
branch_labels = None
depends_on = None

OLD_SIGNATURE = ("rag_term_candidates(text[], integer[], text[], boolean[], boolean[], integer[], integer[], text[], "
                 "integer, real, integer, integer, real)")
SIGNATURE = ("rag_term_candidates(text[], integer[], text[], boolean[], boolean[], integer[], integer[], text[], "
             "integer, real, integer, integer, integer, real)")
ALIKE_SIGNATURE = "rag_alike_terms(text[], boolean[], real)"

# Per fuzzy spelling (by ordinal), the current org's vocabulary words within the threshold and their
# strict word similarity.
ALIKE_FN = r"""
CREATE OR REPLACE FUNCTION rag_alike_terms(spellings text[], fuzzy boolean[], threshold real)
RETURNS TABLE (n integer, term text, sim real) LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET enable_seqscan = off AS $$
DECLARE
  org uuid := app_current_org();
BEGIN
  IF org IS NULL THEN
    RETURN;
  END IF;
  PERFORM set_config('pg_trgm.strict_word_similarity_threshold', threshold::text, true);
  RETURN QUERY
  SELECT s.n::integer, t.term, strict_word_similarity(s.v, t.term)
  FROM unnest(spellings, fuzzy) WITH ORDINALITY AS s(v, fuzzy, n)
  CROSS JOIN LATERAL (SELECT t.term FROM rag_terms t WHERE t.org_id = org AND s.v <<% t.term) t
  WHERE s.fuzzy;
END $$"""

# As in migration 0010, with the last step split by scope.
CANDIDATES_FN = r"""
CREATE OR REPLACE FUNCTION rag_term_candidates(
    spellings text[], words integer[], tsqueries text[], fuzzy boolean[], nearest boolean[],
    pair_a integer[], pair_b integer[], scopes text[], nearest_terms integer, nearest_floor real, knn integer,
    cap integer, member_cap integer, threshold real)
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
    (SELECT d.id FROM rag_documents d
     WHERE d.org_id = org AND d.scope <> 'member' AND d.tsv @@ queries.q AND (any_scope OR d.scope = ANY(scopes))
     LIMIT queries.n)
    UNION ALL
    (SELECT d.id FROM rag_documents d
     WHERE d.org_id = org AND d.scope = 'member' AND d.tsv @@ queries.q AND (any_scope OR 'member' = ANY(scopes))
     LIMIT least(queries.n, member_cap))) d;
END $$"""



def _previous():
    path = Path(__file__).with_name("0010_rag_terms.py")
    spec = importlib.util.spec_from_file_location("_migration_0010_rag_terms", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upgrade() -> None:
    op.execute("CREATE INDEX ix_rag_documents_tsv_member ON rag_documents USING gin (tsv) WHERE scope = 'member'")
    op.execute("CREATE INDEX ix_rag_documents_tsv_other ON rag_documents USING gin (tsv) WHERE scope <> 'member'")
    op.execute(CANDIDATES_FN)
    op.execute(ALIKE_FN)
    run(op, [f"REVOKE ALL ON FUNCTION {SIGNATURE} FROM PUBLIC",
             f"GRANT EXECUTE ON FUNCTION {SIGNATURE} TO {APP_ROLE}",
             f"REVOKE ALL ON FUNCTION {ALIKE_SIGNATURE} FROM PUBLIC",
             f"GRANT EXECUTE ON FUNCTION {ALIKE_SIGNATURE} TO {APP_ROLE}",
             f"DROP FUNCTION IF EXISTS {OLD_SIGNATURE}"])


def downgrade() -> None:
    op.execute(_previous().CANDIDATES_FN)
    run(op, [f"REVOKE ALL ON FUNCTION {OLD_SIGNATURE} FROM PUBLIC",
             f"GRANT EXECUTE ON FUNCTION {OLD_SIGNATURE} TO {APP_ROLE}",
             f"DROP FUNCTION IF EXISTS {SIGNATURE}",
             f"DROP FUNCTION IF EXISTS {ALIKE_SIGNATURE}",
             "DROP INDEX IF EXISTS ix_rag_documents_tsv_member",
             "DROP INDEX IF EXISTS ix_rag_documents_tsv_other"])
